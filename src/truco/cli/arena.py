"""``truco arena``: measure two players against each other on duplicate deals, or run the pool report.

``--a``/``--b`` take a level (``random``, ``facil``, ``normal``, ``dificil``, ``maestro``, or the frozen
``dificil-1``), a style (``bluffer``,
``calling-station``, ``tight``, ``envido-maniac``, ``early-mazo``, ``loner``, ``maniac``, ``trapper``), the
``expert`` or an attacker
(``attack:<level>``). ``--pool`` plays every level against every style instead (docs/bots.md).
"""

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
from truco.bots.pool import PoolConfig, cell, run_pool
from truco.bots.registry import ALL_LEVELS
from truco.bots.roster import ATTACK, ATTACK_AS, NAMES
from truco.bots.styles import STYLES


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--a", choices=NAMES, metavar="PLAYER",
                        help=f"the player measured: a level ({', '.join(ALL_LEVELS)}), a style "
                             f"({', '.join(STYLES)}), {ATTACK}<level> or {ATTACK_AS}<level>")
    parser.add_argument("--b", choices=NAMES, metavar="PLAYER", help="its opponent (same choices)")
    parser.add_argument("--pool", action="store_true",
                        help="every level (--levels) against every style (--styles), in each --players")
    parser.add_argument("--levels", default=",".join(LEVELS), help="with --pool: comma-separated levels")
    parser.add_argument("--styles", default=",".join(STYLES), help="with --pool: comma-separated styles")
    parser.add_argument("--players", type=int, nargs="+", choices=(2, 4, 6, 8), default=None,
                        help="table size (default 4); with --pool one or more (default 2 4)")
    parser.add_argument("--matches", type=int, default=1000,
                        help="matches to play, per cell with --pool (in duplicate pairs; an odd count is "
                             "rounded up)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and the bots")
    parser.add_argument("--flor", action="store_true", help="play with flor")
    parser.add_argument("--target", type=int, default=30, choices=(15, 30))
    parser.add_argument("--senas", action="store_true",
                        help="partners sign their cards at the start of each hand (4 players and up)")
    parser.add_argument("--pica-pica", action="store_true",
                        help="6 players: play pica-pica hands inside its score band (one match-up only)")
    parser.add_argument("--jobs", type=int, default=1, help="processes to use (same results for any)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")


def run(args: argparse.Namespace) -> int:
    if args.pool:
        return _run_pool(args)
    try:
        if args.a is None or args.b is None:
            raise ValueError("give both --a and --b (or --pool)")
        players = args.players or [4]
        if len(players) != 1:
            raise ValueError("one --players value for a single match-up (several only with --pool)")
        config = ArenaConfig(a=args.a, b=args.b, players=players[0], matches=args.matches, seed=args.seed,
                             flor=args.flor, target=args.target, jobs=args.jobs, pica_pica=args.pica_pica,
                             senas=args.senas)
    except ValueError as e:
        print(f"arena: {e}", file=sys.stderr)
        return 2
    with _progress() as progress:
        task = progress.add_task(f"{config.a} vs {config.b}", total=config.pairs * 2)
        result = run_arena(config, lambda done, total: progress.update(task, completed=done))
    summary = result.summary()
    if args.json:
        print(json.dumps(summary))
    else:
        Console().print(_table(summary))
    return 0


def _run_pool(args: argparse.Namespace) -> int:
    try:
        if args.a is not None or args.b is not None:
            raise ValueError("--pool plays every level against every style: leave out --a and --b")
        if args.pica_pica:
            raise ValueError("--pica-pica is for one match-up (--a and --b) at 6 players")
        config = PoolConfig(levels=_names(args.levels), styles=_names(args.styles),
                            players=tuple(args.players or (2, 4)), matches=args.matches, seed=args.seed,
                            flor=args.flor, target=args.target, jobs=args.jobs)
    except ValueError as e:
        print(f"arena: {e}", file=sys.stderr)
        return 2
    with _progress() as progress:
        task = progress.add_task("pool", total=None)
        report = run_pool(config, lambda done, total: progress.update(task, completed=done, total=total))
    if args.json:
        print(json.dumps(report))
    else:
        out = Console()
        for n in config.players:
            out.print(_pool_table(report, n))
    return 0


def _names(text: str) -> tuple[str, ...]:
    return tuple(x.strip() for x in text.split(",") if x.strip())


def _progress() -> Progress:
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeRemainingColumn())
    return Progress(*columns, console=Console(stderr=True), transient=True)


def _pool_table(report: dict[str, Any], players: int) -> Table:
    pool = report["pool"]
    t = Table(title=f"{players} players: each level's match win rate against each style (95 % CI)",
              caption=f"{'with' if pool['flor'] else 'no'} flor, to {pool['target']}, seed {pool['seed']}, "
                      f"{pool['matches_per_cell']} matches a cell on the same duplicate deals")
    t.add_column("level")
    for style in pool["styles"]:
        t.add_column(style, justify="right")
    for level in pool["levels"]:
        row = []
        for style in pool["styles"]:
            s = cell(report, level, style, players)
            lo, hi = s["ci95"]
            row.append(f"{s['a_match_win_rate']:.1%}\n({lo:.1%} – {hi:.1%})")
        t.add_row(level, *row)
    return t


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
