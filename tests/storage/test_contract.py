"""One contract for every storage backend (memory, SQLite, PostgreSQL): the runtime relies on exactly this."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.storage.conftest import Opener
from truco.storage import Commit, LogEntry, Storage, StorageError, UnknownTable, VersionConflict


def entry(version: int, **kw: Any) -> LogEntry:
    return LogEntry(version, 1000 + version, {"type": "wake", "n": version}, **kw)


def step(version: int, **kw: Any) -> Commit:
    """A commit that stores only its log entry."""
    return Commit(entry(version), **kw)


async def test_a_table_starts_with_its_first_entry(storage: Storage):
    await storage.create_table("A", {"phase": "lobby"}, entry(1))
    assert storage.log("A") == [entry(1)]
    assert storage.meta("A") == {"phase": "lobby"}
    assert storage.live_tables() == ["A"]


async def test_the_log_is_append_only_with_contiguous_unique_versions(storage: Storage):
    await storage.create_table("A", {}, entry(1))
    await storage.commit("A", Commit(entry(2, player=3, cid="c1")))
    with pytest.raises(VersionConflict):
        await storage.commit("A", step(2))
    with pytest.raises(VersionConflict):
        await storage.commit("A", step(4))
    await storage.commit("A", step(3))
    assert [e.version for e in storage.log("A")] == [1, 2, 3]
    assert storage.log("A")[1] == entry(2, player=3, cid="c1")


async def test_the_log_reads_from_a_version(storage: Storage):
    await storage.create_table("A", {}, entry(1))
    for v in range(2, 6):
        await storage.commit("A", step(v))
    assert [e.version for e in storage.log("A", since=3)] == [4, 5]
    assert storage.log("A", since=5) == []


async def test_a_table_id_is_created_once(storage: Storage):
    await storage.create_table("A", {"first": True}, entry(1))
    with pytest.raises(VersionConflict):
        await storage.create_table("A", {}, entry(1))
    with pytest.raises(VersionConflict):
        await storage.create_table("B", {}, entry(2))
    assert storage.meta("A") == {"first": True} and storage.meta("B") is None


async def test_logs_of_tables_are_separate(storage: Storage):
    await storage.create_table("A", {}, entry(1))
    await storage.create_table("B", {}, entry(1))
    await storage.commit("B", step(2))
    assert len(storage.log("A")) == 1 and len(storage.log("B")) == 2


async def test_unknown_tables_are_an_error(storage: Storage):
    with pytest.raises(UnknownTable):
        storage.log("nope")
    with pytest.raises(UnknownTable):
        await storage.commit("nope", step(1))
    with pytest.raises(UnknownTable):
        await storage.commit("nope", step(2, meta={"x": 1}))
    assert storage.meta("nope") is None and storage.matches("nope") == []


async def test_json_survives_exactly(storage: Storage):
    cmd = {"type": "create", "settings": {"players": 4, "bot_delay": None, "flor": True, "pace": 1.5},
           "name": "Ñandú ☕ 👩‍👩‍👧", "seed": 2**63 - 1, "seats": [0, None, [1, 2]]}
    await storage.create_table("A", {"host": "Ñandú"}, LogEntry(1, 5, cmd))
    assert storage.log("A")[0].command == cmd
    assert storage.meta("A") == {"host": "Ñandú"}


async def test_closed_tables_are_no_longer_live_but_keep_their_log(storage: Storage):
    for t in ("A", "B", "C"):
        await storage.create_table(t, {}, entry(1))
    await storage.commit("B", step(2, closed=True))
    assert storage.live_tables() == ["A", "C"]
    assert storage.log("B") == [entry(1), entry(2)]


async def test_metadata_is_replaced_only_when_a_commit_brings_it(storage: Storage):
    await storage.create_table("A", {"phase": "lobby"}, entry(1))
    await storage.commit("A", step(2, meta={"phase": "playing"}))
    assert storage.meta("A") == {"phase": "playing"}
    await storage.commit("A", step(3))
    assert storage.meta("A") == {"phase": "playing"}


async def test_match_records_are_kept_in_order_and_replaced_by_match_number(storage: Storage):
    await storage.create_table("A", {}, entry(1))
    await storage.commit("A", step(2, matches=((2, {"match_no": 2}),)))
    await storage.commit("A", step(3, matches=((1, {"match_no": 1, "v": 1}),)))
    await storage.commit("A", step(4, matches=((1, {"match_no": 1, "v": 2}),)))
    assert storage.matches("A") == [{"match_no": 1, "v": 2}, {"match_no": 2}]
    assert storage.matches("B") == []


async def test_what_is_read_back_is_a_copy(storage: Storage):
    await storage.create_table("A", {"x": [1]}, entry(1))
    storage.log("A")[0].command["n"] = 99
    m = storage.meta("A")
    assert m is not None
    m["x"].append(2)
    assert storage.log("A")[0].command["n"] == 1 and storage.meta("A") == {"x": [1]}


# ---------------------------------------------------------------------- one command, one transaction

async def test_one_commit_stores_the_entry_the_summary_the_records_and_the_closed_mark(storage: Storage):
    await storage.create_table("A", {"phase": "playing"}, entry(1))
    await storage.create_table("B", {}, entry(1))
    await storage.commit("A", Commit(entry(2, player=1, cid="bye"), meta={"phase": "closed"},
                                     matches=((1, {"result": "a"}), (2, {"result": "b"})), closed=True))
    assert storage.log("A")[-1] == entry(2, player=1, cid="bye")
    assert storage.meta("A") == {"phase": "closed"}
    assert storage.matches("A") == [{"result": "a"}, {"result": "b"}]
    assert storage.live_tables() == ["B"]


UNSTORABLE = {
    "a record JSON cannot hold": ((1, {"ok": 1}), (2, {"bad": object()})),
    "a match number out of range": ((1, {"ok": 1}), (2**70, {"ok": 2})),
}


@pytest.mark.parametrize("records", UNSTORABLE.values(), ids=UNSTORABLE.keys())
async def test_a_failure_in_the_middle_of_a_commit_stores_nothing_and_the_table_goes_on(
        storage: Storage, records: tuple[tuple[int, dict[str, Any]], ...]):
    """The log entry and the summary come before the records: none of them may stay behind."""
    await storage.create_table("A", {"phase": "playing"}, entry(1))
    await storage.commit("A", step(2))
    with pytest.raises(StorageError) as failed:
        await storage.commit("A", Commit(entry(3), meta={"phase": "closed"}, matches=records, closed=True))
    assert not isinstance(failed.value, VersionConflict)
    assert storage.log("A") == [entry(1), entry(2)]
    assert storage.meta("A") == {"phase": "playing"}
    assert storage.matches("A") == [] and storage.live_tables() == ["A"]
    # the same version is free: the table keeps accepting commands
    await storage.commit("A", Commit(entry(3), meta={"phase": "over"}, matches=((1, {"ok": 1}),)))
    await storage.commit("A", step(4))
    assert [e.version for e in storage.log("A")] == [1, 2, 3, 4]
    assert storage.meta("A") == {"phase": "over"} and storage.matches("A") == [{"ok": 1}]


async def test_a_refused_version_stores_nothing_of_its_commit(storage: Storage):
    await storage.create_table("A", {"phase": "lobby"}, entry(1))
    with pytest.raises(VersionConflict):
        await storage.commit("A", Commit(entry(3), meta={"phase": "x"}, matches=((1, {}),), closed=True))
    with pytest.raises(VersionConflict):
        await storage.commit("A", Commit(entry(1), meta={"phase": "x"}, matches=((1, {}),), closed=True))
    assert storage.log("A") == [entry(1)] and storage.meta("A") == {"phase": "lobby"}
    assert storage.matches("A") == [] and storage.live_tables() == ["A"]


async def test_commits_of_many_tables_arriving_together_all_land_and_one_failure_harms_no_other(
        storage: Storage):
    tables = [f"T{i}" for i in range(40)]
    for t in tables:
        await storage.create_table(t, {"v": 1}, entry(1))

    async def play(t: str) -> None:
        for v in range(2, 7):
            bad = t == "T7" and v == 4
            change = Commit(entry(v), meta={"v": v}, matches=((v, {"bad": object()} if bad else {"v": v}),))
            if bad:
                with pytest.raises(StorageError):
                    await storage.commit(t, change)
                change = step(v)
            await storage.commit(t, change)

    await asyncio.gather(*(play(t) for t in tables))
    for t in tables:
        assert [e.version for e in storage.log(t)] == [1, 2, 3, 4, 5, 6]
        assert storage.meta(t) == {"v": 6}
        assert len(storage.matches(t)) == (4 if t == "T7" else 5)


async def test_writes_after_close_are_refused(open_storage: Opener):
    s = open_storage()
    await s.create_table("A", {}, entry(1))
    s.close()
    with pytest.raises(StorageError):
        await s.commit("A", step(2))
    with pytest.raises(StorageError):
        await s.create_table("B", {}, entry(1))


# ---------------------------------------------------------------------- backends that outlive a process

async def test_everything_is_kept_across_reopening(open_durable: Opener):
    s = open_durable()
    await s.create_table("A", {"phase": "playing"}, entry(1))
    await s.create_table("B", {}, entry(1))
    await s.commit("A", Commit(entry(2, cid="x"), meta={"phase": "over"}, matches=((1, {"r": 1}),)))
    await s.commit("B", step(2, closed=True))
    s.close()
    again = open_durable()
    assert again.log("A") == [entry(1), entry(2, cid="x")]
    assert again.meta("A") == {"phase": "over"}
    assert again.live_tables() == ["A"] and again.matches("A") == [{"r": 1}]


async def test_close_waits_for_the_writes_already_asked_for(open_durable: Opener):
    s = open_durable()
    for i in range(20):
        await s.create_table(f"T{i}", {}, entry(1))
    writes = [asyncio.create_task(s.commit(f"T{i}", step(2))) for i in range(20)]
    await asyncio.sleep(0)  # every write is handed over
    s.close()
    await asyncio.gather(*writes)
    again = open_durable()
    assert all(len(again.log(f"T{i}")) == 2 for i in range(20))


async def test_two_processes_cannot_both_advance_a_table(open_durable: Opener):
    """The unique ``(table_id, version)`` is the fencing token between two owners of one table."""
    a, b = open_durable(), open_durable()
    await a.create_table("A", {}, entry(1))
    await a.commit("A", step(2))
    with pytest.raises(VersionConflict):
        await b.commit("A", step(2))
    results = await asyncio.gather(a.commit("A", step(3, meta={"by": "a"})),
                                   b.commit("A", step(3, meta={"by": "b"})), return_exceptions=True)
    assert sorted(type(r).__name__ for r in results) == ["NoneType", "VersionConflict"]
    winner = "a" if results[0] is None else "b"
    assert [e.version for e in a.log("A")] == [1, 2, 3] and b.meta("A") == {"by": winner}
