"""A lean WebSocket client for the load generator: thousands of sockets in one process.

The ``websockets`` library costs more per message than the server spends on it, and the goal is
measured with the load generator on the same two cores. This client speaks just enough RFC 6455
(one upgrade request; unfragmented text frames; ping, pong and close) over an asyncio protocol,
reads only the version at the head of an update and decodes a view only when asked. It is used by
``truco bench server``; the tests use ``WsPlayer``.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import os
import struct
from collections.abc import Callable
from typing import Any

import orjson

from truco.bench.followed_view import FollowedView
from truco.protocol import SUBPROTOCOL, TOKEN_PREFIX

_ids = itertools.count(1)

OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 1, 2, 8, 9, 10


def _mask(payload: bytes, key: bytes) -> bytes:
    n = len(payload)
    if not n:
        return payload
    repeated = (key * (n // 4 + 1))[:n]
    return (int.from_bytes(payload, "little") ^ int.from_bytes(repeated, "little")).to_bytes(n, "little")


def frame(opcode: int, payload: bytes) -> bytes:
    """A masked client frame (FIN set)."""
    key = os.urandom(4)
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
    elif n < 65536:
        head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
    return head + key + _mask(payload, key)


class LeanPlayer(FollowedView, asyncio.Protocol):
    """One player's socket. ``view`` is decoded lazily; ``on_message`` sees small messages fully and
    updates as ``{"type": "update", "version": v}``."""

    def __init__(self, host: str, port: int, path: str,
                 on_message: Callable[[LeanPlayer, dict[str, Any]], None] | None = None,
                 token: str | None = None) -> None:
        self.host, self.port, self.path = host, port, path
        self.token = token
        self._follow(on_message)
        self.close_code: int | None = None
        self.transport: asyncio.Transport | None = None
        self._buf = bytearray()
        self.bytes_in = 0
        """Bytes this socket received (frames and their headers)."""
        self._handshake: asyncio.Future[None] | None = None
        self._upgraded = False
        self.closed = False

    # ------------------------------------------------------------------ connection

    async def connect(self, timeout: float = 30.0) -> LeanPlayer:
        loop = asyncio.get_running_loop()
        self._handshake = loop.create_future()
        await asyncio.wait_for(loop.create_connection(lambda: self, self.host, self.port), timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        assert self.transport is not None
        offered = SUBPROTOCOL + (f", {TOKEN_PREFIX}{self.token}" if self.token else "")
        self.transport.write((f"GET {self.path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
                              "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                              f"Sec-WebSocket-Protocol: {offered}\r\n"
                              f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        await asyncio.wait_for(self._handshake, timeout)
        return self

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if self._handshake is not None and not self._handshake.done():
            self._handshake.set_exception(ConnectionError("connection lost during the handshake"))
        self._changed.set()

    def data_received(self, data: bytes) -> None:
        self.bytes_in += len(data)
        self._buf += data
        if not self._upgraded:
            end = self._buf.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(self._buf[:end])
            del self._buf[:end + 4]
            if not head.startswith(b"HTTP/1.1 101"):
                assert self._handshake is not None
                self._handshake.set_exception(ConnectionError(head.split(b"\r\n", 1)[0].decode()))
                return
            self._upgraded = True
            assert self._handshake is not None
            self._handshake.set_result(None)
        self._parse()

    def _parse(self) -> None:
        buf = self._buf
        while len(buf) >= 2:
            b0, b1 = buf[0], buf[1]
            n = b1 & 0x7F
            at = 2
            if n == 126:
                if len(buf) < 4:
                    return
                n = struct.unpack_from("!H", buf, 2)[0]
                at = 4
            elif n == 127:
                if len(buf) < 10:
                    return
                n = struct.unpack_from("!Q", buf, 2)[0]
                at = 10
            if len(buf) < at + n:
                return
            payload = bytes(buf[at:at + n])
            del buf[:at + n]
            self._frame(b0 & 0x0F, payload)

    def _frame(self, opcode: int, payload: bytes) -> None:
        if opcode == OP_TEXT:
            self._message(payload)
        elif opcode == OP_PING:
            self._write(frame(OP_PONG, payload))
        elif opcode == OP_CLOSE:
            self.close_code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
            self._write(frame(OP_CLOSE, payload[:2]))
            if self.transport is not None:
                self.transport.close()

    def _message(self, raw: bytes) -> None:
        if not self._take_update(raw):
            self._take_message(orjson.loads(raw))

    def _write(self, data: bytes) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(data)

    # ------------------------------------------------------------------ the player's side

    async def send(self, msg: dict[str, Any]) -> str:
        if "id" not in msg and msg.get("type") not in ("ping", "resync"):
            msg = {**msg, "id": f"b{next(_ids)}"}
        if self.closed:
            raise ConnectionError("the socket is closed")
        self._write(frame(OP_TEXT, orjson.dumps(msg)))
        return str(msg.get("id", ""))

    async def until(self, pred: Callable[[LeanPlayer], bool], timeout: float = 10.0) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not pred(self):
            if self.closed:
                raise ConnectionError(f"socket closed ({self.close_code}) while waiting")
            left = deadline - loop.time()
            if left <= 0:
                raise TimeoutError(f"condition not met at version {self.version}")
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), left)

    async def close(self) -> None:
        if self.transport is not None and not self.closed:
            self._write(frame(OP_CLOSE, struct.pack("!H", 1000)))
            self.transport.close()
