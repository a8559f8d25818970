"""Same seed, same view: same decision; a hint never changes what the bot will do."""

from __future__ import annotations

import pytest

from truco.bots import LEVELS, make_bot
from truco.bots.arena import play_match
from truco.engine import Rules

from .matches import views_of_a_match

REMEMBERS = {"maestro"}
"""Levels whose decisions also depend on the earlier hands of the match they have seen (maestro's
memory of its opponent): for them a decision is a function of the seed and the views seen so far."""


@pytest.mark.parametrize("level", [*LEVELS, "neural"])
def test_a_decision_is_a_function_of_seed_and_view(level):
    views = [v for _, v in views_of_a_match(Rules(players=4, flor=True), seed=5, max_hands=3)]
    first = make_bot(level, 42)
    again = make_bot(level, 42)
    answers = [first.choose(v) for v in views]
    if level in REMEMBERS:
        assert [again.choose(v) for v in views] == answers
    else:
        assert [again.choose(v) for v in reversed(views)] == list(reversed(answers))
        assert [first.hint(v) for v in views] == answers


@pytest.mark.parametrize("level", [*LEVELS, "neural"])
def test_asking_for_a_hint_never_changes_a_decision(level):
    views = [v for _, v in views_of_a_match(Rules(players=2), seed=6, max_hands=5)]
    plain = make_bot(level, 3)
    hinted = make_bot(level, 3)
    answers = [plain.choose(v) for v in views]
    with_hints = []
    for v in views:
        assert hinted.hint(v) == hinted.choose(v)
        with_hints.append(hinted.choose(v))
    assert with_hints == answers


@pytest.mark.parametrize("level", [*LEVELS, "neural"])
def test_whole_matches_repeat_exactly(level):
    def run():
        bots = [make_bot(level, 7 + s) for s in range(2)]
        st, points, hands = play_match(Rules(players=2, target=15), bots, dealer=0, seeds=lambda h: 99 + h)
        return st.score, points, hands, st.history

    assert run() == run()


def test_different_seeds_can_decide_differently():
    views = [v for _, v in views_of_a_match(Rules(players=2), seed=8, max_hands=6)]
    a = [make_bot("random", 1).choose(v) for v in views]
    b = [make_bot("random", 2).choose(v) for v in views]
    assert a != b
