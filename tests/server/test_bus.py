"""The in-memory bus delivers in order to every live subscriber and drops the ones that fall behind."""

from __future__ import annotations

import asyncio

import pytest

from truco.bus import MemoryBus


async def test_publish_reaches_every_subscriber_in_order() -> None:
    bus = MemoryBus()
    a, b = bus.subscribe("t1"), bus.subscribe("t1")
    assert await bus.publish("t1", 1) == 2
    await bus.publish("t1", 2)
    assert [await a.get(), await a.get()] == [1, 2]
    assert [b.get_nowait(), b.get_nowait()] == [1, 2]


async def test_topics_are_separate() -> None:
    bus = MemoryBus()
    a = bus.subscribe("t1")
    assert await bus.publish("t2", "x") == 0
    with pytest.raises(asyncio.QueueEmpty):
        a.get_nowait()


async def test_a_closed_subscription_receives_nothing() -> None:
    bus = MemoryBus()
    a = bus.subscribe("t1")
    a.close()
    a.close()
    assert await bus.publish("t1", "x") == 0


async def test_a_subscriber_that_falls_behind_is_dropped() -> None:
    bus = MemoryBus(max_queue=3)
    slow, fast = bus.subscribe("t"), bus.subscribe("t")
    for i in range(3):
        await bus.publish("t", i)
        fast.get_nowait()
    assert await bus.publish("t", 99) == 1
    assert slow.overflowed and slow.closed
