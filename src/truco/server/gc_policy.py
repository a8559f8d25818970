"""Keep the cyclic garbage collector from pausing every table at once.

With thousands of sockets and tables, a full collection walks every live object and stops the event
loop for a few hundred milliseconds: every table's latency at once. Most of our garbage is freed by
reference counting (states are immutable tuples, replaced whole), so long-lived objects are frozen
(``gc.freeze``) every few seconds and full collections only walk what is new. Every ten minutes the
frozen objects are released again, so a cycle that died while frozen is still collected eventually.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc


class GcPolicy:
    def __init__(self, freeze_every_s: float = 10.0, release_every_s: float = 600.0) -> None:
        self.freeze_every_s = freeze_every_s
        self.release_every_s = release_every_s
        self._task: asyncio.Task[None] | None = None
        self.freezes = 0
        self.releases = 0

    def start(self) -> None:
        if self.freeze_every_s <= 0:
            return
        gc.freeze()
        self.freezes += 1
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        released_at = loop.time()
        while True:
            await asyncio.sleep(self.freeze_every_s)
            if self.release_every_s > 0 and loop.time() - released_at >= self.release_every_s:
                gc.unfreeze()
                self.releases += 1
                released_at = loop.time()
            else:
                gc.freeze()
                self.freezes += 1

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        gc.unfreeze()
