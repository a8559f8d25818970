"""What each level must do, in spelled-out hands (cards by name: number then e/b/o/c)."""

from __future__ import annotations

import pytest

from truco.bots import make_bot
from truco.bots.dificil import Decision, DificilBot, Params
from truco.engine import (
    Action,
    Do,
    Rules,
    SeatView,
    apply,
    card_name,
    legal_actions,
    new_match,
    parse_card,
    view_for,
)


def deal(rules: Rules, hands: list[str], dealer: int, score=(0, 0)):
    cards = [[parse_card(c) for c in h.split()] for h in hands]
    st, _ = new_match(rules, dealer=dealer, hands=cards, score=score)
    return st


def act(st, *actions: tuple[int, Do, str | None]):
    for seat, do, card in actions:
        st, _ = apply(st, Action(seat, do, parse_card(card) if card else None))
    return st


def card_played(st, seat: int, level: str) -> str:
    """The card ``level`` plays at ``seat``; any call it makes first is accepted by the rivals."""
    bot = make_bot(level, 1)
    while True:
        action = bot.choose(view_for(st, seat))
        if action.do is Do.PLAY:
            assert action.card is not None
            return card_name(action.card)
        st, _ = apply(st, action)
        while st.pending:
            answer = next(a for a in legal_actions(st) if a.do is Do.QUIERO)
            st, _ = apply(st, answer)


# ---------------------------------------------------------------- facil


def test_facil_calls_envido_with_a_strong_tanto_only():
    st = deal(Rules(players=2), ["7e 6e 4c", "1c 2o 3b"], dealer=1)
    assert make_bot("facil", 1).choose(view_for(st, 0)).do is Do.ENVIDO
    st = deal(Rules(players=2), ["7e 6o 4c", "1c 2o 3b"], dealer=1)
    assert make_bot("facil", 1).choose(view_for(st, 0)).do is Do.PLAY


def test_facil_answers_by_its_tanto():
    st = act(deal(Rules(players=2), ["1c 2o 3b", "7e 6e 4c"], dealer=1), (0, Do.ENVIDO, None))
    assert make_bot("facil", 1).choose(view_for(st, 1)).do is Do.QUIERO
    st = act(deal(Rules(players=2), ["7e 6e 4c", "1c 2o 3b"], dealer=1), (0, Do.ENVIDO, None))
    assert make_bot("facil", 1).choose(view_for(st, 1)).do is Do.NO_QUIERO


@pytest.mark.parametrize("level", ["facil", "normal", "dificil"])
def test_every_level_sings_its_flor(level):
    st = deal(Rules(players=2, flor=True), ["1e 7e 3e", "4c 5o 6b"], dealer=1)
    assert make_bot(level, 1).choose(view_for(st, 0)).do is Do.FLOR


# ---------------------------------------------------------------- normal


@pytest.mark.parametrize("level", ["normal", "dificil"])
def test_never_waste_a_winning_card_when_the_partner_already_wins(level):
    # 4 players, seat 0 mano: it plays the ancho de espadas, seat 1 a four; seat 2 (partner) holds a
    # three and the ancho de bastos: it keeps them both and throws its lowest card
    st = deal(Rules(players=4), ["1e 4o 5o", "4c 5c 6c", "3o 1b 10c", "7c 11c 12b"], dealer=3)
    st = act(st, (0, Do.PLAY, "1e"), (1, Do.PLAY, "4c"))
    assert card_played(st, 2, level) == "10c"


def test_normal_wins_a_round_with_its_lowest_winning_card():
    st = deal(Rules(players=2), ["5o 4c 6b", "3o 1b 7c"], dealer=1)
    st = act(st, (0, Do.PLAY, "6b"))
    assert card_played(st, 1, "normal") == "7c"


def test_normal_answers_the_envido_by_expected_points():
    # with 33 it raises or accepts; with 4 points of tanto it declines
    st = act(deal(Rules(players=2), ["1c 2o 3b", "7e 6e 4c"], dealer=1), (0, Do.ENVIDO, None))
    assert make_bot("normal", 1).choose(view_for(st, 1)).do in (Do.QUIERO, Do.REAL_ENVIDO, Do.ENVIDO,
                                                                 Do.FALTA_ENVIDO)
    st = act(deal(Rules(players=2), ["7e 6e 5e", "4c 5o 6b"], dealer=1), (0, Do.ENVIDO, None))
    assert make_bot("normal", 1).choose(view_for(st, 1)).do is Do.NO_QUIERO


