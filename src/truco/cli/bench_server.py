"""``truco bench server``: concurrent 4-seat tables over real WebSockets, and a bare echo to compare.

Everything runs on this machine: the server as a child process, the simulated players in this one.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time

from websockets.asyncio.client import connect

from truco.server.process import ServerProcess, free_port


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tables", type=int, default=100, help="concurrent 4-seat tables (default 100)")
    parser.add_argument("--pace", type=float, default=1.5,
                        help="seconds between two actions of one table (default 1.5, a human pace)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured duration (default 20)")
    parser.add_argument("--echo-connections", type=int, default=200)
    parser.add_argument("--echo-seconds", type=float, default=5.0)
    parser.add_argument("--no-echo", action="store_true", help="skip the echo comparison")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


async def echo_rate(url: str, connections: int, seconds: float) -> float:
    """Messages per second a bare echo server returns to ``connections`` ping-ponging clients."""
    count = 0
    stop = asyncio.Event()
    payload = '{"type":"action","id":"c1","do":"play","card":"1e"}'

    async def one() -> None:
        nonlocal count
        async with connect(url, compression=None, max_queue=None) as ws:
            await started.wait()
            while not stop.is_set():
                await ws.send(payload)
                await ws.recv()
                count += 1

    started = asyncio.Event()
    tasks = [asyncio.create_task(one()) for _ in range(connections)]
    await asyncio.sleep(0.5)
    started.set()
    await asyncio.sleep(0.5)  # warm-up
    c0, t0 = count, time.perf_counter()
    await asyncio.sleep(seconds)
    rate = (count - c0) / (time.perf_counter() - t0)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return rate


def measure_echo(connections: int, seconds: float) -> float:
    port = free_port()
    with ServerProcess.echo(port) as server:
        return asyncio.run(echo_rate(server.ws_url + "/echo", connections, seconds))


def run(args: argparse.Namespace) -> int:
    result: dict[str, object] = {"tables": args.tables, "pace_s": args.pace}
    if not args.no_echo:
        result["echo_msgs_per_s"] = round(measure_echo(args.echo_connections, args.echo_seconds))
        result["echo_connections"] = args.echo_connections
    if args.json:
        print(json.dumps(result))
    else:
        for k, v in result.items():
            print(f"  {k}: {v}")
    return 0
