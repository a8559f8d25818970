"""What the runtime gets from one commit per command: a command whose storing fails is refused whole
and the table goes on; nothing is sent before its commit returned; a slow commit holds up only its
own table."""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
from collections.abc import AsyncIterator, Callable
from typing import Any

import msgspec
import pytest

from tests.storage.conftest import Opener
from truco.protocol import ServerMessage
from truco.runtime import FakeClock, Runtime, SubmitResult, Ticket
from truco.storage import Commit, LogEntry, MemoryStorage, Storage
from truco.table import parse_command


class Wrapped:
    """A real storage with a hook in front of ``commit``."""

    def __init__(self, inner: Storage) -> None:
        self.inner = inner
        self.before: Callable[[str, Commit], Any] | None = None

    async def create_table(self, table_id: str, meta: dict[str, Any], first: LogEntry) -> None:
        await self.inner.create_table(table_id, meta, first)

    async def commit(self, table_id: str, change: Commit) -> None:
        if self.before is not None:
            change = await self.before(table_id, change)
        await self.inner.commit(table_id, change)

    def log(self, table_id: str, since: int = 0) -> list[LogEntry]:
        return self.inner.log(table_id, since)

    def meta(self, table_id: str) -> dict[str, Any] | None:
        return self.inner.meta(table_id)

    def live_tables(self) -> list[str]:
        return self.inner.live_tables()

    def matches(self, table_id: str) -> list[dict[str, Any]]:
        return self.inner.matches(table_id)

    def close(self) -> None:
        self.inner.close()


async def submit(rt: Runtime, ticket: Ticket, cmd: dict[str, Any]) -> SubmitResult:
    return await rt.submit(ticket.table_id, ticket.token, parse_command(cmd))


def inbox() -> tuple[list[dict[str, Any]], Callable[[ServerMessage], None]]:
    got: list[dict[str, Any]] = []
    return got, lambda msg: got.append(msgspec.to_builtins(msg))


@pytest.fixture
async def runtime() -> AsyncIterator[Callable[..., Any]]:
    made: list[Runtime] = []
    seeds = itertools.count(987_654_321, 2_654_435_761)

    async def make(storage: Storage, **kw: Any) -> Runtime:
        rt = Runtime(storage, kw.pop("clock", FakeClock()), seed_source=lambda: next(seeds) % (1 << 63),
                     bot_delay=0, hand_pause=0, **kw)
        await rt.start()
        made.append(rt)
        return rt

    yield make
    for rt in made:
        await rt.close()


async def test_a_command_whose_match_record_cannot_be_stored_is_refused_whole_and_the_table_goes_on(
        open_storage: Opener, runtime: Callable[..., Any]):
    """The idle close of a match in play stores four things at once: the ``abandon`` entry, the new
    summary, the cancelled match's record and the closed mark. The record fails: none of it stays,
    the live table is as it was, and its next commands are accepted at the very next versions."""
    storage = Wrapped(open_storage())
    clock = FakeClock()
    rt: Runtime = await runtime(storage, clock=clock, idle_seconds=3600)
    c = await rt.create_table({"players": 2}, "Ana")
    conn = await rt.connect(c.table_id, c.token, inbox()[1])
    for cmd in ({"type": "add_bot", "seat": 1}, {"type": "start"}):
        assert (await rt.submit(c.table_id, c.token, parse_command(cmd))).ok
    await rt.settle()
    await rt.disconnect(conn)
    version, summary = rt.version(c.table_id), rt.summary(c.table_id)
    failed: list[Commit] = []

    async def unstorable_records(table_id: str, change: Commit) -> Commit:
        if not change.matches:
            return change
        failed.append(change)
        return dataclasses.replace(change, matches=(*change.matches, (2**70, {"bad": True})))

    storage.before = unstorable_records
    clock.advance(3600_000)
    await rt.settle()
    (tried,) = failed
    assert tried.closed and tried.meta is not None and tried.meta["phase"] == "closed"
    assert rt.table_ids() == [c.table_id] and rt.table(c.table_id).phase == "playing"
    assert rt.version(c.table_id) == version and rt.summary(c.table_id) == summary
    assert storage.log(c.table_id)[-1].version == version
    assert storage.meta(c.table_id) == summary
    assert storage.matches(c.table_id) == [] and storage.live_tables() == [c.table_id]

    storage.before = None  # storage works again: the table was never stuck
    got, send = inbox()
    conn = await rt.connect(c.table_id, c.token, send)
    assert rt.version(c.table_id) == version + 1 and got[-1]["version"] == version + 1
    await rt.disconnect(conn)
    clock.advance(3600_000)
    await rt.settle()
    assert rt.table_ids() == [] and storage.live_tables() == []
    (record,) = storage.matches(c.table_id)
    assert record["result"]["reason"] == "abandoned"
    versions = [e.version for e in storage.log(c.table_id)]
    assert versions == list(range(1, version + 4))
    assert storage.meta(c.table_id)["phase"] == "closed"  # type: ignore[index]


async def test_nothing_is_sent_before_its_commit_returned_and_a_slow_commit_holds_up_only_its_table(
        runtime: Callable[..., Any]):
    storage = Wrapped(MemoryStorage())
    rt: Runtime = await runtime(storage)
    slow = await rt.create_table({"players": 2}, "Ana")
    fast = await rt.create_table({"players": 2}, "Beto")
    slow_got, slow_send = inbox()
    fast_got, fast_send = inbox()
    await rt.connect(slow.table_id, slow.token, slow_send)
    await rt.connect(fast.table_id, fast.token, fast_send)
    gate = asyncio.Event()
    held: list[int] = []

    async def hold_one_table(table_id: str, change: Commit) -> Commit:
        if table_id == slow.table_id:
            held.append(change.entry.version)
            await gate.wait()
        return change

    storage.before = hold_one_table
    before = len(slow_got)
    add = asyncio.create_task(submit(rt, slow, {"type": "add_bot", "seat": 1}))
    start = asyncio.create_task(submit(rt, slow, {"type": "start"}))
    while not held:
        await asyncio.sleep(0)
    # the other table is not held up by this one's commit
    assert (await submit(rt, fast, {"type": "add_bot", "seat": 1})).ok
    assert fast_got[-1]["version"] == rt.version(fast.table_id)
    for _ in range(20):
        await asyncio.sleep(0)
    # the slow table: nothing applied or sent yet, and its next job waits its turn
    assert len(slow_got) == before and not add.done() and not start.done() and held == [3]
    assert rt.version(slow.table_id) == 2
    gate.set()
    assert (await add).ok and (await start).ok  # "start" saw the bot seated: one job at a time
    assert held == [3, 4] and [m["version"] for m in slow_got[before:]] == [3, 4]
    assert storage.log(slow.table_id)[-1].version == 4
