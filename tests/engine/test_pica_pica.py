"""Pica-pica, the six-player option (docs/rules.md, "Pica-pica"): inside the score band hands alternate
between a hand played in full and a pica-pica, three duels of two between facing seats whose points
go to the team. Seat 0 is mano (dealer 5), so the duels are 0 v 3, 1 v 4 and 2 v 5."""

from __future__ import annotations

import pytest

from tests.engine.scenario import Hand
from truco.engine import (
    Action,
    Do,
    IllegalAction,
    Rules,
    apply,
    legal_actions,
    legal_actions_for,
    new_match,
    next_hand,
    public_view,
    replay,
    view_for,
)
from truco.engine.record import hand_record
from truco.engine.types import DuelEnded, DuelStarted, HandEnded, MatchEnded, PointsAwarded, TantoSung
from truco.table import SettingsError, TableSettings

HANDS = ["1e 7e 4c", "2b 3b 5o", "6c 5c 4o", "3e 2e 12o", "1b 7o 10b", "3c 2c 11e"]
"""Tantos: seat 0 28, seat 3 25 (the duel 0 v 3); seat 1 5 (oro), seat 4 7; seat 2 31, seat 5 25."""


def pica(score: tuple[int, int] = (10, 10), hands: list[str] = HANDS, **rules: object) -> Hand:
    return Hand(hands, dealer=5, score=score, pica_pica=True, **rules)


def mazo_all(st):  # every hand ends: whoever acts goes to the mazo (or plays, when the mazo is closed)
    while not st.hand_over:
        acts = legal_actions(st)
        st, _ = apply(st, next((a for a in acts if a.do is Do.MAZO), acts[0]))
    return st


def test_pica_pica_is_an_option_of_six_players_and_off_by_default():
    assert Rules().pica_pica is False and Rules(players=6).pica_pica is False
    with pytest.raises(ValueError, match="6 players"):
        Rules(players=4, pica_pica=True)
    with pytest.raises(SettingsError, match="full table"):
        TableSettings(players=6, pica_pica=True, mode="casual")
    st, events = new_match(Rules(players=6), dealer=5, seed=1, score=(10, 10))
    assert not st.pica and not any(isinstance(e, DuelStarted) for e in events)


@pytest.mark.parametrize("score, target, expected", [
    ((4, 10), 30, False), ((5, 25), 30, True), ((10, 26), 30, False),
    ((5, 10), 15, True), ((5, 11), 15, False),
])
def test_pica_pica_hands_are_played_only_while_both_scores_are_inside_the_band(score, target, expected):
    st, _ = new_match(Rules(players=6, pica_pica=True, target=target), dealer=5, seed=1, score=score)
    assert st.pica is expected


def test_inside_the_band_hands_alternate_and_the_first_one_in_it_is_a_pica_pica():
    st, _ = new_match(Rules(players=6, pica_pica=True), dealer=5, seed=1, score=(5, 5))
    kinds = []
    for k in range(4):
        kinds.append(st.pica)
        st = mazo_all(st)
        st, _ = next_hand(st, seed=k + 2)
    assert max(st.score) <= 25 and kinds == [True, False, True, False]


def test_the_first_hand_that_enters_the_band_is_a_pica_pica():
    h = Hand(HANDS, dealer=5, score=(4, 10), pica_pica=True)
    assert not h.state.pica
    h.do("0 play 1e", "1 mazo", "2 play 6c", "3 mazo", "4 play 1b", "5 mazo")  # team 1 leaves: 2 to team 0
    assert h.score == (6, 10)
    st, _ = next_hand(h.state, seed=3)
    assert st.pica


def test_the_duels_pair_facing_seats_starting_with_the_mano():
    h = pica()
    h.do("0 truco", "3 no_quiero", "1 truco", "4 no_quiero", "2 truco", "5 no_quiero")
    assert [(e.duel, e.mano, e.rival) for e in h.of(DuelStarted)] == [(0, 0, 3), (1, 1, 4), (2, 2, 5)]
    assert [(e.duel, e.team) for e in h.of(DuelEnded)] == [(0, 0), (1, 1), (2, 0)]


def test_during_a_duel_the_other_four_seats_wait_and_may_not_act():
    h = pica()
    st = h.state
    assert [s for s in range(6) if legal_actions_for(st, s)] == [0]
    with pytest.raises(IllegalAction) as e:
        apply(st, Action(1, Do.PLAY, st.held[1][0]))
    assert e.value.reason == "waiting_for_duel"
    pub = public_view(st)
    assert pub.pica and pub.duel == 0 and pub.idle == (1, 2, 4, 5) and pub.to_act == (0,)
    assert pub.mano == 0 and pub.pies == (0, 3)


