"""Bots in processes of their own: each table's bots in one of ``count`` workers, for the whole match.

Asked on the server's own bots' thread (``truco.bots.guard``), every bot of every table shares one
core and the interpreter lock with the event loop. A server started with workers (``truco serve
--bot-workers N``) asks them instead: each worker is a process of its own (``python -m
truco.bots.stdio``, the JSON lines of ``truco.bots.stdio.serve_many``), so the bots of N workers think
on N cores while the event loop serves the sockets, and no bot shares memory with a table at all.

- A table's bots always live in the same worker (the table id's hash), so a bot keeps its memory of
  the match as it would on the thread; ``forget`` drops them when the table closes.
- A bot's request and its answer are one line each way; writing never blocks the loop (the
  transport buffers), and one reader task per worker hands each answer to the table that waits.
- A worker that dies (a crash, a ``kill``) fails the requests it held, and the tables play their
  fallback move (``BotTurns``); the next request starts a fresh worker, whose bots start the match
  over. A bot that thinks past the worker's own budget (``stdio.DECISION_BUDGET``, 10 s) answers an
  error and is dropped in the worker, which answers on with the other tables' bots intact. A worker
  that does not answer within ``timeout`` seconds (a bot stuck where no signal reaches it) is killed
  as a dead one: that can cost its tables their bots' memory, never their moves.
- A worker reads its requests from a pipe the server holds: when the server ends, however it ends
  (``kill -9`` included), the pipe closes and the worker exits.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import sys
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from truco.bots.guard import known_senas, to_plain
from truco.bots.stdio import offered
from truco.engine import Action, Seat, SeatView

log = logging.getLogger("truco.runtime")

WORKER = (sys.executable, "-m", "truco.bots.stdio")
_encode = msgspec.json.Encoder().encode
"""Requests are encoded on the event loop, one per bot decision: msgspec takes half of json's time."""
LINE_LIMIT = 1 << 20
"""The longest answer line read from a worker (an answer is under 100 bytes)."""


class WorkerGone(RuntimeError):
    """The worker holding a bot ended (or was ended) before it answered."""


@dataclass
class _Worker:
    proc: asyncio.subprocess.Process
    pending: dict[int, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)
    reader: asyncio.Task[None] | None = None
    gone: bool = False


class BotWorkers:
    """``count`` worker processes and the bots each holds, started on first use."""

    def __init__(self, count: int, command: Sequence[str] = WORKER, timeout: float = 30.0) -> None:
        if count < 1:
            raise ValueError("bot workers: at least one")
        self.count = count
        self.command = tuple(command)
        self.timeout = timeout
        self._workers: list[_Worker | None] = [None] * count
        self._starting = [asyncio.Lock() for _ in range(count)]
        self._ids = itertools.count(1)
        self._ended: list[_Worker] = []
        """Workers dropped while the server runs, until their exit is seen (``close`` waits for it)."""
        self.restarts = 0
        """How many workers were started in the place of one that had ended."""

    def slot(self, table_id: str) -> int:
        return zlib.crc32(table_id.encode()) % self.count

    def bot(self, table_id: str, key: str, level: str, seed: int) -> WorkerBot:
        """``table_id``'s bot ``key`` (made by ``level`` and ``seed`` on its first request)."""
        return WorkerBot(self, self.slot(table_id), table_id, key, level, seed)

    def pids(self) -> list[int]:
        return [w.proc.pid for w in self._workers if w is not None and not w.gone]

    def health(self) -> dict[str, int]:
        """For ``/health``: the workers asked for, those alive now, and how many were started again
        after one ended (a crash, a kill, a bot that hung)."""
        return {"count": self.count, "alive": len(self.pids()), "restarts": self.restarts}

    async def _worker(self, slot: int) -> _Worker:
        w = self._workers[slot]
        if w is not None and not w.gone:
            return w
        async with self._starting[slot]:
            w = self._workers[slot]
            if w is None or w.gone:
                self._ended = [e for e in self._ended if e.proc.returncode is None]
                proc = await asyncio.create_subprocess_exec(
                    *self.command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                    limit=LINE_LIMIT)
                w = _Worker(proc)
                w.reader = asyncio.get_running_loop().create_task(self._read(w, slot))
                if self._workers[slot] is not None:
                    self.restarts += 1
                self._workers[slot] = w
            return w

    async def _read(self, w: _Worker, slot: int) -> None:
        assert w.proc.stdout is not None
        try:
            while line := await w.proc.stdout.readline():
                try:
                    msg = msgspec.json.decode(line)
                    fut = w.pending.pop(int(msg["id"]), None)
                except (msgspec.DecodeError, ValueError, KeyError, TypeError):
                    log.error("bots' worker %d: an answer that is no answer: %.80r", slot, line)
                    continue
                if fut is not None and not fut.done():
                    fut.set_result(msg)
        except (OSError, ValueError) as e:  # ValueError: a line past LINE_LIMIT
            log.error("bots' worker %d: reading it failed: %s", slot, e)
        finally:
            self._drop(w, slot, "its output ended")

    def _drop(self, w: _Worker, slot: int, why: str) -> None:
        if w.gone:
            return
        w.gone = True
        self._ended.append(w)
        if w.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                w.proc.kill()
        if w.proc.stdin is not None:  # the transport closes once the process and its pipes are done
            w.proc.stdin.close()
        log.warning("bots' worker %d (pid %d) ended: %s; %d waiting bot(s) play their fallback",
                    slot, w.proc.pid, why, len(w.pending))
        _fail(w, f"bots' worker {slot} ended: {why}")

    async def ask(self, slot: int, request: dict[str, Any]) -> dict[str, Any]:
        w = await self._worker(slot)
        rid = next(self._ids)
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        w.pending[rid] = fut
        assert w.proc.stdin is not None
        try:
            w.proc.stdin.write(_encode({**request, "id": rid}) + b"\n")
            async with asyncio.timeout(self.timeout):  # not wait_for: on 3.11 it can swallow a cancel
                return await fut
        except TimeoutError:
            self._drop(w, slot, f"no answer within {self.timeout:g} s")
            raise WorkerGone(f"bots' worker {slot} did not answer") from None
        except (ConnectionError, RuntimeError) as e:  # the pipe closed under the write
            self._drop(w, slot, str(e) or type(e).__name__)
            raise WorkerGone(f"bots' worker {slot} ended") from e
        finally:
            w.pending.pop(rid, None)

    def forget(self, table_id: str) -> None:
        """Drop the bots of ``table_id`` in its worker (nothing to do where no worker runs)."""
        w = self._workers[self.slot(table_id)]
        if w is None or w.gone or w.proc.stdin is None:
            return
        with contextlib.suppress(ConnectionError, RuntimeError):
            w.proc.stdin.write(_encode({"type": "forget", "table": table_id}) + b"\n")

    async def close(self) -> None:
        """End every worker: its input closes and it exits (one still running after 2 s is killed),
        and wait until each exit is seen, those dropped before included."""
        for w in self._workers:
            if w is not None and not w.gone:
                w.gone = True  # its output ending now is expected: nothing to report
                self._ended.append(w)
                if w.proc.stdin is not None:
                    w.proc.stdin.close()
        for w in self._ended:
            try:
                async with asyncio.timeout(2.0):
                    await w.proc.wait()
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    w.proc.kill()
                await w.proc.wait()
            _fail(w, "the server closed")
            if w.reader is not None:
                await asyncio.gather(w.reader, return_exceptions=True)
        self._ended = []
        self._workers = [None] * self.count


