"""Choosing a backend from one string (``truco serve --db`` / ``TRUCO_DB``). PostgreSQL's driver is
imported only when asked for, so SQLite needs nothing more installed."""

from __future__ import annotations

from truco.storage.base import Storage, StorageError
from truco.storage.sqlite import SQLiteStorage
from truco.storage.urls import is_postgres_url


def open_storage(target: str) -> Storage:
    """``postgresql://…`` (or ``postgres://…``): PostgreSQL; anything else: a SQLite file path."""
    if is_postgres_url(target):
        try:
            from truco.storage.postgres import PostgresStorage
        except ImportError as e:
            raise StorageError(f"PostgreSQL needs psycopg: pip install 'truco[postgres]' ({e})") from None
        return PostgresStorage(target)
    return SQLiteStorage(target)
