"""The lobby's HTTP request bodies, strictly decoded like the socket's messages, and a table's link."""

from __future__ import annotations

from typing import Annotated, Any, TypeVar

import msgspec

from truco.protocol.errors import ErrorCode, ProtocolError
from truco.table import SettingsError, TableError, TableSettings, clean_name

MAX_BODY_BYTES = 2048
T = TypeVar("T")


class CreateBody(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``POST /api/tables``. ``bots``: a level, to fill every other seat with bots of that level and
    start at once (the home screen's "play against bots")."""

    name: str
    settings: dict[str, Any] | None = None
    bots: Annotated[str, msgspec.Meta(pattern=r"^[a-z0-9_]{1,24}$")] | None = None


class JoinBody(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``POST /api/tables/{code}/join``."""

    name: str


class CreateRequest(msgspec.Struct, frozen=True):
    name: str
    settings: TableSettings
    bots: str | None


def _bad(text: str) -> ProtocolError:
    return ProtocolError(ErrorCode.BAD_MESSAGE, text[:200])


def _body(body: bytes, kind: type[T]) -> T:
    if len(body) > MAX_BODY_BYTES:
        raise _bad(f"a request body is at most {MAX_BODY_BYTES} bytes")
    try:
        return msgspec.json.decode(body or b"{}", type=kind)
    except msgspec.ValidationError as e:
        raise _bad(str(e)) from None
    except msgspec.DecodeError:
        raise _bad("the body must be a JSON object") from None


def _name(raw: str) -> str:
    try:
        return clean_name(raw)
    except TableError as e:
        raise _bad(f"'name': {e}") from None


def decode_create(body: bytes) -> CreateRequest:
    req = _body(body, CreateBody)
    try:
        settings = TableSettings.from_dict(req.settings)
    except (SettingsError, TypeError, ValueError) as e:
        raise _bad(str(e)) from None
    return CreateRequest(_name(req.name), settings, req.bots)


def decode_join(body: bytes) -> str:
    """The name of the person joining."""
    return _name(_body(body, JoinBody).name)


def table_path(code: str) -> str:
    """The link path of a table: ``/m/<code>``."""
    return f"/m/{code}"
