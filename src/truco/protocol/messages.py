"""Wire messages: strict decoding of what a client sends, and the shapes of what the server sends.

Every frame is one JSON object with a ``type``. Client messages never name a seat: the seat is bound
to the socket at connect. Decoding rejects unknown types, unknown fields, wrong types and oversized
values; it never evaluates anything a client sends beyond that.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import orjson

from truco.engine.cards import NAME
from truco.engine.types import Do
from truco.protocol.errors import CloseCode, ErrorCode, PolicyViolation, ProtocolError
from truco.protocol.limits import MAX_FRAME_BYTES
from truco.table.commands import PLAYER_COMMANDS, Act, PlayerCommand, command_to_dict, parse_command

PROTOCOL_VERSION = 1
"""Sent in every hello. A breaking change to any message bumps it."""

_ID_RE = re.compile(r"[A-Za-z0-9_.:-]{1,40}")
MAX_VERSION = 2**53
"""Versions and counters are JSON-safe integers; anything larger is a bad message."""


VOTE_ANSWERS = frozenset({Do.QUIERO, Do.NO_QUIERO, Do.RETRUCO, Do.VALE_CUATRO, Do.ENVIDO, Do.REAL_ENVIDO,
                          Do.FALTA_ENVIDO, Do.CONTRA_FLOR, Do.CONTRA_FLOR_AL_RESTO, Do.CON_FLOR_ME_ACHICO,
                          Do.FLOR})
"""Answers a team may vote for; which of them is legal now is the table's business."""

MAX_SMALL_INT = 64
"""Seats, players, teams and points are small; a client sending more is wrong, not clever."""
MAX_STR = 32


# ----------------------------------------------------------------------------- client -> server


@dataclass(frozen=True, slots=True)
class CommandMsg:
    """A table command from this socket's seat, with the client's command id.

    The same id sent twice (a resend, a double tap) is applied once; the table never sees the id.
    """

    id: str
    command: PlayerCommand


@dataclass(frozen=True, slots=True)
class ResyncMsg:
    """The client saw versions up to ``since``; the server answers with what came after, or a view."""

    since: int


@dataclass(frozen=True, slots=True)
class PingMsg:
    """Keep-alive; answered with a pong."""


ClientMessage = CommandMsg | ResyncMsg | PingMsg

COMMAND_TYPES: frozenset[str] = frozenset(PLAYER_COMMANDS) | {"vote"}
"""Message types that carry a table command (``vote`` is ``act`` spelled for a team's answer)."""


def _bad(text: str, cid: str | None = None) -> ProtocolError:
    return ProtocolError(ErrorCode.BAD_MESSAGE, text, cid)


def parse_frame(frame: str | bytes | None) -> dict[str, Any]:
    """Size, encoding and JSON checks. Anything failing here is garbage and closes the socket."""
    if frame is None or isinstance(frame, bytes):
        raise PolicyViolation(CloseCode.POLICY, "binary frames are not part of the protocol")
    # a str's length bounds its UTF-8 size from below; encode only when it could matter
    if len(frame) > MAX_FRAME_BYTES or (len(frame) * 4 > MAX_FRAME_BYTES
                                        and len(frame.encode("utf-8", "surrogatepass")) > MAX_FRAME_BYTES):
        raise PolicyViolation(CloseCode.TOO_BIG, f"frames are limited to {MAX_FRAME_BYTES} bytes")
    try:
        obj = orjson.loads(frame)
    except orjson.JSONDecodeError:
        raise PolicyViolation(CloseCode.POLICY, "frames must be JSON") from None
    if not isinstance(obj, dict):
        raise PolicyViolation(CloseCode.POLICY, "a message is a JSON object")
    return obj


def decode(frame: str | bytes | None) -> ClientMessage:
    """Decode one client frame.

    Raises ``PolicyViolation`` for garbage (close the socket) and ``ProtocolError`` for a well-formed
    frame that is not a valid message (answer with an error, change nothing).
    """
    return decode_object(parse_frame(frame))


def decode_object(obj: dict[str, Any]) -> ClientMessage:
    kind = obj.get("type")
    raw_id = obj.get("id")
    cid = raw_id if isinstance(raw_id, str) and _ID_RE.fullmatch(raw_id) else None
    if kind == "ping":
        if set(obj) - {"type"}:
            raise _bad("ping takes no fields")
        return PingMsg()
    if kind == "resync":
        since = obj.get("since")
        if set(obj) - {"type", "since"}:
            raise _bad("resync takes only 'since'")
        if not isinstance(since, int) or isinstance(since, bool) or not 0 <= since <= MAX_VERSION:
            raise _bad("resync needs 'since': the last version seen (an integer, 0 if none)")
        return ResyncMsg(since)
    if not isinstance(kind, str) or kind not in COMMAND_TYPES:
        shown = kind if isinstance(kind, str) and len(kind) <= 24 else "?"
        raise _bad(f"unknown message type {shown!r}", cid)
    if cid is None:
        raise _bad("every command needs an 'id': 1-40 letters, digits or _.:-")
    body = {k: v for k, v in obj.items() if k != "id"}
    for key, value in body.items():
        if isinstance(value, bool) or value is None:
            raise _bad(f"{key!r} has the wrong type", cid)
        if isinstance(value, int) and not 0 <= value <= MAX_SMALL_INT:
            raise _bad(f"{key!r} is out of range", cid)
        if isinstance(value, str) and len(value) > MAX_STR:
            raise _bad(f"{key!r} is too long", cid)
        if not isinstance(value, int | str):
            raise _bad(f"{key!r} has the wrong type", cid)
    if kind == "vote":
        if set(body) != {"type", "answer"}:
            raise _bad("a vote is {\"type\": \"vote\", \"id\": ..., \"answer\": ...}", cid)
        try:
            answer = Do(body["answer"])
        except ValueError:
            raise _bad(f"unknown answer {str(body['answer'])[:MAX_STR]!r}", cid) from None
        if answer not in VOTE_ANSWERS:
            raise _bad(f"{answer.value} is not an answer to a call", cid)
        return CommandMsg(cid, Act(answer))
    if kind == "act" and isinstance(body.get("card"), str) and body["card"] not in NAME:
        raise _bad(f"unknown card {body['card']!r} (write it like '1e', '12c')", cid)
    try:
        command = parse_command(body)
    except ValueError as e:
        raise _bad(str(e)[:200], cid) from None
    return CommandMsg(cid, command)


def encode_command(command_id: str, command: PlayerCommand) -> str:
    """The frame a client sends for ``command`` (used by the test clients and the load benchmark)."""
    d = command_to_dict(command)
    d["id"] = command_id
    return orjson.dumps(d).decode()


# ----------------------------------------------------------------------------- server -> client


def dumps(obj: dict[str, Any]) -> str:
    return orjson.dumps(obj).decode()


def hello(*, seat: int | None, version: int, view: dict[str, Any], table: dict[str, Any]) -> dict[str, Any]:
    """First message on every socket: who you are here, the protocol version, and your full view."""
    return {"type": "hello", "protocol": PROTOCOL_VERSION, "seat": seat,
            "role": "spectator" if seat is None else "player", "version": version,
            "table": table, "view": view}


def error(code: ErrorCode, message: str, command_id: str | None) -> dict[str, Any]:
    return {"type": "error", "code": str(code), "message": message, "id": command_id}


def pong() -> dict[str, Any]:
    return {"type": "pong"}