def _fail(w: _Worker, why: str) -> None:
    """Whoever still waits for this worker's answers gets ``WorkerGone`` (its table, the fallback)."""
    for fut in w.pending.values():
        if not fut.done():
            fut.set_exception(WorkerGone(why))
    w.pending.clear()


class WorkerBot:
    """One bot of a table, held by a worker: asked as the runtime asks a bot on its own thread
    (``Guarded``'s ``choose_async``, ``hint_async``, ``senas_async``). An answer its view does not
    offer, an error of the bot or a worker gone raises, and the table plays its fallback."""

    def __init__(self, workers: BotWorkers, slot: int, table_id: str, key: str, level: str,
                 seed: int) -> None:
        self._workers = workers
        self._slot = slot
        self._who = {"table": table_id, "bot": key, "level": level, "seed": seed}
        """What every request of this bot names: its table, its key, its level and seed."""
        self.level = level
        self.recalled = False
        """Its worker's bot was told the hands of the match played before it was made (``recall_async``);
        an answer that says a worker made the bot again (``"made"`` after the first) sets it back."""
        self._answered = False

    async def _request(self, request: dict[str, Any]) -> dict[str, Any]:
        msg = await self._workers.ask(self._slot, {**self._who, **request})
        if msg.get("made") and self._answered:  # a fresh worker, or the bot dropped in it
            self.recalled = False
        self._answered = True
        if msg.get("type") == "error":
            raise RuntimeError(f"the bot failed in its worker: {msg.get('error')}")
        return msg

    async def _ask(self, kind: str, view: SeatView) -> dict[str, Any]:
        return await self._request({"type": kind, "view": to_plain(view)})

    async def recall_async(self, views: Sequence[SeatView]) -> None:
        """Tell the worker's bot the hands of the match it did not play (``truco.table.bot_recall``)."""
        try:
            if views:
                await self._request({"type": "recall", "views": [to_plain(v) for v in views]})
        finally:
            self.recalled = True

    async def _action(self, kind: str, view: SeatView) -> Action:
        return offered(view, await self._ask(kind, view))

    async def choose_async(self, view: SeatView) -> Action:
        return await self._action("choose", view)

    async def hint_async(self, view: SeatView) -> Action:
        return await self._action("hint", view)

    async def reconsider_async(self, view: SeatView, votes: Mapping[Seat, Action]) -> Action:
        return offered(view, await self._request({"type": "reconsider", "view": to_plain(view),
                                                  "votes": [a.to_dict() for a in votes.values()]}))

    async def senas_async(self, view: SeatView) -> tuple[str, ...]:
        return known_senas((await self._ask("senas", view)).get("senas"))
