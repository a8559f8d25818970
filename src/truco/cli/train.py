"""``truco train``: learn the ``neural`` level's network from a teacher's self-play (docs/bots.md)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from truco.bots.neural import shipped_path
from truco.bots.registry import LEVELS
from truco.bots.training import TrainConfig, describe, tables_text
from truco.bots.training import run as run_training


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--teacher", default="maestro", choices=LEVELS,
                        help="the level whose self-play the network learns from (default maestro)")
    parser.add_argument("--matches", type=int, default=1200,
                        help=f"self-play matches, cycling through: {tables_text()}")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals, the bots and the training")
    parser.add_argument("--epochs", type=int, default=TrainConfig.epochs)
    parser.add_argument("--rounds", type=int, default=TrainConfig.rounds,
                        help="1: learn the teacher's self-play; each more: a round of DAgger (the network "
                             "plays itself and the teacher labels its spots)")
    parser.add_argument("--hidden", default=",".join(map(str, TrainConfig.hidden)),
                        help="sizes of the hidden layers, comma-separated")
    parser.add_argument("--out", type=Path, default=None,
                        help="where to write the weights (default: the shipped file, "
                             "src/truco/bots/weights/neural.npz)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="processes for the self-play (the same weights for any number)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")


def run(args: argparse.Namespace) -> int:
    try:
        hidden = tuple(int(h) for h in str(args.hidden).split(","))
        if min(args.matches, args.epochs, args.jobs, args.rounds, *hidden) < 1:
            raise ValueError("matches, epochs, rounds, jobs and hidden sizes must be positive")
    except ValueError as e:
        print(f"truco train: {e}", file=sys.stderr)
        return 2
    config = TrainConfig(hidden=hidden, epochs=args.epochs, rounds=args.rounds)
    out: Path = args.out or shipped_path()
    console = Console(stderr=True)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=console, disable=args.json) as bar:
        games = bar.add_task("self-play", total=args.matches * args.rounds)
        epochs = bar.add_task("training", total=args.epochs * args.rounds)
        net, report = run_training(
            args.teacher, args.matches, args.seed, config, args.jobs,
            progress=lambda done, total: bar.update(games, completed=done),
            log=lambda epoch, loss: bar.update(epochs, completed=epoch,
                                               description=f"training (loss {loss:.3f})"))
    net.save(out, describe(args.teacher, args.matches, args.seed, config))
    summary = {
        "weights": str(out), "bytes": out.stat().st_size, "teacher": args.teacher,
        "matches": args.matches, "rounds": args.rounds, "seed": args.seed, "samples": report.samples,
        "agreement": {"train": round(report.train_agreement, 4),
                      "held_out": round(report.held_out_agreement, 4),
                      "held_out_by_kind": {k: {"decisions": n, "agreement": round(a, 4)}
                                           for k, (n, a) in report.held_out_by_kind.items()}},
        "seconds": {"self_play": round(report.seconds_self_play, 1),
                    "training": round(report.seconds_training, 1)},
    }
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    print(f"{out} ({summary['bytes']} bytes): {report.samples} decisions of {args.teacher}, "
          f"agreement {report.train_agreement:.1%} on the training matches, "
          f"{report.held_out_agreement:.1%} held out")
    for kind, (n, a) in report.held_out_by_kind.items():
        print(f"  {kind:<22} {n:>6} held-out decisions, {a:.1%} agree")
    return 0
