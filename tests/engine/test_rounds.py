"""Seed 000, "Reparto y mano" and "Rondas y pardas"; rulings 2–5."""

import itertools

import pytest

from truco.engine import PARDA, Rules, hand_winner, new_match, next_hand
from truco.engine.types import HandEnded, RoundEnded

from .scenario import Hand

# seat 0 is mano (dealer 3); teams: 0 & 2 against 1 & 3
FOUR = ["1e 4c 5o", "3c 4b 5b", "2e 6c 7c", "12o 11b 10e"]


def test_mano_is_the_seat_after_the_dealer():
    st, _ = new_match(Rules(), dealer=2, seed=1)
    assert st.mano == 3
    assert st.turn == 3


def test_each_player_gets_three_cards_dealt_one_at_a_time_from_the_mano():
    from truco.engine.cards import shuffled_deck
    st, _ = new_match(Rules(), dealer=0, seed=7)
    deck = shuffled_deck(7)
    assert st.dealt[1] == (deck[0], deck[4], deck[8])
    assert st.dealt[0] == (deck[3], deck[7], deck[11])
    assert sum(len(h) for h in st.dealt) == 12


@pytest.mark.parametrize("players", [2, 4, 6, 8])
def test_the_deal_and_the_mano_rotate_every_hand(players):
    st, _ = new_match(Rules(players=players), dealer=0, seed=1)
    seen = []
    for k in range(players + 1):
        seen.append((st.dealer, st.mano))
        # end the hand quickly: every seat of the team in turn goes to the mazo
        from truco.engine import Action, Do, apply
        while not st.hand_over:
            st, _ = apply(st, Action(st.turn, Do.MAZO)) if st.pending == 0 else (st, [])
        if st.match_over:
            break
        st, _ = next_hand(st, seed=k + 2)
    assert [d for d, _ in seen] == [k % players for k in range(len(seen))]
    assert all(m == (d + 1) % players for d, m in seen)


def test_the_highest_card_wins_the_round_and_its_player_leads_the_next():
    h = Hand(FOUR).play_round("4c", "4b", "6c", "10e")  # 10e (sota) beats the 6 and the cuatros
    assert h.state.results == (1,)
    assert h.state.turn == 3


def test_equal_top_cards_of_opposing_teams_make_a_parda():
    h = Hand(["3e 4c 5o", "3c 4b 5b", "2e 6c 7c", "12o 11b 10e"]).play_round("3e", "3c", "6c", "10e")
    assert h.state.results == (PARDA,)


def test_equal_top_cards_of_two_partners_win_the_round_for_their_team():
    h = Hand(["3e 4c 5o", "7c 4b 5b", "3o 6c 7b", "12o 11b 10e"]).play_round("3e", "4b", "3o", "10e")
    assert h.state.results == (0,)


def test_the_partner_who_played_the_top_card_first_leads_the_next_round():
    h = Hand(["4e 4c 5o", "7c 4b 5b", "3o 6c 7b", "3b 11b 10e"], dealer=0)  # seat 1 is mano
    h.play_round("7c", "3o", "3b", "4e")  # seat 1 leads; 3o (seat 2) and 3b (seat 3) tie: parda
    assert h.state.results == (PARDA,)
    h2 = Hand(["3e 4c 5o", "7c 4b 5b", "3o 6c 7b", "12o 11b 10e"], dealer=1)  # seat 2 is mano
    h2.play_round("3o", "12o", "3e", "7c")  # seat 2 then seat 0 (partners) both play a tres
    assert h2.state.results == (0,)
    assert h2.state.turn == 2  # seat 2 played its tres first


def test_after_a_parda_the_player_who_opened_the_tied_round_leads_again():
    h = Hand(["3e 4c 5o", "4b 3c 5b", "6c 2e 7c", "12o 11b 10e"], dealer=1)  # seat 2 is mano
    h.play_round("6c", "10e", "3e", "3c")
    assert h.state.results == (PARDA,)
    assert h.state.turn == 2


def test_a_team_that_wins_two_rounds_wins_the_hand_without_playing_the_third():
    h = Hand(FOUR).play_round("1e", "4b", "6c", "10e").play_round("4c", "5b", "2e", "11b")
    assert h.state.hand_over and h.state.hand_winner == 0
    assert len(h.state.results) == 2
    assert h.points() == [(0, 1, "truco")]


