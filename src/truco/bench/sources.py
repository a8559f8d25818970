"""Where each side's points come from: the arena's duplicate pairs, every point sorted by its kind.

Plays the same deals and bot seeds as ``truco arena`` (level A against B) and sorts each award of
points by why it was scored and by the team of the last bet before it: an envido sung (the tantos
compared) or declined, a truco played out (the last call A's or B's) or declined, a hand with no
truco, a hand left by the mazo, the flor. For each kind it counts the points and the times each
side scored them, and each envido by its chain of bets, declined or won by whom: the table of
"Where the points come from" in docs/bots.md. A bench, not a level.

    python -m truco.bench.sources --a maestro --b dificil-1 --players 4 --pairs 25 --seed 1 [--senas]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

from truco.bots.arena import ArenaConfig, play_pair
from truco.bots.base import ENVIDO_BETS
from truco.engine import Action, Do, State, Team
from truco.engine.types import TRUCO_CALLS, Event, PointsAwarded

KINDS = ("envido sung", "envido declined", "truco declined", "truco played, own call last",
         "truco played, rivals' call last", "no truco", "mazo", "flor")
"""The rows, in the order printed."""


def kind_of(reason: str, scorer_bet_last: bool | None) -> str:
    """The row of one award: its engine ``reason`` and, for a truco played out, whether the team
    that scored made the last truco call (``None``: nobody called one)."""
    if reason == "envido":
        return "envido sung"
    if reason == "envido_no_querido":
        return "envido declined"
    if reason == "truco_no_querido":
        return "truco declined"
    if reason == "truco":
        if scorer_bet_last is None:
            return "no truco"
        return "truco played, own call last" if scorer_bet_last else "truco played, rivals' call last"
    if reason == "mazo":
        return "mazo"
    return "flor"  # flor, contra flor and their declines


def last_bet(history: Sequence[Action], bets: tuple[Do, ...]) -> Action | None:
    """The last action of ``history`` that is one of ``bets``."""
    return next((a for a in reversed(history) if a.do in bets), None)


def measure(a: str, b: str, players: int, pairs: int, seed: int, flor: bool = False,
            target: int = 30, senas: bool = False) -> dict[str, Any]:
    config = ArenaConfig(a=a, b=b, players=players, matches=2 * pairs, seed=seed, flor=flor, target=target,
                         senas=senas)
    points: Counter[tuple[str, str]] = Counter()
    times: Counter[tuple[str, str]] = Counter()
    envido_bets: Counter[tuple[str, str, str]] = Counter()
    """Each envido scored: (the side of its last bet, the chain of bets, declined or won by whom)."""

    def observe(a_team: Team, st: State, events: list[Event]) -> None:
        for e in events:
            if not isinstance(e, PointsAwarded):
                continue
            side = "a" if e.team == a_team else "b"
            call = last_bet(st.history, TRUCO_CALLS)
            kind = kind_of(e.reason, None if call is None else call.seat & 1 == e.team)
            points[kind, side] += e.points
            times[kind, side] += 1
            if kind.startswith("envido"):
                chain = [x for x in st.history if x.do in ENVIDO_BETS]
                bettor = "a" if chain[-1].seat & 1 == a_team else "b"
                outcome = "declined" if kind == "envido declined" else f"won by {side}"
                envido_bets[bettor, " + ".join(x.do.value for x in chain), outcome] += 1

    wins = sum(m.a_won for pair in range(pairs) for m in play_pair(config, pair, observe))
    rows = [{"kind": k, "a_points": points[k, "a"], "a_times": times[k, "a"],
             "b_points": points[k, "b"], "b_times": times[k, "b"]} for k in KINDS]
    return {"a": a, "b": b, "players": players, "seed": seed, "matches": 2 * pairs, "a_wins": wins,
            "rows": rows, "envido_bets": [{"bettor": x, "bet": y, "outcome": z, "times": n}
                                          for (x, y, z), n in sorted(envido_bets.items())]}


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m truco.bench.sources", description=__doc__.split("\n")[0])
    ap.add_argument("--a", default="maestro")
    ap.add_argument("--b", default="dificil-1")
    ap.add_argument("--players", type=int, default=4, choices=(2, 4, 6, 8))
    ap.add_argument("--pairs", type=int, default=25)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--flor", action="store_true")
    ap.add_argument("--target", type=int, default=30, choices=(15, 30))
    ap.add_argument("--senas", action="store_true", help="partners sign their cards at each hand's start")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    out = measure(args.a, args.b, args.players, args.pairs, args.seed, args.flor, args.target, args.senas)
    if args.json:
        print(json.dumps(out))
        return
    print(f"{args.a} against {args.b}, {args.players} players, {out['matches']} matches "
          f"({out['a_wins']} won by {args.a}): points (times)")
    width = max(len(k) for k in KINDS)
    print(f"{'':{width}}  {args.a:>14}  {args.b:>14}")
    for r in out["rows"]:
        a_side = f"{r['a_points']:>7} ({r['a_times']:>4})"
        print(f"{r['kind']:{width}}  {a_side}  {r['b_points']:>7} ({r['b_times']:>4})")
    total_a = sum(r["a_points"] for r in out["rows"])
    total_b = sum(r["b_points"] for r in out["rows"])
    print(f"{'all':{width}}  {total_a:>14}  {total_b:>14}")
    print("each envido scored, by the side of its last bet and the chain of bets:")
    for x in out["envido_bets"]:
        names = {"a": args.a, "b": args.b}
        outcome = x["outcome"].replace("by a", f"by {args.a}").replace("by b", f"by {args.b}")
        print(f"  {names[x['bettor']]} {x['bet']}: {outcome} × {x['times']}")


if __name__ == "__main__":
    main()