def test_normal_accepts_a_truco_with_the_top_cards_and_declines_with_nothing():
    st = act(deal(Rules(players=2), ["4c 5o 6b", "1e 1b 7o"], dealer=1), (0, Do.TRUCO, None))
    assert make_bot("normal", 1).choose(view_for(st, 1)).do in (Do.QUIERO, Do.RETRUCO)
    st = act(deal(Rules(players=2), ["1e 1b 7e", "4c 5o 6b"], dealer=1), (0, Do.TRUCO, None))
    assert make_bot("normal", 1).choose(view_for(st, 1)).do is Do.NO_QUIERO


# ---------------------------------------------------------------- dificil


def test_dificil_counts_the_cards_it_has_seen():
    # seat 1 won round 1 with the ancho de espadas; in round 2 its rival's ancho de bastos is the top
    # card left, which it has seen nowhere, so it knows the seven of espadas still may lose
    st = deal(Rules(players=2), ["4c 7e 12o", "1e 1b 5c"], dealer=1)
    st = act(st, (0, Do.PLAY, "4c"), (1, Do.PLAY, "1e"))
    view = view_for(st, 1)
    d = Decision(view, DificilBot(1).rng(view), Params())
    # seen: its own three cards and the four of copas
    assert {c for c in d.k.unseen} == set(range(40)) - {parse_card(c) for c in ("1e", "1b", "5c", "4c")}
    # it holds the top card left: a truco now wins in every world
    assert all(d.wins(parse_card("1b")))


def test_dificil_infers_from_sung_tantos():
    # seat 0 sang 33: in every world seat 0 holds the seven and six of one suit
    st = deal(Rules(players=2), ["7o 6o 4c", "1e 2b 3c"], dealer=1)
    st = act(st, (0, Do.ENVIDO, None), (1, Do.QUIERO, None))
    view = view_for(st, 1)
    d = Decision(view, DificilBot(1).rng(view), Params())
    from truco.engine.cards import tanto

    assert all(tanto(w.hands[0]) == 33 for w in d.worlds)


def test_dificil_reads_an_envido_call_as_a_tanto_and_a_truco_call_as_cards():
    # the same deal, seen by seat 1 after its rival's call and with nothing called: the worlds behind
    # an envido give the caller more tanto, the worlds behind a truco a stronger hand
    from truco.bots.evidence import read_calls
    from truco.bots.knowledge import knowledge
    from truco.bots.tables import STRENGTH_OF
    from truco.engine.cards import tanto

    def worlds(*actions: tuple[int, Do, str | None]):
        st = act(deal(Rules(players=2), ["7o 6o 4c", "1e 2b 3c"], dealer=1), *actions)
        view = view_for(st, 1)
        return Decision(view, DificilBot(1).rng(view), Params()).worlds

    def mean(xs) -> float:
        xs = list(xs)
        return sum(xs) / len(xs)

    quiet = worlds()
    envido = worlds((0, Do.ENVIDO, None))
    truco = worlds((0, Do.TRUCO, None))
    assert mean(tanto(w.hands[0]) for w in envido) > mean(tanto(w.hands[0]) for w in quiet) + 3
    assert mean(STRENGTH_OF[w.masks[0]] for w in truco) > mean(STRENGTH_OF[w.masks[0]] for w in quiet) + 1.5
    # the envido call is one condition on the caller's own tanto, with a floor for bluffs
    st = act(deal(Rules(players=2), ["7o 6o 4c", "1e 2b 3c"], dealer=1), (0, Do.ENVIDO, None))
    view = view_for(st, 1)
    (e,) = read_calls(knowledge(view), view.public, 0.6, 0.03)
    assert (e.kind, e.who, e.centre, e.floor) == (0, 0, 25.0, 0.1)


