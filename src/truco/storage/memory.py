"""In-memory storage, for tests and throwaway servers.

It keeps JSON text, not the caller's objects: what is read back is a copy, and a value no database
could store is refused here too, so tests see the same failures as production."""

from __future__ import annotations

import json
from typing import Any

from truco.storage.base import INT64, Commit, LogEntry, StorageError, UnknownTable, VersionConflict
from truco.storage.codec import dumps, loads_dict


class _Table:
    __slots__ = ("closed", "log", "matches", "meta")

    def __init__(self, meta: str, first: str) -> None:
        self.meta = meta
        self.log = [first]
        self.closed = False
        self.matches: dict[int, str] = {}


def _entry_text(e: LogEntry) -> str:
    return dumps([e.version, e.at_ms, e.command, e.player, e.cid])


def _entry(text: str) -> LogEntry:
    version, at_ms, command, player, cid = json.loads(text)
    return LogEntry(version, at_ms, command, player, cid)


class MemoryStorage:
    def __init__(self) -> None:
        self._tables: dict[str, _Table] = {}
        self._closed = False

    def _get(self, table_id: str) -> _Table:
        try:
            return self._tables[table_id]
        except KeyError:
            raise UnknownTable(table_id) from None

    def _check_open(self) -> None:
        if self._closed:
            raise StorageError("the storage is closed")

    async def create_table(self, table_id: str, meta: dict[str, Any], first: LogEntry) -> None:
        self._check_open()
        if table_id in self._tables:
            raise VersionConflict(f"table {table_id} exists")
        if first.version != 1:
            raise VersionConflict("a log starts at version 1")
        try:
            self._tables[table_id] = _Table(dumps(meta), _entry_text(first))
        except (TypeError, ValueError) as e:
            raise StorageError(f"table {table_id}: cannot store: {e}") from None

    async def commit(self, table_id: str, change: Commit) -> None:
        """Everything is encoded and checked first, then applied: all of it or nothing."""
        self._check_open()
        t = self._get(table_id)
        if change.entry.version != len(t.log) + 1:
            raise VersionConflict(f"table {table_id}: version {change.entry.version} after {len(t.log)}")
        try:
            entry = _entry_text(change.entry)
            meta = None if change.meta is None else dumps(change.meta)
            records = []
            for match_no, record in change.matches:
                if match_no not in INT64:
                    raise ValueError(f"match number {match_no} is out of range")
                records.append((match_no, dumps(record)))
        except (TypeError, ValueError) as e:
            raise StorageError(f"table {table_id}: cannot store: {e}") from None
        t.log.append(entry)
        if meta is not None:
            t.meta = meta
        t.matches.update(records)
        t.closed = t.closed or change.closed

    def log(self, table_id: str, since: int = 0) -> list[LogEntry]:
        return [_entry(e) for e in self._get(table_id).log[since:]]

    def meta(self, table_id: str) -> dict[str, Any] | None:
        t = self._tables.get(table_id)
        return None if t is None else loads_dict(t.meta)

    def live_tables(self) -> list[str]:
        return [tid for tid, t in self._tables.items() if not t.closed]

    def matches(self, table_id: str) -> list[dict[str, Any]]:
        t = self._tables.get(table_id)
        return [] if t is None else [loads_dict(r) for _, r in sorted(t.matches.items())]

    def close(self) -> None:
        self._closed = True
