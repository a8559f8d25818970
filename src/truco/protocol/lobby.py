"""The lobby's HTTP request bodies: strictly decoded like the socket's messages."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from truco.protocol.errors import ErrorCode, ProtocolError
from truco.table.settings import SettingsError, TableSettings

MAX_BODY_BYTES = 2048
MAX_NAME = 24


@dataclass(frozen=True, slots=True)
class CreateRequest:
    name: str
    settings: TableSettings


@dataclass(frozen=True, slots=True)
class JoinRequest:
    name: str


def _bad(text: str) -> ProtocolError:
    return ProtocolError(ErrorCode.BAD_MESSAGE, text)


def parse_body(body: bytes) -> dict[str, Any]:
    if len(body) > MAX_BODY_BYTES:
        raise _bad(f"a request body is at most {MAX_BODY_BYTES} bytes")
    try:
        obj = orjson.loads(body) if body else {}
    except orjson.JSONDecodeError:
        raise _bad("the body must be JSON") from None
    if not isinstance(obj, dict):
        raise _bad("the body must be a JSON object")
    return obj


def clean_name(raw: Any) -> str:
    """A display name: 1–24 printable characters, inner spaces collapsed."""
    if not isinstance(raw, str):
        raise _bad("'name' is required: 1 to 24 characters")
    if any(not ch.isprintable() for ch in raw):
        raise _bad("a name cannot hold control characters")
    name = " ".join(raw.split())
    if not 1 <= len(name) <= MAX_NAME:
        raise _bad("'name' is required: 1 to 24 characters")
    return name


def decode_create(body: bytes) -> CreateRequest:
    obj = parse_body(body)
    extra = set(obj) - {"name", "settings"}
    if extra:
        raise _bad(f"unknown field(s): {', '.join(sorted(extra))[:80]}")
    name = clean_name(obj.get("name"))
    try:
        settings = TableSettings.from_dict(obj.get("settings"))
    except (SettingsError, TypeError, ValueError) as e:
        raise _bad(str(e)[:200]) from None
    return CreateRequest(name, settings)


def decode_join(body: bytes) -> JoinRequest:
    obj = parse_body(body)
    extra = set(obj) - {"name"}
    if extra:
        raise _bad(f"unknown field(s): {', '.join(sorted(extra))[:80]}")
    return JoinRequest(clean_name(obj.get("name")))
