"""The ``flor`` variant (seed 003): flor, con flor me achico, contra flor, contra flor al resto."""

import pytest

from truco.engine import Do, IllegalAction, legal_actions_for
from truco.engine.types import TantoSung

from .scenario import Hand

# seat 0 has flor (32); seat 1 has flor (30); seats 2 and 3 do not
BOTH = ["7c 5c 12c", "6e 4e 11e", "1b 6o 7o", "12o 11b 10e"]
ONE = ["7c 5c 12c", "3e 4b 5b", "1e 6o 7o", "12o 11b 10e"]


def test_an_uncontested_flor_is_worth_three_at_once():
    h = Hand(ONE, flor=True).do("0 flor")
    assert h.points() == [(0, 3, "flor")]
    assert not h.state.pending and h.state.turn == 0


def test_a_flor_cancels_the_envido_even_as_its_answer():
    h = Hand(["3e 4b 5b", "7c 5c 12c", "1e 6o 7o", "12o 11b 10e"], flor=True).do("0 envido", "1 flor")
    assert h.points() == [(1, 3, "flor")]
    assert not any(a.do is Do.ENVIDO for a in legal_actions_for(h.state, 0))


def test_a_player_with_flor_sings_flor_instead_of_envido():
    h = Hand(ONE, flor=True)
    legal = {a.do for a in legal_actions_for(h.state, 0)}
    assert Do.FLOR in legal and Do.ENVIDO not in legal
    with pytest.raises(IllegalAction, match="sing flor"):
        h.do("0 envido")


def test_the_flor_is_lost_once_its_holder_plays_a_card_without_singing_it():
    h = Hand(ONE, flor=True).do("0 play 12c")
    h.play_round("3e", "1e", "10e")
    assert not any(a.do is Do.FLOR for s in range(4) for a in legal_actions_for(h.state, s))


def test_there_is_no_flor_when_the_table_plays_without_it():
    h = Hand(ONE)
    assert Do.FLOR not in {a.do for a in legal_actions_for(h.state, 0)}
    with pytest.raises(IllegalAction, match="without flor"):
        h.do("0 flor")


def test_a_player_without_flor_cannot_sing_it():
    with pytest.raises(IllegalAction, match="do not have flor"):
        Hand(["3e 4b 5b", "7c 5c 12c", "1e 6o 7o", "12o 11b 10e"], flor=True).do("0 flor")


def test_an_opponent_with_flor_must_answer_with_one_of_three_options():
    h = Hand(BOTH, flor=True).do("0 flor")
    assert {a.do for a in legal_actions_for(h.state, 1)} == {
        Do.CON_FLOR_ME_ACHICO, Do.CONTRA_FLOR, Do.CONTRA_FLOR_AL_RESTO}
    assert legal_actions_for(h.state, 3) == []  # seat 3 has no flor to contest with


def test_con_flor_me_achico_gives_four_to_the_first_flor():
    h = Hand(BOTH, flor=True).do("0 flor", "1 con_flor_me_achico")
    assert h.points() == [(0, 4, "con_flor_me_achico")]


def test_a_contra_flor_accepted_gives_six_to_the_best_flor():
    h = Hand(BOTH, flor=True).do("0 flor", "1 contra_flor", "2 quiero")
    sung = [e for e in h.events if isinstance(e, TantoSung)]
    assert sung == [TantoSung(0, 32, True), TantoSung(1, 30, True)]
    assert h.points() == [(0, 6, "contra_flor")]


def test_a_contra_flor_declined_gives_four_to_who_called_it():
    h = Hand(BOTH, flor=True).do("0 flor", "1 contra_flor", "0 no_quiero")
    assert h.points() == [(1, 4, "contra_flor_no_querido")]


def test_a_contra_flor_al_resto_accepted_wins_the_chico():
    h = Hand(BOTH, flor=True, score=(12, 20)).do("0 flor", "1 contra_flor_al_resto", "0 quiero")
    assert h.points() == [(0, 18, "contra_flor_al_resto")]
    assert h.state.match_over and h.state.winner == 0


def test_a_contra_flor_al_resto_declined_gives_four():
    h = Hand(BOTH, flor=True).do("0 flor", "1 contra_flor", "0 contra_flor_al_resto", "1 no_quiero")
    assert h.points() == [(0, 4, "contra_flor_no_querido")]


def test_equal_flores_go_to_the_seat_closer_to_the_mano():
    h = Hand(["7c 5c 12c", "7e 5e 11e", "1b 6o 7o", "12o 11b 10e"], flor=True)
    h.do("0 flor", "1 contra_flor", "0 quiero")
    assert h.points() == [(0, 6, "contra_flor")]


def test_a_flor_may_answer_a_truco_in_the_first_round_and_the_truco_waits():
    h = Hand(["3e 4b 5b", "7c 5c 12c", "1e 6o 7o", "12o 11b 10e"], flor=True).do("0 truco", "1 flor")
    assert h.points() == [(1, 3, "flor")]
    assert h.state.answer_team == 1
    h.do("3 quiero")
    assert h.state.truco_value == 2
