"""Deals anyone can verify: commit, contribute, reveal (docs/fairness.md has the byte formats).

The server commits to a hand's secret with ``SHA-256(secret)`` before any seat contributes; each
seat adds 16 random bytes; the deal's seed is ``SHA-256(secret ‖ c_0 ‖ … ‖ c_{n-1})`` and the
cards follow from ``shuffled_deck_sha256``. After the hand the secret and the contributions are
published and anyone can redo every step. This module is the checker's half: it needs no server.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from truco.engine.cards import NAME, Card, parse_card, shuffled_deck_sha256
from truco.engine.deal import deal_hands

CONTRIBUTION_BYTES = 16
ABSENT = bytes(CONTRIBUTION_BYTES)
"""A seat that sent nothing (a bot, an absent phone, a late one) counts as 16 zero bytes."""


class FairnessError(ValueError):
    """A deal that does not check out, with the step that failed."""


def commitment(secret: bytes) -> str:
    """What is published before the deal: SHA-256 of the hand's secret, lowercase hex."""
    return hashlib.sha256(secret).hexdigest()


def contribution_bytes(value: str | None) -> bytes:
    """A seat's contribution as sent (32 lowercase hex digits, not all zero) or ``None``: absent."""
    if value is None:
        return ABSENT
    if len(value) != 2 * CONTRIBUTION_BYTES or any(ch not in "0123456789abcdef" for ch in value):
        raise FairnessError(f"a contribution is {2 * CONTRIBUTION_BYTES} lowercase hex digits")
    raw = bytes.fromhex(value)
    if raw == ABSENT:
        raise FairnessError("an all-zero contribution is reserved for an absent seat")
    return raw


def deal_seed(secret: bytes, contributions: Sequence[str | None]) -> bytes:
    """SHA-256 of the secret followed by every seat's 16 bytes, in seat order (absent: zeros)."""
    return hashlib.sha256(secret + b"".join(contribution_bytes(c) for c in contributions)).digest()


def dealt_from_seed(seed: bytes, players: int, dealer: int) -> tuple[tuple[Card, ...], ...]:
    """Every seat's three cards: the verifiable shuffle, dealt one at a time from the mano round."""
    return deal_hands(shuffled_deck_sha256(seed), players, (dealer + 1) % players)


@dataclass(frozen=True, slots=True)
class Reveal:
    """What the table publishes about a hand once it is over."""

    match_no: int
    hand_no: int
    players: int
    dealer: int
    commitment: str
    secret: str
    contributions: tuple[str | None, ...]
    seed: str

    def to_dict(self) -> dict[str, Any]:
        return {"match_no": self.match_no, "hand_no": self.hand_no, "players": self.players,
                "dealer": self.dealer, "commitment": self.commitment, "secret": self.secret,
                "contributions": list(self.contributions), "seed": self.seed}

    @staticmethod
    def from_dict(d: Any) -> Reveal:
        if not isinstance(d, dict):
            raise FairnessError("fairness must be an object")
        try:
            contributions = d["contributions"]
            if not isinstance(contributions, list):
                raise FairnessError("contributions must be a list")
            return Reveal(int(d["match_no"]), int(d["hand_no"]), int(d["players"]), int(d["dealer"]),
                          str(d["commitment"]), str(d["secret"]),
                          tuple(None if c is None else str(c) for c in contributions), str(d["seed"]))
        except KeyError as e:
            raise FairnessError(f"fairness lacks {e.args[0]}") from None


def verify_deal(reveal: Reveal, hands: Sequence[Sequence[Card]] | None = None,
                known_commitment: str | None = None) -> tuple[tuple[Card, ...], ...]:
    """Check one hand's reveal; return the cards the seed deals. Raises ``FairnessError``.

    ``known_commitment`` is the one seen before the deal (a phone keeps it); ``hands``, when given,
    are the cards the record says were dealt."""
    try:
        secret = bytes.fromhex(reveal.secret)
    except ValueError:
        raise FairnessError("the secret is not hex") from None
    if commitment(secret) != reveal.commitment:
        raise FairnessError("SHA-256(secret) is not the published commitment")
    if known_commitment is not None and known_commitment != reveal.commitment:
        raise FairnessError("the commitment differs from the one published before the deal")
    if len(reveal.contributions) != reveal.players:
        raise FairnessError("there must be one contribution (or null) per seat")
    if deal_seed(secret, reveal.contributions).hex() != reveal.seed:
        raise FairnessError("SHA-256(secret ‖ contributions) is not the deal's seed")
    dealt = dealt_from_seed(bytes.fromhex(reveal.seed), reveal.players, reveal.dealer)
    if hands is not None and tuple(tuple(h) for h in hands) != dealt:
        raise FairnessError("the seed deals other cards than the ones dealt")
    return dealt


def verify_record(record: Any) -> list[dict[str, Any]]:
    """Check every deal of a match record (the JSON ``truco replay`` reads, each deal with its
    ``fairness``). One line per deal; raises ``FairnessError`` at the first that fails."""
    if not isinstance(record, dict) or not isinstance(record.get("deals"), list):
        raise FairnessError("a match record is an object with a list of deals")
    out = []
    for i, d in enumerate(record["deals"]):
        if not isinstance(d, dict) or "fairness" not in d:
            raise FairnessError(f"deals[{i}] has no fairness record")
        reveal = Reveal.from_dict(d["fairness"])
        if reveal.dealer != d.get("dealer"):
            raise FairnessError(f"deals[{i}]: the reveal names another dealer")
        try:
            hands = [[parse_card(c) for c in h] for h in d.get("hands", [])]
        except (TypeError, ValueError) as e:
            raise FairnessError(f"deals[{i}]: {e}") from None
        try:
            verify_deal(reveal, hands)
        except FairnessError as e:
            raise FairnessError(f"deals[{i}] (hand {reveal.hand_no}): {e}") from None
        out.append({"hand_no": reveal.hand_no, "commitment": reveal.commitment,
                    "contributions": sum(c is not None for c in reveal.contributions),
                    "hands": [[NAME[c] for c in h] for h in hands]})
    return out
