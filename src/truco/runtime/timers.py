"""One heap of timers for every table of this process: deadlines, bots' turns and idle checks.

A timer firing only posts a ``Fire`` job to its table's mailbox; the table decides what it means
(a deadline whose token is stale, or a bot turn from an older version, does nothing).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Callable
from typing import Any, Literal

from truco.runtime.clock import Clock
from truco.runtime.jobs import Fire

Kind = Literal["wake", "bot", "idle"]


class Timers:
    def __init__(self, clock: Clock, deliver: Callable[[str, Fire], bool]) -> None:
        """``deliver(table_id, job)`` posts a job to a live table; False when it is gone."""
        self.clock = clock
        self._deliver = deliver
        self._heap: list[tuple[int, int, str, Kind, int]] = []
        self._seq = itertools.count()
        self._changed = asyncio.Event()
        self._armed: set[tuple[str, int, int]] = set()
        """Deadlines already in the heap: (table, token, at_ms). One heap entry each."""
        self._task: asyncio.Task[None] | None = None

    def push(self, at_ms: int, table_id: str, kind: Kind, version: int) -> None:
        heapq.heappush(self._heap, (at_ms, next(self._seq), table_id, kind, version))
        self._changed.set()

    def arm_deadline(self, table_id: str, token: int, at_ms: int, version: int) -> None:
        """Wake the table at ``at_ms`` for its deadline ``token`` (once, however often it is asked)."""
        key = (table_id, token, at_ms)
        if key not in self._armed:
            self._armed.add(key)
            heapq.heappush(self._heap, (at_ms, next(self._seq), table_id, "wake", token))
            self._changed.set()

    def due(self) -> bool:
        return bool(self._heap) and self._heap[0][0] <= self.clock.now_ms()

    def dispatch_due(self) -> int:
        """Post every timer due now; returns how many reached a live table."""
        fired = 0
        now = self.clock.now_ms()
        while self._heap and self._heap[0][0] <= now:
            at, _, table_id, kind, value = heapq.heappop(self._heap)
            if kind == "wake":
                self._armed.discard((table_id, value, at))
            if self._deliver(table_id, Fire(kind, value)):
                fired += 1
        return fired

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="truco-timers")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def _run(self) -> None:
        while True:
            self.dispatch_due()
            self._changed.clear()
            waiters: list[asyncio.Future[Any]] = [asyncio.ensure_future(self._changed.wait())]
            if self._heap:
                waiters.append(asyncio.ensure_future(self.clock.sleep_until(self._heap[0][0])))
            try:
                await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for w in waiters:
                    w.cancel()
