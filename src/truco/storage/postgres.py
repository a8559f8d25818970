"""PostgreSQL storage, for several server processes sharing one database (scale-out).

Driver: psycopg 3 (async) with psycopg_pool. Why not asyncpg: psycopg speaks libpq's connection URLs
and environment (PGPASSWORD, sslmode, service files) as every PostgreSQL tool does, adapts JSONB with
our own encoder, and its pool is maintained by the same project; asyncpg's speed edge is in decoding
big result sets, which a log of small commands never is.

Each command is ONE statement (data-modifying CTEs: the log entry, the summary, the match records, the
closed mark), so it is one transaction and one round trip. Commits of different tables run side by
side on pooled connections; PostgreSQL's WAL writer flushes concurrent commits together, which is the
group commit here. ``UNIQUE (table_id, version)`` is the fencing token: two processes that both think
they own a table cannot both store its next version.
"""

from __future__ import annotations

import concurrent.futures
import threading
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import psycopg
from psycopg import errors as pg_errors
from psycopg.types.json import Jsonb
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from truco.storage.base import Commit, LogEntry, StorageError, UnknownTable, VersionConflict
from truco.storage.codec import dumps
from truco.storage.loop_thread import LoopThread
from truco.storage.postgres_schema import migrate
from truco.storage.urls import redact

T = TypeVar("T")

_CREATE = """
WITH t AS (INSERT INTO tables (table_id, meta) VALUES (%(table_id)s, %(meta)s) RETURNING table_id)
INSERT INTO log (table_id, version, at_ms, command, player, cid)
SELECT table_id, 1, %(at_ms)s, %(command)s, %(player)s, %(cid)s FROM t
"""

_COMMIT = """
WITH entry AS (
    INSERT INTO log (table_id, version, at_ms, command, player, cid)
    SELECT %(table_id)s, %(version)s, %(at_ms)s, %(command)s, %(player)s, %(cid)s
    WHERE (SELECT COALESCE(MAX(version), 0) FROM log WHERE table_id = %(table_id)s) = %(version)s - 1
    RETURNING table_id
), summary AS (
    UPDATE tables SET meta = COALESCE(%(meta)s::jsonb, meta), closed = closed OR %(closed)s::boolean
    WHERE table_id IN (SELECT table_id FROM entry) AND (%(meta)s::jsonb IS NOT NULL OR %(closed)s::boolean)
), records AS (
    INSERT INTO matches (table_id, match_no, record)
    SELECT entry.table_id, r.match_no, r.record
    FROM entry, jsonb_to_recordset(%(matches)s::jsonb) AS r(match_no BIGINT, record JSONB)
    ON CONFLICT (table_id, match_no) DO UPDATE SET record = EXCLUDED.record
)
SELECT count(*) FROM entry
"""
"""One statement, so one transaction: any part failing (a record that cannot be stored, a taken
version) stores nothing. No row inserted means the version was not the next one (or no such table)."""


def _json(value: Any) -> Jsonb:
    return Jsonb(value, dumps=dumps)


@contextmanager
def _errors(what: str) -> Iterator[None]:
    """Driver errors in the storage's own terms."""
    try:
        yield
    except StorageError:
        raise
    except pg_errors.UniqueViolation as e:
        raise VersionConflict(f"{what}: {e.diag.message_primary}") from None
    except pg_errors.ForeignKeyViolation:
        raise UnknownTable(what) from None
    except (psycopg.Error, TypeError, ValueError, OverflowError) as e:
        raise StorageError(f"{what}: cannot store: {e}") from e


