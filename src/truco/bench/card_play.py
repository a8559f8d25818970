"""Card play alone: the team rule of the playouts (``tricks.playout``'s ``team_play``) against the
plain rule, on random deals with no bets.

Each deal is played twice, the team rule on one team and then on the other, with the same cards and
mano, every hand to its end by ``tricks.sensible_card``; the report is the share of the hands the
team rule's side won, with a 95 % interval over the deals (the deal's two hands are one unit).

    python -m truco.bench.card_play --players 4 --deals 20000 [--seed 5]
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence

from truco.bots.stats import mean_ci
from truco.bots.tricks import partner_covers, sensible_card
from truco.engine import PARDA, Team, hand_winner
from truco.engine.cards import POWER, Card


def play_hand(n: int, mano: int, hands: Sequence[Sequence[Card]], team_rule: Team) -> Team:
    """The hand played out with every seat on ``sensible_card``, the seats of ``team_rule`` leaving
    a first round to their partner when a rival and then the partner play after them."""
    held = [list(h) for h in hands]
    results: list[Team] = []
    lead = mano
    while True:
        plays: list[tuple[int, Card]] = []
        busy = 0
        for i in range(n):
            s = (lead + i) % n
            cover = s & 1 == team_rule and bool(plays) and not results and partner_covers(n, s, busy)
            card = sensible_card(held[s], s, plays, results, cover)
            held[s].remove(card)
            plays.append((s, card))
            busy |= 1 << s
        best, teams, win_seat = -1, 0, -1
        for s, c in plays:
            if POWER[c] > best:
                best, teams, win_seat = POWER[c], 1 << (s & 1), s
            elif POWER[c] == best:
                teams |= 1 << (s & 1)
        if teams == 3:
            results.append(PARDA)
        else:
            results.append(win_seat & 1)
            lead = win_seat
        w = hand_winner(tuple(results), mano & 1)
        if w >= 0:
            return w


def measure(players: int, deals: int, seed: int = 5) -> tuple[float, float, float]:
    """(share of hands won by the team rule, low, high)."""
    rng = random.Random(seed)
    units = []
    for i in range(deals):
        deck = list(range(40))
        rng.shuffle(deck)
        hands = [deck[3 * s: 3 * s + 3] for s in range(players)]
        mano = i % players
        won = sum(play_hand(players, mano, hands, t) == t for t in (0, 1))
        units.append(won / 2)
    return mean_ci(units, 0.0, 1.0)


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m truco.bench.card_play", description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=4, choices=(4, 6, 8))
    ap.add_argument("--deals", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args(argv)
    share, low, high = measure(args.players, args.deals, args.seed)
    print(f"{args.players} players, {args.deals} deals played twice: the team rule won "
          f"{share:.2%} of the hands (95 % CI {low:.2%} – {high:.2%})")


if __name__ == "__main__":
    main()
