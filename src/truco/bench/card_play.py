"""Card play alone, on random deals with no bets: the team rule of the playouts against the plain
rule, or two bot levels' own card play.

Each deal is played twice, one side on one team and then on the other, with the same cards and
mano; the report is the share of the hands the first side won, with a 95 % interval over the deals
(the deal's two hands are one unit).

Rules (``tricks.playout``'s ``team_play`` against the plain ``tricks.sensible_card``):

    python -m truco.bench.card_play --players 4 --deals 20000 [--seed 5]

Levels (``--bots A B``): every seat of a level plays the card that level plays at a table, from its
own seat's view with the calls taken out of what it may do, so nothing is bet and the hand is won
by the cards alone; ``--senas``: partners sign their cards first, as at a table with señas.

    python -m truco.bench.card_play --players 4 --deals 2000 --bots maestro dificil-1 [--senas]
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from dataclasses import replace

from truco.bots.arena import hand_senas
from truco.bots.roster import make_player
from truco.bots.seeds import bot_seed
from truco.bots.stats import mean_ci
from truco.bots.tricks import partner_covers, sensible_card
from truco.engine import PARDA, Do, Rules, Seat, Team, apply, hand_winner, new_match, public_view, view_for
from truco.engine.cards import POWER, Card
from truco.engine.view import partners_senas


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


def bots_hand(players: int, deal: int, dealer: Seat, names: Sequence[str], seeds: Sequence[int],
              senas: bool = False) -> Team:
    """One hand, the seat ``s`` played by level ``names[s & 1]`` with seed ``seeds[s]``, cards only;
    the team that won it."""
    st, _ = new_match(Rules(players=players), dealer=dealer, seed=deal)
    bots = [make_player(names[s & 1], seeds[s]) for s in range(players)]
    signs = hand_senas(st, bots) if senas else ()
    while not st.hand_over:
        pub = public_view(st)
        seat = pub.turn
        view = view_for(st, seat, pub)
        view = replace(view, legal=tuple(a for a in view.legal if a.do is Do.PLAY),
                       senas=partners_senas(signs, seat) if signs else view.senas)
        action = bots[seat].choose(view)
        if action not in view.legal:
            raise RuntimeError(f"{names[seat & 1]} at seat {seat} chose {action}, not a card it holds")
        st, _ = apply(st, action)
    return 0 if st.score[0] > st.score[1] else 1


def measure_bots(a: str, b: str, players: int, deals: int, seed: int = 5,
                 senas: bool = False) -> tuple[float, float, float]:
    """(share of hands won by level ``a``'s card play against ``b``'s, low, high)."""
    rng = random.Random(seed)
    units = []
    for i in range(deals):
        deal = rng.getrandbits(63)
        dealer = i % players
        won = 0
        seeds = [bot_seed(seed, i, s) for s in range(players)]  # a seat's, whichever level plays it
        for a_team in (0, 1):
            names = (a, b) if a_team == 0 else (b, a)
            won += bots_hand(players, deal, dealer, names, seeds, senas) == a_team
        units.append(won / 2)
    return mean_ci(units, 0.0, 1.0)


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m truco.bench.card_play", description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=4, choices=(2, 4, 6, 8))
    ap.add_argument("--deals", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--bots", nargs=2, metavar=("A", "B"), help="two levels' card play instead of the rules")
    ap.add_argument("--senas", action="store_true", help="with --bots: partners sign their cards first")
    args = ap.parse_args(argv)
    if args.bots:
        a, b = args.bots
        share, low, high = measure_bots(a, b, args.players, args.deals, args.seed, args.senas)
        how = " with señas" if args.senas else ""
        print(f"{args.players} players, {args.deals} deals played twice{how}: {a}'s card play won "
              f"{share:.2%} of the hands against {b}'s (95 % CI {low:.2%} – {high:.2%})")
        return
    share, low, high = measure(args.players, args.deals, args.seed)
    print(f"{args.players} players, {args.deals} deals played twice: the team rule won "
          f"{share:.2%} of the hands (95 % CI {low:.2%} – {high:.2%})")


if __name__ == "__main__":
    main()