class PostgresStorage:
    """``url``: ``postgresql://user:password@host:port/dbname`` (libpq's URL or key=value form).
    Opening applies any schema migration the database lacks."""

    def __init__(self, url: str, pool_size: int = 8, timeout: float = 10.0) -> None:
        self.url = url
        self._io = LoopThread("truco-postgres")
        self._lock = threading.Lock()
        self._closed = False
        self._pending: set[concurrent.futures.Future[Any]] = set()
        try:
            self._pool = self._io.run(self._open(pool_size, timeout))
        except BaseException:
            self._io.stop()
            raise

    async def _open(self, pool_size: int, timeout: float) -> AsyncConnectionPool:
        pool = AsyncConnectionPool(self.url, min_size=1, max_size=pool_size, open=False,
                                   kwargs={"autocommit": True}, name="truco", timeout=timeout)
        try:
            await pool.open(wait=True, timeout=timeout)
            async with pool.connection() as conn:
                await migrate(conn)
        except BaseException as e:
            await pool.close()
            if isinstance(e, StorageError | psycopg.Error | PoolTimeout | OSError):
                raise StorageError(f"cannot open {redact(self.url)}: {e}") from None
            raise
        return pool

    # ------------------------------------------------------------------ writes

    async def _write(self, coro: Coroutine[Any, Any, None]) -> None:
        with self._lock:
            if self._closed:
                coro.close()
                raise StorageError("the storage is closed")
            done = self._io.submit(coro)
            self._pending.add(done)
        done.add_done_callback(self._settled)
        await LoopThread.wait(done)

    def _settled(self, done: concurrent.futures.Future[Any]) -> None:
        with self._lock:
            self._pending.discard(done)

    async def create_table(self, table_id: str, meta: dict[str, Any], first: LogEntry) -> None:
        if first.version != 1:
            raise VersionConflict("a log starts at version 1")
        await self._write(self._create(table_id, meta, first))

    async def _create(self, table_id: str, meta: dict[str, Any], first: LogEntry) -> None:
        params = {"table_id": table_id, "meta": _json(meta), "at_ms": first.at_ms,
                  "command": _json(first.command), "player": first.player, "cid": first.cid}
        with _errors(f"table {table_id}"):
            async with self._pool.connection() as conn:
                try:
                    await conn.execute(_CREATE, params)
                except pg_errors.UniqueViolation:
                    raise VersionConflict(f"table {table_id} exists") from None

    async def commit(self, table_id: str, change: Commit) -> None:
        await self._write(self._commit(table_id, change))

    async def _commit(self, table_id: str, change: Commit) -> None:
        e = change.entry
        params = {"table_id": table_id, "version": e.version, "at_ms": e.at_ms,
                  "command": _json(e.command), "player": e.player, "cid": e.cid,
                  "meta": None if change.meta is None else _json(change.meta), "closed": change.closed,
                  "matches": _json([{"match_no": n, "record": r} for n, r in change.matches])}
        with _errors(f"table {table_id}"):
            async with self._pool.connection() as conn:
                cur = await conn.execute(_COMMIT, params)
                row = await cur.fetchone()
                if row is not None and row[0] == 1:
                    return
                cur = await conn.execute("SELECT COALESCE(MAX(version), 0) FROM log WHERE table_id = %s",
                                         (table_id,))
                last = await cur.fetchone()
                if last is None or last[0] == 0:
                    raise UnknownTable(table_id)
                raise VersionConflict(f"table {table_id}: version {e.version} after {last[0]}")

    # ------------------------------------------------------------------ reads (start-up, replays, tests)

    def _read(self, coro: Coroutine[Any, Any, T]) -> T:
        with self._lock:
            if self._closed:
                coro.close()
                raise StorageError("the storage is closed")
        return self._io.run(coro)

    async def _rows(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        with _errors("read"):
            async with self._pool.connection() as conn:
                cur = await conn.execute(sql, params)
                return await cur.fetchall()

    def log(self, table_id: str, since: int = 0) -> list[LogEntry]:
        return self._read(self._log(table_id, since))

    async def _log(self, table_id: str, since: int) -> list[LogEntry]:
        if not await self._rows("SELECT 1 FROM tables WHERE table_id = %s", (table_id,)):
            raise UnknownTable(table_id)
        rows = await self._rows("SELECT version, at_ms, command, player, cid FROM log "
                                "WHERE table_id = %s AND version > %s ORDER BY version", (table_id, since))
        return [LogEntry(v, at, cmd, player, cid) for v, at, cmd, player, cid in rows]

    def meta(self, table_id: str) -> dict[str, Any] | None:
        rows = self._read(self._rows("SELECT meta FROM tables WHERE table_id = %s", (table_id,)))
        return dict(rows[0][0]) if rows else None

    def live_tables(self) -> list[str]:
        rows = self._read(self._rows("SELECT table_id FROM tables WHERE NOT closed ORDER BY created_seq", ()))
        return [r[0] for r in rows]

    def matches(self, table_id: str) -> list[dict[str, Any]]:
        rows = self._read(self._rows("SELECT record FROM matches WHERE table_id = %s ORDER BY match_no",
                                     (table_id,)))
        return [dict(r[0]) for r in rows]

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            pending = list(self._pending)
        concurrent.futures.wait(pending, timeout=30)
        try:
            self._io.run(self._pool.close())
        finally:
            self._io.stop()
