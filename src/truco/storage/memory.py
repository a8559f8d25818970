"""In-memory storage, for tests and throwaway servers."""

from __future__ import annotations

import copy
from typing import Any

from truco.storage.base import LogEntry, UnknownTable, VersionConflict


class MemoryStorage:
    def __init__(self) -> None:
        self._logs: dict[str, list[LogEntry]] = {}
        self._meta: dict[str, dict[str, Any]] = {}
        self._closed: set[str] = set()
        self._matches: dict[str, dict[int, dict[str, Any]]] = {}

    def create_table(self, table_id: str, meta: dict[str, Any], first: LogEntry) -> None:
        if table_id in self._logs:
            raise VersionConflict(f"table {table_id} exists")
        if first.version != 1:
            raise VersionConflict("a log starts at version 1")
        self._logs[table_id] = [copy.deepcopy(first)]
        self._meta[table_id] = copy.deepcopy(meta)

    def _get(self, table_id: str) -> list[LogEntry]:
        try:
            return self._logs[table_id]
        except KeyError:
            raise UnknownTable(table_id) from None

    def append(self, table_id: str, entry: LogEntry) -> None:
        log = self._get(table_id)
        if entry.version != len(log) + 1:
            raise VersionConflict(f"table {table_id}: version {entry.version} after {len(log)}")
        log.append(copy.deepcopy(entry))

    def log(self, table_id: str, since: int = 0) -> list[LogEntry]:
        return [copy.deepcopy(e) for e in self._get(table_id)[since:]]

    def set_meta(self, table_id: str, meta: dict[str, Any]) -> None:
        self._get(table_id)
        self._meta[table_id] = copy.deepcopy(meta)

    def meta(self, table_id: str) -> dict[str, Any] | None:
        m = self._meta.get(table_id)
        return None if m is None else copy.deepcopy(m)

    def live_tables(self) -> list[str]:
        return [t for t in self._logs if t not in self._closed]

    def close_table(self, table_id: str) -> None:
        self._get(table_id)
        self._closed.add(table_id)

    def save_match(self, table_id: str, match_no: int, record: dict[str, Any]) -> None:
        self._get(table_id)
        self._matches.setdefault(table_id, {})[match_no] = copy.deepcopy(record)

    def matches(self, table_id: str) -> list[dict[str, Any]]:
        return [copy.deepcopy(r) for _, r in sorted(self._matches.get(table_id, {}).items())]

    def close(self) -> None:
        pass
