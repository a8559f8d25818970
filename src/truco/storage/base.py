"""The storage interface: per table an append-only log of accepted commands, metadata, match records.

Every backend passes the same contract suite (tests/storage). Writes are coroutines: a backend does
its I/O away from the event loop and the caller's ``await`` returns once the transaction committed,
so the runtime can store a command before anyone hears of it without stalling every other table.
Reads are plain calls: they serve start-up (recovery), replays and tests, never the command path.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

INT64 = range(-(2**63), 2**63)
"""What every backend can store as an integer (a match number outside it cannot be stored)."""


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


@dataclass(frozen=True, slots=True)
class Commit:
    """Everything one accepted command produces, stored in one transaction or not at all: a log that
    ran ahead of the live table would refuse every later command until a restart."""

    entry: LogEntry
    meta: dict[str, Any] | None = None
    """The table's new summary, only when it changed."""
    matches: tuple[tuple[int, dict[str, Any]], ...] = ()
    """Finished (or cancelled) match records as ``(match_no, record)``; a match stored again is replaced."""
    closed: bool = False
    """The table is closed: its log stays (for replays) but it is no longer live."""


class Storage(Protocol):
    async def create_table(self, table_id: str, meta: dict[str, Any], first: LogEntry) -> None:
        """Create a table with its first log entry. Raises ``VersionConflict`` if the id exists."""

    async def commit(self, table_id: str, change: Commit) -> None:
        """Store one accepted command and what it produced, atomically. The entry's version must be the
        next one (``VersionConflict`` otherwise); on any error nothing of ``change`` is stored."""

    def log(self, table_id: str, since: int = 0) -> list[LogEntry]:
        """Entries with version > ``since``, in order. Raises ``UnknownTable``."""

    def meta(self, table_id: str) -> dict[str, Any] | None: ...

    def live_tables(self) -> list[str]:
        """Tables not closed, oldest first: what the runtime rebuilds on start."""

    def matches(self, table_id: str) -> list[dict[str, Any]]: ...

    def close(self) -> None:
        """Wait for the writes already asked for, then let go of the database. Later writes fail."""
