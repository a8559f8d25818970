"""What the server sends on a socket: one typed record per message and one encoder.

Every message that carries a view or answers a ping also carries ``server_now_ms``, the server's
clock when it was sent, so a phone whose clock is off still counts deadlines down right. A view is
the JSON form of ``truco.table.TableView`` (built per person, never filtered).
"""

from __future__ import annotations

from typing import Any

import msgspec

from truco.protocol.errors import ErrorCode

PROTOCOL_VERSION = 1
"""Sent in every hello. A breaking change to any message bumps it."""
SUBPROTOCOL = "truco"
"""The WebSocket subprotocol the server selects when a client offers it."""
TOKEN_PREFIX = "truco.token."
"""A player offers ``truco.token.<seat token>`` as a second subprotocol: the token travels in the
``Sec-WebSocket-Protocol`` header, never in a URL (which access logs and proxies keep)."""

View = dict[str, Any]
EventDict = dict[str, Any]


class _Out(msgspec.Struct, frozen=True, tag_field="type", omit_defaults=True):
    pass


class Hello(_Out, frozen=True, tag="hello"):
    """First message on every socket: who you are here, the protocol version, and your full view."""

    table_id: str
    role: str
    """``player`` or ``spectator``."""
    player: int | None
    seat: int | None
    version: int
    server_now_ms: int
    view: View
    protocol: int


class Update(_Out, frozen=True, tag="update"):
    """One accepted command: the events this person may hear, and their new view."""

    table_id: str
    version: int
    server_now_ms: int
    events: list[EventDict]
    view: View


class Snapshot(_Out, frozen=True, tag="snapshot"):
    """A fresh view, in answer to a resync (``reason``)."""

    table_id: str
    version: int
    reason: str
    server_now_ms: int
    view: View


class Ack(_Out, frozen=True, tag="ack"):
    """The command ``id`` was accepted at ``version`` (``duplicate``: it had been, earlier)."""

    id: str
    version: int
    duplicate: bool = False


class Error(_Out, frozen=True, tag="error"):
    """A message refused: nothing changed. ``id`` names the command when it had a readable one;
    ``reason`` is the refusal's short code (``not_your_turn``…) that a client words for its player;
    ``message`` is the same in English, for people reading logs."""

    code: ErrorCode
    message: str
    id: str | None
    version: int | None = None
    reason: str | None = None


class Pong(_Out, frozen=True, tag="pong"):
    server_now_ms: int


class Left(_Out, frozen=True, tag="left"):
    """You left the table (or were taken off it); the socket closes next."""

    table_id: str
    version: int


ServerMessage = Hello | Update | Snapshot | Ack | Error | Pong | Left

_ENCODER = msgspec.json.Encoder()


def encode(msg: ServerMessage) -> str:
    """The frame for ``msg`` (JSON text)."""
    return _ENCODER.encode(msg).decode()
