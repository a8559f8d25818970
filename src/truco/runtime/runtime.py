"""The impure shell around the tables: one task and mailbox per live table, one timer heap, storage
first and fan-out second, bots scheduled like timers, and recovery of every live table on start.

See docs/runtime-api.md for the facade the server calls and the messages it forwards.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from truco.bots import LEVELS, Bot, make_bot
from truco.engine import Action
from truco.runtime.clock import Clock, SystemClock
from truco.storage import LogEntry, Storage, StorageError
from truco.table import (
    Abandon,
    AddBot,
    BotAct,
    BotHint,
    CommandError,
    Connect,
    Create,
    Disconnect,
    Envelope,
    Join,
    Outcome,
    PlayerCommand,
    Recovered,
    SettingsError,
    Table,
    TableError,
    TableSettings,
    Wake,
    apply,
    bot_view,
    bots_to_act,
    command_from_dict,
    command_to_dict,
    create,
    hints_wanted,
    parse_command,
    table_view,
    table_views,
)

log = logging.getLogger("truco.runtime")

Send = Callable[[dict[str, Any]], None]
"""Called with each message for one connection. It must not block (queue it); the server encodes it."""

BotFactory = Callable[[str, int], Bot]
T = TypeVar("T")

_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
_MAX_CID = 64
_MAX_CIDS = 4096


class LobbyError(ValueError):
    """A request the runtime refuses before any table sees it; the message is meant for the user."""


class NoSuchTable(LobbyError):
    pass


class BadToken(LobbyError):
    """An unknown or stale seat token: it does nothing."""


@dataclass(frozen=True, slots=True)
class Created:
    table_id: str
    token: str
    player: int


@dataclass(frozen=True, slots=True)
class Joined:
    table_id: str
    token: str
    player: int


@dataclass(frozen=True, slots=True)
class SubmitResult:
    """The answer to one command: accepted at ``version``, or refused with a ``reason`` (nothing changed)."""

    ok: bool
    version: int
    cid: str | None = None
    reason: str | None = None
    duplicate: bool = False

    def to_dict(self) -> dict[str, Any]:
        if self.ok:
            d: dict[str, Any] = {"type": "ack", "cid": self.cid, "version": self.version}
            if self.duplicate:
                d["duplicate"] = True
            return d
        return {"type": "error", "cid": self.cid, "version": self.version, "reason": self.reason}


@dataclass(eq=False)
class Connection:
    """One socket bound to one player of one table (bound once, at connect, from the token)."""

    table_id: str
    player: int
    send: Send
    conn_id: int = 0


@dataclass(eq=False)
class _Live:
    table: Table
    queue: asyncio.Queue[tuple[Callable[[_Live], Any], asyncio.Future[Any] | None]] = field(
        default_factory=asyncio.Queue)
    task: asyncio.Task[None] | None = None
    conns: dict[int, list[Connection]] = field(default_factory=dict)
    cids: dict[tuple[int | None, str], int] = field(default_factory=dict)
    bots: dict[tuple[int, int, str], Bot] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def table_id(self) -> str:
        return self.table.table_id


def _default_bot(level: str, seed: int) -> Bot:
    try:
        return make_bot(level, seed)
    except ValueError:
        return make_bot("random", seed)


class Runtime:
    """Owns the live tables of this process. Every method is called from the server's event loop."""

    def __init__(self, storage: Storage, clock: Clock | None = None,
                 seed_source: Callable[[], int] | None = None,
                 bot_delay: float | tuple[float, float] = (0.7, 1.5),
                 bot_factory: BotFactory | None = None,
                 token_source: Callable[[], str] | None = None,
                 idle_seconds: float | None = 6 * 3600) -> None:
        self.storage = storage
        self.clock: Clock = clock or SystemClock()
        self._seed = seed_source or (lambda: secrets.randbits(63))
        self._token = token_source or (lambda: secrets.token_urlsafe(24))
        self.bot_delay = bot_delay
        self.idle_seconds = idle_seconds
        self._bot_factory = bot_factory or _default_bot
        self._jitter = random.Random(self._seed())
        self._tables: dict[str, _Live] = {}
        self._heap: list[tuple[int, int, str, str, int]] = []
        self._seq = itertools.count()
        self._conn_ids = itertools.count(1)
        self._heap_changed = asyncio.Event()
        self._armed: set[tuple[str, int, int]] = set()
        """Deadlines already in the heap: (table, token, at_ms). One heap entry each."""
        self._timer: asyncio.Task[None] | None = None
        self._closed = False

    # ------------------------------------------------------------------ life cycle

    async def start(self) -> None:
        """Rebuild every live table from storage, then start the timers."""
        await self.recover()
        if self._timer is None:
            self._timer = asyncio.create_task(self._timer_loop(), name="truco-timers")

    async def close(self) -> None:
        """Stop timers and table tasks (storage stays open: its owner closes it)."""
        self._closed = True
        tasks = [live.task for live in self._tables.values() if live.task is not None]
        if self._timer is not None:
            tasks.append(self._timer)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for live in self._tables.values():  # nobody waits forever for a command never applied
            while not live.queue.empty():
                _, fut = live.queue.get_nowait()
                if fut is not None and not fut.done():
                    fut.set_exception(LobbyError("the server is shutting down"))
        self._tables.clear()
        self._timer = None

    async def recover(self) -> list[str]:
        """Replay every live table's log; then each gets a logged ``Recovered`` (deadlines re-armed in
        full, everyone away until they reconnect). Returns the ids rebuilt."""
        rebuilt = []
        for table_id in self.storage.live_tables():
            if table_id in self._tables:
                continue
            try:
                live = self._replay(table_id)
            except (StorageError, TableError, CommandError, ValueError, KeyError) as e:
                log.error("table %s cannot be rebuilt from its log: %s", table_id, e)
                continue
            self._start_actor(live)
            await self._call(live, lambda lv: self._command(lv, Envelope(Recovered()), None))
            rebuilt.append(table_id)
        return rebuilt

    def _replay(self, table_id: str) -> _Live:
        entries = self.storage.log(table_id)
        first = command_from_dict(entries[0].command)
        if not isinstance(first, Create):
            raise ValueError("the log does not start with create")
        t, _ = create(first, entries[0].at_ms)
        cids: dict[tuple[int | None, str], int] = {}
        for e in entries[1:]:
            t, _ = apply(t, Envelope(command_from_dict(e.command), e.player), e.at_ms)
            if t.version != e.version:
                raise ValueError(f"version {e.version} replays as {t.version}")
            if e.cid is not None:
                cids[(e.player, e.cid)] = e.version
        live = _Live(t, cids=cids)
        live.meta = self.storage.meta(table_id) or {}
        return live

    # ------------------------------------------------------------------ the facade

    async def create_table(self, settings: TableSettings | dict[str, Any] | None, host_name: str) -> Created:
        """A new table in the lobby with its host at seat 0. Raises ``LobbyError`` for bad settings."""
        if not isinstance(settings, TableSettings):
            try:
                settings = TableSettings.from_dict(settings)
            except SettingsError as e:
                raise LobbyError(str(e)) from None
        if not isinstance(host_name, str):
            raise LobbyError("a name is text")
        token = self._token()
        for _ in range(20):
            table_id = self._new_code()
            if table_id not in self._tables and self.storage.meta(table_id) is None:
                break
        else:
            raise LobbyError("no free table code; try again")
        now = self.clock.now_ms()
        cmd = Create(table_id, settings, host_name, token, self._seed())
        try:
            t, _ = create(cmd, now)
        except TableError as e:
            raise LobbyError(str(e)) from None
        live = _Live(t)
        live.meta = _summary(t)
        self.storage.create_table(table_id, live.meta, LogEntry(1, now, command_to_dict(cmd)))
        self._tables[table_id] = live
        self._start_actor(live)
        if self.idle_seconds is not None:  # created and never visited: closed in time too
            self._push(now + int(self.idle_seconds * 1000), table_id, "idle", t.version)
        return Created(table_id, token, 0)

    async def join(self, table_id: str, name: str) -> Joined:
        """A new player at the table (not seated yet). Returns their token: it is their identity."""
        live = self._live(table_id)
        if not isinstance(name, str):
            raise LobbyError("a name is text")
        token = self._token()

        def run(lv: _Live) -> Joined:
            res = self._command(lv, Envelope(Join(name, token)), None)
            if not res.ok:
                raise LobbyError(res.reason or "cannot join")
            p = lv.table.by_token(token)
            assert p is not None
            return Joined(table_id, token, p.pid)

        return await self._call(live, run)

    async def connect(self, table_id: str, token: str, send: Send) -> Connection:
        """Bind a socket to the player holding ``token``. It gets a ``snapshot`` at once, then updates."""
        live = self._live(table_id)

        def run(lv: _Live) -> Connection:
            p = lv.table.by_token(token) if isinstance(token, str) else None
            if p is None:
                raise BadToken("unknown seat token")
            conn = Connection(table_id, p.pid, send, next(self._conn_ids))
            lv.conns.setdefault(p.pid, []).append(conn)
            self._send(conn, self._snapshot(lv, p.pid, "connect"))
            self._command(lv, Envelope(Connect(p.pid)), None)  # its update reaches this socket too
            return conn

        return await self._call(live, run)

    async def disconnect(self, conn: Connection) -> None:
        """The socket is gone. When a player's last socket goes, their seat is held (ruling 18)."""
        live = self._tables.get(conn.table_id)
        if live is None:
            return

        def run(lv: _Live) -> None:
            conns = lv.conns.get(conn.player, [])
            if conn in conns:
                conns.remove(conn)
            if not conns:
                lv.conns.pop(conn.player, None)
                if lv.table.player(conn.player) is not None:
                    self._command(lv, Envelope(Disconnect(conn.player)), None)

        await self._call(live, run)

    async def submit(self, table_id: str, token: str, command: PlayerCommand | dict[str, Any],
                     cid: str | None = None) -> SubmitResult:
        """Apply a player's command (stored before anyone is told). A ``cid`` seen before from the same
        player is not applied again: the answer is the first one's ack, marked ``duplicate``."""
        live = self._live(table_id)
        if cid is not None and (not isinstance(cid, str) or len(cid) > _MAX_CID):
            return SubmitResult(False, live.table.version, None, "a command id is a short string")
        if isinstance(command, dict):
            try:
                command = parse_command(command)
            except CommandError as e:
                return SubmitResult(False, live.table.version, cid, str(e))

        if isinstance(command, AddBot) and command.level not in LEVELS:
            return SubmitResult(False, live.table.version, cid,
                                f"unknown bot level (choose from {', '.join(LEVELS)})")

        def run(lv: _Live) -> SubmitResult:
            p = lv.table.by_token(token) if isinstance(token, str) else None
            if p is None:
                return SubmitResult(False, lv.table.version, cid, "unknown seat token")
            return self._command(lv, Envelope(command, p.pid), cid)

        return await self._call(live, run)

    async def resync(self, table_id: str, token: str, since_version: int = 0) -> dict[str, Any]:
        """A client saw a gap (or came back): the full current view, as a ``snapshot`` message."""
        live = self._live(table_id)

        def run(lv: _Live) -> dict[str, Any]:
            p = lv.table.by_token(token) if isinstance(token, str) else None
            if p is None:
                raise BadToken("unknown seat token")
            return self._snapshot(lv, p.pid, "resync")

        return await self._call(live, run)

    def view(self, table_id: str, token: str) -> dict[str, Any]:
        """The current view of the player holding ``token`` (for an HTTP request)."""
        live = self._live(table_id)
        p = live.table.by_token(token)
        if p is None:
            raise BadToken("unknown seat token")
        return table_view(live.table, p.pid).to_dict()

    def list_open_tables(self) -> list[dict[str, Any]]:
        """Tables in the lobby with a free seat: for the lobby listing."""
        out = []
        for live in self._tables.values():
            t = live.table
            if t.phase == "lobby" and any(s.empty for s in t.seats):
                out.append(live.meta)
        return out

    def table_ids(self) -> list[str]:
        return list(self._tables)

    def version(self, table_id: str) -> int:
        return self._live(table_id).table.version

    def table(self, table_id: str) -> Table:
        """The full state (server-side only: tests, audits). Never send it anywhere."""
        return self._live(table_id).table

    async def settle(self) -> None:
        """Run everything that is due now, until nothing is left (tests drive a fake clock with it)."""
        for _ in range(100_000):
            fired = self._dispatch_due()
            lives = list(self._tables.values())
            await asyncio.gather(*(lv.queue.join() for lv in lives))
            if not fired and all(lv.queue.empty() for lv in lives) and not self._due():
                return
        raise RuntimeError("the tables do not settle")

    # ------------------------------------------------------------------ one table, one command at a time

    def _live(self, table_id: str) -> _Live:
        live = self._tables.get(table_id) if isinstance(table_id, str) else None
        if live is None:
            raise NoSuchTable("there is no such table")
        return live

    def _start_actor(self, live: _Live) -> None:
        self._tables[live.table_id] = live
        live.task = asyncio.create_task(self._actor(live), name=f"table-{live.table_id}")

    async def _actor(self, live: _Live) -> None:
        while True:
            fn, fut = await live.queue.get()
            try:
                result = fn(live)
                if fut is not None and not fut.done():
                    fut.set_result(result)
            except Exception as e:  # one bad command must never take the table down
                if fut is not None and not fut.done():
                    fut.set_exception(e)
                elif not isinstance(e, LobbyError):
                    log.exception("table %s: a job failed", live.table_id)
            finally:
                live.queue.task_done()
            if live.table.phase == "closed":
                self._tables.pop(live.table_id, None)
                return

    async def _call(self, live: _Live, fn: Callable[[_Live], T]) -> T:
        if self._closed:
            raise LobbyError("the server is shutting down")
        fut: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        await live.queue.put((fn, fut))
        return await fut

    def _command(self, live: _Live, env: Envelope, cid: str | None) -> SubmitResult:
        """Apply, store, then fan out. The heart of the runtime."""
        if cid is not None:
            seen = live.cids.get((env.player, cid))
            if seen is not None:
                return SubmitResult(True, seen, cid, duplicate=True)
        now = self.clock.now_ms()
        try:
            new, out = apply(live.table, env, now)
        except TableError as e:
            return SubmitResult(False, live.table.version, cid, str(e))
        except Exception:  # a bug must not cost the match: the table is unchanged, the command refused
            log.exception("table %s: %s failed", live.table_id, command_to_dict(env.command)["type"])
            return SubmitResult(False, live.table.version, cid, "the server could not do that")
        if not out.changed:
            return SubmitResult(True, live.table.version, cid)
        entry = LogEntry(new.version, now, command_to_dict(env.command), env.player, cid)
        try:
            self.storage.append(live.table_id, entry)  # stored before anyone hears of it
            for record in out.records:
                self.storage.save_match(live.table_id, int(record["match_no"]), record)
        except StorageError as e:
            log.error("table %s: not stored, not applied: %s", live.table_id, e)
            return SubmitResult(False, live.table.version, cid, "the server could not save that; try again")
        live.table = new
        if cid is not None:
            if len(live.cids) >= _MAX_CIDS:
                live.cids.pop(next(iter(live.cids)))
            live.cids[(env.player, cid)] = new.version
        self._after(live, out, now)
        return SubmitResult(True, new.version, cid)

    def _after(self, live: _Live, out: Outcome, now: int) -> None:
        t = live.table
        views = table_views(t, [pid for pid in live.conns if t.player(pid) is not None])
        for pid, conns in list(live.conns.items()):
            p = t.player(pid)
            if p is None:
                for c in conns:
                    self._send(c, {"type": "left", "table_id": t.table_id, "version": t.version})
                live.conns.pop(pid)
                continue
            msg = {
                "type": "update", "table_id": t.table_id, "version": t.version,
                "events": [e.event for e in out.effects if e.audience.reaches(p.seat)],
                "view": views[pid],
            }
            for c in conns:
                self._send(c, msg)
        summary = _summary(t)
        if summary != live.meta:
            live.meta = summary
            try:
                self.storage.set_meta(t.table_id, summary)
            except StorageError as e:
                log.error("table %s: metadata not stored: %s", t.table_id, e)
        if t.phase == "closed":
            try:
                self.storage.close_table(t.table_id)
            except StorageError as e:
                log.error("table %s: not closed in storage: %s", t.table_id, e)
            return
        d = t.next_deadline()
        if d is not None and (t.table_id, d.token, d.at_ms) not in self._armed:
            self._armed.add((t.table_id, d.token, d.at_ms))
            self._push(d.at_ms, t.table_id, "wake", d.token)
        if not live.conns and self.idle_seconds is not None:
            self._push(now + int(self.idle_seconds * 1000), t.table_id, "idle", t.version)
        if hints_wanted(t):
            self._push(now, t.table_id, "bot", t.version)
        elif bots_to_act(t):
            self._push(now + self._bot_delay_ms(t), t.table_id, "bot", t.version)

    def _bot_delay_ms(self, t: Table) -> int:
        if t.settings.bot_delay is not None:
            return int(t.settings.bot_delay * 1000)
        if isinstance(self.bot_delay, tuple):
            lo, hi = self.bot_delay
            return int(self._jitter.uniform(lo, hi) * 1000)
        return int(self.bot_delay * 1000)

    def _bot(self, live: _Live, seat: int) -> Bot:
        t = live.table
        level = t.seats[seat].bot or "random"
        key = (t.match_no, seat, level)
        bot = live.bots.get(key)
        if bot is None:
            bot = self._bot_factory(level, (t.seed ^ (t.match_no * 7919 + seat)) & ((1 << 63) - 1))
            live.bots[key] = bot
        return bot

    def _bot_turn(self, live: _Live, version: int) -> None:
        """Ask the bots the table waits for. A turn scheduled before a newer command is stale: that
        command scheduled its own."""
        if live.table.version != version:
            return
        for seat in hints_wanted(live.table):
            view = bot_view(live.table, seat)
            try:
                hint = self._bot(live, seat).hint(view)
            except Exception:
                log.exception("table %s: bot %d failed to hint", live.table_id, seat)
                hint = view.legal[0]
            self._command(live, Envelope(BotHint(seat, hint.do)), None)
        seats = bots_to_act(live.table)
        if not seats:
            return
        seat = seats[0]
        view = bot_view(live.table, seat)
        try:
            action: Action = self._bot(live, seat).choose(view)
        except Exception:
            log.exception("table %s: bot %d failed to choose", live.table_id, seat)
            action = view.legal[0]
        res = self._command(live, Envelope(BotAct(seat, action.do, action.card)), None)
        if not res.ok:
            log.error("table %s: bot %d chose an illegal action: %s", live.table_id, seat, res.reason)
            first = view.legal[0]
            self._command(live, Envelope(BotAct(seat, first.do, first.card)), None)

    # ------------------------------------------------------------------ timers

    def _push(self, at_ms: int, table_id: str, kind: str, token: int) -> None:
        heapq.heappush(self._heap, (at_ms, next(self._seq), table_id, kind, token))
        self._heap_changed.set()

    def _due(self) -> bool:
        return bool(self._heap) and self._heap[0][0] <= self.clock.now_ms()

    def _dispatch_due(self) -> int:
        fired = 0
        now = self.clock.now_ms()
        while self._heap and self._heap[0][0] <= now:
            at, _, table_id, kind, token = heapq.heappop(self._heap)
            if kind == "wake":
                self._armed.discard((table_id, token, at))
            live = self._tables.get(table_id)
            if live is None:
                continue
            fired += 1
            job: Callable[[_Live], Any] = (
                self._wake if kind == "wake"
                else partial(self._idle, version=token) if kind == "idle"
                else partial(self._bot_turn, version=token))
            live.queue.put_nowait((job, None))
        return fired

    def _idle(self, live: _Live, version: int) -> None:
        """Nobody came back for ``idle_seconds``: close the table so it is not rebuilt forever."""
        if live.table.version == version and not live.conns:
            self._command(live, Envelope(Abandon()), None)

    def _wake(self, live: _Live) -> SubmitResult:
        return self._command(live, Envelope(Wake()), None)

    async def _timer_loop(self) -> None:
        while not self._closed:
            self._dispatch_due()
            self._heap_changed.clear()
            waiters: list[asyncio.Future[Any]] = [asyncio.ensure_future(self._heap_changed.wait())]
            if self._heap:
                waiters.append(asyncio.ensure_future(self.clock.sleep_until(self._heap[0][0])))
            try:
                await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for w in waiters:
                    w.cancel()

    # ------------------------------------------------------------------ messages

    def _snapshot(self, live: _Live, pid: int, reason: str) -> dict[str, Any]:
        t = live.table
        return {"type": "snapshot", "table_id": t.table_id, "version": t.version, "reason": reason,
                "view": table_view(t, pid).to_dict()}

    def _send(self, conn: Connection, msg: dict[str, Any]) -> None:
        try:
            conn.send(msg)
        except Exception:
            log.exception("table %s: sending to player %d failed", conn.table_id, conn.player)

    def _new_code(self) -> str:
        n = self._seed()
        return "".join(_CODE_ALPHABET[(n >> (5 * i)) & 31] for i in range(6))


def _summary(t: Table) -> dict[str, Any]:
    """What the lobby listing and the storage metadata show of a table."""
    host = t.player(t.host)
    return {
        "table_id": t.table_id, "phase": t.phase, "host": host.name if host else None,
        "settings": t.settings.to_dict(),
        "seats": [("bot" if s.bot else "human" if s.player is not None else "empty") for s in t.seats],
        "free_seats": sum(1 for s in t.seats if s.empty),
        "match_no": t.match_no,
    }
