"""What ``dificil`` imagines is possible: sampled worlds agree with everything public, and the fast
playout follows the engine's round rules."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from truco.bots.knowledge import knowledge
from truco.bots.sampling import Sampler, rebuild
from truco.bots.tricks import partner_covers, playout, sensible_card
from truco.engine import Action, Do, Rules, apply, new_match, public_view
from truco.engine.cards import tanto

from .matches import views_of_a_match


def _same_public(view, rebuilt) -> None:
    p, q = view.public, public_view(rebuilt)
    assert q.sung == p.sung
    assert q.results == p.results
    assert q.rounds == p.rounds
    assert q.score == p.score
    assert q.envido_chain == p.envido_chain
    assert q.flor_chain == p.flor_chain


@settings(max_examples=25, deadline=None)
@given(players=st.sampled_from([2, 4, 6, 8]), flor=st.booleans(), seed=st.integers(0, 2**32),
       level=st.sampled_from(["facil", "normal", "dificil"]))
@pytest.mark.slow
def test_sampled_worlds_replay_to_the_same_public_view(players, flor, seed, level):
    rules = Rules(players=players, flor=flor)
    rng = random.Random(seed)
    for _, view in views_of_a_match(rules, seed, level=level, max_hands=2):
        sampler = Sampler(knowledge(view))
        for _ in range(2):
            world = sampler.world(rng)
            assert world.hands[view.seat] == view.dealt
            cards = [c for h in world.hands for c in h]
            assert len(set(cards)) == len(cards) == 3 * players
            _same_public(view, rebuild(view, world))


@pytest.mark.parametrize("flor", [False, True])
def test_sampled_worlds_of_a_pica_pica_replay_to_the_same_duels(flor):
    rules = Rules(players=6, flor=flor, pica_pica=True)
    rng = random.Random(flor)
    seen_duels = set()
    for state, view in views_of_a_match(rules, 3 + flor, level="dificil", max_hands=1, score=(10, 12)):
        assert state.pica
        seen_duels.add(view.public.duel)
        k = knowledge(view)
        for s, _, _, rounds, _ in view.public.duels:  # cards of the duels already played are known
            assert all(c in k.played[s] for r in rounds for seat, c in r if seat == s)
        world = Sampler(k).world(rng)
        rebuilt = rebuild(view, world)
        _same_public(view, rebuilt)
        assert public_view(rebuilt).duels == view.public.duels and rebuilt.duel == view.public.duel
    assert seen_duels == {0, 1, 2}


@pytest.mark.parametrize("seed", [33, 37, 40])  # seeds whose matches show cards mid-hand
def test_worlds_keep_the_cards_the_table_showed_at_the_end_of_a_duel(seed):
    # the envido winner of a duel shows its three cards before the hand is over: a known hand
    rules = Rules(players=6, pica_pica=True)
    rng = random.Random(seed)
    shown_mid_hand = 0
    for _, view in views_of_a_match(rules, seed, level="normal", max_hands=3, score=(10, 12)):
        shown_mid_hand += bool(view.public.shown)
        world = Sampler(knowledge(view)).world(rng)
        for s, cards in view.public.shown:
            assert set(world.hands[s]) == set(cards)
        _same_public(view, rebuild(view, world))
    assert shown_mid_hand


def test_a_sung_tanto_is_kept_in_every_world():
    # seat 0 (mano) calls envido, seat 1 accepts: both tantos are sung
    hands = [(0, 6, 15), (25, 26, 33), (1, 2, 3), (4, 5, 7)]
    rules = Rules(players=2)
    st_, _ = new_match(rules, dealer=1, hands=hands[:2])
    st_, _ = apply(st_, Action(0, Do.ENVIDO))
    st_, _ = apply(st_, Action(1, Do.QUIERO))
    from truco.engine import view_for

    view = view_for(st_, 0)
    sung = {s: t for s, t, _ in view.public.sung if t >= 0}
    assert 1 in sung or any(t < 0 for _, t, _ in view.public.sung)
    sampler = Sampler(knowledge(view))
    rng = random.Random(1)
    for _ in range(50):
        world = sampler.world(rng)
        if 1 in sung:
            assert tanto(world.hands[1]) == sung[1]
        else:
            assert tanto(world.hands[1]) <= tanto(hands[0])


@settings(max_examples=200, deadline=None)
@given(players=st.sampled_from([2, 4, 6, 8]), seed=st.integers(0, 2**32), cut=st.integers(0, 17),
       folds=st.integers(0, 3), team_play=st.booleans())
def test_playout_agrees_with_the_engine(players, seed, cut, folds, team_play):
    """Play a hand part way at random, then on with sensible cards both in the engine and in playout
    (with ``team_play``, a first-round seat followed by a rival and then a partner leaves it to them)."""
    rng = random.Random(seed)
    st_, _ = new_match(Rules(players=players), dealer=rng.randrange(players), seed=seed)
    steps = 0
    while not st_.hand_over and steps < cut:
        acts = [a for a in _plays_and_mazo(st_) if a.do is Do.PLAY or (folds and rng.random() < 0.15)]
        a = rng.choice(acts)
        if a.do is Do.MAZO:
            folds -= 1
        st_, _ = apply(st_, a)
        steps += 1
    if st_.hand_over:
        return
    p = public_view(st_)
    plays = list(p.rounds[-1]) if len(p.rounds) > len(p.results) else []
    folded = sum(1 << s for s in p.folded)
    expected = playout(players, st_.mano, folded, [list(h) for h in st_.held], list(p.results), plays,
                       st_.turn, team_play=team_play)
    while not st_.hand_over:
        seat = st_.turn
        p = public_view(st_)
        plays = list(p.rounds[-1]) if len(p.rounds) > len(p.results) else []
        busy = sum(1 << s for s in p.folded) | sum(1 << s for s, _ in plays)
        cover = team_play and bool(plays) and not p.results and partner_covers(players, seat, busy)
        card = sensible_card(st_.held[seat], seat, plays, p.results, cover)
        st_, _ = apply(st_, Action(seat, Do.PLAY, card))
    assert st_.hand_winner == expected


def _plays_and_mazo(st_):
    from truco.engine import legal_actions

    return [a for a in legal_actions(st_) if a.do in (Do.PLAY, Do.MAZO)]


@pytest.mark.parametrize("players", [2, 4, 6, 8])
def test_worlds_hide_nothing_they_should_not_know(players):
    """A world never gives another seat a card this seat holds or has seen played."""
    rng = random.Random(players)
    for _, view in views_of_a_match(Rules(players=players), seed=players, max_hands=3):
        seen = set(view.dealt) | {c for r in view.public.rounds for _, c in r}
        world = Sampler(knowledge(view)).world(rng)
        for s, hand in enumerate(world.hands):
            if s == view.seat:
                continue
            played = {c for r in view.public.rounds for x, c in r if x == s}
            assert not (set(hand) - played) & seen
