"""``truco bench server``: concurrent 4-seat tables over real WebSockets, and a bare echo to compare.

Everything runs on this machine: the server as a child process (one uvicorn worker, SQLite, the
in-memory bus), the simulated players in this process. Each table acts at a human pace (one card per
``--pace`` seconds); the latency of an action is the time from sending it to the moment its update
has reached all four seats. The same run measures a bare uvicorn WebSocket echo for comparison.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from truco.bench.lean_client import LeanPlayer
from truco.bench.server_process import ServerProcess, free_port

GOAL_P99_MS = 100.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tables", type=int, nargs="+", default=[100],
                        help="concurrent 4-seat tables (default 100); several counts run one after the other")
    parser.add_argument("--pace", type=float, default=1.5,
                        help="seconds between two actions of one table (default 1.5, a human pace)")
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="measured duration per count (default 20)")
    parser.add_argument("--echo-connections", type=int, default=200)
    parser.add_argument("--echo-seconds", type=float, default=5.0)
    parser.add_argument("--no-echo", action="store_true", help="skip the echo comparison")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--nodes", type=int, default=0,
                        help="run a cluster of N nodes (PostgreSQL, Redis, HAProxy started for the run) "
                             "and load it through HAProxy; 0 (default): one embedded server on SQLite")
    parser.add_argument("--kill-one", action="store_true",
                        help="with --nodes: kill -9 one node halfway and time the takeover of its tables")


# ----------------------------------------------------------------------------- echo


async def echo_rate(url: str, connections: int, seconds: float) -> float:
    """Messages per second a bare echo server returns to ``connections`` ping-ponging clients."""
    count = 0
    stop = asyncio.Event()
    started = asyncio.Event()
    payload = '{"type":"act","id":"c1","do":"play","card":"1e"}'

    async def one() -> None:
        nonlocal count
        async with connect(url, compression=None, max_queue=None, ping_interval=None) as ws:
            await started.wait()
            while not stop.is_set():
                await ws.send(payload)
                await ws.recv()
                count += 1

    tasks = [asyncio.create_task(one()) for _ in range(connections)]
    await asyncio.sleep(1.0)
    started.set()
    await asyncio.sleep(0.5)  # warm-up
    c0, t0 = count, time.perf_counter()
    await asyncio.sleep(seconds)
    rate = (count - c0) / (time.perf_counter() - t0)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return rate


def measure_echo(connections: int, seconds: float) -> float:
    port = free_port()
    with ServerProcess.echo(port) as server:
        return asyncio.run(echo_rate(server.ws_url + "/echo", connections, seconds))


# ----------------------------------------------------------------------------- tables


@dataclass(eq=False)
class _Table:
    code: str
    players: list[LeanPlayer] = field(default_factory=list)
    target: int = 0
    sent_at: float = 0.0
    done: asyncio.Event = field(default_factory=asyncio.Event)

    def on_message(self, p: LeanPlayer, msg: dict[str, Any]) -> None:
        if self.target and all(q.version >= self.target for q in self.players):
            self.target = 0
            self.done.set()


@dataclass
class _Stats:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    error_kinds: dict[str, int] = field(default_factory=dict)
    actions: int = 0

    def error(self, kind: str) -> None:
        self.errors += 1
        self.error_kinds[kind] = self.error_kinds.get(kind, 0) + 1


async def _setup_table(http: httpx.AsyncClient, port: int, n: int, stats: _Stats) -> _Table:
    host = (await http.post("/api/tables", json={"name": f"host{n}", "settings": {"players": 4}})).json()
    code = host["code"]
    tokens = [host["token"]]
    for i in range(3):
        r = await http.post(f"/api/tables/{code}/join", json={"name": f"p{n}-{i}"})
        tokens.append(r.json()["token"])
    table = _Table(code)

    def on_message(p: LeanPlayer, msg: dict[str, Any]) -> None:
        if msg.get("type") == "error":
            stats.error("error:" + str(msg.get("code")))
        table.on_message(p, msg)

    for token in tokens:
        p = LeanPlayer("127.0.0.1", port, f"/ws/{code}", on_message=on_message, token=token)
        table.players.append(await p.connect(timeout=60))
    for p in table.players:
        await p.until(lambda p: p.view is not None, 60)
    for seat, p in enumerate(table.players[1:], start=1):
        await p.send({"type": "sit", "seat": seat})
    last = table.players[3]
    await last.until(lambda p: p.view is not None and p.view["me"]["seat"] == 3, 60)
    host_p = table.players[0]
    await host_p.until(lambda p: p.view is not None and "start" in p.view["commands"], 60)
    await host_p.send({"type": "start"})
    await host_p.until(lambda p: p.view is not None and p.view["phase"] == "playing", 60)
    return table


def _next_action(table: _Table) -> tuple[LeanPlayer, dict[str, Any]] | None:
    """The next action of this table. Only the view of the player who may act is decoded (the load
    generator must not cost more than the server it measures)."""
    host = table.players[0]
    if host.view_mentions(b'"phase":"over"'):
        return host, {"type": "rematch"}
    for p in table.players:
        if not p.view_mentions(b'"commands":["act"'):
            continue
        legal = (p.view or {}).get("legal") or []
        plays = [a for a in legal if a["do"] == "play"]
        if plays:
            return p, {"type": "act", "do": "play", "card": plays[0]["card"]}
        if legal:  # a call waiting (none are made here, but never stall)
            return p, {"type": "act", "do": legal[0]["do"]}
    return None


async def _drive(table: _Table, pace: float, until: float, measure_from: float, stats: _Stats,
                 rng: random.Random) -> None:
    loop = asyncio.get_running_loop()
    next_at = loop.time() + rng.uniform(0, pace)
    while True:
        await asyncio.sleep(max(0.0, next_at - loop.time()))
        if loop.time() >= until:
            return
        next_at += pace
        step = _next_action(table)
        if step is None:
            await asyncio.sleep(0.05)
            continue
        p, msg = step
        table.done.clear()
        table.target = max(q.version for q in table.players) + 1
        sent = time.perf_counter()
        try:
            await p.send(msg)
            await asyncio.wait_for(table.done.wait(), 10)
        except TimeoutError:
            stats.error("timeout")
            table.target = 0
            continue
        except Exception as e:  # a socket closed under load is an error of the run, not a crash
            stats.error(type(e).__name__)
            return
        if sent >= measure_from:
            stats.latencies.append((time.perf_counter() - sent) * 1000)
            stats.actions += 1


def _cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


Probe = Callable[[], dict[str, float]]
"""Counters sampled when the measured window opens and closes (the difference is reported)."""


async def _run_tables(server: ServerProcess, tables: int, pace: float, seconds: float,
                      pids: list[int] | None = None, counters: Probe | None = None,
                      midway: Callable[[], Awaitable[dict[str, Any]]] | None = None) -> dict[str, Any]:
    """``pids``: the server processes whose CPU is measured (default: ``server``'s); ``midway``: run
    halfway through the measured window (a node killed), its figures added to the result."""
    stats = _Stats()
    rng = random.Random(1)
    t0 = time.perf_counter()
    limits = httpx.Limits(max_connections=64)
    async with httpx.AsyncClient(base_url=server.url, limits=limits, timeout=60) as http:
        sem = asyncio.Semaphore(32)

        async def one(n: int) -> _Table:
            async with sem:
                return await _setup_table(http, server.port, n, stats)

        made = await asyncio.gather(*(one(n) for n in range(tables)), return_exceptions=True)
    ready = [t for t in made if isinstance(t, _Table)]
    for t in made:
        if not isinstance(t, _Table):
            stats.error("setup:" + type(t).__name__)
    setup_s = time.perf_counter() - t0
    loop = asyncio.get_running_loop()
    warmup = min(3.0, pace * 2)
    start = loop.time()
    measure_from = time.perf_counter() + warmup
    assert pids or server.proc is not None
    lags: list[float] = []

    async def lag_probe() -> None:
        """How late this process's own event loop runs: the load generator's share of latency."""
        while True:
            t = loop.time()
            await asyncio.sleep(0.01)
            lags.append((loop.time() - t - 0.01) * 1000)

    probe = asyncio.create_task(lag_probe())
    drivers = [asyncio.create_task(_drive(t, pace, start + warmup + seconds, measure_from, stats, rng))
               for t in ready]
    await asyncio.sleep(warmup)
    pids = pids or [server.proc.pid]  # type: ignore[union-attr]
    cpus0 = [_cpu_seconds(pid) for pid in pids]
    bytes0 = sum(p.bytes_in for t in ready for p in t.players)
    probed0 = counters() if counters is not None else {}
    wall0 = time.perf_counter()
    own0 = _cpu_seconds(os.getpid())
    lags.clear()
    extra: dict[str, Any] = {}

    async def halfway() -> None:
        assert midway is not None
        await asyncio.sleep(seconds / 2)
        extra.update(await midway())

    mid = asyncio.create_task(halfway()) if midway is not None else None
    await asyncio.gather(*drivers)
    if mid is not None:
        await mid
    wall = time.perf_counter() - wall0
    cpus = [_cpu_seconds(pid) - c0 for pid, c0 in zip(pids, cpus0, strict=True)]
    probed = {k: v - probed0.get(k, 0.0) for k, v in counters().items()} if counters is not None else {}
    bytes_in = sum(p.bytes_in for t in ready for p in t.players) - bytes0
    server_cpu = sum(cpus) / wall
    client_cpu = (_cpu_seconds(os.getpid()) - own0) / wall
    probe.cancel()
    lags.sort()
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=10) as http:
            health = (await http.get("/health", params={"window": str(min(60.0, seconds))})).json()
    except (httpx.HTTPError, ValueError):
        health = {}
    closed = sum(1 for t in ready for p in t.players if p.closed)
    if closed:
        stats.error(f"closed_sockets:{closed}")
    for t in ready:
        for p in t.players:
            with contextlib.suppress(Exception):
                await p.close()
    lat = sorted(stats.latencies)
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] if lat else float("nan")
    return {
        "tables": tables, "sockets": 4 * len(ready), "pace_s": pace, "seconds": seconds,
        "actions": stats.actions, "actions_per_s": round(stats.actions / seconds, 1),
        "p50_ms": round(statistics.median(lat), 1) if lat else None,
        "p99_ms": round(p99, 1) if lat else None,
        "max_ms": round(lat[-1], 1) if lat else None,
        "errors": stats.errors, "error_kinds": stats.error_kinds,
        "server_cpu": round(server_cpu, 2), "client_cpu": round(client_cpu, 2),
        "client_loop_lag_p99_ms": round(lags[int(len(lags) * 0.99)], 1) if lags else None,
        "server_loop_lag_p99_ms": health.get("loop_lag_p99_ms"),
        "server_loop_lag_max_ms": health.get("loop_lag_max_ms"),
        "server_gc_max_ms": health.get("gc_max_ms"),
        "server_gc_max_ms_by_generation": health.get("gc_max_ms_by_generation"),
        "load_average": round(os.getloadavg()[0], 2), "setup_s": round(setup_s, 1),
        "goal_met": bool(lat) and p99 <= GOAL_P99_MS and stats.errors == 0,
        "cpu_ms_per_action_by_process": [round(c * 1000 / max(1, stats.actions), 2) for c in cpus],
        "bytes_to_players_per_action": round(bytes_in / max(1, stats.actions)),
        "per_s": {k: round(v / wall, 1) for k, v in probed.items()},
        **extra,
    }


def measure_tables(tables: int, pace: float, seconds: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="truco-bench-") as tmp:
        port = free_port()
        server = ServerProcess.truco(port, Path(tmp) / "bench.db", env={"TRUCO_HTTP_RATE": "0"})
        with server.start(timeout=30):
            return asyncio.run(_run_tables(server, tables, pace, seconds))


def raise_fd_limit() -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def run(args: argparse.Namespace) -> int:
    raise_fd_limit()
    runs = []
    for n in args.tables:
        r = measure_tables(n, args.pace, args.seconds)
        runs.append(r)
        if not args.json:
            print(f"{n} tables, one action per table every {args.pace:g} s, {args.seconds:g} s measured:")
            print(f"  {r['actions_per_s']} actions/s, p50 {r['p50_ms']} ms, p99 {r['p99_ms']} ms, "
                  f"max {r['max_ms']} ms, errors {r['errors']} {r['error_kinds'] or ''}")
            print(f"  server CPU {r['server_cpu']:.0%} of a core, load generator {r['client_cpu']:.0%} "
                  f"(its loop lag p99 {r['client_loop_lag_p99_ms']} ms), load average {r['load_average']}")
            print(f"  server loop lag p99 {r['server_loop_lag_p99_ms']} ms, "
                  f"max {r['server_loop_lag_max_ms']} ms; longest GC pause {r['server_gc_max_ms']} ms "
                  f"(by generation {r['server_gc_max_ms_by_generation']})")
            print(f"  setup {r['setup_s']} s; "
                  f"goal (p99 <= {GOAL_P99_MS:g} ms, no errors) {'met' if r['goal_met'] else 'NOT met'}",
                  flush=True)
    result: dict[str, Any] = dict(runs[-1])
    if len(runs) > 1:
        result["runs"] = runs
    held = [r["tables"] for r in runs if r["goal_met"]]
    result["largest_tables_meeting_goal"] = max(held) if held else None
    if not args.no_echo:
        result["echo_msgs_per_s"] = round(measure_echo(args.echo_connections, args.echo_seconds))
        result["echo_connections"] = args.echo_connections
        if not args.json:
            print(f"bare WebSocket echo, {args.echo_connections} connections: "
                  f"{result['echo_msgs_per_s']:,} messages/s")
    if args.json:
        print(json.dumps(result))
    return 0
