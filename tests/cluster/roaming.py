"""Simulated people at a cluster's tables: each socket lands on a random node, and when it is closed
(its node died, its table moved) the person reconnects to another random live node with the same
token and sends again, with the same command id, whatever was not answered: what the phone client
does. Every frame any of its sockets received is kept, for the no-leak scan."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

from truco.bench.player_client import WsPlayer, random_legal

FINAL = (1000, 4001, 4002, 4003, 4004)
"""Close codes after which the phone client does not reconnect."""
PACE = 0.11
"""Under the socket's 10 messages/s limit."""


class Roamer:
    def __init__(self, nodes: Callable[[], list[str]], code: str, token: str | None,
                 rng: random.Random) -> None:
        self.nodes = nodes
        """The ws:// bases of the nodes alive now."""
        self.code = code
        self.token = token
        self.rng = rng
        self.sock: WsPlayer | None = None
        self.frames: list[str] = []
        self.acked: dict[str, int] = {}
        """Command id -> the version it was accepted at (or the first acceptance, for a resend)."""
        self.reconnects = 0
        self.player: int | None = None

    @property
    def view(self) -> dict[str, Any] | None:
        return self.sock.view if self.sock is not None else None

    @property
    def version(self) -> int:
        return self.sock.version if self.sock is not None else 0

    async def ensure(self, timeout: float = 60.0) -> WsPlayer:
        """An open socket that has had its hello."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            s = self.sock
            if s is not None and not s.closed:
                return s
            if s is not None:
                self.frames.extend(s.frames)
                if s.close_code in FINAL:
                    raise ConnectionError(f"closed for good: {s.close_code} {s.close_reason}")
                self.reconnects += 1
                self.sock = None
            if loop.time() > deadline:
                raise TimeoutError(f"no node took the socket of {self.code}")
            try:
                s = await WsPlayer(self.rng.choice(self.nodes()), self.code, self.token).connect(5)
                await s.until(lambda p: p.view is not None, 15)
            except (OSError, TimeoutError, ConnectionError, Exception) as e:
                del e
                await asyncio.sleep(0.2)
                continue
            self.sock = s
            self.player = s.player

    async def command(self, msg: dict[str, Any], timeout: float = 60.0) -> dict[str, Any]:
        """Send until answered (an ack or a refusal), resending on every new socket with the same id."""
        cid = f"r{self.rng.getrandbits(48):x}"
        msg = {**msg, "id": cid}
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            s = await self.ensure()
            try:
                await s.send(msg)
                await s.until(lambda p: p.reply_to(cid) is not None, max(0.1, deadline - loop.time()))
            except Exception:  # closed or closing: a socket that is closing refuses a send at once, so
                await asyncio.sleep(0.05)  # yield, or its own close is never read and this spins
                continue
            reply = s.reply_to(cid)
            assert reply is not None
            if reply["type"] == "error" and reply.get("code") == "unavailable":
                await asyncio.sleep(0.05)
                continue  # not stored: try again (on this socket, or after it is closed, on another)
            if reply["type"] == "ack":
                self.acked.setdefault(cid, reply["version"])
            return reply
        s = self.sock
        raise TimeoutError(f"command {msg} at {self.code} never answered (socket {s and s.url}, "
                           f"version {self.version}, last {s and s.messages[-3:]!r:.600})")

    def all_frames(self) -> list[str]:
        return self.frames + (self.sock.frames if self.sock is not None else [])

    async def close(self) -> None:
        if self.sock is not None:
            self.frames.extend(self.sock.frames)
            await self.sock.close()
            self.sock = None


async def play_until(people: list[Roamer], done: Callable[[], bool], timeout: float,
                     hold: Callable[[dict[str, Any]], bool] | None = None) -> None:
    """Each person acts whenever their view offers a legal action, until ``done()``; while
    ``hold(view)`` is true a person waits instead (a player who has not answered yet)."""

    async def one(p: Roamer) -> None:
        acted = -1
        while not done():
            s = await p.ensure()
            try:
                await s.until(lambda s, seen=acted: done() or s.closed or (  # type: ignore[misc]
                    s.version != seen and bool(s.view and s.view["legal"])), 5)
            except (TimeoutError, ConnectionError):
                continue
            if done() or s.closed or s.view is None:
                continue
            if hold is not None and hold(s.view):
                await asyncio.sleep(0.05)
                continue
            version = s.version
            msg = random_legal(s.view, p.rng)
            if msg is None:
                acted = version
                continue
            await asyncio.sleep(PACE)
            reply = await p.command(msg)
            if reply["type"] == "ack" or p.version != version:
                acted = version

    tasks = [asyncio.create_task(one(p)) for p in people]
    try:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not done():
            for t in tasks:
                if t.done() and t.exception() is not None:
                    raise t.exception()  # type: ignore[misc]
            if loop.time() > deadline:
                raise TimeoutError("the tables did not finish: " + ", ".join(
                    f"{p.code} v{p.version} {p.view and p.view['phase']} "
                    f"legal={bool(p.view and p.view['legal'])} "
                    f"(socket {p.sock and p.sock.url.split('/ws/')[0]}, {p.reconnects} reconnects)"
                    for p in people))
            await asyncio.sleep(0.05)
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
