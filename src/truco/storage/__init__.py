"""Storage of table logs and match records: one interface; in-memory, SQLite and PostgreSQL backends."""

from truco.storage.base import Commit, LogEntry, Storage, StorageError, UnknownTable, VersionConflict
from truco.storage.memory import MemoryStorage
from truco.storage.open import open_storage
from truco.storage.sqlite import SQLiteStorage
from truco.storage.urls import describe, is_postgres_url

__all__ = ["Commit", "LogEntry", "MemoryStorage", "SQLiteStorage", "Storage", "StorageError",
           "UnknownTable", "VersionConflict", "describe", "is_postgres_url", "open_storage"]
