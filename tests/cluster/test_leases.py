"""A node must know when the others may have taken it for dead: then the sockets it relays reconnect
(``Node._tick``). The others read a node as dead when its alive mark lapses, so that, and not only
the time between its own renewals as it measured them, is what ``Leases.out_of_touch`` says."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from redis.asyncio import Redis

from tests.cluster.conftest import RedisServer
from truco.cluster.keys import Keys
from truco.cluster.leases import Leases

TTL_MS = 400


@pytest.fixture
async def leases(redis_server: RedisServer) -> AsyncIterator[Leases]:
    redis = Redis.from_url(redis_server.url)
    try:
        yield Leases(redis, Keys(), "n0", ttl_ms=TTL_MS)
    finally:
        await redis.aclose()


async def test_a_node_renewing_in_time_stays_in_touch(leases: Leases) -> None:
    for _ in range(4):
        await leases.renew()
        assert not leases.out_of_touch
        await asyncio.sleep(TTL_MS / 1000 / 4)


async def test_a_node_whose_alive_mark_lapsed_is_out_of_touch_even_if_it_renewed_in_time(
        leases: Leases) -> None:
    """However its own clock measured the pause, a lapsed mark is what the others saw."""
    await leases.renew()
    await leases.redis.delete(leases.keys.alive("n0"))  # lapsed, as under a stalled loop
    await leases.renew()
    assert leases.out_of_touch
    await leases.renew()  # renewed again in time: in touch again
    assert not leases.out_of_touch


async def test_a_renewal_slow_to_come_back_counts_from_when_it_was_sent(leases: Leases) -> None:
    """The pause is timed from the start of the last renewal: its writes were made then. A renewal
    whose answer came back late (the loop busy elsewhere) used to start the clock at its end, and a
    pause past most of the lease went unseen."""
    real: Callable[..., Awaitable[Any]] = leases._renew

    async def late(**kw: Any) -> Any:
        out = await real(**kw)
        await asyncio.sleep(TTL_MS / 1000 * 0.8)  # the answer is read late
        return out

    leases._renew = late  # type: ignore[assignment]
    await leases.renew()
    leases._renew = real  # type: ignore[assignment]
    await leases.renew()  # at once after the late answer: 0.8 of the lease since the last writes
    assert leases.out_of_touch
