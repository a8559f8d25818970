"""``truco demo``: a real match between players choosing random legal actions, hand by hand.

It is told by the terminal's narrator (``truco.terminal.text``) to an onlooker, so a demo reads as a
game in the terminal does.
"""

from __future__ import annotations

import argparse
import random
import secrets
from collections.abc import Iterable

from truco.engine import Event, Rules, apply, legal_actions, new_match, next_hand
from truco.terminal.text import card_list, describe, match_result


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=2, choices=(2, 4, 6, 8))
    parser.add_argument("--target", type=int, default=30, choices=(15, 30))
    parser.add_argument("--flor", action="store_true")
    parser.add_argument("--seed", type=int, default=None, help="repeat a match exactly")


def tell(events: Iterable[Event], names: list[str]) -> None:
    for e in events:
        line = describe(e, names)
        if line:
            print(line)


def run(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    rng = random.Random(seed)
    rules = Rules(players=args.players, target=args.target, flor=args.flor)
    names = [f"Jugador {s + 1} (eq. {s % 2})" for s in range(rules.players)]
    print(f"Partida de demostración a {rules.target}, {rules.players} jugadores, semilla {seed}")
    st, events = new_match(rules, dealer=rng.randrange(rules.players), seed=rng.getrandbits(64))
    while True:
        print()
        tell(events, names)
        for s in range(rules.players):
            print(f"  {names[s]}: {card_list(st.dealt[s])}")
        while not st.hand_over:
            st, events = apply(st, rng.choice(legal_actions(st)))
            tell(events, names)
        print(f"  Tanteador: {st.score[0]} a {st.score[1]}")
        if st.match_over:
            print(match_result(st.winner, None))
            return 0
        st, events = next_hand(st, seed=rng.getrandbits(64))
