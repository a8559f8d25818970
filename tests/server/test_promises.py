"""The promises of docs/protocol.md that had no test, each over real sockets: a client that stops
reading, a resync after a real gap, the 10 s window at its edges, a bot partner that never votes, no
deadlines against bots only, idle tables closed with their logs kept."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
from typing import Any

import orjson
import pytest
from websockets.asyncio.client import connect
from websockets.typing import Subprotocol

from truco.bench.player_client import WsPlayer
from truco.protocol import SUBPROTOCOL, TOKEN_PREFIX, CloseCode, RateLimiter
from truco.runtime import FakeClock
from truco.server.socket import SocketLimits

from .conftest import Live, serving


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


async def _table(lv: Live, players: int, seats: dict[int, str], bots: dict[int, str] | None = None,
                 **settings: Any) -> tuple[str, dict[int, WsPlayer]]:
    """A started table: humans by seat (seat 0 is the host), bots by seat."""
    host = await lv.create(seats[0], players=players, **settings)
    code = host["code"]
    people = {0: await lv.player(code, host["token"])}
    for seat, name in seats.items():
        if seat:
            guest = await lv.join(code, name)
            people[seat] = await lv.player(code, guest["token"])
            assert (await people[seat].command({"type": "sit", "seat": seat}))["type"] == "ack"
    for seat, level in (bots or {}).items():
        assert (await people[0].command({"type": "add_bot", "seat": seat, "level": level}))["type"] == "ack"
    assert (await people[0].command({"type": "start"}))["type"] == "ack"
    for p in people.values():
        await p.until(lambda p: p.view["phase"] == "playing" and p.version == lv.rt.version(code))
    return code, people


def _events(p: WsPlayer, kind: str) -> list[dict[str, Any]]:
    return [e for m in p.messages if m["type"] == "update" for e in m["events"] if e["type"] == kind]


@pytest.mark.slow
async def test_a_client_that_stops_reading_is_closed_and_the_server_memory_stays_flat() -> None:
    async with serving(limits=SocketLimits(rate=10_000, burst=10_000)) as lv:
        host = await lv.create("Ana", players=4)
        code = host["code"]
        ana = await WsPlayer(lv.base_ws, code, host["token"], keep_frames=False).connect()  # keeps no copies
        # a spectator that completes the handshake, then never reads again
        reader, writer = await asyncio.open_connection("127.0.0.1", int(lv.base_http.rsplit(":", 1)[1]))
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write((f"GET /ws/{code} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                      f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        await writer.drain()
        await reader.readuntil(b"\r\n\r\n")
        for _ in range(1000):  # at most 10 s: a busy machine is slow to register the socket
            if lv.rt.watchers(code) == 1:
                break
            await asyncio.sleep(0.01)
        assert lv.rt.watchers(code) == 1
        before = _rss_mb()
        sent = 0
        while lv.rt.watchers(code) and sent < 6000:  # each update is a full view (~2 KB)
            for level in ("random", None):
                cmd = {"type": "add_bot", "seat": 1, "level": level} if level else {"type": "remove_bot",
                                                                                     "seat": 1}
                await ana.send(cmd)
                sent += 1
            if sent % 200 == 0:
                await ana.until(lambda p: p.version >= lv.rt.version(code))
        for _ in range(300):  # the socket's writer is given a few seconds, then dropped
            if not lv.rt.watchers(code):
                break
            await asyncio.sleep(0.05)
        assert lv.rt.watchers(code) == 0, f"still watching after {sent} updates"
        grown = _rss_mb() - before
        assert grown < 25, f"the server kept what the client did not read: +{grown:.0f} MB, {sent} updates"
        assert not ana.closed  # the table and its players never noticed
        writer.close()
        await ana.close()


async def test_a_resync_after_a_real_gap_gets_a_snapshot_at_the_current_version(live: Live) -> None:
    host = await live.create("Ana", players=4)
    code = host["code"]
    ana = await live.player(code, host["token"])
    guest = await live.join(code, "Beto")
    offered = [Subprotocol(SUBPROTOCOL), Subprotocol(TOKEN_PREFIX + guest["token"])]
    async with connect(f"{live.base_ws}/ws/{code}", subprotocols=offered) as ws:
        seen = orjson.loads(await ws.recv())["version"]  # the hello
        while seen < live.rt.version(code):  # then the update of its own arrival
            seen = orjson.loads(await ws.recv())["version"]
        await ana.command({"type": "add_bot", "seat": 1, "level": "random"})
        await ana.command({"type": "add_bot", "seat": 2, "level": "random"})
        first = orjson.loads(await ws.recv())  # the frame a flaky network "loses"
        assert first["version"] == seen + 1
        second = orjson.loads(await ws.recv())
        assert second["version"] == seen + 2  # the client sees the gap: it missed seen + 1
        await ws.send(orjson.dumps({"type": "resync", "since": seen}).decode())
        snap = orjson.loads(await ws.recv())
        assert snap["type"] == "snapshot" and snap["reason"] == "resync"
        assert snap["version"] == live.rt.version(code) and snap["view"] == second["view"]
    await ana.close()


@pytest.mark.parametrize(("after_ms", "agreed"), [(9_999, True), (10_000, False)])
async def test_the_vote_window_agrees_at_9999_ms_and_expires_at_exactly_10_s(after_ms: int,
                                                                            agreed: bool) -> None:
    clock = FakeClock()
    async with serving(clock=clock) as lv:
        _, people = await _table(lv, 4, {0: "Ana", 1: "Beto", 2: "Caro", 3: "Dani"})
        turn = people[0].view["game"]["turn"]
        assert (await people[turn].command({"type": "act", "do": "truco"}))["type"] == "ack"
        a, b = people[(turn + 1) % 4], people[(turn + 3) % 4]
        await a.until(lambda p: bool(p.view["vote"] and p.view["vote"]["options"]))
        await a.command({"type": "vote", "answer": "quiero"})
        await b.command({"type": "vote", "answer": "no_quiero"})
        window = a.view["vote"]["window_ends_ms"]
        assert window == clock.now_ms() + 10_000
        clock.advance(after_ms)
        await lv.rt.settle()
        if agreed:
            reply = await b.command({"type": "vote", "answer": "quiero"})
            assert reply["type"] == "ack"
            await a.until(lambda p: bool(_events(p, "vote_decided")))
            assert _events(a, "vote_decided")[-1]["answer"] == "quiero" and not _events(a, "vote_expired")
        else:
            await a.until(lambda p: bool(_events(p, "vote_decided")))
            assert _events(a, "vote_expired") and _events(a, "vote_decided")[-1]["answer"] == "no_quiero"
            reply = await b.command({"type": "vote", "answer": "quiero"})
            assert reply["type"] == "error"  # too late: the hand went on without that call
        for p in people.values():
            await p.close()


async def test_a_bot_with_a_human_partner_never_casts_the_teams_vote() -> None:
    clock = FakeClock()
    async with serving(clock=clock) as lv:
        code, people = await _table(lv, 4, {0: "Ana", 1: "Beto"}, {2: "normal", 3: "normal"})
        for _ in range(40):  # the bots play until a human may call truco (a human answers their calls)
            await lv.rt.settle()
            for p in people.values():
                await p.until(lambda p: p.version == lv.rt.version(code))
            mover = next((p for p in people.values() if p.view["legal"]), None)
            assert mover is not None
            dos = {a["do"] for a in mover.view["legal"]}
            if "truco" in dos and mover.view["vote"] is None:
                break
            choice = "quiero" if "quiero" in dos else "play"
            a = next(a for a in mover.view["legal"] if a["do"] == choice)
            await mover.command({"type": "act", **{k: v for k, v in a.items() if k != "seat"}})
        else:
            raise AssertionError("no human could call truco")
        turn = mover.seat
        assert (await mover.command({"type": "act", "do": "truco"}))["type"] == "ack"
        voter = people[1 - turn]
        await lv.rt.settle()  # the bot partner had every chance to answer
        clock.advance(20_000)
        await lv.rt.settle()
        await voter.until(lambda p: p.version == lv.rt.version(code))
        vote = voter.view["vote"]
        assert vote is not None and vote["mine"] and vote["hint"] is not None  # it hinted, did not vote
        assert [v["seat"] for v in vote["votes"]] == [voter.seat]
        await voter.command({"type": "vote", "answer": "quiero"})
        await voter.until(lambda p: bool(_events(p, "vote_decided")))
        assert _events(voter, "vote_decided")[-1]["answer"] == "quiero"
        for p in people.values():
            await p.close()


async def test_against_bots_only_there_are_no_deadlines_even_when_the_human_drops() -> None:
    clock = FakeClock()
    async with serving(clock=clock) as lv:
        code, people = await _table(lv, 4, {0: "Ana"}, {1: "normal", 2: "normal", 3: "normal"},
                                    turn_seconds=10)
        await people[0].close()
        clock.advance(60 * 60 * 1000)
        await lv.rt.settle()
        t = lv.rt.table(code)
        assert t.phase == "playing" and t.deadlines == ()


async def test_an_idle_table_is_closed_and_its_log_and_match_are_kept() -> None:
    clock = FakeClock()
    async with serving(clock=clock) as lv:
        code, people = await _table(lv, 2, {0: "Ana"}, {1: "normal"})
        await people[0].close()
        for _ in range(1000):  # at most 10 s; then it must be gone, or the idle clock proves nothing
            if not lv.rt.table(code).players[0].connected:
                break
            await asyncio.sleep(0.01)
        assert not lv.rt.table(code).players[0].connected
        clock.advance(6 * 3600 * 1000)
        await lv.rt.settle()
        assert code not in lv.rt.table_ids()
        log = lv.storage.log(code)
        assert log and log[-1].command["type"] == "abandon"
        (match,) = lv.storage.matches(code)
        assert match["result"]["cancelled"] and match["result"]["reason"] == "abandoned"
        again = await WsPlayer(lv.base_ws, code, None).connect()
        await again.until(lambda p: p.closed)
        assert again.close_code == CloseCode.TABLE_CLOSED
        with contextlib.suppress(Exception):
            await again.close()


def test_the_default_rate_limit_closes_a_flood_just_above_it_after_about_30_s() -> None:
    """docs/protocol.md: 10 messages/s per socket, bursts of 30. At 11 a second the bucket drains by
    one a second, so the first refusal comes after about 30 s (on the limiter's own clock: no waiting)."""
    limits = SocketLimits()
    assert (limits.rate, limits.burst) == (10, 30)
    bucket = RateLimiter(limits.rate, limits.burst)
    sent = 0
    while sent < 11 * 60 and bucket.allow(sent / 11):
        sent += 1
    assert 28 <= sent / 11 <= 31, sent


@pytest.mark.slow
async def test_a_flood_just_above_the_rate_limit_closes_with_policy_and_other_tables_play_on() -> None:
    """11 messages a second against a limit of 10: the bucket drains by one a second, so once the
    burst is spent the socket closes with 1008; meanwhile another table's pings are answered promptly
    and the server's memory does not grow. The burst is 5 here, so the flood lasts about 5 s rather
    than the 30 s of the default 30 (the default limits against the same flood: the test above)."""
    async with serving(limits=SocketLimits(rate=10, burst=5)) as lv:
        flooder_host = await lv.create("Ana", players=2)
        calm_host = await lv.create("Beto", players=2)
        flooder = await lv.player(flooder_host["code"], flooder_host["token"])
        calm = await WsPlayer(lv.base_ws, calm_host["code"], calm_host["token"], keep_frames=False).connect()
        before = _rss_mb()
        loop = asyncio.get_running_loop()
        started = loop.time()
        lags: list[float] = []
        pongs = 0

        def count(p: WsPlayer, msg: dict[str, Any]) -> None:
            nonlocal pongs
            pongs += msg["type"] == "pong"

        calm.on_message = count
        tick = 0
        while not flooder.closed and loop.time() - started < 60:
            await flooder.send_raw('{"type":"ping"}')
            tick += 1
            if tick % 11 == 0:  # once a second the other table pings too
                sent_at, expected = loop.time(), pongs + 1
                await calm.send_raw('{"type":"ping"}')
                await calm.until(lambda p, n=expected: pongs >= n, timeout=10)  # type: ignore[misc]
                lags.append(loop.time() - sent_at)
            await asyncio.sleep(max(0.0, started + tick / 11 - loop.time()))
        await flooder.until(lambda p: p.closed)
        assert flooder.close_code == CloseCode.POLICY and loop.time() - started < 60
        assert lags and max(lags) < 2.0, lags  # not stalled: benchmarks measure the p99, not tests
        assert _rss_mb() - before < 20
        assert not calm.closed
        await calm.close()
