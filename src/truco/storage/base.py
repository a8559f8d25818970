"""The storage interface: per table an append-only log of accepted commands, metadata, match records.

Every backend passes the same contract suite (tests/storage). Methods are synchronous and short; the
runtime calls them from a table's own task, one command at a time, before anything is broadcast.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


class StorageError(Exception):
    """A storage operation that cannot be done."""


class VersionConflict(StorageError):
    """The ``(table_id, version)`` is taken: someone else advanced this table (or a bug did)."""


class UnknownTable(StorageError):
    pass


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One accepted command. ``command`` is its JSON form; ``player`` is who sent it (None: the runtime);
    ``cid`` is the client's command id, kept so a resend is applied once."""

    version: int
    at_ms: int
    command: dict[str, Any]
    player: int | None = None
    cid: str | None = None


class Storage(Protocol):
    def create_table(self, table_id: str, meta: dict[str, Any], first: LogEntry) -> None:
        """Create a table with its first log entry. Raises ``VersionConflict`` if the id exists."""

    def append(self, table_id: str, entry: LogEntry) -> None:
        """Append one entry; its version must be the next one. Raises ``VersionConflict`` otherwise."""

    def log(self, table_id: str, since: int = 0) -> list[LogEntry]:
        """Entries with version > ``since``, in order. Raises ``UnknownTable``."""

    def set_meta(self, table_id: str, meta: dict[str, Any]) -> None: ...

    def meta(self, table_id: str) -> dict[str, Any] | None: ...

    def live_tables(self) -> list[str]:
        """Tables not closed, oldest first: what the runtime rebuilds on start."""

    def close_table(self, table_id: str) -> None:
        """Mark a table closed: its log stays (for replays) but it is no longer live."""

    def save_match(self, table_id: str, match_no: int, record: dict[str, Any]) -> None:
        """Keep a finished (or cancelled) match record. Saving the same match again replaces it."""

    def matches(self, table_id: str) -> list[dict[str, Any]]: ...

    def close(self) -> None: ...
