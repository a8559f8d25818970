"""The turn clock through the network path (fake clock): a player who never plays cannot stall the
table; the others see the countdown and the table plays the idle player's lowest card."""

from __future__ import annotations

from truco.engine.cards import POWER, parse_card
from truco.runtime import FakeClock

from .conftest import Live


async def test_an_idle_player_cannot_hold_the_table_hostage(live: Live) -> None:
    clock = live.clock
    assert isinstance(clock, FakeClock)
    host = await live.create("Ana", players=2, turn_seconds=15)
    guest = await live.join(host["code"], "Beto")
    a = await live.player(host["code"], host["token"])
    b = await live.player(host["code"], guest["token"])
    await b.command({"type": "sit", "seat": 1})
    await a.command({"type": "start"})
    await a.until(lambda p: p.view["phase"] == "playing")
    await b.until(lambda p: p.version == a.version)
    idle = a if a.view["game"]["turn"] == a.seat else b
    other = b if idle is a else a
    turn = [d for d in other.view["deadlines"] if d["kind"] == "turn"]
    assert turn == [{"kind": "turn", "at_ms": clock.now_ms() + 15_000, "seat": idle.seat}]
    lowest = min(idle.view["game"]["cards"], key=lambda c: POWER[parse_card(c)])
    v = other.version
    clock.advance(15_000)
    await live.rt.settle()
    await other.until(lambda p: p.version > v)
    events = [e for m in other.messages if m["type"] == "update" for e in m["events"]]
    assert {"type": "turn_expired", "seat": idle.seat, "misses": 1} in events
    assert {"type": "card_played", "seat": idle.seat, "card": lowest} in events
    assert other.view["game"]["turn"] == other.seat
    for p in (a, b):
        await p.close()
