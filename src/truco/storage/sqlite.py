"""SQLite storage: one file, WAL. The default backend; ``truco serve`` needs nothing else."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from truco.storage.base import LogEntry, UnknownTable, VersionConflict

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    table_id TEXT PRIMARY KEY,
    meta TEXT NOT NULL,
    closed INTEGER NOT NULL DEFAULT 0,
    created_seq INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS log (
    table_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    at_ms INTEGER NOT NULL,
    command TEXT NOT NULL,
    player INTEGER,
    cid TEXT,
    PRIMARY KEY (table_id, version)
);
CREATE TABLE IF NOT EXISTS matches (
    table_id TEXT NOT NULL,
    match_no INTEGER NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (table_id, match_no)
);
"""


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


class SQLiteStorage:
    """``path`` is a file (or ``:memory:``). Each append is its own committed transaction.

    ``synchronous="NORMAL"`` (default) survives a crash of the process (kill -9) without losing a
    committed command; ``"FULL"`` also survives a power cut, at the cost of an fsync per command."""

    def __init__(self, path: str, synchronous: str = "NORMAL") -> None:
        if synchronous not in ("NORMAL", "FULL"):
            raise ValueError("synchronous is NORMAL or FULL")
        self.path = path
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={synchronous}")
        self._db.execute("PRAGMA busy_timeout=5000")
        self._db.executescript(_SCHEMA)

    def _exists(self, table_id: str) -> bool:
        row = self._db.execute("SELECT 1 FROM tables WHERE table_id=?", (table_id,)).fetchone()
        return row is not None

    def _require(self, table_id: str) -> None:
        if not self._exists(table_id):
            raise UnknownTable(table_id)

    def _insert(self, table_id: str, e: LogEntry) -> None:
        self._db.execute("INSERT INTO log (table_id, version, at_ms, command, player, cid) "
                         "VALUES (?,?,?,?,?,?)",
                         (table_id, e.version, e.at_ms, _dumps(e.command), e.player, e.cid))

    def create_table(self, table_id: str, meta: dict[str, Any], first: LogEntry) -> None:
        if first.version != 1:
            raise VersionConflict("a log starts at version 1")
        try:
            with self._db:
                self._db.execute("BEGIN IMMEDIATE")
                seq = self._db.execute("SELECT COALESCE(MAX(created_seq), 0) + 1 FROM tables").fetchone()[0]
                self._db.execute("INSERT INTO tables (table_id, meta, created_seq) VALUES (?,?,?)",
                                 (table_id, _dumps(meta), seq))
                self._insert(table_id, first)
        except sqlite3.IntegrityError:
            raise VersionConflict(f"table {table_id} exists") from None

    def append(self, table_id: str, entry: LogEntry) -> None:
        self._require(table_id)
        try:
            with self._db:
                self._db.execute("BEGIN IMMEDIATE")
                last = self._db.execute("SELECT COALESCE(MAX(version), 0) FROM log WHERE table_id=?",
                                        (table_id,)).fetchone()[0]
                if entry.version != last + 1:
                    raise VersionConflict(f"table {table_id}: version {entry.version} after {last}")
                self._insert(table_id, entry)
        except sqlite3.IntegrityError:
            raise VersionConflict(f"table {table_id}: version {entry.version} is taken") from None

    def log(self, table_id: str, since: int = 0) -> list[LogEntry]:
        self._require(table_id)
        rows = self._db.execute(
            "SELECT version, at_ms, command, player, cid FROM log "
            "WHERE table_id=? AND version>? ORDER BY version",
            (table_id, since)).fetchall()
        return [LogEntry(v, at, json.loads(cmd), player, cid) for v, at, cmd, player, cid in rows]

    def set_meta(self, table_id: str, meta: dict[str, Any]) -> None:
        self._require(table_id)
        self._db.execute("UPDATE tables SET meta=? WHERE table_id=?", (_dumps(meta), table_id))

    def meta(self, table_id: str) -> dict[str, Any] | None:
        row = self._db.execute("SELECT meta FROM tables WHERE table_id=?", (table_id,)).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def live_tables(self) -> list[str]:
        rows = self._db.execute("SELECT table_id FROM tables WHERE closed=0 ORDER BY created_seq").fetchall()
        return [r[0] for r in rows]

    def close_table(self, table_id: str) -> None:
        self._require(table_id)
        self._db.execute("UPDATE tables SET closed=1 WHERE table_id=?", (table_id,))

    def save_match(self, table_id: str, match_no: int, record: dict[str, Any]) -> None:
        self._require(table_id)
        self._db.execute("INSERT OR REPLACE INTO matches (table_id, match_no, record) VALUES (?,?,?)",
                         (table_id, match_no, _dumps(record)))

    def matches(self, table_id: str) -> list[dict[str, Any]]:
        rows = self._db.execute("SELECT record FROM matches WHERE table_id=? ORDER BY match_no",
                                (table_id,)).fetchall()
        return [dict(json.loads(r[0])) for r in rows]

    def close(self) -> None:
        self._db.close()
