"""The bus interface: topics carry opaque payloads from publishers to every current subscriber."""

from __future__ import annotations

from typing import Any, Protocol


class Subscription(Protocol):
    """One subscriber's queue on one topic. Messages published before subscribing are not seen."""

    topic: str

    async def get(self) -> Any:
        """The next message, waiting if none is queued."""
        ...

    def get_nowait(self) -> Any:
        """The next message; raises ``asyncio.QueueEmpty`` when none is queued."""
        ...

    def close(self) -> None:
        """Stop receiving; idempotent."""
        ...


class Bus(Protocol):
    """Fire-and-forget fan-out. Delivery is in publish order per topic, to each live subscriber."""

    def subscribe(self, topic: str) -> Subscription: ...

    async def publish(self, topic: str, message: Any) -> int:
        """Deliver ``message`` to every subscriber of ``topic``; returns how many got it."""
        ...

    async def close(self) -> None: ...
