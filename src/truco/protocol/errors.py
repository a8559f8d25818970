"""Error codes sent to a client and the WebSocket close codes the server uses."""

from __future__ import annotations

from enum import IntEnum, StrEnum


class ErrorCode(StrEnum):
    """The ``code`` of an ``error`` message. A client may branch on it; the message is for people."""

    BAD_MESSAGE = "bad_message"
    """Valid JSON, but not a message this protocol knows (wrong type, missing or unknown field)."""
    ILLEGAL = "illegal"
    """A well-formed command the rules or the table do not allow now (out of turn, wrong card...)."""
    NOT_ALLOWED = "not_allowed"
    """Not for this connection: a spectator acting, a non-host sending a host command."""
    UNAVAILABLE = "unavailable"
    """The table is closed or being recovered, or the server is full; try again."""
    RATE_LIMITED = "rate_limited"
    """HTTP only: too many requests from one address; wait a moment."""
    NO_SUCH_TABLE = "no_such_table"
    """HTTP only: no table has that code."""


class CloseCode(IntEnum):
    """WebSocket close codes. 1008/1009 are the RFC 6455 policy codes; 4xxx are ours."""

    NORMAL = 1000
    GOING_AWAY = 1001
    POLICY = 1008
    """Garbage (binary, not JSON), flooding (rate limit), or too many bad messages in a row."""
    TOO_BIG = 1009
    """A frame over the size limit."""
    BAD_TOKEN = 4001
    """The seat token (or table code) given at connect is unknown."""
    REPLACED = 4002
    """The same seat connected again from another socket; the older socket is closed."""
    TABLE_CLOSED = 4003
    """The table no longer exists (cancelled and archived, or finished long ago)."""
    REVOKED = 4004
    """The seat token was ended: its player left the table or the host removed them."""
    BAD_PROTOCOL = 4005
    """The client asked for a protocol version this server does not speak."""


class ProtocolError(ValueError):
    """A message that cannot be accepted; ``message`` is readable by a person."""

    def __init__(self, code: ErrorCode, message: str, command_id: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.command_id = command_id


class PolicyViolation(ValueError):
    """Input that closes the socket (garbage, flood, oversize) rather than earning an error."""

    def __init__(self, close_code: CloseCode, reason: str) -> None:
        super().__init__(reason)
        self.close_code = close_code
        self.reason = reason
