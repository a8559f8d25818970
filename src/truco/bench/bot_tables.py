"""Bot tables and the event loop: how long everybody else waits while bots think.

Tables of one person and three bots (``maestro`` by default) play on one runtime, in real time, with
no thinking delay; the person plays the first legal action whenever it is asked. Meanwhile two probes
measure what the other players of the server feel: the loop's lag (a 5 ms sleep, and how late it
wakes) and the round trip of a command at a quiet table of people (a refused one: the whole path
through its mailbox, nothing stored). With ``--workers N`` the bots think in N processes of their own
(``truco.runtime.bot_workers``, as ``truco serve --bot-workers``), else on the runtime's bots'
thread. Figures are printed, never asserted.
``python -m truco.bench.bot_tables`` (``truco bench bots``).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import time
from typing import Any

import msgspec

from truco.bots.stats import percentile
from truco.protocol import ServerMessage
from truco.runtime.clock import SystemClock
from truco.runtime.runtime import Runtime
from truco.storage import MemoryStorage
from truco.table import parse_command


class _Person:
    """The one person of a bot table: plays the first legal action it is offered, at once."""

    def __init__(self) -> None:
        self.legal: list[dict[str, Any]] = []
        self.phase = ""
        self.news = asyncio.Event()

    def __call__(self, msg: ServerMessage | str) -> None:
        if isinstance(msg, str):  # an already encoded frame: nothing this person reads
            return
        view = msgspec.to_builtins(msg).get("view")
        if view is not None:
            self.legal = list(view.get("legal") or [])
            self.phase = str(view.get("phase"))
            self.news.set()


async def _bot_table(rt: Runtime, level: str) -> tuple[str, str, _Person]:
    c = await rt.create_table({"players": 4, "target": 30}, "Ana")
    person = _Person()
    await rt.connect(c.table_id, c.token, person)
    for seat in (1, 2, 3):
        await rt.submit(c.table_id, c.token, parse_command({"type": "add_bot", "seat": seat, "level": level}))
    await rt.submit(c.table_id, c.token, parse_command({"type": "start"}))
    return c.table_id, c.token, person


async def _play(rt: Runtime, table_id: str, token: str, person: _Person, until: float) -> None:
    cid = itertools.count()
    while time.perf_counter() < until:
        person.news.clear()
        if person.phase != "playing":
            await rt.submit(table_id, token, parse_command({"type": "rematch"}), f"r{next(cid)}")
        elif person.legal:
            a = person.legal[0]
            cmd = {"type": "act", "do": a["do"]} | ({"card": a["card"]} if "card" in a else {})
            await rt.submit(table_id, token, parse_command(cmd), f"c{next(cid)}")
        try:
            await asyncio.wait_for(person.news.wait(), timeout=max(0.001, until - time.perf_counter()))
        except TimeoutError:
            return


def _pcts(xs: list[float]) -> dict[str, float]:
    return {"p50": percentile(xs, 50), "p99": percentile(xs, 99), "max": max(xs, default=0.0), "n": len(xs)}


async def measure(tables: int, level: str, seconds: float, seed: int, workers: int = 0) -> dict[str, Any]:
    seeds = itertools.count(seed * 1_000_003 + 1)
    rt = Runtime(MemoryStorage(), SystemClock(), seed_source=lambda: next(seeds) * 2654435761 % (1 << 63),
                 bot_delay=0, hand_pause=0, bot_workers=workers)
    await rt.start()
    made = [await _bot_table(rt, level) for _ in range(tables)]
    quiet = await rt.create_table({"players": 2}, "Beto")
    await rt.connect(quiet.table_id, quiet.token, lambda m: None)
    refused = parse_command({"type": "act", "do": "mazo"})  # nothing is being played there: refused
    loop = asyncio.get_running_loop()
    lags: list[float] = []
    trips: list[float] = []
    start_versions = sum(rt.version(t) for t, _, _ in made)
    until = time.perf_counter() + seconds

    async def lag_probe() -> None:
        while time.perf_counter() < until:
            t = loop.time()
            await asyncio.sleep(0.005)
            lags.append((loop.time() - t - 0.005) * 1000)

    async def trip_probe() -> None:
        while time.perf_counter() < until:
            t = time.perf_counter()
            await rt.submit(quiet.table_id, quiet.token, refused)
            trips.append((time.perf_counter() - t) * 1000)
            await asyncio.sleep(0.02)

    await asyncio.gather(lag_probe(), trip_probe(), *(_play(rt, t, tok, p, until) for t, tok, p in made))
    applied = sum(rt.version(t) for t, _, _ in made) - start_versions
    await rt.close()
    return {"loop_lag_ms": _pcts(lags), "quiet_table_round_trip_ms": _pcts(trips),
            "commands_applied_at_bot_tables": applied, "seconds": seconds}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--tables", type=int, default=8)
    p.add_argument("--level", default="maestro")
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=0,
                   help="bots in this many processes of their own (0: on the runtime's bots' thread)")


def run(args: argparse.Namespace) -> int:
    r = asyncio.run(measure(args.tables, args.level, args.seconds, args.seed, args.workers))
    where = f"{args.workers} bot worker process(es)" if args.workers else "the bots' thread"
    print(f"bot tables: {args.tables} tables of 1 person and 3 {args.level} bots, no thinking delay, "
          f"{args.seconds:g} s on one event loop, the bots on {where}")
    for key in ("loop_lag_ms", "quiet_table_round_trip_ms"):
        f = r[key]
        print(f"  {key:>27}: p50 {f['p50']:.1f}, p99 {f['p99']:.1f}, max {f['max']:.1f} ({f['n']} samples)")
    applied = r["commands_applied_at_bot_tables"]
    print(f"  {'commands at the bot tables':>27}: {applied} ({applied / args.seconds:.0f} a second)")
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    add_arguments(p)
    return run(p.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
