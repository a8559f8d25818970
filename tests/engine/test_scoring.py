"""Seed 000, "Tanteo y final de la partida"; rulings 11 and 15; chicos and 15 points (seed 003)."""

import pytest

from truco.engine import IllegalAction, Rules, new_match, next_hand
from truco.engine.types import ChicoEnded, HandEnded, MatchEnded

from .scenario import Hand

HANDS = ["1e 4c 5o", "3c 4b 5b", "1b 6c 7c", "12o 11b 10e"]


def test_the_truco_is_scored_when_the_hand_ends():
    h = Hand(HANDS).do("0 truco", "1 quiero").play_round("1e", "4b", "6c", "10e")
    assert h.score == (0, 0)
    h.play_round("4c", "5b", "1b", "11b")
    assert h.score == (2, 0)


def test_the_match_ends_the_moment_a_team_reaches_thirty_even_mid_hand():
    h = Hand(HANDS, score=(29, 0)).do("0 envido", "1 no_quiero")
    assert h.score == (30, 0) and h.state.match_over and h.state.hand_over
    assert h.of(MatchEnded) == [MatchEnded(0, (30, 0), (1, 0))]
    with pytest.raises(IllegalAction, match="match is over"):
        h.do("0 play 1e")


def test_points_are_added_in_full_past_the_target():
    h = Hand(HANDS, score=(28, 0)).do("0 truco", "1 retruco", "0 vale_cuatro", "1 no_quiero")
    assert h.score == (31, 0) and h.state.winner == 0


def test_a_match_to_fifteen_ends_at_fifteen():
    h = Hand(["7o 6o 1c", "4c 5o 12e", "2b 3b 11o", "7e 3e 10e"], score=(13, 0), target=15)
    h.do("0 envido", "1 quiero")
    assert h.score == (15, 0) and h.state.match_over and h.state.winner == 0


def test_a_score_at_or_past_the_target_cannot_start_a_match():
    with pytest.raises(ValueError):
        new_match(Rules(target=15), dealer=0, seed=1, score=(15, 0))


def test_a_hand_ends_with_the_next_dealer_and_the_score_carried():
    h = Hand(HANDS, score=(5, 7)).do("0 truco", "1 no_quiero")
    assert h.of(HandEnded) == [HandEnded(1, 0, (6, 7))]
    st, _ = next_hand(h.state, seed=9)
    assert st.score == (6, 7) and st.dealer == 0 and st.mano == 1 and st.hand_no == 2


def test_a_hand_cannot_be_dealt_before_the_current_one_ends():
    with pytest.raises(IllegalAction):
        next_hand(Hand(HANDS).state, seed=1)


def test_best_of_three_chicos_the_first_chico_resets_the_score():
    h = Hand(HANDS, score=(29, 12), chicos=3).do("0 envido", "1 no_quiero")
    assert h.state.chico_over and not h.state.match_over
    assert h.of(ChicoEnded) == [ChicoEnded(0, (1, 0))]
    st, _ = next_hand(h.state, seed=4)
    assert st.score == (0, 0) and st.chicos == (1, 0)


def test_best_of_three_chicos_two_chicos_win_the_match():
    h = Hand(HANDS, score=(29, 12), won_chicos=(1, 1), chicos=3).do("0 envido", "1 no_quiero")
    assert h.state.chicos == (2, 1)
    assert h.state.match_over and h.state.winner == 0
    assert h.of(MatchEnded) == [MatchEnded(0, (30, 12), (2, 1))]
    with pytest.raises(IllegalAction, match="match is over"):
        next_hand(h.state, seed=1)


def test_the_falta_in_malas_wins_only_the_current_chico():
    h = Hand(["7o 6o 1c", "4c 5o 12e", "2b 3b 11o", "7e 3e 10e"], score=(3, 5), won_chicos=(0, 1),
             chicos=3, falta="malas_wins")
    h.do("0 falta_envido", "1 quiero")
    assert h.points() == [(0, 27, "envido")]
    assert h.state.chicos == (1, 1) and h.state.chico_over and not h.state.match_over
