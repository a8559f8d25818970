"""A frozen level stays frozen: ``dificil-1`` plays today exactly what it played when it was frozen."""

from __future__ import annotations

import hashlib

from tests.bots.matches import views_of_a_match
from truco.bots import make_bot
from truco.bots.registry import ALL_LEVELS, FROZEN, LEVELS
from truco.engine import Rules

# sha256 of dificil-1's decisions on the views below, recorded when it was frozen (issue 13)
DIFICIL_1_FINGERPRINT = "a87db1e27485797e0a4bedb9845e4ae0772535ee6630e5ff9067641af816f36d"


def dificil_1_decisions() -> str:
    out = []
    for i, rules in enumerate((Rules(players=2), Rules(players=4), Rules(players=2, flor=True, target=15),
                               Rules(players=6))):
        bot = make_bot("dificil-1", 77 + i)
        for _, view in views_of_a_match(rules, seed=500 + i, level="dificil-1", max_hands=6):
            a = bot.choose(view)
            out.append(f"{view.public.hand_no}:{view.seat}:{a.do}:{a.card}")
    return hashlib.sha256("|".join(out).encode()).hexdigest()


def test_dificil_1_plays_exactly_what_it_played_when_it_was_frozen():
    assert dificil_1_decisions() == DIFICIL_1_FINGERPRINT


def test_a_frozen_level_is_measured_but_not_offered_at_a_table():
    assert "dificil-1" in FROZEN and "dificil-1" in ALL_LEVELS and "dificil-1" not in LEVELS
    assert make_bot("dificil-1", 1).level == "dificil-1"
