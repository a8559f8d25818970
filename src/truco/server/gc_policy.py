"""Keep the cyclic garbage collector from pausing every table at once.

With thousands of sockets and tables, a full collection walks every live object and stops the event
loop for a few hundred milliseconds: every table's latency at once. Our garbage is almost all freed by
reference counting (states are immutable tuples, replaced whole), so only the youngest generation is
collected automatically (a few milliseconds at most) while full collections run on a clock, once every
ten minutes, instead of whenever enough objects have survived. The objects alive at start-up
(modules, recovered tables) are frozen out of the collector for good.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc

NEVER = 1_000_000
"""A full-collection threshold that is never reached: full collections run only on our clock."""
YOUNG = 2_000
"""Allocations between young collections (CPython's default is 700). Only the youngest generation is
collected automatically: every table's current state is replaced on each action, so the older
generations hold every live table, and walking them is what paused the loop."""


class GcPolicy:
    def __init__(self, full_every_s: float = 600.0) -> None:
        self.full_every_s = full_every_s
        self._task: asyncio.Task[None] | None = None
        self._saved: tuple[int, int, int] | None = None
        self.full_collections = 0

    def start(self) -> None:
        if self.full_every_s <= 0:
            return
        gc.collect()
        gc.freeze()
        self._saved = gc.get_threshold()
        gc.set_threshold(max(YOUNG, self._saved[0]), NEVER, NEVER)
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.full_every_s)
            gc.collect()
            self.full_collections += 1

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._saved is not None:
            gc.set_threshold(*self._saved)
            self._saved = None
            gc.unfreeze()
