"""``truco bench engine``: random legal hands on one core, the engine's speed (printed, never asserted)."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from truco.engine import Rules, apply, legal_actions, new_match, next_hand


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=4, choices=(2, 4, 6, 8))
    parser.add_argument("--flor", action="store_true")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of each of the 5 runs")
    parser.add_argument("--json", action="store_true")


def engine_run(rules: Rules, seconds: float, seed: int) -> tuple[float, float]:
    """Play random legal hands for ``seconds``; return (hands/s, decisions/s)."""
    rng = random.Random(seed)
    hands = decisions = 0
    st, _ = new_match(rules, dealer=0, seed=rng.getrandbits(64))
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        while not st.hand_over:
            st, _ = apply(st, rng.choice(legal_actions(st)))
            decisions += 1
        hands += 1
        if st.match_over:
            st, _ = new_match(rules, dealer=rng.randrange(rules.players), seed=rng.getrandbits(64))
        else:
            st, _ = next_hand(st, seed=rng.getrandbits(64))
        if hands % 64 == 0 and time.perf_counter() > deadline:
            break
    elapsed = time.perf_counter() - start
    return hands / elapsed, decisions / elapsed


def run(args: argparse.Namespace) -> int:
    rules = Rules(players=args.players, flor=args.flor)
    runs = [engine_run(rules, args.seconds, seed) for seed in range(5)]
    hands = statistics.median(r[0] for r in runs)
    decisions = statistics.median(r[1] for r in runs)
    if args.json:
        print(json.dumps({"hands_per_s": round(hands), "decisions_per_s": round(decisions),
                          "players": args.players, "flor": args.flor}))
    else:
        print(f"engine, {args.players} players{' with flor' if args.flor else ''}, one core, "
              f"median of 5 runs of {args.seconds:g} s:")
        print(f"  {hands:,.0f} hands/s")
        print(f"  {decisions:,.0f} decisions/s")
    return 0
