"""Seed 000, "El envido" (every row of its table) and rulings 7 and 10–13; seed 003 for the falta in malas."""

import pytest

from truco.engine import Do, IllegalAction, legal_actions_for
from truco.engine.types import CardsShown, SonBuenas, TantoSung

from .scenario import Hand

# seat 0 is mano. Tantos: seat 0 30, seat 1 33, seat 2 20, seat 3 5.
HANDS = ["7e 3e 10e", "7o 6o 1c", "12b 11b 4o", "5c 4e 12o"]

CALL = {"E": "envido", "R": "real_envido", "F": "falta_envido"}


def run_chain(chain: str, answer: str, score=(0, 0), **rules) -> Hand:
    """Seats 0 and 1 alternate the calls of ``chain``; the next one answers."""
    h = Hand(HANDS, score=score, **rules)
    for i, c in enumerate(chain):
        h.do(f"{i % 2} {CALL[c]}")
    return h.do(f"{len(chain) % 2} {answer}")


@pytest.mark.parametrize(("chain", "querido", "no_querido"), [
    ("E", 2, 1),
    ("EE", 4, 2),
    ("R", 3, 1),
    ("ER", 5, 2),
    ("EER", 7, 4),
    ("F", None, 1),
    ("EF", None, 2),
    # seed 003 completes the table: a declined falta gives what the chain was worth before it
    ("RF", None, 3),
    ("ERF", None, 5),
    ("EERF", None, 7),
    ("EEF", None, 4),
])
def test_every_envido_chain_is_worth_its_table_value(chain, querido, no_querido):
    h = run_chain(chain, "quiero", score=(22, 10))
    expected = 8 if querido is None else querido  # the falta at 22 to 10 is worth 8
    assert h.points() == [(1, expected, "envido")]  # seat 1 holds 33
    h = run_chain(chain, "no_quiero", score=(22, 10))
    last_caller_team = (len(chain) - 1) % 2
    assert h.points() == [(last_caller_team, no_querido, "envido_no_querido")]


@pytest.mark.parametrize(("chain", "querido", "no_querido"), [
    ("E", 2, 1), ("EE", 4, 2), ("ER", 5, 2), ("EER", 7, 4), ("F", "falta", 1), ("ERF", "falta", 5),
])
def test_the_stake_of_a_called_envido_is_public_as_the_table_values_it(chain, querido, no_querido):
    """Everyone sees what the envido on the table pays: accepted and declined (seed 000's table)."""
    from truco.engine import public_to_dict, public_view

    h = Hand(HANDS)
    for i, c in enumerate(chain):
        h.do(f"{i % 2} {CALL[c]}")
    stake = public_to_dict(public_view(h.state))["envido_stake"]
    assert stake == {"querido": querido, "no_querido": no_querido}
    assert public_view(Hand(HANDS).state).envido_stake is None


def test_raises_only_go_up_envido_twice_real_once_falta_closes():
    h = Hand(HANDS).do("0 envido", "1 envido")
    legal = {a.do for a in legal_actions_for(h.state, 0)}
    assert Do.ENVIDO not in legal and {Do.REAL_ENVIDO, Do.FALTA_ENVIDO} <= legal
    h.do("0 real_envido")
    assert {a.do for a in legal_actions_for(h.state, 1)} == {Do.QUIERO, Do.NO_QUIERO, Do.FALTA_ENVIDO}
    h.do("1 falta_envido")
    assert {a.do for a in legal_actions_for(h.state, 0)} == {Do.QUIERO, Do.NO_QUIERO}


def test_tantos_are_sung_from_the_mano_and_a_lower_tanto_says_son_buenas():
    h = Hand(HANDS).do("0 envido", "1 quiero")
    sung = [e for e in h.events if isinstance(e, (TantoSung, SonBuenas))]
    assert sung == [TantoSung(0, 30), TantoSung(1, 33), SonBuenas(2)]


def test_equal_tantos_go_to_the_player_closer_to_the_mano_not_to_the_mano_team():
    # mano is seat 0 (team 0); seats 1 (team 1) and 2 (team 0) both have 33: seat 1 is closer
    h = Hand(["4c 5o 12e", "7e 6e 1c", "7o 6o 10c", "2b 3b 11o"]).do("0 envido", "1 quiero")
    assert h.points() == [(1, 2, "envido")]
    assert SonBuenas(2) in h.events


