"""The in-memory bus: one process, no driver. Subscribers that fall too far behind are dropped."""

from __future__ import annotations

import asyncio
from typing import Any

DEFAULT_MAX_QUEUE = 1000
"""A subscriber this far behind is a dead socket; it is closed rather than buffering forever."""


class MemorySubscription:
    def __init__(self, bus: MemoryBus, topic: str, max_queue: int) -> None:
        self.topic = topic
        self._bus = bus
        self._queue: asyncio.Queue[Any] = asyncio.Queue(max_queue)
        self.closed = False
        self.overflowed = False

    def _offer(self, message: Any) -> bool:
        if self.closed:
            return False
        try:
            self._queue.put_nowait(message)
        except asyncio.QueueFull:
            self.overflowed = True
            self.close()
            return False
        return True

    async def get(self) -> Any:
        if self.closed and self._queue.empty():
            raise EOFError("subscription closed")
        return await self._queue.get()

    def get_nowait(self) -> Any:
        return self._queue.get_nowait()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._bus._remove(self)


class MemoryBus:
    def __init__(self, max_queue: int = DEFAULT_MAX_QUEUE) -> None:
        self._topics: dict[str, list[MemorySubscription]] = {}
        self._max_queue = max_queue

    def subscribe(self, topic: str) -> MemorySubscription:
        sub = MemorySubscription(self, topic, self._max_queue)
        self._topics.setdefault(topic, []).append(sub)
        return sub

    def _remove(self, sub: MemorySubscription) -> None:
        subs = self._topics.get(sub.topic)
        if subs and sub in subs:
            subs.remove(sub)
            if not subs:
                del self._topics[sub.topic]

    async def publish(self, topic: str, message: Any) -> int:
        return sum(1 for sub in list(self._topics.get(topic, ())) if sub._offer(message))

    async def close(self) -> None:
        for subs in list(self._topics.values()):
            for sub in list(subs):
                sub.close()
