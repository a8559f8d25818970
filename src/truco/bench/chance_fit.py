"""Fit ``evidence.CHANCE_FIT`` (``dificil``'s): a team's chance to win a hand from its best seat's strength.

Plays ``--deals`` random deals with sound card play for every seat (``tricks.sensible_card``). At the
start of each round it records, for each team, the rounds so far from its side (W, L, P) and its best
seat's strength in the cards still to play (``tables.STRENGTH_OF``); then fits, per key, the logistic
``sig((x - centre) / scale)`` by maximum likelihood. ``python -m truco.bench.chance_fit --players 8``.
"""

from __future__ import annotations

import argparse
import math
import random
from collections import defaultdict

from truco.bots.evidence import results_key
from truco.bots.knowledge import best_on_table
from truco.bots.tables import STRENGTH_OF, mask_of
from truco.bots.tricks import sensible_card
from truco.engine import PARDA, hand_winner
from truco.engine.cards import DECK, POWER

KEYS = ("", "L", "W", "P", "LW", "WL")


def _deal(n: int, rng: random.Random) -> list[tuple[int, str, float, bool]]:
    deck = list(DECK)
    rng.shuffle(deck)
    held = [deck[3 * s:3 * s + 3] for s in range(n)]
    mano = 0
    results: list[int] = []
    lead = mano
    seen: list[tuple[int, str, float]] = []
    while True:
        for team in (0, 1):
            x = max(STRENGTH_OF[mask_of(held[s])] for s in range(team, n, 2))
            seen.append((team, results_key(tuple(results), team), x))
        plays: list[tuple[int, int]] = []
        for i in range(n):
            s = (lead + i) % n
            card = sensible_card(held[s], s, plays, results)
            held[s].remove(card)
            plays.append((s, card))
        best, teams = best_on_table(plays)
        if teams == 3:
            results.append(PARDA)
        else:
            win_seat = next(s for s, c in plays if POWER[c] == best)
            results.append(win_seat & 1)
            lead = win_seat
        w = hand_winner(tuple(results), mano & 1)
        if w >= 0:
            return [(team, key, x, team == w) for team, key, x in seen]


def _fit(counts: dict[float, list[int]]) -> tuple[float, float]:
    """Logistic regression ``p = sig(a + b x)`` on grouped counts (Newton's method); returns
    (centre, scale) = (-a/b, 1/b)."""
    total_n = sum(t for _, t in counts.values())
    mean = sum(x * t for x, (_, t) in counts.items()) / total_n
    a, b = -0.5 * mean, 0.5
    for _ in range(100):
        ga = gb = haa = hab = hbb = 0.0
        for x, (wins, total) in counts.items():
            p = 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, a + b * x))))
            ga += wins - total * p
            gb += (wins - total * p) * x
            w = total * p * (1 - p)
            haa += w
            hab += w * x
            hbb += w * x * x
        det = haa * hbb - hab * hab
        if det <= 0:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        step = max(1.0, abs(da) / 5, abs(db) / 0.5)  # damped: never jump far from a sane curve
        a, b = a + da / step, b + db / step
        if abs(da) + abs(db) < 1e-9:
            break
    return -a / b, 1.0 / b


def fit(players: int, deals: int, seed: int) -> dict[str, tuple[float, float]]:
    rng = random.Random(seed)
    counts: dict[str, dict[float, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for _ in range(deals):
        for _team, key, x, won in _deal(players, rng):
            if key in KEYS:
                c = counts[key][x]
                c[0] += won
                c[1] += 1
    return {k: tuple(round(v, 1) for v in _fit(counts[k])) for k in KEYS if counts[k]}  # type: ignore[misc]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m truco.bench.chance_fit", description=__doc__)
    parser.add_argument("--players", type=int, default=4, choices=(2, 4, 6, 8))
    parser.add_argument("--deals", type=int, default=30_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(fit(args.players, args.deals, args.seed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
