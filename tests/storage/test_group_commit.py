"""SQLite's group commit: commands of many tables arriving together share one transaction; each
caller's await returns once its own write is committed; one failing write harms no other in its group."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from truco.storage import Commit, LogEntry, SQLiteStorage, StorageError


def entry(version: int) -> LogEntry:
    return LogEntry(version, version, {"type": "wake", "n": version})


@pytest.fixture
async def tables(tmp_path: Path):
    s = SQLiteStorage(str(tmp_path / "t.db"))
    names = [f"T{i}" for i in range(100)]
    for t in names:
        await s.create_table(t, {}, entry(1))
    yield s, names, tmp_path / "t.db"
    s.close()


def committed_versions(path: Path) -> dict[str, int]:
    """What another connection sees: only committed transactions."""
    with sqlite3.connect(path) as db:
        return dict(db.execute("SELECT table_id, MAX(version) FROM log GROUP BY table_id").fetchall())


async def test_commits_arriving_together_share_transactions(tables):
    s, names, path = tables
    before = s.transactions
    await asyncio.gather(*(s.commit(t, Commit(entry(2), meta={"v": 2})) for t in names))
    assert s.transactions - before < len(names) // 4
    assert set(committed_versions(path).values()) == {2}


async def test_each_await_returns_once_its_own_write_is_committed(tables):
    s, names, path = tables
    seen: list[int] = []

    async def commit_then_look(t: str) -> None:
        await s.commit(t, Commit(entry(2)))
        seen.append(committed_versions(path)[t])

    await asyncio.gather(*(commit_then_look(t) for t in names))
    assert seen == [2] * len(names)


async def test_a_failing_write_in_a_group_fails_alone(tables):
    s, names, _ = tables
    bad = "T50"
    results = await asyncio.gather(
        *(s.commit(t, Commit(entry(2), matches=((1, {"x": object() if t == bad else 1}),))) for t in names),
        return_exceptions=True)
    assert [t for t, r in zip(names, results, strict=True) if r is not None] == [bad]
    assert isinstance(results[names.index(bad)], StorageError)
    assert s.log(bad) == [entry(1)] and s.matches(bad) == []
    assert all(len(s.log(t)) == 2 and s.matches(t) == [{"x": 1}] for t in names if t != bad)
