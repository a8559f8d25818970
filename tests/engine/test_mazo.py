"""Seed 000, "Irse al mazo", and rulings 5 and 14."""

import pytest

from truco.engine import IllegalAction, Rules, apply, new_match
from truco.engine.types import Action, Do

from .scenario import Hand

HANDS = ["1e 4c 5o", "3c 4b 5b", "1b 6c 7c", "12o 11b 10e"]


def test_you_may_go_to_the_mazo_only_in_your_turn_to_play():
    with pytest.raises(IllegalAction, match="not your turn"):
        Hand(HANDS).do("1 mazo")


def test_the_partner_plays_on_after_a_player_goes_to_the_mazo():
    h = Hand(HANDS).do("0 mazo")
    assert not h.state.hand_over
    assert h.state.turn == 1
    h.do("1 play 4b", "2 play 6c", "3 play 10e")
    assert h.state.results == (1,)


def test_a_player_in_the_mazo_is_skipped_and_the_next_active_seat_leads():
    h = Hand(HANDS).do("0 mazo").play_round("3c", "1b", "12o")  # seat 2 wins round 1
    h.do("2 play 6c", "3 play 10e")
    h.do("1 play 4b")
    assert h.state.results == (0, 1)  # seat 3's sota won round 2: seat 3 leads round 3
    assert h.state.turn == 3


def test_the_whole_team_gone_gives_the_truco_value_plus_one_while_the_envido_could_be_called():
    h = Hand(HANDS).do("0 mazo", "1 play 4b", "2 mazo")
    assert h.points() == [(1, 2, "mazo")]


def test_the_whole_team_gone_after_the_envido_was_called_gives_the_truco_value_only():
    h = Hand(HANDS).do("0 envido", "1 no_quiero", "0 mazo", "1 play 4b", "2 mazo")
    assert h.points() == [(0, 1, "envido_no_querido"), (1, 1, "mazo")]


def test_the_whole_team_gone_after_an_accepted_truco_gives_that_truco_value():
    h = Hand(HANDS).do("0 truco", "1 retruco", "0 quiero", "0 mazo", "1 play 4b", "2 mazo")
    assert h.points() == [(1, 3, "mazo")]


def test_the_whole_team_gone_in_a_later_round_gives_the_truco_value():
    h = Hand(HANDS).play_round("1e", "4b", "6c", "10e").do("0 mazo", "1 play 5b", "2 mazo")
    assert h.points() == [(1, 1, "mazo")]


def test_in_a_two_player_table_the_mazo_ends_the_hand_at_once():
    h = Hand(["1e 4c 5o", "3c 4b 5b"]).do("0 play 1e", "1 mazo")
    assert h.state.hand_over and h.points() == [(0, 2, "mazo")]  # seat 1 could still call envido
    h = Hand(["1e 4c 5o", "3c 4b 5b"]).play_round("1e", "4b").do("0 mazo")
    assert h.state.hand_over and h.points() == [(1, 1, "mazo")]


def test_a_player_who_went_to_the_mazo_takes_no_part_in_the_envido():
    h = Hand(["7o 6o 1c", "4c 5o 12e", "2b 3b 11o", "7e 3e 10e"]).do("0 mazo", "1 envido", "2 quiero")
    assert h.points() == [(1, 2, "envido")]  # seat 0's 33 no longer counts; seat 3's 30 beats seat 2's 25


def test_mazo_after_the_hand_is_over_is_refused():
    st, _ = new_match(Rules(players=2), dealer=1, seed=3)
    st, _ = apply(st, Action(0, Do.MAZO))
    with pytest.raises(IllegalAction, match="hand is over"):
        apply(st, Action(1, Do.MAZO))
