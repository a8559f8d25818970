"""Seed 003: truco is played by two, four, six or eight people, by teams in the last three, seated
alternately. Eight is two teams of four; every rule of the table applies (docs/rules.md)."""

from __future__ import annotations

from truco.engine import Action, Do, Rules, apply, legal_actions, new_match, public_view


def test_eight_players_are_two_teams_of_four_seated_alternately():
    st, _ = new_match(Rules(players=8), dealer=7, seed=3)
    assert [s & 1 for s in range(8)] == [0, 1, 0, 1, 0, 1, 0, 1]
    assert st.mano == 0 and st.turn == 0


def test_with_eight_each_gets_three_cards_and_twenty_four_are_dealt():
    st, _ = new_match(Rules(players=8), dealer=0, seed=5)
    cards = [c for hand in st.dealt for c in hand]
    assert all(len(h) == 3 for h in st.dealt) and len(set(cards)) == 24


def test_with_eight_the_pie_of_each_team_is_its_last_player_from_the_mano():
    st, _ = new_match(Rules(players=8), dealer=2, seed=1)  # mano 3: order 3,4,5,6,7,0,1,2
    assert public_view(st).pies == (1, 2)


def test_with_eight_a_round_is_eight_cards_and_the_best_card_takes_it_for_its_team():
    st, _ = new_match(Rules(players=8), dealer=7, seed=11)
    for _ in range(8):
        play = next(a for a in legal_actions(st) if a.do is Do.PLAY)
        st, _ = apply(st, play)
    assert len(st.rounds) == 1 and len(st.rounds[0]) == 8 and st.results


def test_with_eight_a_team_in_the_mazo_loses_the_hand_when_its_last_player_goes():
    st, _ = new_match(Rules(players=8), dealer=7, seed=2)
    for _ in range(8):  # every player in turn goes to the mazo until one team has nobody left
        if st.hand_over:
            break
        st, _ = apply(st, Action(st.turn, Do.MAZO))
    assert st.hand_over and st.hand_winner in (0, 1)