def test_the_tanto_counts_cards_already_played():
    h = Hand(HANDS).do("0 play 7e", "1 envido", "0 quiero")
    assert TantoSung(0, 30) in h.events


def test_envido_can_be_called_only_in_your_turn_of_the_first_round_before_playing():
    h = Hand(HANDS)
    with pytest.raises(IllegalAction, match="not your turn"):
        h.do("1 envido")
    h.do("0 play 10e")
    assert Do.ENVIDO in {a.do for a in legal_actions_for(h.state, 1)}  # the pie may still call it
    h.play_round("1c", "4o", "12o")
    assert h.state.results
    assert not any(a.do in (Do.ENVIDO, Do.REAL_ENVIDO) for a in legal_actions_for(h.state, h.state.turn))


def test_the_envido_is_called_only_once_per_hand():
    h = Hand(HANDS).do("0 envido", "1 no_quiero")
    with pytest.raises(IllegalAction, match="already called"):
        h.do("0 envido")


def test_no_envido_after_the_truco_was_accepted():
    h = Hand(HANDS).do("0 truco", "1 quiero")
    with pytest.raises(IllegalAction, match="truco was accepted"):
        h.do("0 envido")


def test_el_envido_esta_primero_answering_a_truco_with_envido_then_the_same_team_answers_the_truco():
    h = Hand(HANDS).do("0 truco", "1 envido", "0 quiero")
    assert h.points() == [(1, 2, "envido")]
    assert h.state.answer_team == 1 and h.state.pending  # the truco waits for team 1 again
    assert {a.do for a in legal_actions_for(h.state, 3)} == {Do.QUIERO, Do.NO_QUIERO, Do.RETRUCO}
    h.do("3 quiero")
    assert h.state.truco_level == 1
    assert not any(a.do is Do.ENVIDO for a in legal_actions_for(h.state, 0))


def test_envido_over_a_truco_needs_a_player_of_the_answering_team_who_has_not_played():
    h = Hand(HANDS).play_round("10e", "1c", "4o").do("3 truco")
    assert Do.ENVIDO not in {a.do for a in legal_actions_for(h.state, 0)}  # seats 0 and 2 played
    h2 = Hand(HANDS).do("0 play 10e", "1 play 1c", "2 truco")
    assert Do.ENVIDO in {a.do for a in legal_actions_for(h2.state, 1)}  # seat 3 has not played


def test_envido_points_are_added_at_once_and_can_end_the_match_without_playing_the_rounds():
    h = Hand(HANDS, score=(10, 28)).do("0 envido", "1 quiero")
    assert h.score == (10, 30)
    assert h.state.match_over and h.state.winner == 1
    assert h.state.results == ()


def test_the_falta_is_worth_what_the_leading_team_lacks_and_added_by_the_trailing_team():
    h = run_chain("F", "quiero", score=(22, 10))
    assert h.score == (22, 18)
    assert not h.state.match_over


def test_the_falta_won_by_the_leading_team_wins_the_match():
    h = Hand(["7o 6o 1c", "7e 3e 10e", "12b 11b 4o", "5c 4e 12o"], score=(22, 10))
    h.do("0 falta_envido", "1 quiero")
    assert h.score == (30, 10) and h.state.match_over and h.state.winner == 0


def test_the_falta_with_equal_scores_is_what_either_lacks():
    h = run_chain("F", "quiero", score=(12, 12))
    assert h.points() == [(1, 18, "envido")]
    assert h.state.match_over


def test_falta_malas_wins_variant_wins_the_match_while_the_leader_is_in_the_malas():
    h = run_chain("F", "quiero", score=(10, 5), falta="malas_wins")
    assert h.points() == [(1, 25, "envido")]
    assert h.state.match_over and h.state.winner == 1


def test_falta_malas_wins_variant_in_the_buenas_is_worth_what_the_leader_lacks():
    h = run_chain("F", "quiero", score=(20, 5), falta="malas_wins")
    assert h.points() == [(1, 10, "envido")]


def test_falta_at_fifteen_points_uses_the_fifteen_target():
    h = run_chain("F", "quiero", score=(9, 3), target=15)
    assert h.points() == [(1, 6, "envido")]


def test_the_winner_of_the_envido_shows_their_cards_at_the_end_of_the_hand():
    h = Hand(HANDS).do("0 envido", "1 quiero")
    assert not h.of(CardsShown)
    h.do("0 mazo", "1 play 1c", "2 mazo")
    shown = h.of(CardsShown)
    assert shown == [CardsShown(1, h.state.dealt[1])]
