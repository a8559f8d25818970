"""The messages between nodes (``truco.cluster.bus``), against a Redis stand-in that can fail: what
is posted while Redis does not answer is sent again in order, a bounded number of them; a reply
finds its request; everything else reaches the node. (The cluster tests cover the same over a real
Redis that is stopped and started, end to end.)"""

from __future__ import annotations

import asyncio
from typing import Any, cast

import orjson
import pytest
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from truco.cluster import bus as bus_module
from truco.cluster.bus import Bus, Message
from truco.cluster.keys import Keys

KEYS = Keys("t")


class FlakyRedis:
    """``publish`` only: fails while ``down``, records every batch that got through."""

    def __init__(self) -> None:
        self.down = False
        self.sent: list[tuple[str, Any]] = []

    async def publish(self, channel: str, data: bytes) -> int:
        if self.down:
            raise RedisConnectionError("Redis is down")
        self.sent.append((channel, orjson.loads(data)))
        return 1


def _bus(redis: FlakyRedis) -> tuple[Bus, list[Message], list[tuple[str, str]]]:
    got: list[Message] = []
    moved: list[tuple[str, str]] = []
    b = Bus(cast(Redis, redis), KEYS, "a", got.append, lambda t, o: moved.append((t, o)), lambda: None)
    return b, got, moved


def _ops(batch: list[Message]) -> list[int]:
    return [m["n"] for m in batch]


async def _outage(before: list[tuple[str, int]], after: tuple[tuple[str, int], ...] = ()) -> FlakyRedis:
    """Post ``before`` while Redis is down (nothing goes), then ``after``; Redis back, post again."""
    redis = FlakyRedis()
    b, *_ = _bus(redis)
    redis.down = True
    for node, n in before:
        b.post(node, {"op": "frame", "n": n})
    await b.flush()
    assert redis.sent == []
    for node, n in after:
        b.post(node, {"op": "frame", "n": n})
    redis.down = False
    await b.flush()
    return redis


async def test_what_is_posted_while_redis_is_down_is_sent_again_in_order_in_one_batch() -> None:
    redis = await _outage([("b", 1), ("b", 2)], after=(("b", 3),))  # 3 goes after the kept ones
    assert [(ch, _ops(batch)) for ch, batch in redis.sent] == [(KEYS.inbox("b"), [1, 2, 3])]
    assert all(m["from"] == "a" for m in redis.sent[0][1])


async def test_a_failed_publish_keeps_the_batches_for_the_other_nodes_too() -> None:
    redis = await _outage([("b", 1), ("c", 2)])
    assert sorted((ch, _ops(batch)) for ch, batch in redis.sent) == [(KEYS.inbox("b"), [1]),
                                                                      (KEYS.inbox("c"), [2])]


async def test_at_most_the_outbox_limit_is_kept_for_a_node_the_oldest_go_first(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bus_module, "OUTBOX_LIMIT", 5)
    redis = await _outage([("b", n) for n in range(8)])
    assert [_ops(batch) for _, batch in redis.sent] == [[3, 4, 5, 6, 7]]


async def test_a_reply_answers_its_request_and_every_other_message_reaches_the_node() -> None:
    redis = FlakyRedis()
    b, got, moved = _bus(redis)
    asking = asyncio.ensure_future(b.ask("b", {"op": "describe", "table": "T"}, timeout=5))
    await asyncio.sleep(0)
    await b.flush()
    (channel, [request]), = redis.sent
    assert channel == KEYS.inbox("b") and request["op"] == "describe" and request["from"] == "a"
    batch = [{"op": "frame", "c": -1, "t": "x", "from": "b"},
             {"op": "reply", "to": request["rid"], "summary": {"code": "T"}, "from": "b"}]
    b._deliver(KEYS.inbox("a").encode(), orjson.dumps(batch))
    reply = await asyncio.wait_for(asking, 1)
    assert reply["summary"] == {"code": "T"}
    assert got == [batch[0]]  # the reply went to its request only
    b._deliver(KEYS.moved, orjson.dumps({"table": "T", "owner": "c"}))
    assert moved == [("T", "c")]
    # a late reply to a request that is no longer waited for is dropped
    b._deliver(KEYS.inbox("a"), orjson.dumps([{"op": "reply", "to": request["rid"], "from": "b"}]))
    assert got == [batch[0]]


async def test_a_request_nobody_answers_times_out_and_is_forgotten() -> None:
    redis = FlakyRedis()
    b, *_ = _bus(redis)
    with pytest.raises(TimeoutError):
        await b.ask("b", {"op": "describe", "table": "T"}, timeout=0.01)
    assert b._waiting == {}


async def test_a_nodes_inbox_is_never_taken_for_the_moves_channel_whatever_the_nodes_name() -> None:
    """Node ids are free text (``--node-id``): the inbox of a node called ``moved`` ends as the moves
    channel does, and was once told apart by that ending."""
    got: list[Message] = []
    moved: list[tuple[str, str]] = []
    b = Bus(cast(Redis, FlakyRedis()), KEYS, "moved", got.append, lambda t, o: moved.append((t, o)),
            lambda: None)
    b._deliver(KEYS.inbox("moved").encode(), orjson.dumps([{"op": "frame", "c": -1, "t": "x", "from": "b"}]))
    assert len(got) == 1 and moved == []
