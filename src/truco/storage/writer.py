"""Group commit for SQLite: one thread owns the connection and commits what many tables ask for in one
transaction.

Why a thread of our own rather than aiosqlite: aiosqlite also runs one thread per connection, but every
statement is a separate hop between threads and each caller still pays a transaction (and, with
``synchronous=FULL``, a disk sync) of its own. Here a caller hands over one function per command;
the thread takes everything queued while the previous transaction was committing, runs them all in
one transaction, commits once, then wakes every caller with one hop per event loop. When one of them
fails, the group is rolled back and run again with each function in a savepoint of its own: its caller
gets the error, the others are unharmed. (Savepoints only then: each statement is a hand-over of the
GIL between this thread and the event loop's.)
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import queue
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from truco.storage.base import StorageError, VersionConflict

T = TypeVar("T")
Work = Callable[[sqlite3.Connection], None]

MAX_GROUP = 512
"""Writes per transaction at most: a bigger group holds the file's write lock longer."""


@dataclass(slots=True)
class _Write:
    work: Work
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[None]


@dataclass(slots=True)
class _Read:
    work: Callable[[sqlite3.Connection], Any]
    future: concurrent.futures.Future[Any]


_STOP = object()


def storage_error(e: Exception) -> StorageError:
    """What a failed write tells its caller: a taken key is a version conflict, anything else a
    plain storage error."""
    if isinstance(e, StorageError):
        return e
    if isinstance(e, sqlite3.IntegrityError):
        return VersionConflict(str(e))
    err = StorageError(f"cannot store: {e}")
    err.__cause__ = e
    return err


class GroupWriter:
    """Owns ``db`` (opened in autocommit mode) from now on; nobody else may touch it."""

    def __init__(self, db: sqlite3.Connection, name: str = "truco-sqlite-writer") -> None:
        self._db = db
        self._queue: queue.SimpleQueue[_Write | _Read | object] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._closed = False
        self.transactions = 0
        """Group transactions committed (or tried) so far: fewer than writes when grouping works."""
        self.writes = 0
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    # ------------------------------------------------------------------ callers (any thread)

    async def write(self, work: Work) -> None:
        """Run ``work`` inside the next group transaction; return once that transaction committed.
        A cancelled caller's write may still commit (as if the process died right after)."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        self._put(_Write(work, loop, fut))
        await fut

    def read(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work`` on the writer's connection, after the writes queued before it, and wait."""
        fut: concurrent.futures.Future[T] = concurrent.futures.Future()
        self._put(_Read(work, fut))
        return fut.result()

    def close(self) -> None:
        """Finish what is queued, close the connection, stop the thread. Idempotent."""
        with self._lock:
            if not self._closed:
                self._closed = True
                self._queue.put(_STOP)
        if threading.current_thread() is not self._thread:
            self._thread.join()

    def _put(self, job: _Write | _Read) -> None:
        with self._lock:
            if self._closed:
                raise StorageError("the storage is closed")
            self._queue.put(job)

    # ------------------------------------------------------------------ the thread

    def _run(self) -> None:
        while True:
            jobs = [self._queue.get()]
            while len(jobs) < MAX_GROUP:
                try:
                    jobs.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            writes = [j for j in jobs if isinstance(j, _Write)]
            if writes:
                self._commit_group(writes)
            for job in jobs:
                if isinstance(job, _Read):
                    self._read(job)
            if any(job is _STOP for job in jobs):
                self._db.close()
                return

    def _commit_group(self, writes: list[_Write]) -> None:
        db = self._db
        try:
            outcomes = self._transaction(writes, savepoints=False)
            if outcomes is None:  # one of them failed: again, each in a savepoint of its own
                outcomes = self._transaction(writes, savepoints=True)
        except Exception as e:  # no transaction, or it could not commit: nothing of it is stored
            if db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
            outcomes = [StorageError(f"not stored: {e}")] * len(writes)
        assert outcomes is not None
        self.transactions += 1
        self.writes += len(writes)
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[None], StorageError | None]]] = {}
        for w, outcome in zip(writes, outcomes, strict=True):
            by_loop.setdefault(w.loop, []).append((w.future, outcome))
        for loop, settled in by_loop.items():
            with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits any more
                loop.call_soon_threadsafe(_settle, settled)

    def _transaction(self, writes: list[_Write], savepoints: bool) -> list[StorageError | None] | None:
        """One transaction for ``writes``. Without savepoints the first failure rolls it all back and
        returns None; with them a failure rolls back its own write only."""
        db = self._db
        outcomes: list[StorageError | None] = []
        db.execute("BEGIN IMMEDIATE")
        for w in writes:
            if savepoints:
                db.execute("SAVEPOINT one")
            try:
                w.work(db)
            except Exception as e:
                if not savepoints:
                    db.execute("ROLLBACK")
                    return None
                db.execute("ROLLBACK TO one")
                outcomes.append(storage_error(e))
            else:
                outcomes.append(None)
            if savepoints:
                db.execute("RELEASE one")
        db.execute("COMMIT")
        return outcomes

    def _read(self, job: _Read) -> None:
        try:
            job.future.set_result(job.work(self._db))
        except Exception as e:
            job.future.set_exception(e)


def _settle(settled: list[tuple[asyncio.Future[None], StorageError | None]]) -> None:
    """On the caller's loop: wake every caller of one group (a cancelled one is skipped)."""
    for fut, error in settled:
        if fut.done():
            continue
        if error is None:
            fut.set_result(None)
        else:
            fut.set_exception(error)
