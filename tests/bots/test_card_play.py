"""Team card play in the playouts: the second seat leaves the first round to its pie."""

from __future__ import annotations

from truco.bench.card_play import measure, measure_bots
from truco.bots.tricks import partner_covers, playout, sensible_card
from truco.engine import parse_card


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def test_a_seat_followed_by_a_rival_and_then_its_partner_is_covered():
    assert partner_covers(4, 1, busy=0b0001)  # 0 led; after 1 come 2 (rival) and 3 (partner)
    assert not partner_covers(4, 2, busy=0b0011)  # after 2 only 3, a rival
    assert not partner_covers(2, 1, busy=0b01)  # mano a mano nobody covers
    assert partner_covers(6, 3, busy=0b000111)
    assert not partner_covers(4, 1, busy=0b1001)  # its partner went to the mazo


def test_the_covered_seat_keeps_its_winner_and_the_pie_takes_the_round():
    """Seat 0 leads the 12 of espadas; seat 1's 3 would take the round, but a rival and then its pie
    play after it: it throws its 4 and keeps the 3, the pie takes the round with a 2, and team 1
    wins the hand with the 3 still in hand; spending the 3 at once, it loses it."""
    hand = cards("4c 11o 3o")
    plays = [(0, parse_card("12e"))]
    assert sensible_card(hand, 1, plays, [], covered=True) == parse_card("4c")
    assert sensible_card(hand, 1, plays, []) == parse_card("3o")  # the plain rule spends it
    assert sensible_card(hand, 1, plays, [1], covered=True) == parse_card("3o")  # first round only

    def held() -> list[list[int]]:
        return [cards("1o 3e"), cards("4c 11o 3o"), cards("4e 7c 11e"), cards("7b 12o 2c")]

    assert playout(4, 0, 0, held(), [], list(plays), 1, team_play=True) == 1
    assert playout(4, 0, 0, held(), [], list(plays), 1) == 0


def test_the_team_rule_wins_more_hands_than_the_plain_rule_in_four_players():
    share, low, _ = measure(players=4, deals=2000, seed=5)
    assert low > 0.5, share


def test_the_levels_card_play_is_measured_on_the_cards_alone():
    """With the calls taken out of what a level may do, the hand goes to the cards: dificil's card
    play beats random's, and a level against itself on the same deals is even by construction."""
    share, low, _ = measure_bots("dificil", "random", players=4, deals=60, seed=3)
    assert low > 0.5, share
    same, _, _ = measure_bots("facil", "facil", players=4, deals=20, seed=3)
    assert same == 0.5
