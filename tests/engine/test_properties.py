"""Properties over thousands of random legal matches (Hypothesis), and the no-leak rule for views."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from truco.engine import (
    Rules,
    State,
    apply,
    hand_record,
    legal_actions,
    new_match,
    next_hand,
    public_to_dict,
    public_view,
    replay,
    to_act,
    view_for,
)
from truco.engine.cards import NAME

CARD_NAMES = set(NAME)


@st.composite
def _rules(draw: Any) -> Rules:
    players = draw(st.sampled_from([2, 4, 6, 8]))
    return Rules(players=players, target=draw(st.sampled_from([15, 30])), flor=draw(st.booleans()),
                 falta=draw(st.sampled_from(["leader", "malas_wins"])), chicos=draw(st.sampled_from([1, 3])),
                 pica_pica=players == 6 and draw(st.booleans()))


rules_strategy = _rules()


def rounds_played(state: State) -> list[tuple[tuple[int, int], ...]]:
    """Every round of the hand so far: a pica-pica's finished duels, then the current rounds."""
    out = [r for d in state.duels for r in d[3]]
    if not state.pica or len(state.duels) <= state.duel:  # the current duel is not among the finished
        out += list(state.rounds) + ([state.plays] if state.plays else [])
    return out


def check_cards_conserved(state: State) -> None:
    n = state.n
    on_table = [c for r in rounds_played(state) for _, c in r]
    held = [c for h in state.held for c in h]
    dealt = [c for h in state.dealt for c in h]
    assert len(dealt) == 3 * n == len(set(dealt))
    assert sorted(on_table + held) == sorted(dealt)  # each dealt card in exactly one place
    assert len(set(range(40)) - set(dealt)) == 40 - 3 * n  # the rest of the 40 stay in the deck


def play_random_match(rules: Rules, seed: int, on_step: Any = None) -> tuple[State, list[dict[str, Any]]]:
    rng = random.Random(seed)
    state, _ = new_match(rules, dealer=rng.randrange(rules.players), seed=rng.getrandbits(64))
    deals: list[dict[str, Any]] = []
    hands = 0
    while True:
        while not state.hand_over:
            actions = legal_actions(state)
            assert actions, "a legal action exists until the hand ends"
            assert to_act(state)
            before = state.score
            state, _ = apply(state, rng.choice(actions))
            assert state.score[0] >= before[0] and state.score[1] >= before[1]
            check_cards_conserved(state)
            if on_step:
                on_step(state)
        rec = hand_record(state)
        deals.append({k: rec[k] for k in ("dealer", "hands", "actions")})
        hands += 1
        assert hands < 2000, "the match always ends"
        if state.match_over:
            return state, deals
        state, _ = next_hand(state, seed=rng.getrandbits(64))


@pytest.mark.slow
@settings(max_examples=1500, deadline=None)
@given(rules=rules_strategy, seed=st.integers(0, 2**32))
def test_random_legal_matches_keep_every_invariant_and_always_end(rules, seed):
    state, _ = play_random_match(rules, seed)
    assert state.match_over
    assert max(state.chicos) == rules.chicos_to_win
    assert state.winner == (0 if state.chicos[0] > state.chicos[1] else 1)


def strings_in(obj: Any) -> set[str]:
    if isinstance(obj, str):
        return {obj}
    if isinstance(obj, dict):
        return set().union(*(strings_in(v) for v in obj.values())) if obj else set()
    if isinstance(obj, (list, tuple)):
        return set().union(*(strings_in(v) for v in obj)) if obj else set()
    return set()


def known_public_cards(state: State) -> set[str]:
    played = {NAME[c] for r in rounds_played(state) for _, c in r}
    shown = {NAME[c] for _, cs in state.shown for c in cs}
    return played | shown


def check_no_leak(state: State) -> None:
    public = public_view(state)
    known = known_public_cards(state)
    assert strings_in(public_to_dict(public)) & CARD_NAMES <= known
    for seat in range(state.n):
        view = view_for(state, seat, public)
        mine = {NAME[c] for c in state.dealt[seat]}
        assert strings_in(view.to_dict()) & CARD_NAMES <= known | mine
        assert set(view.cards) <= set(state.dealt[seat])


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(rules=rules_strategy, seed=st.integers(0, 2**32))
def test_no_view_ever_shows_a_card_its_seat_may_not_know(rules, seed):
    play_random_match(rules, seed, on_step=check_no_leak)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(rules=rules_strategy, seed=st.integers(0, 2**32))
def test_replaying_the_record_of_a_random_match_reproduces_its_score(rules, seed):
    state, deals = play_random_match(rules, seed)
    record = {"rules": rules.to_dict(), "deals": deals}
    result = replay(record)
    assert result.state.score == state.score
    assert result.state.chicos == state.chicos
    assert result.summary()["winner"] == state.winner
