"""Versioned schemas: migrations run at open, once; a database from a newer server is refused; a SQLite
file from before versioning opens with its data."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.storage.conftest import PostgresServer
from truco.storage import Commit, LogEntry, SQLiteStorage, StorageError
from truco.storage import sqlite as sqlite_backend


def entry(version: int) -> LogEntry:
    return LogEntry(version, version, {"type": "wake"})


def sqlite_versions(path: Path) -> list[int]:
    with sqlite3.connect(path) as db:
        return [r[0] for r in db.execute("SELECT version FROM schema_version ORDER BY version")]


async def test_sqlite_applies_its_migrations_once(tmp_path: Path):
    path = tmp_path / "t.db"
    SQLiteStorage(str(path)).close()
    SQLiteStorage(str(path)).close()
    assert sqlite_versions(path) == [v for v, _ in sqlite_backend.MIGRATIONS]
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_a_sqlite_file_from_before_versioned_migrations_opens_with_its_data(tmp_path: Path):
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as db:
        for sql in sqlite_backend.MIGRATIONS[0][1]:
            db.execute(sql)
        db.execute("INSERT INTO tables VALUES ('A', '{\"phase\":\"lobby\"}', 0, 1)")
        db.execute("INSERT INTO log VALUES ('A', 1, 5, '{\"type\":\"wake\"}', NULL, NULL)")
    s = SQLiteStorage(str(path))
    assert s.live_tables() == ["A"] and s.log("A") == [LogEntry(1, 5, {"type": "wake"})]
    await s.commit("A", Commit(entry(2), meta={"phase": "playing"}))
    s.close()
    assert sqlite_versions(path) == [1]


def test_a_sqlite_file_from_a_newer_server_is_refused(tmp_path: Path):
    path = tmp_path / "t.db"
    SQLiteStorage(str(path)).close()
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO schema_version (version) VALUES (999)")
    with pytest.raises(StorageError, match="schema version 999"):
        SQLiteStorage(str(path))


async def test_postgres_applies_its_migrations_once_and_refuses_a_newer_schema(
        postgres_server: PostgresServer, postgres_url: str):
    import psycopg

    from truco.storage.postgres import PostgresStorage
    from truco.storage.postgres_schema import MIGRATIONS

    first = PostgresStorage(postgres_url)
    await first.create_table("A", {}, entry(1))
    first.close()
    second = PostgresStorage(postgres_url)  # opening again applies nothing and loses nothing
    assert second.log("A") == [entry(1)]
    second.close()
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        versions = [r[0] for r in conn.execute("SELECT version FROM schema_version ORDER BY version")]
        assert versions == [v for v, _ in MIGRATIONS]
        fence = conn.execute("SELECT pg_get_constraintdef(oid) FROM pg_constraint "
                             "WHERE conname = 'log_fence'").fetchone()
        assert fence is not None and fence[0] == "UNIQUE (table_id, version)"
        conn.execute("INSERT INTO schema_version (version) VALUES (999)")
    with pytest.raises(StorageError, match="schema version 999"):
        PostgresStorage(postgres_url)


def test_postgres_that_cannot_be_reached_is_a_storage_error_with_no_password_shown():
    from truco.bench.server_process import free_port

    pytest.importorskip("psycopg")
    from truco.storage.postgres import PostgresStorage

    with pytest.raises(StorageError) as e:
        PostgresStorage(f"postgresql://u:sekrit@127.0.0.1:{free_port()}/x", timeout=2)
    assert "sekrit" not in str(e.value) and "u:***@" in str(e.value)
