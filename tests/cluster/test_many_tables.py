"""Forty tables on a three-node cluster: sockets on random nodes, bots and simulated people, every
match to its end; no frame on any node names a card its reader may not know; every acked command is
in the log."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from truco.storage.postgres import PostgresStorage

from .conftest import Cluster
from .roaming import play_until
from .tables import Table, audit, make_table

# (players, seats of people): the rest are bots. Four-player tables with two people on one team
# vote as a team; every kind of table is there.
KINDS = [(2, (0, 1)), (2, (0,)), (4, (0, 2)), (4, (0, 1, 2, 3)), (4, (0,))]


async def make_tables(cluster: Cluster, rng: random.Random, count: int,
                      watchers_every: int = 5) -> list[Table]:
    async with httpx.AsyncClient(timeout=30) as http:
        sem = asyncio.Semaphore(8)

        async def one(i: int) -> Table:
            players, humans = KINDS[i % len(KINDS)]
            async with sem:
                return await make_table(cluster, http, random.Random(rng.random()), players, humans,
                                        watchers=1 if i % watchers_every == 0 else 0)

        return list(await asyncio.gather(*(one(i) for i in range(count))))


async def finish(tables: list[Table], timeout: float = 240,
                 hold: Callable[[dict[str, Any]], bool] | None = None) -> None:
    await asyncio.gather(*(play_until([*t.people], t.over, timeout, hold) for t in tables))


async def close_all(tables: list[Table]) -> None:
    for t in tables:
        for p in [*t.people, *t.watchers]:
            await p.close()


@pytest.mark.slow
async def test_forty_tables_on_three_nodes_finish_and_no_socket_sees_a_card_it_may_not(
        cluster: Cluster, postgres_url: str) -> None:
    tables = await make_tables(cluster, random.Random(40), 40)
    await finish(tables)
    assert all(t.over() for t in tables)
    await close_all(tables)
    storage = PostgresStorage(postgres_url, pool_size=2)
    try:
        for t in tables:
            audit(t, storage.log(t.code))
    finally:
        storage.close()
