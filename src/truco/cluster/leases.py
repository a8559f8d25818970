"""Table leases in Redis: each live table has one owner node at a time.

A lease is a key ``lease:<table>`` holding the owner's node id with a time to live (``SET NX PX``).
The owner renews all of its leases in one script call per tick; a node that dies stops renewing and
its leases lapse, so another node may take the table. A lease is a promise about the future only: a
node paused past its lease (GC, SIGSTOP, a partition) still believes it owns the table when it wakes.
That is why the lease is not what keeps the log straight; the storage is: every write names the
table's next version and ``UNIQUE (table_id, version)`` refuses the stale owner's write (the fence),
after which it lets go (``fenced``)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

from truco.cluster.keys import Keys, text
from truco.runtime import LobbyError

log = logging.getLogger("truco.cluster")

_RENEW = """
-- KEYS[1]: this node's alive key; KEYS[2..]: the leases it holds. ARGV: node id, ttl ms, retake.
-- Returns whether the alive key was still there, and the leases lost.
local alive = redis.call('EXISTS', KEYS[1])
redis.call('SET', KEYS[1], '1', 'PX', ARGV[2])
local lost = {}
for i = 2, #KEYS do
  local v = redis.call('GET', KEYS[i])
  if v == ARGV[1] or (v == false and ARGV[3] == '1') then
    redis.call('SET', KEYS[i], ARGV[1], 'PX', ARGV[2])
  else
    table.insert(lost, i - 1)
  end
end
return {alive, lost}
"""
"""A lease found empty is taken again only when this node renewed it recently (Redis restarted
and forgot it); after a pause longer than the lease, an empty lease may have had another owner
meanwhile, so it counts as lost."""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class Leases:
    """This node's leases; a ``truco.runtime.ownership.Ownership`` for its runtime."""

    def __init__(self, redis: Redis, keys: Keys, node: str, ttl_ms: int = 4000) -> None:
        self.redis = redis
        self.keys = keys
        self.node = node
        self.ttl_ms = ttl_ms
        self.mine: set[str] = set()
        self.on_lost: Callable[[str], None] = lambda table_id: None
        """Called for a table this node no longer owns (its lease taken, or its write fenced)."""
        self._last_renewed = time.monotonic()
        self._renewed = False
        self.out_of_touch = False
        """The last renewal came after a pause longer than most of a lease (the node was frozen, or cut
        off), or found this node's alive mark lapsed: the other nodes may have taken our tables and
        forgotten our sockets."""
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)
        self._tasks: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ the Ownership seam

    async def claim(self, table_id: str) -> bool:
        """Take the lease of a table nobody holds; True when it is now ours."""
        try:
            won = await self.redis.set(self.keys.lease(table_id), self.node, nx=True, px=self.ttl_ms)
            if won:
                self.mine.add(table_id)
                await self.redis.sadd(self.keys.owned(self.node), table_id)
        except RedisError as e:
            self.mine.discard(table_id)  # the lease, if it was set, lapses by itself
            log.warning("cannot claim table %s: %s", table_id, e)
            raise LobbyError("the server could not reach its cluster; try again") from None
        return bool(won)

    def gone(self, table_id: str) -> None:
        """The table left this node (closed, let go): its lease is given back at once."""
        if table_id in self.mine:
            self.mine.discard(table_id)
            self._spawn(self.release(table_id))

    def fenced(self, table_id: str) -> None:
        log.warning("table %s: another node advanced it; letting go", table_id)
        self.on_lost(table_id)

    # ------------------------------------------------------------------ the rest

    async def holder(self, table_id: str) -> str | None:
        value = await self.redis.get(self.keys.lease(table_id))
        return None if value is None else text(value)

    async def release(self, table_id: str) -> None:
        try:
            await self._release(keys=[self.keys.lease(table_id)], args=[self.node])
            await self.redis.srem(self.keys.owned(self.node), table_id)
        except RedisError as e:  # it lapses by itself
            log.warning("cannot release table %s: %s", table_id, e)

    async def renew(self) -> list[str]:
        """Renew every lease (and this node's alive mark) in one call; returns the tables lost."""
        tables = sorted(self.mine)
        # Timed from the start of the last renewal, which its writes followed: from its end, a call
        # slow to come back (a loop stalled under load) hid a pause in which the marks had lapsed.
        started = time.monotonic()
        retake = started - self._last_renewed < self.ttl_ms / 1000 * 0.75
        alive, lost_idx = await self._renew(
            keys=[self.keys.alive(self.node), *(self.keys.lease(t) for t in tables)],
            args=[self.node, self.ttl_ms, "1" if retake else "0"])
        # A lapsed alive mark is what the others' sweep reads as this node dead: it may have forgotten
        # the sockets we relay, which would then hear nothing more (Redis restarted forgets it too).
        self.out_of_touch = not retake or (self._renewed and not alive)
        self._renewed = True
        self._last_renewed = started
        if tables:  # Redis may have restarted and forgotten which tables are ours
            await self.redis.sadd(self.keys.owned(self.node), *tables)
        lost = [tables[i - 1] for i in lost_idx]
        for t in lost:
            self.mine.discard(t)
        if lost:
            await self.redis.srem(self.keys.owned(self.node), *lost)
        return lost

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def drain(self) -> None:
        """Wait for the releases under way."""
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
