"""One live table: its mailbox and the one task that applies its jobs, one at a time.

Every accepted command follows the same path: apply (pure) → store (before anyone hears of it) →
fan out (one update per socket) → schedule what comes next (deadlines, bots, idleness). Storing is
awaited: other tables run meanwhile (their commits join the same group transaction), this one does
not take its next job until the command is stored and sent.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from truco.engine.types import HandEnded
from truco.protocol import CloseCode, ErrorCode
from truco.runtime.bot_turns import BotTurns
from truco.runtime.clock import Clock
from truco.runtime.connections import (
    BadToken,
    Connection,
    LobbyError,
    Moved,
    NoSuchTable,
    Revoked,
    ShuttingDown,
)
from truco.runtime.fanout import deliver, fan_out, hello, snapshot
from truco.runtime.jobs import (
    Attach,
    Detach,
    FillWithBots,
    Fire,
    Job,
    JoinAs,
    LetGo,
    Refresh,
    Submit,
    SubmitAs,
)
from truco.runtime.timers import Timers
from truco.storage import Commit, LogEntry, Storage, StorageError, VersionConflict
from truco.table import (
    Abandon,
    AddBot,
    Connect,
    Disconnect,
    Envelope,
    Facts,
    Join,
    Start,
    Table,
    TableError,
    Wake,
    apply,
    command_to_dict,
    table_summary,
)

log = logging.getLogger("truco.runtime")

MAX_CIDS = 4096
"""Command ids remembered per table (a resend arrives within seconds, not thousands of commands)."""


@dataclass(frozen=True, slots=True)
class SubmitResult:
    """The answer to one command: accepted at ``version``, or refused (nothing changed) with a
    ``reason`` for people and a ``code`` for programs."""

    ok: bool
    version: int
    reason: str | None = None
    duplicate: bool = False
    code: ErrorCode = ErrorCode.ILLEGAL
    why: str | None = None
    """The refusal's short code (``not_your_turn``, ``seat_taken``…), for a client to word it."""


@dataclass(frozen=True, slots=True)
class Services:
    """What every live table of one runtime shares."""

    storage: Storage
    clock: Clock
    timers: Timers
    bots: BotTurns
    idle_ms: int | None
    lobby_idle_ms: int | None
    conn_ids: Callable[[], int]
    fenced: Callable[[Mailbox], None] = lambda box: None
    """Storage refused a write because another process advanced the table (cluster fencing)."""