def test_a_duel_is_a_hand_of_two_with_its_own_rounds_and_its_points_go_to_the_team():
    h = pica()
    h.play_round("1e", "3e").play_round("7e", "2e")
    assert h.points() == [(0, 1, "truco")] and h.score == (11, 10)
    st = h.state
    assert st.duel == 1 and st.turn == 1 and st.results == () and st.rounds == () and not st.hand_over


def test_a_declined_truco_or_a_mazo_ends_only_that_duel():
    h = pica()
    h.do("0 truco", "3 no_quiero")
    assert h.state.duel == 1 and not h.state.hand_over
    h.do("1 play 2b", "4 mazo")  # the envido was still open: 1 + 1
    assert h.points() == [(0, 1, "truco_no_querido"), (1, 2, "mazo")]
    assert h.state.duel == 2 and h.state.turn == 2


def test_the_envido_of_a_duel_is_sung_by_its_two_players_and_paid_to_the_team():
    h = pica()
    h.do("0 envido", "3 quiero")
    assert [(e.seat, e.tanto) for e in h.of(TantoSung)] == [(0, 28)]  # seat 3 (25) says son buenas
    assert h.points() == [(0, 2, "envido")]


def test_a_falta_envido_in_a_duel_is_worth_seven():
    h = pica(score=(10, 20))  # played in full it would be worth 10, what the leader lacks
    h.do("0 falta_envido", "3 quiero")
    assert h.points() == [(0, 7, "envido")]


def test_a_contra_flor_al_resto_in_a_duel_is_worth_seven():
    hands = ["1e 7e 4e", "2b 3b 5o", "6c 5c 4o", "3o 2o 12o", "1b 7o 10b", "3c 2c 11e"]
    h = pica(score=(10, 20), hands=hands, flor=True)
    h.do("0 flor", "3 contra_flor_al_resto", "0 quiero")  # 32 against 25
    assert h.points() == [(0, 7, "contra_flor_al_resto")]


def test_the_hand_goes_to_the_team_that_gained_more_in_its_duels():
    h = pica()
    h.do("0 truco", "3 no_quiero", "1 play 2b", "4 mazo", "2 truco", "5 no_quiero")  # 1 + 1 against 2
    assert h.state.hand_over and h.score == (12, 12)
    assert h.of(HandEnded)[-1].winner == 0  # even: the team of the hand's mano


def test_the_hand_goes_to_the_team_with_more_points_when_they_differ():
    h = pica()
    h.do("0 truco", "3 no_quiero", "1 truco", "4 no_quiero", "2 play 6c", "5 mazo")  # 1 + 2 against 1
    assert h.state.hand_over and h.state.hand_winner == 0 and h.score == (13, 11)


def test_the_match_can_end_in_the_middle_of_a_pica_pica():
    h = pica(score=(25, 10))
    h.do("0 falta_envido", "3 quiero")
    assert h.state.match_over and h.state.hand_over and h.score == (32, 10)
    assert h.of(MatchEnded) and len(h.state.duels) == 0


def test_after_a_pica_pica_the_deal_passes_to_the_next_seat():
    st = mazo_all(pica().state)
    st2, _ = next_hand(st, seed=4)
    assert st2.dealer == 0 and st2.mano == 1 and not st2.pica and st2.duel == -1 and st2.idle == 0


def test_a_seat_sees_the_cards_of_the_duels_already_played_and_only_its_own_hidden_cards():
    h = pica()
    h.play_round("1e", "3e").play_round("7e", "2e")
    view = view_for(h.state, 1)
    (mano, rival, winner, rounds, results), = view.public.duels
    assert (mano, rival, winner, results) == (0, 3, 0, (0, 0)) and len(rounds) == 2
    assert view.cards == h.state.dealt[1] and view.public.turn == 1


def test_a_pica_pica_hand_replays_from_its_record():
    h = pica()
    h.do("0 truco", "3 quiero").play_round("1e", "3e").play_round("7e", "2e")
    h.do("1 envido", "4 quiero", "1 mazo", "2 play 6c", "5 play 3c", "5 play 2c", "2 play 5c")
    rec = hand_record(h.state)
    assert rec["pica"] is True and h.state.hand_over
    result = replay(rec)
    assert result.state.score == h.score and result.state.hand_winner == h.state.hand_winner
    points = [(e.team, e.points, e.reason) for e in result.events if isinstance(e, PointsAwarded)]
    assert points == h.points()
