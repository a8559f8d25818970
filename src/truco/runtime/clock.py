"""Time as an input: the real clock for serving, a fake one that tests move by hand."""

from __future__ import annotations

import asyncio
import time
from typing import Protocol


class Clock(Protocol):
    def now_ms(self) -> int:
        """Milliseconds on the server's clock (absolute: deadlines sent to clients use it)."""

    async def sleep_until(self, at_ms: int) -> None:
        """Return once ``now_ms() >= at_ms``."""


class SystemClock:
    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000

    async def sleep_until(self, at_ms: int) -> None:
        delay = (at_ms - self.now_ms()) / 1000
        if delay > 0:
            await asyncio.sleep(delay)


class FakeClock:
    """A clock that moves only when a test calls ``advance`` or ``set``."""

    def __init__(self, start_ms: int = 1_000_000) -> None:
        self._now = start_ms
        self._changed: asyncio.Event | None = None

    def now_ms(self) -> int:
        return self._now

    def set(self, at_ms: int) -> None:
        if at_ms < self._now:
            raise ValueError("a clock does not go back")
        self._now = at_ms
        if self._changed is not None:
            self._changed.set()
            self._changed = None

    def advance(self, ms: int) -> None:
        self.set(self._now + ms)

    async def sleep_until(self, at_ms: int) -> None:
        while self._now < at_ms:
            if self._changed is None:
                self._changed = asyncio.Event()
            await self._changed.wait()
