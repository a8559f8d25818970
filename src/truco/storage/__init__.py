"""Storage of table logs and match records: one interface, in-memory and SQLite backends."""

from truco.storage.base import LogEntry, Storage, StorageError, UnknownTable, VersionConflict
from truco.storage.memory import MemoryStorage
from truco.storage.sqlite import SQLiteStorage

__all__ = ["LogEntry", "MemoryStorage", "SQLiteStorage", "Storage", "StorageError", "UnknownTable",
           "VersionConflict"]
