"""The messages between the nodes of a cluster, over Redis pub/sub (``node`` says why pub/sub).

Each node listens on its own inbox channel and on the channel where a table's new owner announces
itself. What a node posts in one turn of its loop goes to each node in one publish, in order; while
Redis does not answer it is kept (at most ``OUTBOX_LIMIT`` a node) and sent again, still in order. A
request carries an id, and its answer comes back as a ``reply`` to that id (``ask``). Whatever was
published while the subscription was down is lost, and the node is told so (``on_lost``)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import Awaitable, Callable
from typing import Any, cast

import orjson
from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.exceptions import RedisError

from truco.cluster.keys import Keys, text

log = logging.getLogger("truco.cluster")

OUTBOX_LIMIT = 10_000
"""Messages kept for one node while Redis does not answer (each a frame, a reply or a request)."""

Message = dict[str, Any]


class Bus:
    """One node's end of the cluster's messages."""

    def __init__(self, redis: Redis, keys: Keys, node: str, on_message: Callable[[Message], None],
                 on_moved: Callable[[str, str], None], on_lost: Callable[[], None]) -> None:
        """``on_message``: a message from another node that is not a reply (a request, a frame or a
        close for a socket of ours); ``on_moved``: a table and its new owner; ``on_lost``: the
        subscription came back, and what was published meanwhile is lost."""
        self.redis = redis
        self.keys = keys
        self.node = node
        self._on_message = on_message
        self._on_moved = on_moved
        self._on_lost = on_lost
        self._outbox: dict[str, list[Message]] = {}
        self._ready = asyncio.Event()
        self.subscribed = asyncio.Event()
        """Set once the inbox is first listened to."""
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[Message]] = {}

    # ------------------------------------------------------------------ out

    def post(self, node: str, msg: Message) -> None:
        """Queue ``msg`` for ``node``; everything queued in one turn of the loop goes in one publish."""
        self._outbox.setdefault(node, []).append({**msg, "from": self.node})
        self._ready.set()

    async def ask(self, node: str, msg: Message, timeout: float) -> Message:
        """Post a request to ``node`` and wait for its reply (``TimeoutError`` after ``timeout`` s)."""
        rid = next(self._ids)
        fut: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        self._waiting[rid] = fut
        self.post(node, {**msg, "rid": rid})
        try:
            return await asyncio.wait_for(fut, timeout)
        finally:
            self._waiting.pop(rid, None)

    async def announce(self, table_id: str) -> None:
        """Tell every node that this node owns ``table_id`` now."""
        await self.redis.publish(self.keys.moved, orjson.dumps({"table": table_id, "owner": self.node}))

    async def send(self) -> None:
        """The loop that publishes what is posted."""
        while True:
            await self._ready.wait()
            await self.flush()

    async def flush(self) -> None:
        self._ready.clear()
        batches, self._outbox = self._outbox, {}
        failed = False
        for node, msgs in batches.items():
            if failed:
                self._requeue(node, msgs)
                continue
            try:
                await self.redis.publish(self.keys.inbox(node), orjson.dumps(msgs))
            except (RedisError, OSError) as e:
                # Kept, in order, and sent again once Redis answers: a lost frame is noticed by its
                # client only when a later one shows the gap, and the last frame of a turn has none.
                log.warning("node %s: %d messages to %s not sent yet: %s", self.node, len(msgs), node, e)
                self._requeue(node, msgs)
                failed = True
        if failed:
            await asyncio.sleep(0.2)

    def _requeue(self, node: str, msgs: list[Message]) -> None:
        """Put unsent ``msgs`` back before whatever was queued for ``node`` since (at most
        ``OUTBOX_LIMIT`` kept: past that, a Redis down for long, the oldest go and clients resync)."""
        queue = msgs + self._outbox.get(node, [])
        if len(queue) > OUTBOX_LIMIT:
            log.warning("node %s: %d messages to %s dropped", self.node, len(queue) - OUTBOX_LIMIT, node)
            queue = queue[-OUTBOX_LIMIT:]
        self._outbox[node] = queue
        self._ready.set()

    # ------------------------------------------------------------------ in

    async def listen(self) -> None:
        """The loop that hears this node's inbox and the moves of tables, resubscribing for ever."""
        first = True
        while True:
            pubsub: PubSub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.keys.inbox(self.node), self.keys.moved)
                if pubsub.connection is not None:
                    # redis-py reconnects a dropped subscription by itself, silently: whatever was
                    # published meanwhile is lost, so hear of it as after our own retry
                    pubsub.connection.register_connect_callback(self._reconnected)
                self.subscribed.set()
                if not first:
                    log.warning("node %s: back on Redis; what was published meanwhile is lost", self.node)
                    self._on_lost()
                first = False
                while True:
                    m = await pubsub.get_message(timeout=1.0)
                    if m is not None and m["type"] == "message":
                        try:
                            self._deliver(m["channel"], m["data"])
                        except Exception:
                            log.exception("node %s: a message from Redis could not be handled", self.node)
            except (RedisError, OSError) as e:
                log.warning("node %s: Redis subscription lost (%s); retrying", self.node, e)
                await asyncio.sleep(0.2)
            except Exception:  # never stop listening: a node deaf to its inbox stalls its tables
                log.exception("node %s: the Redis subscription failed; retrying", self.node)
                await asyncio.sleep(0.2)
            finally:
                with contextlib.suppress(Exception):
                    if pubsub.connection is not None:  # the connection goes back to the pool
                        pubsub.connection.deregister_connect_callback(self._reconnected)
                    # redis-py types aclose() from 8.x on, not before: a cast keeps mypy quiet on both
                    await cast(Callable[[], Awaitable[None]], pubsub.aclose)()

    async def _reconnected(self, connection: Any) -> None:
        log.warning("node %s: the Redis subscription reconnected; what was published meanwhile is lost",
                    self.node)
        self._on_lost()

    def _deliver(self, channel: bytes | str, data: bytes) -> None:
        if text(channel) == self.keys.moved:
            moved = orjson.loads(data)
            self._on_moved(moved["table"], moved["owner"])
            return
        for msg in orjson.loads(data):
            if msg["op"] == "reply":
                fut = self._waiting.get(msg["to"])
                if fut is not None and not fut.done():
                    fut.set_result(msg)
            else:
                self._on_message(msg)
