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

from starlette.websockets import WebSocket

from truco.protocol import (
    MAX_CONSECUTIVE_ERRORS,
    Ack,
    CloseCode,
    CommandMsg,
    Error,
    ErrorCode,
    PingMsg,
    PolicyViolation,
    Pong,
    ProtocolError,
    RateLimiter,
    ResyncMsg,
    ServerMessage,
    decode,
    encode,
)
from truco.runtime import BadToken, Connection, LobbyError, NoSuchTable, Revoked
from truco.runtime.front import Front

log = logging.getLogger("truco.server")
SERVICE_RESTART = 1012
"""The close code uvicorn gives every socket when the server shuts down."""


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
    def __init__(self, ws: WebSocket, rt: Front, table_id: str, token: str | None,
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
        self.server_stopping = False
        self.stop = asyncio.Event()
        """Set once the socket is to close: reading ends, and a writer stuck on a client that does
        not read is given a few seconds, then dropped (its queue is already gone)."""
        self.closing: tuple[int, str] | None = None
        self.errors = 0
        self.conn: Connection | None = None
        self.replying = False
        """A command of this socket is being applied: a close the table asks for waits for its reply
        (the ack of a ``leave`` comes before the socket closes)."""
        self.close_after_reply: tuple[int, str] | None = None

    # ------------------------------------------------------------------ outgoing

    def push(self, msg: ServerMessage | str) -> None:
        """Called by the runtime for each message (a ``str``: already encoded, relayed from the
        table's owner in a cluster); never blocks (the writer task sends)."""
        if self.closing is not None:
            return
        if len(self.out) >= self.limits.max_outgoing:
            self.out.clear()  # a client that does not read gets nothing more, only the close
            self.close_soon(CloseCode.POLICY, "not reading")
            return
        self.out.append(msg if isinstance(msg, str) else encode(msg))
        self.wake.set()

    def close_soon(self, code: int, reason: str) -> None:
        if self.closing is None:
            self.closing = (code, reason)
        self.wake.set()
        self.stop.set()

    def close_from_table(self, code: int, reason: str) -> None:
        """The table closes this socket (you left, were removed, were replaced): after the reply to
        the command being applied, if any."""
        if self.replying:
            self.close_after_reply = self.close_after_reply or (code, reason)
        else:
            self.close_soon(code, reason)

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
            self.conn = await self.rt.connect(self.table_id, self.token, self.push, self.close_from_table)
        except Revoked as e:
            await self.ws.close(CloseCode.REVOKED, str(e))
            return
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
        stopping = asyncio.create_task(self.stop.wait())
        try:
            await asyncio.wait([writer, reader, stopping], return_when=asyncio.FIRST_COMPLETED)
            stopping.cancel()
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
                if self.conn is not None and not self.server_stopping:
                    await self.rt.disconnect(self.conn)
            except LobbyError:  # the table closed, or the server is shutting down: nothing to release
                pass
            self.conn = None  # no cycle (session <-> connection) outlives the socket

    async def _reader(self) -> None:
        while self.closing is None:
            message = await self.ws.receive()
            if message["type"] == "websocket.disconnect":
                self.closing = (CloseCode.GOING_AWAY, "gone")
                # 1012: the server itself is stopping (SIGTERM). The player did not leave: the table
                # must not hold their seat or force their vote; the restart's recovery treats them
                # as it treats everyone after our downtime.
                self.server_stopping = message.get("code") == SERVICE_RESTART
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
            self.push(Pong(server_now_ms=self.rt.clock.now_ms()))
        elif isinstance(msg, ResyncMsg):
            await self._resync()
        elif isinstance(msg, CommandMsg):
            await self._command(msg)

    def _error(self, code: ErrorCode, message: str, cid: str | None, version: int | None = None,
               reason: str | None = None) -> None:
        self.errors += 1
        self.push(Error(code=code, message=message, id=cid, version=version, reason=reason))
        if self.errors >= self.limits.max_errors:
            self.close_soon(CloseCode.POLICY, "too many bad messages")

    async def _resync(self) -> None:
        assert self.conn is not None
        try:
            await self.rt.resync(self.conn)
        except LobbyError as e:
            self._error(ErrorCode.UNAVAILABLE, str(e), None)
            self.close_soon(CloseCode.TABLE_CLOSED, "the table is gone")

    async def _command(self, msg: CommandMsg) -> None:
        if self.token is None:
            self._error(ErrorCode.NOT_ALLOWED, "spectators cannot play", msg.id)
            return
        self.replying = True
        try:
            await self._apply(msg)
        finally:
            self.replying = False
            if self.close_after_reply is not None:
                self.close_soon(*self.close_after_reply)

    async def _apply(self, msg: CommandMsg) -> None:
        assert self.token is not None
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
            self.push(Ack(id=msg.id, version=res.version, duplicate=res.duplicate))
        else:
            self._error(res.code, res.reason or "not now", msg.id, res.version, res.why)
