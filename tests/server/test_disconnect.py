"""Ruling 18 through the network path: a socket that drops keeps its seat for 60 s; a player who
comes back in time finds their cards; one who does not cancels the match for everyone.

The server runs in the test's loop on a fake clock, so no test sleeps for the 60 s to pass."""

from __future__ import annotations

from truco.bench.player_client import WsPlayer
from truco.runtime import FakeClock

from .conftest import Live


async def _playing(live: Live) -> tuple[str, str, WsPlayer, WsPlayer]:
    host = await live.create("Ana", players=2)
    guest = await live.join(host["code"], "Beto")
    a = await live.player(host["code"], host["token"])
    b = await live.player(host["code"], guest["token"])
    await b.command({"type": "sit", "seat": 1})
    await a.command({"type": "start"})
    await a.until(lambda p: p.view["phase"] == "playing")
    await b.until(lambda p: p.version == a.version)
    return host["code"], guest["token"], a, b


def _seat_connected(p: WsPlayer, seat: int) -> bool:
    return bool(p.view["seats"][seat]["connected"])


async def test_a_player_who_returns_within_60_s_keeps_the_seat_and_the_cards(live: Live) -> None:
    clock = live.clock
    assert isinstance(clock, FakeClock)
    code, token, a, b = await _playing(live)
    cards = b.view["game"]["cards"]
    await b.close()
    await a.until(lambda p: not _seat_connected(p, 1))
    assert a.view["seats"][1]["held_until_ms"] == clock.now_ms() + 60_000
    clock.advance(59_999)
    await live.rt.settle()
    back = await live.player(code, token)
    assert back.seat == 1 and back.view["game"]["cards"] == cards
    await a.until(lambda p: _seat_connected(p, 1))
    clock.advance(10_000)
    await live.rt.settle()
    assert a.view["phase"] == "playing" and live.rt.table(code).phase == "playing"


async def test_a_player_who_does_not_return_cancels_the_match_for_everyone(live: Live) -> None:
    clock = live.clock
    assert isinstance(clock, FakeClock)
    code, _, a, b = await _playing(live)
    spectator = await live.player(code, None)
    await b.close()
    await a.until(lambda p: not _seat_connected(p, 1))
    clock.advance(60_000)
    await live.rt.settle()
    await a.until(lambda p: p.view["phase"] == "lobby")
    events = [e["type"] for m in a.messages if m["type"] == "update" for e in m["events"]]
    assert "match_cancelled" in events
    assert a.view["result"]["cancelled"] is True
    await spectator.until(lambda p: p.view["phase"] == "lobby")
    assert spectator.view["result"]["cancelled"] is True
