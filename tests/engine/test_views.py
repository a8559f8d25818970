"""Views are built per seat (architecture: "No card ever leaks")."""

from truco.engine import Do, public_to_dict, public_view, view_for
from truco.engine.cards import parse_card

from .scenario import Hand

HANDS = ["7e 3e 10e", "7o 6o 1c", "12b 11b 4o", "5c 4e 12o"]


def test_a_seat_sees_its_own_cards_and_only_the_count_of_the_others():
    h = Hand(HANDS)
    view = view_for(h.state, 2)
    assert view.cards == tuple(parse_card(c) for c in HANDS[2].split())
    assert view.public.cards_left == (3, 3, 3, 3)
    d = view.to_dict()
    assert d["cards"] == ["12b", "11b", "4o"] and d["my_tanto"] == 20
    assert "7o" not in str(d) and "7e" not in str(d)


def test_only_the_seat_in_turn_or_the_answering_team_has_legal_actions():
    h = Hand(HANDS)
    assert view_for(h.state, 0).legal and not view_for(h.state, 1).legal
    h.do("0 truco")
    assert not view_for(h.state, 0).legal and not view_for(h.state, 2).legal
    assert {a.do for a in view_for(h.state, 3).legal} >= {Do.QUIERO, Do.NO_QUIERO}
    assert view_for(h.state, 1).public.to_act == (1, 3)


def test_played_cards_and_sung_tantos_are_public():
    h = Hand(HANDS).do("0 envido", "1 quiero", "0 play 10e")
    pub = public_to_dict(public_view(h.state))
    assert pub["rounds"] == [[{"seat": 0, "card": "10e"}]]
    assert pub["sung"] == [{"seat": 0, "tanto": 30, "flor": False}, {"seat": 1, "tanto": 33, "flor": False},
                           {"seat": 2, "tanto": -1, "flor": False}]
    assert pub["shown"] == []  # the winner's cards wait for the end of the hand


def test_a_spectator_view_names_no_card_in_anybody_s_hand():
    h = Hand(HANDS)
    text = str(public_to_dict(public_view(h.state)))
    for hand in HANDS:
        for card in hand.split():
            assert f"'{card}'" not in text
