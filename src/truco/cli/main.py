"""The ``truco`` command: one entry point, a subcommand per job."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

# subcommand -> module defining add_arguments(parser) and run(args) -> int
SUBCOMMANDS = {
    "serve": ("truco.cli.serve", "run the server (lobby, tables, phone client)"),
    "demo": ("truco.cli.demo", "play a demo match between random players in the terminal"),
    "replay": ("truco.cli.replay", "replay a hand record and print the result as JSON"),
    "verify": ("truco.cli.verify", "check every deal of a match record against its commitments"),
    "bench": ("truco.bench.command", "benchmarks: engine, server"),
    "arena": ("truco.cli.arena", "measure two bot levels against each other"),
    "play": ("truco.cli.play", "play a match against bots in the terminal"),
    "train": ("truco.cli.train", "learn the neural level's network from a teacher's self-play"),
    "bot": ("truco.cli.bot", "a bot level playing at a table from its own process (WebSocket or stdio)"),
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="truco", description="Argentine truco.")
    sub = parser.add_subparsers(dest="command", required=True)
    modules = {}
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as e:
            if e.name == module_name:
                continue
            raise
        modules[name] = module
        p = sub.add_parser(name, help=help_text, description=help_text)
        module.add_arguments(p)
    args = parser.parse_args(argv)
    rc: int = modules[args.command].run(args)
    return rc


def entry() -> None:
    """The installed ``truco`` command. A reader of its output that stops early (``truco demo |
    head``) ends it quietly. SIGPIPE itself stays ignored, as Python leaves it: set to its default, a
    write to any socket whose peer is gone would end the process outright — ``truco serve`` when a
    phone drops mid-write, or any command whose event loop is woken by another thread as it closes
    (the bots' thread did, and the process died with status 141)."""
    try:
        rc = main()
        sys.stdout.flush()
    except BrokenPipeError:
        quiet = os.open(os.devnull, os.O_WRONLY)  # nothing left to say, and nowhere to say it
        os.dup2(quiet, sys.stdout.fileno())
        sys.exit(1)
    sys.exit(rc)


if __name__ == "__main__":
    entry()
