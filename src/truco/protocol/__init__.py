"""Wire messages between a client and the server: strict decoding, versioned, with limits."""

from truco.protocol.errors import CloseCode, ErrorCode, PolicyViolation, ProtocolError
from truco.protocol.limits import MAX_CONSECUTIVE_ERRORS, MAX_FRAME_BYTES, RateLimiter
from truco.protocol.messages import (
    PROTOCOL_VERSION,
    ClientMessage,
    CommandMsg,
    PingMsg,
    ResyncMsg,
    decode,
    dumps,
    encode_command,
    error,
    hello,
    pong,
)

__all__ = [
    "MAX_CONSECUTIVE_ERRORS", "MAX_FRAME_BYTES", "PROTOCOL_VERSION", "ClientMessage", "CloseCode",
    "CommandMsg", "ErrorCode", "PingMsg", "PolicyViolation", "ProtocolError", "RateLimiter", "ResyncMsg",
    "decode", "dumps", "encode_command", "error", "hello", "pong",
]
