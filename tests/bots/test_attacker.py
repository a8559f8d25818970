"""The attacker (best response by search): legal, deterministic per seed, and reading the target's
actions through the target's own policy."""

from __future__ import annotations

import pytest

from truco.bots.arena import ArenaConfig, next_action, run_arena
from truco.bots.attacker import Attacker, Budget
from truco.bots.roster import make_player
from truco.bots.sampling import World
from truco.bots.tables import mask_of
from truco.engine import Rules, apply, new_match, next_hand, public_view, view_for

from .style_views import views_from

SMALL = Budget(worlds=4, candidates=8)
TINY = Budget(worlds=2, candidates=3)
"""Enough to exercise every step of a decision; the arena runs use ``attacker.BUDGETS``."""


class Checked:
    def __init__(self, bot) -> None:
        self.inner = bot
        self.level = bot.level
        self.decisions = 0

    def choose(self, view):
        action = self.inner.choose(view)
        assert action in view.legal, f"{self.level} chose {action}, not in {view.legal}"
        self.decisions += 1
        return action

    def hint(self, view):
        return self.inner.hint(view)

    def reconsider(self, view, votes):
        action = self.inner.reconsider(view, votes)
        assert action in view.legal
        return action


def test_the_attacker_is_deterministic_per_seed():
    views = [v for v in views_from(Rules(players=2), ("normal", "bluffer"), seed=4, hands=3)
             if len(v.legal) > 1]
    first, again = Attacker("normal", 9, SMALL), Attacker("normal", 9, SMALL)
    answers = [first.choose(v) for v in views]
    assert [again.choose(v) for v in reversed(views)] == list(reversed(answers))
    assert [first.hint(v) for v in views] == answers
    assert all(a in v.legal for a, v in zip(answers, views, strict=True))


@pytest.mark.parametrize("players", [2, 4, 6, 8])
def test_the_attacker_plays_only_legal_actions(players):
    rules = Rules(players=players, target=15, flor=players in (4, 8))
    bots = [Checked(Attacker("normal", s, TINY) if s % 2 == 0 else make_player("normal", s))
            for s in range(players)]
    st = new_match(rules, dealer=0, seed=11)[0]
    for _ in range(3):  # three hands
        while not st.hand_over:
            st, _ = apply(st, next_action(st, bots))
        if st.match_over:
            break
        st, _ = next_hand(st, seed=11 + st.hand_no)
    assert sum(b.decisions for b in bots[::2]) > 0


def test_the_true_deal_explains_a_deterministic_target_exactly():
    """Against ``normal`` (no randomness) the target's copy repeats every rival action in the real
    deal, so the real deal is always among the best-explained ones."""
    rules = Rules(players=2)
    bots = [make_player("bluffer", 1), make_player("normal", 2)]
    st = new_match(rules, dealer=1, seed=5)[0]
    attacker = Attacker("normal", 3, SMALL)
    checked = 0
    for _ in range(40):
        if st.hand_over:
            if st.match_over:
                break
                st, _ = next_hand(st, seed=5 + st.hand_no)
            continue
        pub = public_view(st)
        view = view_for(st, 0, pub)
        world = World(list(st.dealt), [mask_of(h) for h in st.dealt])
        _, misses = attacker.replay(view, world)
        assert misses == 0
        checked += any(a.seat == 1 for a in pub.history)
        st, _ = apply(st, next_action(st, bots))
    assert checked > 5


def test_the_attacker_plays_through_the_arena_by_name():
    summary = run_arena(ArenaConfig(a="attack:random", b="random", players=2, matches=2, target=15)).summary()
    assert summary["matches"] == 2 and summary["a"] == "attack:random"
