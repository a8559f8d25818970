"""SQLite storage: one file, WAL. The default backend; ``truco serve`` needs nothing else.

One connection, owned by a writer thread (``truco.storage.writer``) that commits the commands of many
tables in one transaction. Reads go through the same thread, so they see every committed write."""

from __future__ import annotations

import json
import sqlite3
from functools import partial
from typing import Any

from truco.storage.base import Commit, LogEntry, StorageError, UnknownTable, VersionConflict
from truco.storage.codec import dumps, loads_dict
from truco.storage.writer import GroupWriter

MIGRATIONS: tuple[tuple[int, tuple[str, ...]], ...] = (
    (1, (
        # IF NOT EXISTS: files written before versioned migrations already hold these tables
        """CREATE TABLE IF NOT EXISTS tables (
            table_id TEXT PRIMARY KEY,
            meta TEXT NOT NULL,
            closed INTEGER NOT NULL DEFAULT 0,
            created_seq INTEGER NOT NULL
        )""",
        """CREATE TABLE IF NOT EXISTS log (
            table_id TEXT NOT NULL,
            version INTEGER NOT NULL,
            at_ms INTEGER NOT NULL,
            command TEXT NOT NULL,
            player INTEGER,
            cid TEXT,
            PRIMARY KEY (table_id, version)
        )""",
        """CREATE TABLE IF NOT EXISTS matches (
            table_id TEXT NOT NULL,
            match_no INTEGER NOT NULL,
            record TEXT NOT NULL,
            PRIMARY KEY (table_id, match_no)
        )""",
    )),
)
"""``(version, statements)`` in order; a file records the versions applied in ``schema_version``."""

SCHEMA_VERSION = MIGRATIONS[-1][0]


def migrate(db: sqlite3.Connection) -> int:
    """Apply the migrations this file lacks, in one transaction; returns the schema version.
    A file from a newer server is refused rather than misread."""
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute("CREATE TABLE IF NOT EXISTS schema_version ("
                   "version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)")
        current = int(db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()[0])
        if current > SCHEMA_VERSION:
            raise StorageError(f"the database is at schema version {current}; this server knows up to "
                               f"{SCHEMA_VERSION}")
        for version, statements in MIGRATIONS:
            if version > current:
                for sql in statements:
                    db.execute(sql)
                db.execute("INSERT INTO schema_version (version) VALUES (?)", (version,))
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return max(current, SCHEMA_VERSION)


class SQLiteStorage:
    """``path`` is a file (or ``:memory:``).

    ``synchronous="NORMAL"`` (default) survives a crash of the process (kill -9) without losing a
    committed command; ``"FULL"`` also survives a power cut, at the cost of one disk sync per group
    transaction (not per command)."""

    def __init__(self, path: str, synchronous: str = "NORMAL") -> None:
        if synchronous not in ("NORMAL", "FULL"):
            raise ValueError("synchronous is NORMAL or FULL")
        self.path = path
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(f"PRAGMA synchronous={synchronous}")
            db.execute("PRAGMA busy_timeout=5000")
            migrate(db)
        except BaseException:
            db.close()
            raise
        self._writer = GroupWriter(db)  # from here on only its thread touches the connection

    @property
    def transactions(self) -> int:
        """Group transactions so far (tests and benchmarks: compare with the commands stored)."""
        return self._writer.transactions

    async def create_table(self, table_id: str, meta: dict[str, Any], first: LogEntry) -> None:
        if first.version != 1:
            raise VersionConflict("a log starts at version 1")
        await self._writer.write(partial(_create, table_id, meta, first))

    async def commit(self, table_id: str, change: Commit) -> None:
        await self._writer.write(partial(_commit, table_id, change))

    def log(self, table_id: str, since: int = 0) -> list[LogEntry]:
        return self._writer.read(partial(_log, table_id, since))

    def meta(self, table_id: str) -> dict[str, Any] | None:
        return self._writer.read(partial(_meta, table_id))

    def live_tables(self) -> list[str]:
        return self._writer.read(_live_tables)

    def matches(self, table_id: str) -> list[dict[str, Any]]:
        return self._writer.read(partial(_matches, table_id))

    def close(self) -> None:
        self._writer.close()


