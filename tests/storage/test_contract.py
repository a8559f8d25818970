"""One contract for every storage backend (memory, SQLite): the runtime relies on exactly this."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from truco.storage import LogEntry, MemoryStorage, SQLiteStorage, Storage, UnknownTable, VersionConflict


@pytest.fixture(params=["memory", "sqlite"])
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    s: Storage = MemoryStorage() if request.param == "memory" else SQLiteStorage(str(tmp_path / "t.db"))
    yield s
    s.close()


def entry(version: int, **kw: object) -> LogEntry:
    return LogEntry(version, 1000 + version, {"type": "wake", "n": version}, **kw)  # type: ignore[arg-type]


def test_a_table_starts_with_its_first_entry(storage: Storage):
    storage.create_table("A", {"phase": "lobby"}, entry(1))
    assert storage.log("A") == [entry(1)]
    assert storage.meta("A") == {"phase": "lobby"}


def test_the_log_is_append_only_with_contiguous_unique_versions(storage: Storage):
    storage.create_table("A", {}, entry(1))
    storage.append("A", entry(2, player=3, cid="c1"))
    with pytest.raises(VersionConflict):
        storage.append("A", entry(2))
    with pytest.raises(VersionConflict):
        storage.append("A", entry(4))
    storage.append("A", entry(3))
    assert [e.version for e in storage.log("A")] == [1, 2, 3]
    assert storage.log("A")[1] == entry(2, player=3, cid="c1")


def test_the_log_reads_from_a_version(storage: Storage):
    storage.create_table("A", {}, entry(1))
    for v in range(2, 6):
        storage.append("A", entry(v))
    assert [e.version for e in storage.log("A", since=3)] == [4, 5]


def test_a_table_id_is_created_once(storage: Storage):
    storage.create_table("A", {}, entry(1))
    with pytest.raises(VersionConflict):
        storage.create_table("A", {}, entry(1))


def test_logs_of_tables_are_separate(storage: Storage):
    storage.create_table("A", {}, entry(1))
    storage.create_table("B", {}, entry(1))
    storage.append("B", entry(2))
    assert len(storage.log("A")) == 1 and len(storage.log("B")) == 2


def test_unknown_tables_are_an_error(storage: Storage):
    with pytest.raises(UnknownTable):
        storage.log("nope")
    with pytest.raises(UnknownTable):
        storage.append("nope", entry(1))
    assert storage.meta("nope") is None


def test_json_survives_exactly(storage: Storage):
    cmd = {"type": "create", "settings": {"players": 4, "bot_delay": None, "flor": True}, "name": "Ñandú ☕"}
    storage.create_table("A", {"host": "Ñandú"}, LogEntry(1, 5, cmd))
    assert storage.log("A")[0].command == cmd
    assert storage.meta("A") == {"host": "Ñandú"}


def test_closed_tables_are_no_longer_live_but_keep_their_log(storage: Storage):
    for t in ("A", "B", "C"):
        storage.create_table(t, {}, entry(1))
    storage.close_table("B")
    assert storage.live_tables() == ["A", "C"]
    assert storage.log("B") == [entry(1)]


def test_metadata_is_replaced(storage: Storage):
    storage.create_table("A", {"phase": "lobby"}, entry(1))
    storage.set_meta("A", {"phase": "playing"})
    assert storage.meta("A") == {"phase": "playing"}


def test_match_records_are_kept_in_order_and_replaced_by_match_number(storage: Storage):
    storage.create_table("A", {}, entry(1))
    storage.save_match("A", 2, {"match_no": 2})
    storage.save_match("A", 1, {"match_no": 1, "v": 1})
    storage.save_match("A", 1, {"match_no": 1, "v": 2})
    assert storage.matches("A") == [{"match_no": 1, "v": 2}, {"match_no": 2}]
    assert storage.matches("B") == []


def test_what_is_read_back_is_a_copy(storage: Storage):
    storage.create_table("A", {"x": [1]}, entry(1))
    storage.log("A")[0].command["n"] = 99
    m = storage.meta("A")
    assert m is not None
    m["x"].append(2)
    assert storage.log("A")[0].command["n"] == 1 and storage.meta("A") == {"x": [1]}


def test_sqlite_keeps_everything_across_reopening(tmp_path: Path):
    path = str(tmp_path / "t.db")
    s = SQLiteStorage(path)
    s.create_table("A", {"phase": "playing"}, entry(1))
    s.append("A", entry(2, cid="x"))
    s.save_match("A", 1, {"r": 1})
    s.close()
    again = SQLiteStorage(path)
    assert again.log("A") == [entry(1), entry(2, cid="x")]
    assert again.live_tables() == ["A"] and again.matches("A") == [{"r": 1}]
    assert again._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    again.close()


def test_two_sqlite_connections_cannot_both_advance_a_table(tmp_path: Path):
    path = str(tmp_path / "t.db")
    a, b = SQLiteStorage(path), SQLiteStorage(path)
    a.create_table("A", {}, entry(1))
    a.append("A", entry(2))
    with pytest.raises(VersionConflict):
        b.append("A", entry(2))
    a.close()
    b.close()
