"""A scripted player over a real WebSocket: for the load benchmark and the end-to-end tests.

It keeps the latest view and version, answers nothing by itself, and lets a caller wait until a
condition on what it received holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
import time
from collections.abc import Callable
from typing import Any

import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Subprotocol

from truco.bench.followed_view import FollowedView
from truco.protocol import SUBPROTOCOL, TOKEN_PREFIX

_ids = itertools.count(1)


class WsPlayer(FollowedView):
    def __init__(self, base_ws: str, code: str, token: str | None = None, *, keep_frames: bool = True,
                 on_message: Callable[[WsPlayer, dict[str, Any]], None] | None = None,
                 token_in_url: bool = False) -> None:
        """``token_in_url`` speaks the deprecated form (``?token=``) instead of the subprotocol."""
        self.url = f"{base_ws}/ws/{code}" + (f"?token={token}" if token and token_in_url else "")
        self.subprotocols = [SUBPROTOCOL] + ([f"{TOKEN_PREFIX}{token}"] if token and not token_in_url else [])
        self.code = code
        self.token = token
        self.keep_frames = keep_frames
        self.frames: list[str] = []
        self.messages: list[dict[str, Any]] = []
        self._follow(on_message)
        self.seat: int | None = None
        self.player: int | None = None
        self.close_code: int | None = None
        self.close_reason = ""
        self.ws: ClientConnection | None = None
        self._task: asyncio.Task[None] | None = None

    async def connect(self, timeout: float = 10.0) -> WsPlayer:
        self.ws = await connect(self.url, compression=None, max_queue=None, open_timeout=timeout,
                                ping_interval=None, max_size=2**22,
                                subprotocols=[Subprotocol(p) for p in self.subprotocols])
        self._task = asyncio.create_task(self._recv_loop())
        return self

    async def _recv_loop(self) -> None:
        assert self.ws is not None
        try:
            while True:
                raw = await self.ws.recv(decode=False)
                if not self.keep_frames and self._take_update(raw):
                    continue
                msg = orjson.loads(raw)
                if self.keep_frames:
                    self.frames.append(raw.decode())
                    self.messages.append(msg)
                view = msg.get("view") if msg.get("type") in ("hello", "update", "snapshot") else None
                me = view.get("me") if view else None
                if me:
                    self.seat, self.player = me.get("seat"), me.get("player")
                self._take_message(msg)
        except ConnectionClosed:
            pass
        finally:
            if self.ws.close_code is not None:
                self.close_code = self.ws.close_code
                self.close_reason = self.ws.close_reason or ""
            elif self.ws.protocol.close_rcvd is not None:
                self.close_code = self.ws.protocol.close_rcvd.code
            self._changed.set()

    @property
    def closed(self) -> bool:
        return self._task is not None and self._task.done()

    async def send_raw(self, data: str | bytes) -> None:
        assert self.ws is not None
        await self.ws.send(data)

    async def send(self, msg: dict[str, Any]) -> str:
        """Send a command (an ``id`` is added when missing); returns the command id."""
        if "id" not in msg and msg.get("type") not in ("ping", "resync"):
            msg = {**msg, "id": f"c{next(_ids)}"}
        await self.send_raw(orjson.dumps(msg).decode())
        return str(msg.get("id", ""))

    async def until(self, pred: Callable[[WsPlayer], bool], timeout: float = 10.0) -> None:
        """Wait until ``pred(self)`` holds; raise ``TimeoutError`` (with what was seen) otherwise."""
        deadline = time.monotonic() + timeout
        while not pred(self):
            if self.closed and not pred(self):
                raise ConnectionError(f"socket closed ({self.close_code} {self.close_reason}) while waiting")
            left = deadline - time.monotonic()
            if left <= 0:
                last = self.messages[-1] if self.messages else None
                raise TimeoutError(f"condition not met; version {self.version}, last message {last!r:.300}")
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), left)

    def reply_to(self, cid: str) -> dict[str, Any] | None:
        """The ack or error answering command ``cid``, if it came."""
        for m in reversed(self.messages):
            if m.get("type") in ("ack", "error") and m.get("id") == cid:
                found: dict[str, Any] = m
                return found
        return None

    async def command(self, msg: dict[str, Any], timeout: float = 10.0) -> dict[str, Any]:
        """Send a command and wait for its ack or error."""
        cid = await self.send(msg)
        await self.until(lambda p: p.reply_to(cid) is not None, timeout)
        reply = self.reply_to(cid)
        assert reply is not None
        return reply

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._task is not None:
            await asyncio.gather(self._task, return_exceptions=True)


def random_legal(view: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A random legal ``act`` for this view, or ``None`` when there is nothing to do."""
    legal = view.get("legal") or []
    if not legal:
        return None
    a = rng.choice(legal)
    msg = {"type": "act", "do": a["do"]}
    if "card" in a:
        msg["card"] = a["card"]
    return msg
