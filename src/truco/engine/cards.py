"""The Spanish 40-card deck as small ints, with precomputed truco and envido tables.

A card is ``suit * 10 + rank_index`` where ``RANKS[rank_index]`` is the printed number. Ints keep the
engine fast enough for bots to simulate thousands of hands per decision; names live at the edges.
"""

from __future__ import annotations

import hashlib
from typing import Final

Card = int

SUITS: Final = ("e", "b", "o", "c")
SUIT_NAMES_ES: Final = ("espadas", "bastos", "oros", "copas")
RANKS: Final = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
RANK_NAMES_ES: Final = {1: "as", 2: "dos", 3: "tres", 4: "cuatro", 5: "cinco", 6: "seis", 7: "siete",
                        10: "sota", 11: "caballo", 12: "rey"}

DECK: Final[tuple[Card, ...]] = tuple(range(40))
ESPADAS, BASTOS, OROS, COPAS = 0, 1, 2, 3


def make_card(number: int, suit: int) -> Card:
    """The card with printed ``number`` (1–7, 10–12) of ``suit`` (0 espadas … 3 copas)."""
    return suit * 10 + RANKS.index(number)


def _power(card: Card) -> int:
    """Truco strength: 14 for the ancho de espadas down to 1 for the cuatros (seed 000's 14 steps)."""
    number, suit = RANKS[card % 10], card // 10
    special = {(1, ESPADAS): 14, (1, BASTOS): 13, (7, ESPADAS): 12, (7, OROS): 11}
    if (number, suit) in special:
        return special[(number, suit)]
    return {3: 10, 2: 9, 1: 8, 12: 7, 11: 6, 10: 5, 7: 4, 6: 3, 5: 2, 4: 1}[number]


NUMBER: Final[tuple[int, ...]] = tuple(RANKS[c % 10] for c in DECK)
SUIT: Final[tuple[int, ...]] = tuple(c // 10 for c in DECK)
POWER: Final[tuple[int, ...]] = tuple(_power(c) for c in DECK)
ENVIDO_VALUE: Final[tuple[int, ...]] = tuple(n if n <= 7 else 0 for n in NUMBER)
NAME: Final[tuple[str, ...]] = tuple(f"{NUMBER[c]}{SUITS[SUIT[c]]}" for c in DECK)
_BY_NAME: Final[dict[str, Card]] = {NAME[c]: c for c in DECK}


def parse_card(text: str) -> Card:
    """``'1e'`` → the ancho de espadas. Raises ``ValueError`` with a readable reason."""
    if not isinstance(text, str):
        raise ValueError(f"a card is a string like '1e', not {text!r}")
    card = _BY_NAME.get(text.strip().lower())
    if card is None:
        raise ValueError(f"unknown card {text!r} (number 1-7, 10, 11 or 12, then e, b, o or c)")
    return card


def card_name(card: Card) -> str:
    return NAME[card]


def spanish_name(card: Card) -> str:
    """``'as de espadas'`` — for people."""
    return f"{RANK_NAMES_ES[NUMBER[card]]} de {SUIT_NAMES_ES[SUIT[card]]}"


def tanto(cards: tuple[Card, ...] | list[Card]) -> int:
    """Envido value of a hand: 20 plus the two best of one suit, else the highest single card."""
    best = 0
    for i in range(len(cards)):
        a = cards[i]
        va = ENVIDO_VALUE[a]
        if va > best:
            best = va
        for j in range(i + 1, len(cards)):
            b = cards[j]
            if SUIT[a] == SUIT[b]:
                v = 20 + va + ENVIDO_VALUE[b]
                if v > best:
                    best = v
    return best


def tanto_cards(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """The cards that make up the tanto (two of a suit, or the single best card)."""
    target = tanto(cards)
    for i in range(len(cards)):
        for j in range(i + 1, len(cards)):
            a, b = cards[i], cards[j]
            if SUIT[a] == SUIT[b] and 20 + ENVIDO_VALUE[a] + ENVIDO_VALUE[b] == target:
                return (a, b)
    return (max(cards, key=lambda c: ENVIDO_VALUE[c]),)


def has_flor(cards: tuple[Card, ...]) -> bool:
    return len(cards) == 3 and SUIT[cards[0]] == SUIT[cards[1]] == SUIT[cards[2]]


def flor_value(cards: tuple[Card, ...]) -> int:
    """20 plus the envido values of all three cards (seed 003)."""
    return 20 + ENVIDO_VALUE[cards[0]] + ENVIDO_VALUE[cards[1]] + ENVIDO_VALUE[cards[2]]


def shuffled_deck(seed: int) -> tuple[Card, ...]:
    """A deterministic Fisher–Yates shuffle driven by splitmix64, so the engine needs no ``random``.

    The caller supplies the seed (``secrets`` in production, a fixed number in tests).
    """
    mask = (1 << 64) - 1
    state = seed & mask
    deck = list(DECK)
    for i in range(39, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        z ^= z >> 31
        j = z % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def shuffled_deck_sha256(seed: bytes) -> tuple[Card, ...]:
    """The verifiable shuffle (docs/fairness.md): Fisher–Yates fed by SHA-256 in counter mode.

    Specified byte for byte so that a phone can redo it: block ``k`` is ``SHA-256(seed ‖ k)`` with
    ``k`` a 4-byte big-endian counter from 0; the blocks are read as 4-byte big-endian words. For
    ``i`` from 39 down to 1 a word ``w`` is drawn, words at or above the largest multiple of ``i + 1``
    below 2**32 are skipped (no modulo bias), and ``deck[i]`` swaps with ``deck[w % (i + 1)]``.
    """
    deck = list(DECK)
    words: list[int] = []
    block = 0
    for i in range(39, 0, -1):
        bound = i + 1
        limit = (1 << 32) - (1 << 32) % bound
        while True:
            if not words:
                digest = hashlib.sha256(seed + block.to_bytes(4, "big")).digest()
                words = [int.from_bytes(digest[k:k + 4], "big") for k in range(28, -1, -4)]
                block += 1
            w = words.pop()
            if w < limit:
                break
        j = w % bound
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)
