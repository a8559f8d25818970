"""The attacker (best response by search): legal, deterministic per seed, and reading the target's
actions through the target's own policy."""

from __future__ import annotations

import pytest

from truco.bots.arena import ArenaConfig, next_action, run_arena
from truco.bots.attacker import Attacker, Budget
from truco.bots.rivals import Memory
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


def _play(bots, rules, seed: int, hands: int, after_hand=None) -> None:
    st = new_match(rules, dealer=0, seed=seed)[0]
    for _ in range(hands):
        while not st.hand_over:
            st, _ = apply(st, next_action(st, bots))
        if after_hand is not None:
            after_hand(st)
        if st.match_over:
            return
        st, _ = next_hand(st, seed=seed + st.hand_no)


def test_the_attackers_copy_of_a_target_with_a_memory_remembers_only_hands_that_happened():
    """``maestro`` reads this opponent from the hands of the match. The attacker's copy is asked in
    sampled deals and hypothetical lines; before each search it is given the real record back, so
    every finished hand it remembers is the hand as played (up to the attacker's last decision)."""
    attacker = Attacker("maestro", 3, TINY)
    bots = [attacker, make_player("maestro", 4)]
    real: dict[int, tuple] = {}
    checked = []

    def after_hand(st) -> None:
        real[st.hand_no] = st.history
        memory = attacker.model.memory
        assert isinstance(memory, Memory)
        for key, view in memory.hands.items():
            if key[0] < st.hand_no:  # the current hand's record is the search's scratch
                history = view.public.history
                assert real[key[0]][: len(history)] == history
                assert view.seat == 1  # read from the rival's seat, which reads the attacker's plays
                seen_of_rival = {c for rnd in view.public.rounds for s, c in rnd if s == 1}
                seen_of_rival.update(c for s, shown in view.public.shown if s == 1 for c in shown)
                assert set(view.dealt) <= seen_of_rival
                checked.append(key)

    _play(bots, Rules(players=2), seed=22, hands=5, after_hand=after_hand)
    assert len(checked) >= 6  # hands 1-4 checked after later hands


def test_an_anchored_attacker_plays_its_targets_choice_unless_the_search_finds_a_gain():
    """``attack-as:<level>`` starts from the target's own choice (``attack:`` from ``normal``'s): every
    decision is the target's, or a deviation the hook hears with the target's choice as its base."""
    heard = {}

    def hear(view, base, chosen, gain) -> None:
        heard[id(view)] = (base, chosen, gain)

    attacker = Attacker("dificil", 7, SMALL, anchored=True, on_deviation=hear)
    assert attacker.level == "attack-as:dificil"
    decided = []

    class Seen:
        level = "seen"

        def choose(self, view):
            action = attacker.choose(view)
            decided.append((view, action))
            return action

    anchor = Attacker("dificil", 7, SMALL, anchored=True).base  # the same copy of the target, fresh
    _play([Seen(), make_player("bluffer", 1)], Rules(players=2), seed=31, hands=6)
    assert heard, "six hands against a bluffer give the search something to take"
    for view, action in decided:
        target_choice = anchor.choose(view)
        if id(view) in heard:
            base, chosen, gain = heard[id(view)]
            assert (base, chosen) == (target_choice, action) and chosen != base and gain > 0
        else:
            assert action == target_choice


def test_the_anchored_attacker_is_picked_by_name():
    bot = make_player("attack-as:maestro", 2)
    assert isinstance(bot, Attacker) and bot.level == "attack-as:maestro" and bot.target == "maestro"
    assert make_player("attack:maestro", 2).level == "attack:maestro"
