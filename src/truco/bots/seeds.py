"""A bot's seed, derived so that it reveals nothing about the deals.

The deals of a table come from its secret seed. A bot's randomness must come from the same secret
(so a table replays exactly), but a bot that knows its own seed must not be able to work back to
the secret: ``seed ^ (match_no * 7919 + seat)`` could simply be XORed back, and then every hand
dealt. Here the bot's seed is a keyed BLAKE2b hash of the secret with its own domain ("a bot's
seed", personalised apart from every other use of the secret), so getting the secret back means
inverting BLAKE2b or trying every secret of 63 bits.
"""

from __future__ import annotations

import hashlib

_PERSON = b"truco.bot.seed"  # the domain: no other hash of the table's secret uses it


def bot_seed(secret: int, *parts: int) -> int:
    """A 63-bit seed for one bot from ``secret`` and what tells the bots apart (match, seat, …)."""
    h = hashlib.blake2b(digest_size=8, person=_PERSON)
    h.update(secret.to_bytes(16, "big", signed=True))
    for p in parts:
        h.update(p.to_bytes(16, "big", signed=True))
    return int.from_bytes(h.digest(), "big") & ((1 << 63) - 1)
