"""Facts about every possible hand, computed once at import: bots look them up thousands of times.

A set of cards is keyed by its bit mask (bit ``c`` for card ``c``).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

from truco.engine.cards import POWER, Card, flor_value, has_flor, tanto

ALL_HANDS: tuple[tuple[Card, Card, Card], ...] = tuple(combinations(range(40), 3))


def mask_of(cards: Iterable[Card]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _strength(cards: tuple[Card, ...]) -> float:
    ps = sorted((POWER[c] for c in cards), reverse=True)
    return sum(p * w for p, w in zip(ps, (1.0, 0.5, 0.25), strict=False))


TANTO_OF: dict[int, int] = {}
"""Tanto of each three-card hand."""
STRENGTH_OF: dict[int, float] = {0: 0.0}
"""A truco hand (of 1 to 3 cards) in one number: the best card's power, half the second's, a quarter
of the third's. See ``dificil`` for how it maps to a chance of winning."""
BY_TANTO: dict[int, list[tuple[int, tuple[Card, ...]]]] = {}
BY_FLOR: dict[int, list[tuple[int, tuple[Card, ...]]]] = {}

for _size in (1, 2):
    for _h in combinations(range(40), _size):
        STRENGTH_OF[mask_of(_h)] = _strength(_h)
for _h in ALL_HANDS:
    _m = mask_of(_h)
    _t = tanto(_h)
    TANTO_OF[_m] = _t
    STRENGTH_OF[_m] = _strength(_h)
    BY_TANTO.setdefault(_t, []).append((_m, _h))
    if has_flor(_h):
        BY_FLOR.setdefault(flor_value(_h), []).append((_m, _h))
FLOR_HANDS: list[tuple[int, tuple[Card, ...]]] = [x for v in BY_FLOR.values() for x in v]
EVERY_HAND: list[tuple[int, tuple[Card, ...]]] = [x for v in BY_TANTO.values() for x in v]
"""Every three-card hand with its mask (what a partner's señas are checked against)."""
FLOR_MASKS: frozenset[int] = frozenset(m for m, _ in FLOR_HANDS)


def strength(cards: Iterable[Card]) -> float:
    return STRENGTH_OF[mask_of(cards)]
