"""Self-measurement for /health: how late the event loop runs and how long garbage collections take.

A table's latency is the loop's latency: one slow step (a long GC pass, a blocking write) delays
every table at once. The figures cover the last minute.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import gc
import time
from typing import Any

PROBE_S = 0.1
WINDOW = 600
"""Samples kept: one minute of loop-lag probes."""


class LoopHealth:
    def __init__(self) -> None:
        self.lags: collections.deque[tuple[float, float]] = collections.deque(maxlen=WINDOW)
        self.gc_pauses: collections.deque[tuple[float, int, float]] = collections.deque(maxlen=WINDOW)
        self._gc_start = 0.0
        self._task: asyncio.Task[None] | None = None

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_start = time.perf_counter()
        else:
            self.gc_pauses.append((time.monotonic(), int(info.get("generation", -1)),
                                   (time.perf_counter() - self._gc_start) * 1000))

    async def _probe(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            t = loop.time()
            await asyncio.sleep(PROBE_S)
            self.lags.append((time.monotonic(), (loop.time() - t - PROBE_S) * 1000))

    def start(self) -> None:
        gc.callbacks.append(self._on_gc)
        self._task = asyncio.get_running_loop().create_task(self._probe())

    async def stop(self) -> None:
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._on_gc)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def summary(self, window_s: float = 60.0) -> dict[str, Any]:
        """Figures over the last ``window_s`` seconds (at most a minute)."""
        now = time.monotonic()
        lags = sorted(ms for at, ms in self.lags if now - at <= window_s)
        pauses = [ms for at, _, ms in self.gc_pauses if now - at <= window_s]
        return {
            "loop_lag_p99_ms": round(lags[int(len(lags) * 0.99)], 1) if lags else None,
            "loop_lag_max_ms": round(lags[-1], 1) if lags else None,
            "gc_max_ms": round(max(pauses), 1) if pauses else 0.0,
            "gc_full": sum(1 for at, gen, _ in self.gc_pauses if gen == 2 and now - at <= window_s),
            "gc_max_ms_by_generation": [
                round(max((ms for at, g, ms in self.gc_pauses if g == gen and now - at <= window_s),
                          default=0.0), 1) for gen in (0, 1, 2)],
            "window_s": window_s,
        }
