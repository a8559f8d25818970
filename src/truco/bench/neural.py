"""What a ``neural`` decision costs, served with numpy: the view's features, then the forward pass.

Views come from real matches (``neural`` against ``dificil-1``, every seat's decisions); each is
decided again here, on one core, and timed by CPU time:

    python -m truco.bench.neural --players 4 --matches 10 [--seed 1]

It prints the p50, p99 and max of the whole decision and of its two parts in microseconds, and the
same for ``maestro`` on the first views for comparison (``--compare 300``; 0 leaves it out).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from truco.bots.arena import deal_seed, first_dealer, next_action
from truco.bots.neural import NeuralBot, features, shipped
from truco.bots.registry import make_bot
from truco.bots.stats import percentile
from truco.engine import Rules, SeatView, apply, new_match, next_hand, public_view, view_for


def match_views(players: int, matches: int, seed: int) -> list[SeatView]:
    rules = Rules(players=players)
    out: list[SeatView] = []
    for m in range(matches):
        bots = [make_bot("neural" if s % 2 == m % 2 else "dificil-1", seed * 100 + s) for s in range(players)]
        st, _ = new_match(rules, dealer=first_dealer(seed, m, players), seed=deal_seed(seed, m, 1))
        while not st.match_over:
            if st.hand_over:
                st, _ = next_hand(st, seed=deal_seed(seed, m, st.hand_no + 1))
                continue
            pub = public_view(st)
            out += [v for v in (view_for(st, s, pub) for s in pub.to_act) if len(v.legal) > 1]
            st, _ = apply(st, next_action(st, bots))
    return out


def timed(views: list[SeatView], f: Callable[[SeatView], Any]) -> list[float]:
    clock = time.thread_time_ns
    out = []
    for v in views:
        t0 = clock()
        f(v)
        out.append((clock() - t0) / 1000.0)
    return out


def line(name: str, us: list[float]) -> str:
    return (f"{name:<28} p50 {percentile(us, 50):9.1f} µs   p99 {percentile(us, 99):9.1f} µs   "
            f"max {max(us):9.1f} µs   ({len(us)} decisions)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=4, choices=(2, 4, 6, 8))
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--compare", type=int, default=300, help="views to time maestro on (0: none)")
    args = parser.parse_args(argv)
    views = match_views(args.players, args.matches, args.seed)
    net = shipped()
    bot = NeuralBot(0)
    bot.choose(views[0])  # load the weights before timing
    xs = [features(v) for v in views]
    print(line("features", timed(views, features)))
    clock = time.thread_time_ns
    fwd = []
    for x in xs:
        t0 = clock()
        net.scores(x)
        fwd.append((clock() - t0) / 1000.0)
    print(line("forward pass (numpy)", fwd))
    print(line("neural decision", timed(views, bot.choose)))
    if args.compare:
        maestro = make_bot("maestro", 1)
        print(line("maestro decision", timed(views[:args.compare], maestro.choose)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
