"""Rulings 18 and 19: disconnection holds the seat 60 s; against bots only there are no deadlines."""

from __future__ import annotations

import pytest

from tests.table.table_driver import Driver
from truco.engine import Do
from truco.table import Facts, TableError

HOLD = 60_000


def test_ruling18_a_disconnected_seat_is_held_60_s():
    d = Driver()
    t0 = d.now
    d.drop(2)
    held = [x for x in d.t.deadlines if x.kind == "reconnect"]
    assert [(x.seat, x.at_ms) for x in held] == [(2, t0 + HOLD)]
    assert d.view(0).seats[2].held_until_ms == t0 + HOLD
    assert not d.view(0).seats[2].connected


def test_ruling18_the_table_waits_on_a_disconnected_seats_turn():
    d = Driver()
    turn = d.turn
    d.drop(turn)
    d.at(HOLD - 1, d.now)
    assert d.t.phase == "playing" and d.turn == turn
    other = (turn + 1) % 4
    with pytest.raises(TableError, match="not your turn"):
        d.seat(other, Do.MAZO)


def test_ruling18_return_restores_seat_cards_and_state():
    d = Driver()
    turn = d.turn
    before = d.view(turn)
    d.drop(turn)
    d.now += HOLD - 1
    d.back(turn)
    after = d.view(turn)
    assert after.my_seat == before.my_seat
    assert after.game is not None and before.game is not None
    assert after.game.cards == before.game.cards and after.legal == before.legal
    assert not [x for x in d.t.deadlines if x.kind == "reconnect"]
    d.at(HOLD, d.now)
    assert d.t.phase == "playing"


def test_ruling18_after_60_s_the_match_is_cancelled_nobody_scores_and_all_return_to_the_lobby():
    d = Driver()
    t0 = d.now
    d.drop(3)
    out = d.at(HOLD, t0)
    assert d.t.phase == "lobby" and d.t.game is None
    assert d.t.result is not None and d.t.result.cancelled and d.t.result.winner == -1
    assert d.events("match_cancelled")
    (record,) = out.records
    assert record["result"]["cancelled"] and record["hands"]  # kept as a record
    assert d.t.seats[3].empty  # the seat is free for someone else


def test_ruling18_a_pending_vote_counts_as_no_quiero_at_disconnection():
    d = Driver()
    caller = d.call_truco()
    a, b = 1 - caller % 2, 1 - caller % 2 + 2
    d.seat(a, Do.NO_QUIERO)
    d.drop(b)  # b's vote is "no quiero" at once: unanimous
    assert d.t.vote is None
    assert d.events("vote_decided")[-1]["answer"] == "no_quiero"


def test_ruling18_disconnection_during_a_split_vote_ends_in_no_quiero_when_the_window_ends():
    d = Driver()
    caller = d.call_truco()
    t0 = d.now
    a, b = 1 - caller % 2, 1 - caller % 2 + 2
    d.seat(a, Do.QUIERO)
    d.drop(b)
    assert d.t.vote is not None and d.t.vote.vote_of(b) is Do.NO_QUIERO
    assert any(x.kind == "vote_window" for x in d.t.deadlines)
    d.at(10_000, t0)
    assert d.t.vote is None and d.events("vote_decided")[-1]["answer"] == "no_quiero"


def test_ruling19_against_bots_only_there_are_no_deadlines():
    d = Driver(humans=(0,))
    while Facts(d.t).bots_to_act():
        from truco.table import bot_view
        s = Facts(d.t).bots_to_act()[0]
        a = next(x for x in bot_view(Facts(d.t), s).legal if x.do is Do.PLAY)
        d.bot(s, a.do, a.card)
    d.drop(0)
    assert d.t.deadlines == ()
    d.at(10 * HOLD, d.now)
    assert d.t.phase == "playing"


def test_ruling19_two_partners_against_bots_have_no_deadlines_either():
    d = Driver(humans=(0, 2))
    assert not d.t.deadlines_on
    d.drop(2)
    assert d.t.deadlines == ()


def test_a_stale_deadline_does_nothing():
    d = Driver()
    t0 = d.now
    d.drop(1)
    d.now = t0 + 1_000
    d.back(1)
    out = d.at(HOLD, t0)  # the timer for the old hold fires: nothing is due any more
    assert not out.changed and d.t.phase == "playing"


def test_ruling19_against_bots_a_disconnection_forces_no_vote():
    d = Driver(humans=(0, 2))
    if d.turn % 2 == 0:  # a human leads: they play, and the next seat is a bot
        card = next(a for a in d.view(d.turn).legal if a.do is Do.PLAY)
        d.seat(d.turn, Do.PLAY, card.card)
    d.bot(d.turn, Do.TRUCO)
    assert d.t.vote is not None and d.t.vote.team == 0
    d.drop(2)
    assert d.t.vote is not None and d.t.vote.vote_of(2) is None
    d.back(2)
    d.seat(0, Do.QUIERO)
    d.seat(2, Do.QUIERO)
    assert d.t.vote is None and d.t.game is not None and d.t.game.truco_level == 1


def test_a_newcomer_in_a_freed_seat_gets_a_plain_waiting_room_not_the_cancelled_match():
    d = Driver()
    d.drop(3)
    d.at(HOLD, d.now)
    assert d.t.phase == "lobby" and d.view(0).result is not None  # those who were there are told
    from truco.table import Join, Sit
    d.system(Join("Nuevo", "tok-new"))
    newcomer = len(d.t.players) - 1
    d.send(newcomer, Sit(3))
    from truco.table import table_view
    assert table_view(Facts(d.t), newcomer).result is None
    assert d.view(0).result is not None and d.view(0).result.name == "p3"


def test_a_cancelled_match_names_who_did_not_come_back():
    d = Driver()
    d.drop(2)
    d.at(HOLD, d.now)
    r = d.t.result
    assert r is not None and (r.reason, r.seat, r.name) == ("disconnected", 2, "p2")
    assert d.events("match_cancelled")[-1] == {"type": "match_cancelled", "seat": 2, "name": "p2",
                                               "reason": "disconnected"}