# ---------------------------------------------------------------------- run by the writer thread

def _insert(db: sqlite3.Connection, table_id: str, e: LogEntry) -> None:
    db.execute("INSERT INTO log (table_id, version, at_ms, command, player, cid) VALUES (?,?,?,?,?,?)",
               (table_id, e.version, e.at_ms, dumps(e.command), e.player, e.cid))


def _create(table_id: str, meta: dict[str, Any], first: LogEntry, db: sqlite3.Connection) -> None:
    seq = db.execute("SELECT COALESCE(MAX(created_seq), 0) + 1 FROM tables").fetchone()[0]
    try:
        db.execute("INSERT INTO tables (table_id, meta, created_seq) VALUES (?,?,?)",
                   (table_id, dumps(meta), seq))
    except sqlite3.IntegrityError:
        raise VersionConflict(f"table {table_id} exists") from None
    _insert(db, table_id, first)


def _commit(table_id: str, change: Commit, db: sqlite3.Connection) -> None:
    """In the order the contract names: the entry, the summary, the match records, the closed mark.
    The entry goes in only as the next version of a known table (checked in the same statement)."""
    e = change.entry
    cur = db.execute(
        "INSERT INTO log (table_id, version, at_ms, command, player, cid) SELECT ?,?,?,?,?,? "
        "WHERE EXISTS (SELECT 1 FROM tables WHERE table_id=?) "
        "AND (SELECT COALESCE(MAX(version), 0) FROM log WHERE table_id=?) = ?",
        (table_id, e.version, e.at_ms, dumps(e.command), e.player, e.cid, table_id, table_id, e.version - 1))
    if cur.rowcount != 1:
        if db.execute("SELECT 1 FROM tables WHERE table_id=?", (table_id,)).fetchone() is None:
            raise UnknownTable(table_id)
        last = db.execute("SELECT MAX(version) FROM log WHERE table_id=?", (table_id,)).fetchone()[0]
        raise VersionConflict(f"table {table_id}: version {e.version} after {last}")
    if change.meta is not None:
        db.execute("UPDATE tables SET meta=? WHERE table_id=?", (dumps(change.meta), table_id))
    for match_no, record in change.matches:
        db.execute("INSERT OR REPLACE INTO matches (table_id, match_no, record) VALUES (?,?,?)",
                   (table_id, match_no, dumps(record)))
    if change.closed:
        db.execute("UPDATE tables SET closed=1 WHERE table_id=?", (table_id,))


def _log(table_id: str, since: int, db: sqlite3.Connection) -> list[LogEntry]:
    if db.execute("SELECT 1 FROM tables WHERE table_id=?", (table_id,)).fetchone() is None:
        raise UnknownTable(table_id)
    rows = db.execute("SELECT version, at_ms, command, player, cid FROM log "
                      "WHERE table_id=? AND version>? ORDER BY version", (table_id, since)).fetchall()
    return [LogEntry(v, at, json.loads(cmd), player, cid) for v, at, cmd, player, cid in rows]


def _meta(table_id: str, db: sqlite3.Connection) -> dict[str, Any] | None:
    row = db.execute("SELECT meta FROM tables WHERE table_id=?", (table_id,)).fetchone()
    return None if row is None else loads_dict(row[0])


def _live_tables(db: sqlite3.Connection) -> list[str]:
    return [r[0] for r in db.execute("SELECT table_id FROM tables WHERE closed=0 ORDER BY created_seq")]


def _matches(table_id: str, db: sqlite3.Connection) -> list[dict[str, Any]]:
    rows = db.execute("SELECT record FROM matches WHERE table_id=? ORDER BY match_no", (table_id,))
    return [loads_dict(r[0]) for r in rows]