def test_a_win_then_a_parda_gives_the_hand_to_the_team_that_won():
    h = Hand(["1e 3o 5o", "4c 3b 5b", "6c 4b 7c", "12o 11b 10e"])
    h.play_round("1e", "4c", "6c", "12o")  # team 0
    h.play_round("3o", "3b", "4b", "11b")  # the treses of both teams tie: parda
    assert h.state.results == (0, PARDA)
    assert h.state.hand_over and h.state.hand_winner == 0


def test_parda_in_the_first_round_then_a_win_gives_the_hand_to_the_winner():
    h = Hand(["3e 4c 5o", "3c 4b 5b", "2e 6c 7c", "12o 11b 10e"]).play_round("3e", "3c", "6c", "10e")
    h.play_round("4c", "5b", "2e", "11b")
    assert h.state.hand_over and h.state.hand_winner == 0
    assert h.state.results == (PARDA, 0)


def test_two_pardas_then_the_third_round_decides_and_its_last_card_can_be_played():
    h = Hand(["3e 2c 5o", "3c 2b 5b", "4e 6c 7c", "4o 6b 10e"])
    h.play_round("3e", "3c", "4e", "4o").play_round("2c", "2b", "6c", "6b")
    assert h.state.results == (PARDA, PARDA) and not h.state.hand_over
    h.play_round("5o", "5b", "7c", "10e")
    assert h.state.results == (PARDA, PARDA, 1)
    assert h.state.hand_winner == 1


def test_one_round_each_and_a_parda_go_to_the_team_that_won_first():
    g = Hand(["1e 4c 5o", "3c 2b 5b", "4e 6c 12c", "4o 6b 12b"])
    g.play_round("1e", "3c", "4e", "4o")  # team 0
    g.play_round("4c", "2b", "6c", "6b")  # team 1 (seat 1 leads next)
    g.play_round("5b", "12c", "12b", "5o")  # the reyes of both teams tie: parda
    assert g.state.results == (0, 1, PARDA)
    assert g.state.hand_winner == 0


def test_one_round_each_then_the_third_round_decides():
    g = Hand(["1e 4c 5o", "3c 2b 5b", "4e 6c 12c", "4o 6b 11b"])
    g.play_round("1e", "3c", "4e", "4o").play_round("4c", "2b", "6c", "6b")
    g.play_round("5b", "12c", "11b", "5o")
    assert g.state.results == (0, 1, 0)
    assert g.state.hand_winner == 0


def test_three_pardas_give_the_hand_to_the_team_of_the_mano():
    h = Hand(["4o 6o 5o", "3c 2b 5b", "3e 2c 5c", "4e 6c 4c"], dealer=0)  # seat 1 (team 1) is mano
    h.play_round("3c", "3e", "4e", "4o").play_round("2b", "2c", "6c", "6o").play_round("5b", "5c", "4c", "5o")
    assert h.state.results == (PARDA, PARDA, PARDA)
    assert h.state.hand_winner == 1


def test_the_pardas_table_for_every_sequence_of_round_results():
    outcomes = (0, 1, PARDA)
    for k in (2, 3):
        for seq in itertools.product(outcomes, repeat=k):
            if k == 3 and hand_winner(seq[:2], 0) >= 0:
                continue  # the third round is never played
            for mano_team in (0, 1):
                got = hand_winner(seq, mano_team)
                wins = [seq.count(0), seq.count(1)]
                if max(wins) == 2:
                    expected = 0 if wins[0] == 2 else 1
                elif k == 2:
                    a, b = seq
                    if a == PARDA and b != PARDA:
                        expected = b
                    elif b == PARDA and a != PARDA:
                        expected = a
                    else:
                        expected = -1
                elif seq == (PARDA, PARDA, PARDA):
                    expected = mano_team
                elif seq[:2] == (PARDA, PARDA):
                    expected = seq[2]
                else:
                    expected = next(r for r in seq if r != PARDA)  # first to win a round
                assert got == expected, (seq, mano_team)


def test_a_hand_won_ends_with_one_hand_ended_event_and_round_events():
    h = Hand(FOUR).play_round("1e", "4b", "6c", "10e").play_round("4c", "5b", "2e", "11b")
    assert len(h.of(RoundEnded)) == 2
    assert len(h.of(HandEnded)) == 1
