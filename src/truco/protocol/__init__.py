"""Wire messages between a client and the server: typed records, strict decoding, versioned, limits."""

from truco.protocol.errors import CloseCode, ErrorCode, PolicyViolation, ProtocolError
from truco.protocol.inbound import ClientMessage, CommandMsg, PingMsg, ResyncMsg, command_frame, decode
from truco.protocol.limits import MAX_CONSECUTIVE_ERRORS, MAX_FRAME_BYTES, RateLimiter
from truco.protocol.outbound import (
    PROTOCOL_VERSION,
    SUBPROTOCOL,
    TOKEN_PREFIX,
    Ack,
    Error,
    Hello,
    Left,
    Pong,
    ServerMessage,
    Snapshot,
    Update,
    encode,
)

__all__ = [
    "MAX_CONSECUTIVE_ERRORS",
    "MAX_FRAME_BYTES",
    "PROTOCOL_VERSION",
    "SUBPROTOCOL",
    "TOKEN_PREFIX",
    "Ack",
    "ClientMessage",
    "CloseCode",
    "CommandMsg",
    "Error",
    "ErrorCode",
    "Hello",
    "Left",
    "PingMsg",
    "PolicyViolation",
    "Pong",
    "ProtocolError",
    "RateLimiter",
    "ResyncMsg",
    "ServerMessage",
    "Snapshot",
    "Update",
    "command_frame",
    "decode",
    "encode",
]
