"""The impure shell: live tables, timers, bots, storage first and fan-out second, recovery on start."""

from truco.runtime.clock import Clock, FakeClock, SystemClock
from truco.runtime.connections import (
    BadToken,
    Close,
    Connection,
    LobbyError,
    NoSuchTable,
    Revoked,
    Send,
    ShuttingDown,
    Ticket,
)
from truco.runtime.mailbox import SubmitResult
from truco.runtime.runtime import Runtime

__all__ = ["BadToken", "Clock", "Close", "Connection", "FakeClock", "LobbyError", "NoSuchTable", "Revoked",
           "Runtime", "Send", "ShuttingDown", "SubmitResult", "SystemClock", "Ticket"]
