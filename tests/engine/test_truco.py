"""Seed 000, "El truco" (every row of its table) and rulings 8 and 9."""

import pytest

from truco.engine import Do, IllegalAction, legal_actions_for

from .scenario import Hand

# seat 0 is mano; team 0 (seats 0, 2) holds the two anchos
HANDS = ["1e 4c 5o", "3c 4b 5b", "1b 6c 7c", "12o 11b 10e"]


def win_both_rounds(h: Hand) -> Hand:
    return h.play_round("1e", "4b", "6c", "10e").play_round("4c", "5b", "1b", "11b")


def test_a_hand_without_truco_is_worth_one_point():
    assert win_both_rounds(Hand(HANDS)).points() == [(0, 1, "truco")]


@pytest.mark.parametrize(("calls", "querido", "no_querido"), [
    (["truco"], 2, 1),
    (["truco", "retruco"], 3, 2),
    (["truco", "retruco", "vale_cuatro"], 4, 3),
])
def test_every_truco_bet_is_worth_its_table_value(calls, querido, no_querido):
    h = Hand(HANDS)
    for i, c in enumerate(calls):
        h.do(f"{i % 2} {c}")
    h.do(f"{len(calls) % 2} quiero")
    assert h.state.truco_value == querido
    assert win_both_rounds(h).points() == [(0, querido, "truco")]
    h = Hand(HANDS)
    for i, c in enumerate(calls):
        h.do(f"{i % 2} {c}")
    h.do(f"{len(calls) % 2} no_quiero")
    caller_team = (len(calls) - 1) % 2
    assert h.points() == [(caller_team, no_querido, "truco_no_querido")]
    assert h.state.hand_over


def test_the_first_truco_is_called_by_anyone_in_their_turn_to_play():
    h = Hand(HANDS).do("0 play 1e")
    with pytest.raises(IllegalAction, match="not your turn"):
        h.do("0 truco")
    h.do("1 truco")
    assert h.state.answer_team == 0


def test_a_raise_as_the_answer_accepts_the_previous_bet():
    h = Hand(HANDS).do("0 truco", "1 retruco", "0 no_quiero")
    assert h.points() == [(1, 2, "truco_no_querido")]


def test_only_the_team_that_accepted_the_last_bet_may_raise_and_only_in_its_turn():
    h = Hand(HANDS).do("0 truco", "1 quiero")
    assert Do.RETRUCO not in {a.do for a in legal_actions_for(h.state, 0)}  # team 0 called, did not accept
    h.do("0 play 1e")
    assert Do.RETRUCO in {a.do for a in legal_actions_for(h.state, 1)}
    h.do("1 play 4b")
    with pytest.raises(IllegalAction, match="only the team that accepted"):
        h.do("2 retruco")
    h.do("2 play 6c", "3 retruco", "0 quiero")
    assert h.state.truco_value == 3 and h.state.truco_owner == 0


def test_the_vale_cuatro_accepted_cannot_be_raised():
    h = Hand(HANDS).do("0 truco", "1 retruco", "0 vale_cuatro", "1 quiero")
    assert not any(a.do in (Do.TRUCO, Do.RETRUCO, Do.VALE_CUATRO)
                   for s in range(4) for a in legal_actions_for(h.state, s))


def test_no_card_may_be_played_while_a_call_waits_for_its_answer():
    h = Hand(HANDS).do("0 truco")
    with pytest.raises(IllegalAction, match="must be answered first"):
        h.do("0 play 1e")


def test_nobody_may_go_to_the_mazo_while_a_call_waits_for_its_answer():
    h = Hand(HANDS).do("0 envido")
    with pytest.raises(IllegalAction, match="must be answered first"):
        h.do("0 mazo")
    with pytest.raises(IllegalAction):
        h.do("1 mazo")


def test_a_double_tap_on_truco_does_not_jump_two_levels():
    h = Hand(HANDS).do("0 truco")
    with pytest.raises(IllegalAction):
        h.do("0 truco")
    with pytest.raises(IllegalAction):
        h.do("0 retruco")
    assert h.state.truco_call == 1


def test_any_seat_of_the_answering_team_may_answer():
    h = Hand(HANDS).do("0 truco", "3 quiero")
    assert h.state.truco_value == 2
    with pytest.raises(IllegalAction, match="other team"):
        Hand(HANDS).do("0 truco", "2 quiero")


def test_after_a_truco_is_accepted_the_seat_in_turn_plays_on():
    h = Hand(HANDS).do("0 play 1e", "1 truco", "2 quiero")
    assert h.state.turn == 1
