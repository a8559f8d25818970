"""``truco arena``: measure two bot levels against each other on duplicate deals."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from truco.bots import LEVELS
from truco.bots.arena import ArenaConfig, run_arena


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--a", required=True, choices=LEVELS, help="the level measured")
    parser.add_argument("--b", required=True, choices=LEVELS, help="its opponent")
    parser.add_argument("--players", type=int, default=4, choices=(2, 4, 6, 8))
    parser.add_argument("--matches", type=int, default=1000,
                        help="matches to play (in duplicate pairs; an odd count is rounded up)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and the bots")
    parser.add_argument("--flor", action="store_true", help="play with flor")
    parser.add_argument("--target", type=int, default=30, choices=(15, 30))
    parser.add_argument("--jobs", type=int, default=1, help="processes to use (same results for any)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")


def run(args: argparse.Namespace) -> int:
    try:
        config = ArenaConfig(a=args.a, b=args.b, players=args.players, matches=args.matches, seed=args.seed,
                             flor=args.flor, target=args.target, jobs=args.jobs)
    except ValueError as e:
        print(f"arena: {e}", file=sys.stderr)
        return 2
    err = Console(stderr=True)
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeRemainingColumn())
    with Progress(*columns, console=err, transient=True) as progress:
        task = progress.add_task(f"{config.a} vs {config.b}", total=config.pairs * 2)
        result = run_arena(config, lambda done, total: progress.update(task, completed=done))
    summary = result.summary()
    if args.json:
        print(json.dumps(summary))
    else:
        Console().print(_table(summary))
    return 0


def _table(s: dict[str, Any]) -> Table:
    t = Table(title=f"{s['a']} (A) vs {s['b']} (B): {s['players']} players, "
                    f"{'with' if s['flor'] else 'no'} flor, to {s['target']}, seed {s['seed']}")
    t.add_column("measure")
    t.add_column("value", justify="right")
    lo, hi = s["ci95"]
    t.add_row("A's match win rate", f"{s['a_match_win_rate']:.1%}  (95 % CI {lo:.1%} – {hi:.1%})")
    for label, key, sign in (("A's points per hand", "a_points_per_hand", ""),
                             ("A's net points per hand", "a_net_points_per_hand", "+")):
        low, high = s[f"{key}_ci95"]
        t.add_row(label, f"{s[key]:{sign}.3f}  (95 % CI {_num(low, sign)} – {_num(high, sign)})")
    for side in ("a", "b"):
        d = s["decision_ms"][side]
        t.add_row(f"decision time {s[side]} ({side.upper()})",
                  f"p50 {d['p50']:.2f} ms, p99 {d['p99']:.2f} ms ({d['decisions']} decisions)")
    t.add_row("matches (pairs)", f"{s['matches']} ({s['pairs']})")
    t.add_row("hands", str(s["hands"]))
    return t


def _num(x: float | None, sign: str) -> str:
    """An interval end; unknown (one pair only) shows as "?"."""
    return "?" if x is None else f"{x:{sign}.3f}"
