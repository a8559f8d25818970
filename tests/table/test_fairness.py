"""Verifiable deals at the table (docs/fairness.md): commit before, contribute, reveal after."""

from __future__ import annotations

import pytest

from truco.engine import Do
from truco.engine.fairness import Reveal, commitment, verify_deal, verify_record
from truco.table import Contribute, Join, Start, TableError, command_from_dict, command_to_dict
from truco.table.fairness import hand_secret

from .table_driver import Driver
from .test_lobby import finish_match

A = "0123456789abcdef0123456789abcdef"
B = "fedcba9876543210fedcba9876543210"


def end_hand(d: Driver) -> None:
    """The seat in turn calls truco; the other team declines."""
    caller = d.call_truco()
    for s in range(1 - caller % 2, len(d.t.seats), 2):
        if d.t.vote is not None and s in d.pid_of_seat:
            d.seat(s, Do.NO_QUIERO)


def test_the_first_hands_commitment_is_shown_in_the_lobby_and_kept_by_the_deal():
    d = Driver(start=False)
    shown = d.view(1).fairness["next"]
    assert (shown["match_no"], shown["hand_no"]) == (1, 1)
    d.send(0, Start())
    assert d.view(1).fairness["current"]["commitment"] == shown["commitment"]


def test_the_next_hands_commitment_is_shown_while_this_hand_is_played():
    d = Driver()
    nxt = d.view(2).fairness["next"]
    assert (nxt["match_no"], nxt["hand_no"]) == (1, 2)
    end_hand(d)
    assert d.t.hand_no == 2 and d.view(2).fairness["current"]["commitment"] == nxt["commitment"]


def test_a_hands_secret_is_revealed_to_everyone_when_it_is_over_and_matches_its_commitment():
    d = Driver()
    committed = d.view(3).fairness["current"]["commitment"]
    dealt = d.t.game.dealt if d.t.game else ()
    assert d.view(3).fairness["revealed"] is None
    end_hand(d)
    revealed = d.view(3).fairness["revealed"]
    assert revealed["hand_no"] == 1 and revealed["commitment"] == committed
    assert commitment(bytes.fromhex(revealed["secret"])) == committed
    assert verify_deal(Reveal.from_dict(revealed), dealt, known_commitment=committed) == dealt
    event = d.events("deal_revealed")[-1]
    assert event["secret"] == revealed["secret"] and event["seed"] == revealed["seed"]


def test_each_seats_contribution_goes_into_the_next_deal_in_seat_order():
    d = Driver()
    d.send(d.pid_of_seat[1], Contribute(1, 2, A))
    d.send(d.pid_of_seat[2], Contribute(1, 2, B))
    assert d.view(1).fairness["next"]["mine"] and not d.view(3).fairness["next"]["mine"]
    end_hand(d)
    assert d.view(0).fairness["current"]["contributed"] == [1, 2]
    end_hand(d)
    revealed = d.view(0).fairness["revealed"]
    assert revealed["hand_no"] == 2 and revealed["contributions"] == [None, A, B, None]


def test_a_contribution_changes_the_cards_the_same_secret_deals():
    plain, given = Driver(), Driver()
    given.send(0, Contribute(1, 2, A))
    end_hand(plain)
    end_hand(given)
    assert plain.t.seal is not None and given.t.seal is not None
    assert plain.t.seal.secret == given.t.seal.secret
    assert plain.t.game is not None and given.t.game is not None
    assert plain.t.game.dealt != given.t.game.dealt


def to_mazo(d: Driver) -> None:
    """Every seat in turn goes to the mazo (bots through the runtime's command) until the hand ends."""
    hand = d.t.hand_no
    while d.t.hand_no == hand:
        if d.turn in d.pid_of_seat:
            d.seat(d.turn, Do.MAZO)
        else:
            d.bot(d.turn, Do.MAZO)


def test_a_bots_seat_contributes_nothing_and_counts_as_absent():
    d = Driver(humans=(0, 2))
    d.send(0, Contribute(1, 2, A))
    to_mazo(d)
    to_mazo(d)
    assert d.view(0).fairness["revealed"]["contributions"] == [A, None, None, None]


def test_a_contribution_for_a_hand_already_dealt_is_refused():
    d = Driver()
    with pytest.raises(TableError, match="already dealt") as e:
        d.send(1, Contribute(1, 1, A))
    assert e.value.reason == "contribution_late"


def test_one_contribution_per_player_and_deal():
    d = Driver()
    d.send(1, Contribute(1, 2, A))
    with pytest.raises(TableError, match="already"):
        d.send(1, Contribute(1, 2, B))


def test_a_contribution_is_32_hex_digits_and_not_all_zero():
    d = Driver()
    for bad in ("0" * 32, "xyz", A.upper()):
        with pytest.raises(TableError) as e:
            d.send(1, Contribute(1, 2, bad))
        assert e.value.reason == "bad_contribution"


def test_only_a_seated_player_contributes():
    d = Driver(start=False, humans=(0,))
    d.system(Join("mirón", "tok-x"))
    with pytest.raises(TableError, match="seated"):
        d.send(1, Contribute(1, 1, A))


def test_a_contribution_is_stored_in_the_log_like_any_command():
    cmd = Contribute(3, 7, A)
    assert command_from_dict(command_to_dict(cmd)) == cmd


def test_nothing_given_for_a_hand_never_dealt_carries_over_to_the_next_match():
    d = Driver(target=15)
    finish_match(d)
    assert d.t.contributions == ()
    d.send(1, Contribute(2, 1, A))
    assert d.view(1).fairness["next"]["mine"]


def test_the_match_record_verifies_offline_deal_by_deal():
    d = Driver(target=15)
    d.send(1, Contribute(1, 2, A))
    finish_match(d)
    record = {"deals": [{k: h[k] for k in ("dealer", "hands", "actions", "fairness")} for h in d.t.hands]}
    checked = verify_record(record)
    assert len(checked) == len(d.t.hands) and checked[1]["contributions"] == 1


def test_the_secret_of_the_next_hand_differs_from_hand_to_hand_and_match_to_match():
    d = Driver(start=False)
    secrets = {hand_secret(d.t, m, h) for m in (1, 2) for h in (1, 2, 3)}
    assert len(secrets) == 6
