"""The impure shell: live tables, timers, bots, storage first and fan-out second, recovery on start."""

from truco.runtime.clock import Clock, FakeClock, SystemClock
from truco.runtime.runtime import (
    BadToken,
    Connection,
    Created,
    Joined,
    LobbyError,
    NoSuchTable,
    Runtime,
    Send,
    SubmitResult,
)

__all__ = ["BadToken", "Clock", "Connection", "Created", "FakeClock", "Joined", "LobbyError", "NoSuchTable",
           "Runtime", "Send", "SubmitResult", "SystemClock"]
