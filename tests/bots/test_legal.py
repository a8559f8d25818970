"""Every level, in every setting, only ever answers with one of the actions its view offers."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from truco.bots import LEVELS, make_bot
from truco.bots.arena import next_action, play_match
from truco.engine import Rules, apply, new_match, next_hand

settings_ = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class Checked:
    """Wraps a bot: every choice and hint must be legal, and a hint must equal the choice."""

    def __init__(self, level: str, seed: int) -> None:
        self.inner = make_bot(level, seed)
        self.level = level
        self.decisions = 0

    def choose(self, view):
        action = self.inner.choose(view)
        assert action in view.legal, f"{self.level} chose {action}, not in {view.legal}"
        assert self.inner.hint(view) == action
        self.decisions += 1
        return action

    def hint(self, view):
        return self.inner.hint(view)

    def reconsider(self, view, votes):
        action = self.inner.reconsider(view, votes)
        assert action in view.legal
        return action


@settings_
@given(players=st.sampled_from([2, 4, 6, 8]), flor=st.booleans(), target=st.sampled_from([15, 30]),
       levels=st.lists(st.sampled_from(LEVELS), min_size=8, max_size=8), seed=st.integers(0, 2**32))
@pytest.mark.slow
def test_every_level_plays_only_legal_actions(players, flor, target, levels, seed):
    rules = Rules(players=players, flor=flor, target=target)
    bots = [Checked(levels[s], seed + s) for s in range(players)]
    st_, _, hands = play_match(rules, bots, dealer=seed % players, seeds=lambda h: seed * 1000 + h)
    assert st_.match_over
    assert hands >= 1
    assert sum(b.decisions for b in bots) > 0


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4, 6, 8])
@pytest.mark.parametrize("flor", [False, True])
def test_random_matches_with_each_level_on_both_sides(players, flor):
    """Every setting once per level (15 random settings could miss one, and cost twice as much: most
    of it in dificil and maestro at 6 and 8 seats); random settings and levels, and seeds, are
    explored by ``test_every_level_plays_only_legal_actions`` above."""
    seed = 1000 * players + flor
    for level in LEVELS:
        rules = Rules(players=players, flor=flor, target=15)
        bots = [Checked(level if s % 2 else "random", seed + s) for s in range(players)]
        st_, _, _ = play_match(rules, bots, dealer=0, seeds=lambda h: seed + h)
        assert st_.match_over


@pytest.mark.parametrize("players", [2, 4, 6, 8])
@pytest.mark.parametrize("flor", [False, True])
@pytest.mark.parametrize("target", [15, 30])
def test_every_setting_with_every_level_at_the_table(players, flor, target):
    rules = Rules(players=players, flor=flor, target=target)
    bots = [Checked(LEVELS[s % len(LEVELS)], s) for s in range(players)]
    seeds = [17 * players + target + flor + k for k in range(3)]
    for seed in seeds:
        st_, _ = new_match(rules, dealer=seed % players, seed=seed)
        for _ in range(3):
            while not st_.hand_over:
                st_, _ = apply(st_, next_action(st_, bots))
            if st_.match_over:
                break
            st_, _ = next_hand(st_, seed=seed + st_.hand_no)


@pytest.mark.parametrize("flor", [False, True])
def test_every_level_plays_the_duels_of_a_pica_pica(flor):
    rules = Rules(players=6, flor=flor, pica_pica=True)
    bots = [Checked(LEVELS[(s + flor) % len(LEVELS)], s) for s in range(6)]
    duels = 0
    for seed in (5, 6):
        st_, _ = new_match(rules, dealer=seed % 6, seed=seed, score=(10, 12))
        for _ in range(3):  # pica-pica, a hand in full, pica-pica (while the scores stay in the band)
            while not st_.hand_over:
                st_, _ = apply(st_, next_action(st_, bots))
            duels += len(st_.duels)
            if st_.match_over:
                break
            st_, _ = next_hand(st_, seed=seed + st_.hand_no)
    assert duels >= 6 and all(b.decisions for b in bots)