class Mailbox:
    """A live table. Jobs are applied one at a time by its own task; nothing else touches it."""

    def __init__(self, table: Table, services: Services,
                 cids: dict[tuple[int | None, str], int] | None = None,
                 meta: dict[str, Any] | None = None) -> None:
        self.table = table
        self.facts = Facts(table)
        self.s = services
        self.cids = cids or {}
        self.meta = meta if meta is not None else table_summary(table)
        self.players: dict[int, Connection] = {}
        """The socket of each connected player: one each, the newest (an older one is replaced)."""
        self.spectators: list[Connection] = []
        self.queue: asyncio.Queue[tuple[Job, asyncio.Future[Any] | None]] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self.moved = False
        """Let go (``LetGo``): the table lives elsewhere now; nothing more is applied here."""

    @property
    def table_id(self) -> str:
        return self.table.table_id

    # ------------------------------------------------------------------ the mailbox

    def start(self, on_closed: Callable[[Mailbox], None]) -> None:
        self.task = asyncio.create_task(self._run(on_closed), name=f"table-{self.table_id}")

    def post(self, job: Job) -> None:
        """Queue a job nobody waits for (a timer)."""
        self.queue.put_nowait((job, None))

    async def call(self, job: Job) -> Any:
        """Queue a job and wait for its answer (or its exception)."""
        if self.task is not None and self.task.done():  # let go, or closed, since the caller found it
            raise Moved("the table moved to another server; reconnect") if self.moved \
                else NoSuchTable("there is no such table")
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self.queue.put((job, fut))
        return await fut

    def fail_waiting(self, error: LobbyError | None = None) -> None:
        """The server is stopping (or the table moved): nobody waits forever for a job never applied."""
        while not self.queue.empty():
            _, fut = self.queue.get_nowait()
            if fut is not None and not fut.done():
                fut.set_exception(error or ShuttingDown("the server is shutting down"))
            self.queue.task_done()

    async def _run(self, on_closed: Callable[[Mailbox], None]) -> None:
        while True:
            job, fut = await self.queue.get()
            try:
                result = await self.handle(job)
                if fut is not None and not fut.done():
                    fut.set_result(result)
            except asyncio.CancelledError:  # stopped while storing: whoever waits is not left hanging
                if fut is not None and not fut.done():
                    fut.set_exception(ShuttingDown("the server is shutting down"))
                raise
            except Exception as e:  # one bad job must never take the table down
                if fut is not None and not fut.done():
                    fut.set_exception(e)
                elif not isinstance(e, LobbyError):
                    log.exception("table %s: a job failed", self.table_id)
            finally:
                self.queue.task_done()
            if self.moved:
                self.fail_waiting(Moved("the table moved to another server; reconnect"))
                on_closed(self)
                return
            if self.table.phase == "closed":
                on_closed(self)
                return

    async def handle(self, job: Job) -> Any:
        if self.moved:
            raise Moved("the table moved to another server; reconnect")
        if isinstance(job, Submit):
            return await self.command(job.envelope, job.cid)
        if isinstance(job, SubmitAs):
            p = self.table.by_token(job.token)
            if p is None:
                return SubmitResult(False, self.table.version, "unknown seat token",
                                    code=ErrorCode.NOT_ALLOWED, why="unknown_token")
            return await self.command(Envelope(job.envelope.command, p.pid), job.cid)
        if isinstance(job, JoinAs):
            return await self._join(job)
        if isinstance(job, Attach):
            return await self._attach(job)
        if isinstance(job, Detach):
            return await self._detach(job.conn)
        if isinstance(job, Refresh):
            deliver(job.conn, snapshot(self.facts, job.conn, "resync", self.s.clock.now_ms()))
            return None
        if isinstance(job, FillWithBots):
            return await self._fill_with_bots(job.level)
        if isinstance(job, Fire):
            return await self._fire(job)
        if isinstance(job, LetGo):
            return self._let_go(job.reason)
        raise TypeError(f"not a job: {job!r}")

    # ------------------------------------------------------------------ people and sockets

    async def _join(self, job: JoinAs) -> int:
        res = await self.command(Envelope(Join(job.name, job.token)), None)
        if not res.ok:
            raise LobbyError(res.reason or "cannot join")
        p = self.table.by_token(job.token)
        assert p is not None
        return p.pid

    async def _attach(self, job: Attach) -> Connection:
        conn = job.conn
        if job.token is None:
            self.spectators.append(conn)
            deliver(conn, hello(self.facts, conn, self.s.clock.now_ms()))
            return conn
        p = self.table.by_token(job.token)
        if p is None:
            if any(q.left and q.token == job.token for q in self.table.players):
                raise Revoked("this seat token was ended: you left the table or the host removed you")
            raise BadToken("unknown seat token")
        conn.player = p.pid
        older = self.players.get(p.pid)
        self.players[p.pid] = conn
        if older is not None:  # the newest socket wins: a reload, a second tab, a reconnect racing
            older.close(CloseCode.REPLACED, "this seat was opened somewhere else")
        deliver(conn, hello(self.facts, conn, self.s.clock.now_ms()))
        await self.command(Envelope(Connect(p.pid)), None)  # its update reaches this socket too
        return conn

    async def _detach(self, conn: Connection) -> None:
        """A socket is gone. When it was its player's current one, their seat is held (ruling 18)."""
        if conn.player is None:
            if conn in self.spectators:
                self.spectators.remove(conn)
            return
        if self.players.get(conn.player) is not conn:
            return  # replaced by a newer socket, or already forgotten
        del self.players[conn.player]
        if self.table.player(conn.player) is not None:
            await self.command(Envelope(Disconnect(conn.player)), None)

    async def _fill_with_bots(self, level: str) -> SubmitResult:
        host = self.table.host
        res = SubmitResult(True, self.table.version)
        for seat, slot in enumerate(self.table.seats):
            if slot.empty:
                res = await self.command(Envelope(AddBot(seat, level), host), None)
                if not res.ok:
                    return res
        return await self.command(Envelope(Start(), host), None)

    def _let_go(self, reason: str) -> None:
        """Every socket reconnects (to the new owner, through the load balancer); the task ends."""
        self.moved = True
        for conn in [*self.players.values(), *self.spectators]:
            conn.close(CloseCode.GOING_AWAY, reason)
        self.players.clear()
        self.spectators.clear()

    # ------------------------------------------------------------------ timers

    async def _fire(self, job: Fire) -> None:
        if job.kind == "wake":
            await self.command(Envelope(Wake()), None)
        elif job.version != self.table.version:
            return  # scheduled before a newer command, which scheduled its own
        elif job.kind == "idle":
            if not self.players:  # nobody came back for hours: close it, so it is not rebuilt forever
                await self.command(Envelope(Abandon()), None)
        else:
            await self._bot_turn()

    async def _bot_turn(self) -> None:
        if self.s.bots.senas_pending(self.facts):  # a new hand: the bots sign to their partners first
            signs = await self.s.bots.senas(self.facts)
            for sign in signs:
                await self.command(Envelope(sign), None)
            if not signs:  # nothing changed: the bot that moves next still takes its time
                g = self.table.game
                self._schedule(self.s.clock.now_ms(), g is not None and not g.history)
            return
        for hint in await self.s.bots.hints(self.facts):
            await self.command(Envelope(hint), None)
        move = await self.s.bots.move(self.facts)
        if move is None:
            return
        chosen, fallback = move
        res = await self.command(Envelope(chosen), None)
        if not res.ok:
            log.error("table %s: a bot chose an illegal action: %s", self.table_id, res.reason)
            await self.command(Envelope(fallback), None)

    # ------------------------------------------------------------------ the heart of the runtime

    async def command(self, env: Envelope, cid: str | None) -> SubmitResult:
        """Apply, store, then fan out; then schedule what comes next."""
        if cid is not None:
            seen = self.cids.get((env.player, cid))
            if seen is not None:
                return SubmitResult(True, seen, duplicate=True)
        now = self.s.clock.now_ms()
        try:
            new, out = apply(self.table, env, now)
        except TableError as e:
            return SubmitResult(False, self.table.version, str(e), why=e.reason)
        except Exception:  # a bug must not cost the match: the table is unchanged, the command refused
            log.exception("table %s: %s failed", self.table_id, env.command.kind)
            return SubmitResult(False, self.table.version, "the server could not do that",
                                why="server_error")
        if not out.changed:
            return SubmitResult(True, self.table.version)
        summary = table_summary(new)
        change = Commit(LogEntry(new.version, now, command_to_dict(env.command), env.player, cid),
                        meta=summary if summary != self.meta else None,
                        matches=tuple((int(r["match_no"]), r) for r in out.records),
                        closed=new.phase == "closed")
        try:
            await self.s.storage.commit(self.table_id, change)  # one transaction, before anyone hears of it
        except VersionConflict as e:  # fenced: another process owns this table now
            log.warning("table %s: not stored (another server advanced it): %s", self.table_id, e)
            self.s.fenced(self)
            return SubmitResult(False, self.table.version, "the table moved to another server; try again",
                                code=ErrorCode.UNAVAILABLE, why="not_stored")
        except StorageError as e:
            log.error("table %s: not stored, not applied: %s", self.table_id, e)
            return SubmitResult(False, self.table.version, "the server could not save that; try again",
                                code=ErrorCode.UNAVAILABLE, why="not_stored")
        self.table = new
        self.facts = Facts(new)
        self.meta = summary
        if cid is not None:
            if len(self.cids) >= MAX_CIDS:
                self.cids.pop(next(iter(self.cids)))
            self.cids[(env.player, cid)] = new.version
        for conn in fan_out(self.facts, [*self.players.values(), *self.spectators], out, now):
            if conn.player is not None:
                self.players.pop(conn.player, None)
        self._schedule(now, any(isinstance(e.event, HandEnded) for e in out.effects))
        return SubmitResult(True, new.version)

    def _schedule(self, now: int, hand_ended: bool) -> None:
        t = self.table
        if t.phase == "closed":
            return
        timers = self.s.timers
        d = t.next_deadline()
        if d is not None:
            timers.arm_deadline(t.table_id, d.token, d.at_ms, t.version)
        idle = self.s.idle_ms if t.phase == "playing" else self.s.lobby_idle_ms
        if not self.players and idle is not None:
            timers.push(now + idle, t.table_id, "idle", t.version)
        if self.facts.hints_wanted() or self.s.bots.senas_pending(self.facts):
            timers.push(now, t.table_id, "bot", t.version)
        elif self.facts.bots_to_act():
            timers.push(now + self.s.bots.delay_ms(t, hand_ended), t.table_id, "bot", t.version)