def test_dificil_accepts_anything_when_declining_would_lose_the_match():
    # the rivals are at 29 of 30: "no quiero" gives them the match, so it plays on, whatever its cards
    st = deal(Rules(players=2), ["1e 1b 7e", "4c 5o 6b"], dealer=1, score=(29, 10))
    st = act(st, (0, Do.PLAY, "7e"), (1, Do.PLAY, "4c"), (0, Do.TRUCO, None))
    assert make_bot("dificil", 1).choose(view_for(st, 1)).do is not Do.NO_QUIERO
    assert make_bot("normal", 1).choose(view_for(st, 1)).do is Do.NO_QUIERO


def test_dificil_takes_the_match_with_the_falta_when_its_tanto_cannot_lose():
    # at 25–25 to 30, mano with 33 of tanto: the falta envido wins the match if accepted
    st = deal(Rules(players=2), ["7e 6e 4c", "1c 2o 3b"], dealer=1, score=(25, 25))
    view = view_for(st, 0)
    assert make_bot("dificil", 3).choose(view).do in (Do.FALTA_ENVIDO, Do.REAL_ENVIDO, Do.ENVIDO)


def _weak_spot() -> SeatView:
    # round 1 is parda, so the mano (seat 0) leads round 2, which decides the hand, with two low cards
    st = deal(Rules(players=2), ["4c 5o 6b", "4o 1b 7e"], dealer=1)
    st = act(st, (0, Do.PLAY, "4c"), (1, Do.PLAY, "4o"))
    return view_for(st, 0)


def test_dificil_bluffs_at_its_measured_rate():
    view = _weak_spot()
    assert DificilBot(1, Params(bluff_rate=1.0)).choose(view).do is Do.TRUCO
    # over many seeds, the default rate adds truco calls to the ones the prices alone make
    seeds = range(300)
    priced = sum(DificilBot(s, Params(bluff_rate=0.0)).choose(view).do is Do.TRUCO for s in seeds)
    default = sum(DificilBot(s).choose(view).do is Do.TRUCO for s in seeds)
    expected = Params().bluff_rate * (len(seeds) - priced)
    assert 0.5 * expected < default - priced < 1.6 * expected


def test_dificil_leaves_the_first_truco_to_the_pie():
    st = deal(Rules(players=4), ["1e 2o 3b", "4c 5c 6c", "7o 11c 10c", "7c 11o 12b"], dealer=3)
    view0 = view_for(st, 0)  # mano: seat 2 is its team's pie
    d = Decision(view0, DificilBot(1).rng(view0), Params())
    assert d.leave_to_pie()
    st = act(st, (0, Do.PLAY, "3b"), (1, Do.PLAY, "4c"))
    view2 = view_for(st, 2)
    assert not Decision(view2, DificilBot(1).rng(view2), Params()).leave_to_pie()


def test_dificil_votes_as_one_voter_of_its_team_and_the_frozen_mark_votes_alone():
    """Ruling 16: a team takes a bet when any of its voters does, so a weak tanto must not take an
    envido on the chance that its partner holds one; ``dificil-1`` keeps the old, lone vote."""
    import random

    from tests.bots.style_views import many_views
    from truco.bots.frozen import DIFICIL_1
    from truco.bots.tables import TANTO_OF

    spots = [v for v in many_views(4) if v.public.pending == "envido" and len(v.public.to_act) > 1
             and v.my_tanto < 20]
    assert len(spots) > 50
    voter, alone = make_bot("dificil", 1), make_bot("dificil-1", 1)

    def accepts(bot) -> int:
        return sum(bot.choose(v).do is not Do.NO_QUIERO for v in spots)

    assert accepts(voter) < accepts(alone)
    v = spots[0]
    decision = Decision(v, random.Random(1), Params())
    weights = decision.vote_weights()
    assert weights is not None and len(weights) == len(decision.worlds)
    partner = next(s for s in v.public.to_act if s != v.seat)
    plain = sum(TANTO_OF[w.masks[partner]] for w in decision.worlds) / len(weights)
    weighed = sum(x * TANTO_OF[w.masks[partner]] for x, w in zip(weights, decision.worlds, strict=True))
    assert weighed / sum(weights) < plain  # this vote counts where the partner is weak
    assert Decision(v, random.Random(1), DIFICIL_1).vote_weights() is None
