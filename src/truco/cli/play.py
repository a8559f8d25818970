"""``truco play``: a whole match against bots in the terminal, at your own pace."""

from __future__ import annotations

import argparse
import secrets
import sys

from truco.bots import LEVELS
from truco.terminal import GameConfig, StdConsole, play_game


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=2, choices=(2, 4, 6, 8))
    parser.add_argument("--bots", default="normal", choices=[lv for lv in LEVELS],
                        help="level of every bot at the table (default: normal)")
    parser.add_argument("--flor", action="store_true", help="play with flor")
    parser.add_argument("--target", type=int, default=30, choices=(15, 30))
    parser.add_argument("--pica-pica", action="store_true",
                        help="6 players: pica-pica hands (three duels of two) inside the 5-25 band")
    parser.add_argument("--seed", type=int, default=None, help="repeat a match exactly")


def run(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    if args.pica_pica and args.players != 6:
        print("play: --pica-pica is for 6 players (--players 6)", file=sys.stderr)
        return 2
    config = GameConfig(players=args.players, bots=args.bots, flor=args.flor, target=args.target, seed=seed,
                        pica_pica=args.pica_pica)
    return play_game(config, StdConsole())
