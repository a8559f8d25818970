"""One WebSocket: bound once, at connect, to a player (by token) or to a spectator; then a loop of
strictly decoded frames in and queued messages out.

Hostile input closes politely: binary, non-JSON, oversized or flooding frames close the socket with a
policy code; a well-formed mistake gets an ``error`` naming the command id and changes nothing; too
many mistakes in a row close the socket too.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
from dataclasses import dataclass
from typing import Any

from starlette.websockets import WebSocket

from truco.protocol import (
    MAX_CONSECUTIVE_ERRORS,
    PROTOCOL_VERSION,
    CloseCode,
    CommandMsg,
    ErrorCode,
    PingMsg,
    PolicyViolation,
    ProtocolError,
    RateLimiter,
    ResyncMsg,
    decode,
    dumps,
    error,
    pong,
)
from truco.runtime import BadToken, Connection, LobbyError, NoSuchTable
from truco.server.spectators import ServerRuntime, Watcher

log = logging.getLogger("truco.server")


@dataclass(frozen=True, slots=True)
class SocketLimits:
    """Per-socket limits. Tests of the content of bad frames raise the rate; a flood test does not."""

    rate: float = 10.0
    burst: float = 30.0
    max_errors: int = MAX_CONSECUTIVE_ERRORS
    max_outgoing: int = 512
    """Messages queued for a client that does not read; past this the socket is closed."""
    max_sockets_per_player: int = 4
    """A phone, a second tab, a reconnect racing the old socket: more is an amplification attack."""
    max_spectators_per_table: int = 64


class _Closed(Exception):
    """The socket is done: the client left or we closed it."""


class SocketSession:
    def __init__(self, ws: WebSocket, rt: ServerRuntime, table_id: str, token: str | None,
                 limits: SocketLimits) -> None:
        self.ws = ws
        self.rt = rt
        self.table_id = table_id
        self.token = token
        self.limits = limits
        self.rate = RateLimiter(limits.rate, limits.burst)
        self.out: collections.deque[str] = collections.deque()
        """Encoded at once: a view dict waiting here would outlive young GC generations by the
        thousand; a string is not even tracked by the collector."""
        self.wake = asyncio.Event()
        self.closing: tuple[int, str] | None = None
        self.errors = 0
        self.conn: Connection | None = None
        self.watcher: Watcher | None = None

    # ------------------------------------------------------------------ outgoing

    def push(self, msg: dict[str, Any]) -> None:
        """Called by the runtime for each message; never blocks (the writer task sends)."""
        if self.closing is not None:
            return
        if msg.get("type") == "snapshot" and msg.get("reason") == "connect":
            msg = self._hello(msg)
        elif msg.get("type") == "left":
            self.out.append(dumps(msg))
            self.close_soon(CloseCode.NORMAL, "you left the table")
            return
        if len(self.out) >= self.limits.max_outgoing:
            self.out.clear()  # a client that does not read gets nothing more, only the close
            self.close_soon(CloseCode.POLICY, "not reading")
            return
        self.out.append(dumps(msg))
        self.wake.set()

    def _hello(self, snap: dict[str, Any]) -> dict[str, Any]:
        view = snap["view"]
        me = view.get("me")
        return {"type": "hello", "protocol": PROTOCOL_VERSION,
                "role": "player" if me else "spectator", "table_id": snap["table_id"],
                "player": me["player"] if me else None, "seat": me["seat"] if me else None,
                "version": snap["version"], "view": view}

    def close_soon(self, code: int, reason: str) -> None:
        if self.closing is None:
            self.closing = (code, reason)
        self.wake.set()

    async def _writer(self) -> None:
        try:
            while True:
                while self.out:
                    await self.ws.send_text(self.out.popleft())
                if self.closing is not None:
                    code, reason = self.closing
                    with contextlib.suppress(Exception):
                        await self.ws.close(code, reason)
                    return
                self.wake.clear()
                await self.wake.wait()
        except Exception:  # the client went away mid-send
            self.closing = self.closing or (CloseCode.GOING_AWAY, "gone")

    # ------------------------------------------------------------------ incoming

    async def run(self) -> None:
        try:
            if self.token is not None:
                self.conn = await self.rt.connect(self.table_id, self.token, self.push)
            else:
                self.watcher = await self.rt.watch(self.table_id, self.push)
        except BadToken:
            await self.ws.close(CloseCode.BAD_TOKEN, "unknown seat token")
            return
        except NoSuchTable:
            await self.ws.close(CloseCode.TABLE_CLOSED, "there is no such table")
            return
        except LobbyError:  # the server is shutting down
            await self.ws.close(CloseCode.GOING_AWAY, "the server is restarting; reconnect")
            return
        writer = asyncio.create_task(self._writer())
        reader = asyncio.create_task(self._reader())
        try:
            await asyncio.wait([writer, reader], return_when=asyncio.FIRST_COMPLETED)
            if not reader.done():
                reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader
            self.close_soon(CloseCode.NORMAL, "bye")
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 5)
        finally:
            writer.cancel()
            try:
                if self.conn is not None:
                    await self.rt.disconnect(self.conn)
                if self.watcher is not None:
                    await self.rt.unwatch(self.watcher)
            except LobbyError:  # the table closed, or the server is shutting down: nothing to release
                pass
            self.conn = self.watcher = None  # no cycle (session <-> connection) outlives the socket

    async def _reader(self) -> None:
        while self.closing is None:
            message = await self.ws.receive()
            if message["type"] == "websocket.disconnect":
                self.closing = (CloseCode.GOING_AWAY, "gone")
                self.wake.set()
                return
            frame: str | bytes | None = message.get("text")
            if frame is None:
                frame = message.get("bytes")
            await self.handle(frame)

    async def handle(self, frame: str | bytes | None) -> None:
        if not self.rate.allow(time.monotonic()):
            self.close_soon(CloseCode.POLICY, "too many messages")
            return
        try:
            msg = decode(frame)
        except PolicyViolation as e:
            self.close_soon(e.close_code, e.reason)
            return
        except ProtocolError as e:
            self._error(e.code, e.message, e.command_id)
            return
        if isinstance(msg, PingMsg):
            self.push(pong())
        elif isinstance(msg, ResyncMsg):
            await self._resync()
        elif isinstance(msg, CommandMsg):
            await self._command(msg)

    def _error(self, code: ErrorCode, message: str, cid: str | None, version: int | None = None) -> None:
        self.errors += 1
        err = error(code, message, cid)
        if version is not None:
            err["version"] = version
        self.push(err)
        if self.errors >= self.limits.max_errors:
            self.close_soon(CloseCode.POLICY, "too many bad messages")

    async def _resync(self) -> None:
        try:
            if self.token is not None:
                snap = await self.rt.resync(self.table_id, self.token)
            else:
                snap = await self.rt.spectator_snapshot(self.table_id)
        except LobbyError as e:
            self._error(ErrorCode.UNAVAILABLE, str(e), None)
            self.close_soon(CloseCode.TABLE_CLOSED, "the table is gone")
            return
        self.push(snap)

    async def _command(self, msg: CommandMsg) -> None:
        if self.token is None:
            self._error(ErrorCode.NOT_ALLOWED, "spectators cannot play", msg.id)
            return
        try:
            res = await self.rt.submit(self.table_id, self.token, msg.command, msg.id)
        except NoSuchTable:
            self._error(ErrorCode.UNAVAILABLE, "the table is gone", msg.id)
            self.close_soon(CloseCode.TABLE_CLOSED, "the table is gone")
            return
        except LobbyError as e:  # the server is shutting down: the client resends after reconnecting
            self._error(ErrorCode.UNAVAILABLE, str(e), msg.id)
            self.close_soon(CloseCode.GOING_AWAY, "the server is restarting; reconnect")
            return
        if res.ok:
            self.errors = 0
            ack: dict[str, Any] = {"type": "ack", "id": msg.id, "version": res.version}
            if res.duplicate:
                ack["duplicate"] = True
            self.push(ack)
        else:
            self._error(ErrorCode.ILLEGAL, res.reason or "not now", msg.id, res.version)
