"""``truco bench engine|bots|server``: speed figures, printed (benchmarks, never tests).

``server`` needs httpx and websockets (the ``test`` extra); without them only ``engine`` is offered.
"""

from __future__ import annotations

import argparse
import importlib

from truco.bench import bot_tables, engine_speed

SERVER_LOAD = "truco.bench.server_load"
CLUSTER_LOAD = "truco.bench.cluster_load"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="target", required=True)
    eng = sub.add_parser("engine", help="random legal hands (calls included) on one core")
    engine_speed.add_arguments(eng)
    bots = sub.add_parser("bots", help="bot tables on one event loop: the loop's lag while bots think")
    bot_tables.add_arguments(bots)
    try:
        server = importlib.import_module(SERVER_LOAD)
    except ModuleNotFoundError:
        return
    srv = sub.add_parser("server", help="concurrent tables over real WebSockets")
    server.add_arguments(srv)


def run(args: argparse.Namespace) -> int:
    if args.target == "server":
        server = importlib.import_module(CLUSTER_LOAD if args.nodes else SERVER_LOAD)
        rc: int = server.run(args)
        return rc
    if args.target == "bots":
        return bot_tables.run(args)
    return engine_speed.run(args)
