"""Simulated humans for end-to-end tests: each acts on its own view, with random legal choices."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Sequence

from truco.bench.player_client import WsPlayer, random_legal

PACE = 0.11
"""Seconds between two actions of one simulated player: under the socket's 10 messages/s limit."""


async def autoplay(players: Sequence[WsPlayer], rng: random.Random,
                   done: Callable[[], bool], timeout: float = 120.0, pace: float = PACE) -> None:
    """Every player acts whenever its latest view offers legal actions, until ``done()``."""

    async def one(p: WsPlayer) -> None:
        acted = -1
        last = 0.0
        while not done():
            await p.until(lambda p, seen=acted: done() or (  # type: ignore[misc]
                p.version != seen and bool(p.view and p.view["legal"])), timeout)
            if done():
                return
            version = p.version
            assert p.view is not None
            msg = random_legal(p.view, rng)
            if msg is None:
                acted = version
                continue
            await asyncio.sleep(max(0.0, last + pace - loop.time()))
            last = loop.time()
            cid = await p.send(msg)
            await p.until(lambda p, c=cid: done() or p.reply_to(c) is not None, timeout)  # type: ignore[misc]
            reply = p.reply_to(cid)
            if reply is None or reply["type"] == "ack" or p.version != version:
                acted = version
            # else: refused at an unchanged version (a vote equal to one's current vote is refused):
            # choose again, since at a table without deadlines nothing else would move it (ruling 19)

    loop = asyncio.get_running_loop()
    tasks = [asyncio.create_task(one(p)) for p in players]
    try:
        await asyncio.wait_for(_until_done(done, tasks, players), timeout)
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def _until_done(done: Callable[[], bool], tasks: list[asyncio.Task[None]],
                      players: Sequence[WsPlayer]) -> None:
    while not done():
        for t in tasks:
            if t.done() and t.exception() is not None:
                raise t.exception()  # type: ignore[misc]
        for p in players:
            if p.closed:
                raise ConnectionError(f"a player's socket closed: {p.close_code} {p.close_reason}")
        await asyncio.sleep(0.01)


def phase_is(players: Sequence[WsPlayer], *phases: str) -> Callable[[], bool]:
    return lambda: all(p.view is not None and p.view["phase"] in phases for p in players)
