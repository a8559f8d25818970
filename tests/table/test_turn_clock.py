"""The optional turn clock: an idle player cannot hold three friends hostage (off by default)."""

from __future__ import annotations

from tests.table.table_driver import Driver
from truco.engine import Do
from truco.engine.cards import POWER

TURN = 20_000


def turn_deadlines(d: Driver) -> list[tuple[int, int]]:
    return [(x.seat, x.at_ms) for x in d.t.deadlines if x.kind == "turn"]


def test_the_turn_clock_is_off_by_default_as_at_the_reference_table():
    d = Driver()
    assert turn_deadlines(d) == []
    d.at(10 * 60_000, d.now)
    assert d.t.game is not None and not d.t.game.history  # nobody moved, nothing happened


def test_the_player_in_turn_has_turn_seconds_and_everyone_sees_the_countdown():
    d = Driver(turn_seconds=20)
    assert turn_deadlines(d) == [(d.turn, d.now + TURN)]
    assert ("turn", d.now + TURN, d.turn) in d.view(0).deadlines


def test_on_expiry_the_table_plays_the_players_lowest_card():
    d = Driver(turn_seconds=20)
    seat = d.turn
    g = d.t.game
    assert g is not None
    lowest = min(g.held[seat], key=lambda c: POWER[c])
    d.at(TURN - 1, d.now)
    assert not d.t.game.history
    d.at(TURN, d.now - (TURN - 1))
    assert d.t.game.history[-1] == (seat, Do.PLAY, lowest)
    assert d.events("turn_expired") == [{"type": "turn_expired", "seat": seat, "misses": 1}]
    assert turn_deadlines(d) == [(d.turn, d.now + TURN)]  # the next player's clock starts


def until_turn(d: Driver, seat: int) -> None:
    """The other players play their first card until it is ``seat``'s turn (a new hand if need be)."""
    for _ in range(12):
        if d.turn == seat and d.t.game is not None and not d.t.game.pending:
            return
        d.seat(d.turn, Do.PLAY, d.t.game.held[d.turn][0])
    raise AssertionError("never the seat's turn")


def test_a_player_whose_clock_expires_twice_in_a_row_is_treated_as_away():
    d = Driver(turn_seconds=20, players=2)
    idle = d.turn
    d.at(TURN, d.now)  # first miss
    until_turn(d, idle)
    d.at(TURN, d.now)  # second miss in a row
    p = d.t.seat_player(idle)
    assert p is not None and not p.connected
    assert [x.seat for x in d.t.deadlines if x.kind == "reconnect"] == [idle]  # the seed's 60 s hold
    assert d.events("disconnected")[-1]["seat"] == idle


def test_acting_oneself_restarts_the_count_and_brings_an_away_player_back():
    d = Driver(turn_seconds=20, players=2)
    idle = d.turn
    d.at(TURN, d.now)
    assert dict(d.t.turn_misses) == {idle: 1}
    until_turn(d, idle)
    d.seat(idle, Do.PLAY, d.t.game.held[idle][0])  # they play themselves: the count restarts
    assert idle not in dict(d.t.turn_misses)
    for _ in range(2):  # away after two misses in a row...
        until_turn(d, idle)
        d.at(TURN, d.now)
    assert not d.t.seat_player(idle).connected
    until_turn(d, idle)
    d.seat(idle, Do.MAZO)  # ...and back the moment they act
    p = d.t.seat_player(idle)
    assert p is not None and p.connected and not [x for x in d.t.deadlines if x.kind == "reconnect"]


def test_no_turn_clock_against_bots_only():
    d = Driver(turn_seconds=20, humans=(0,))
    assert turn_deadlines(d) == []


def test_no_turn_clock_while_a_call_waits_for_its_answer():
    d = Driver(turn_seconds=20)
    d.call_truco()
    assert turn_deadlines(d) == [] and any(x.kind == "answer" for x in d.t.deadlines)
