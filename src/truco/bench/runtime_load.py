"""Runtime benchmarks: commands per second through the whole pipeline (apply, store, fan-out), and
recovery time. Figures are printed, never asserted. ``python -m truco.bench.runtime_load``."""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from truco.protocol import ServerMessage
from truco.runtime.clock import FakeClock
from truco.runtime.runtime import Runtime
from truco.storage import MemoryStorage, SQLiteStorage, Storage
from truco.table import parse_command


def _submit(rt: Runtime, table_id: str, token: str, cmd: dict[str, Any], cid: str | None = None) -> Any:
    return rt.submit(table_id, token, parse_command(cmd), cid)


def _legal(box: list[ServerMessage | str]) -> list[dict[str, Any]]:
    """The legal actions in the latest view this socket got."""
    for m in reversed(box):
        view = getattr(m, "view", None)
        if view is not None:
            legal: list[dict[str, Any]] = view["legal"]
            return legal
    return []


async def _table(rt: Runtime) -> tuple[str, list[str], list[list[ServerMessage | str]]]:
    c = await rt.create_table({"players": 4, "target": 30}, "p0")
    tokens = [c.token]
    for seat in (1, 2, 3):
        j = await rt.join(c.table_id, f"p{seat}")
        await _submit(rt, c.table_id, j.token, {"type": "sit", "seat": seat})
        tokens.append(j.token)
    boxes: list[list[ServerMessage | str]] = [[] for _ in tokens]
    for tok, box in zip(tokens, boxes, strict=True):
        await rt.connect(c.table_id, tok, box.append)
    await _submit(rt, c.table_id, tokens[0], {"type": "start"})
    return c.table_id, tokens, boxes


async def _play(rt: Runtime, table_id: str, tokens: list[str], boxes: list[list[ServerMessage | str]],
                rng: random.Random, commands: int) -> int:
    """Four humans play random legal commands (votes included); rematch at the end of a match."""
    done = 0
    for i in range(commands):
        movers = [s for s in range(4) if _legal(boxes[s])]
        if not movers:
            await _submit(rt, table_id, tokens[0], {"type": "rematch"})
            continue
        s = rng.choice(movers)
        a = rng.choice(_legal(boxes[s]))
        cmd = {"type": "act", "do": a["do"]} | ({"card": a["card"]} if "card" in a else {})
        res = await _submit(rt, table_id, tokens[s], cmd, f"c{i}")
        done += res.ok
    return done


async def run(storage_kind: str, tables: int, commands: int, seed: int) -> dict[str, float]:
    tmp = tempfile.TemporaryDirectory()
    path = str(Path(tmp.name) / "bench.db")

    def make_storage() -> Storage:
        return SQLiteStorage(path) if storage_kind == "sqlite" else MemoryStorage()

    storage = make_storage()
    clock = FakeClock()
    seeds = random.Random(seed)
    rt = Runtime(storage, clock, seed_source=lambda: seeds.getrandbits(63), bot_delay=0)
    await rt.start()
    made = [await _table(rt) for _ in range(tables)]
    rng = random.Random(seed)
    t0 = time.perf_counter()
    counts = await asyncio.gather(*(_play(rt, tid, toks, boxes, random.Random(rng.random()), commands)
                                    for tid, toks, boxes in made))
    elapsed = time.perf_counter() - t0
    accepted = sum(counts)
    messages = sum(len(b) for _, _, boxes in made for b in boxes)
    await rt.close()
    out = {"accepted_commands": accepted, "seconds": elapsed, "commands_per_s": accepted / elapsed,
           "messages": messages, "messages_per_s": messages / elapsed}
    if storage_kind == "sqlite":
        storage.close()
        again = make_storage()
        fresh = Runtime(again, clock, bot_delay=0)
        t1 = time.perf_counter()
        await fresh.start()
        out["recovery_seconds"] = time.perf_counter() - t1
        out["recovered_tables"] = len(fresh.table_ids())
        await fresh.close()
        again.close()
    tmp.cleanup()
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--storage", choices=["memory", "sqlite"], default="sqlite")
    p.add_argument("--tables", type=int, default=20)
    p.add_argument("--commands", type=int, default=200, help="commands per table")
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args(argv)
    runs = [asyncio.run(run(args.storage, args.tables, args.commands, seed)) for seed in range(args.repeat)]
    print(f"runtime bench: {args.storage}, {args.tables} tables x {args.commands} commands, "
          f"4 connected players each, median of {args.repeat}")
    for key in runs[0]:
        print(f"  {key:>20}: {statistics.median(r[key] for r in runs):,.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
