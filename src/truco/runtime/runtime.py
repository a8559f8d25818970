"""The facade the server calls: create, join, connect, submit, resync, and recovery on start.

Each live table is a ``Mailbox`` (``truco.runtime.mailbox``); every method here turns a request into
a typed job for that table's mailbox and waits for its answer. See docs/runtime-api.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
from collections.abc import Callable
from typing import Any

from truco.bots import LEVELS
from truco.protocol import ErrorCode
from truco.runtime.bot_turns import BotFactory, BotTurns
from truco.runtime.bot_workers import BotWorkers
from truco.runtime.clock import Clock, SystemClock
from truco.runtime.connections import Close, Connection, LobbyError, NoSuchTable, Send, ShuttingDown, Ticket
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
from truco.runtime.mailbox import Mailbox, Services, SubmitResult
from truco.runtime.ownership import Alone, Ownership
from truco.runtime.timers import Timers
from truco.storage import LogEntry, Storage, StorageError, VersionConflict
from truco.table import (
    AddBot,
    CommandError,
    Create,
    Envelope,
    PlayerCommand,
    Recovered,
    SettingsError,
    Table,
    TableError,
    TableSettings,
    command_from_dict,
    command_to_dict,
    create,
    replay_log,
    table_view,
)

log = logging.getLogger("truco.runtime")

_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


class Runtime:
    """Owns the live tables of this process. Every method is called from the server's event loop."""

    def __init__(self, storage: Storage, clock: Clock | None = None,
                 seed_source: Callable[[], int] | None = None,
                 bot_delay: float | tuple[float, float] = (0.7, 1.5),
                 bot_factory: BotFactory | None = None,
                 token_source: Callable[[], str] | None = None,
                 idle_seconds: float | None = 6 * 3600,
                 lobby_idle_seconds: float | None = 30 * 60,
                 hand_pause: float = 4.0, ownership: Ownership | None = None,
                 bot_workers: int = 0) -> None:
        """``ownership``: the cluster's leases (``truco.cluster``); alone, every table is ours.
        ``idle_seconds``: a match nobody is connected to is closed after this long;
        ``lobby_idle_seconds``: the same for a table in the lobby or after its match;
        ``hand_pause``: seconds a bot waits before the first move of a hand, so people can read how
        the last one ended; ``bot_workers``: that many processes hold the bots (made by level,
        ``truco.runtime.bot_workers``), where 0 asks them on this process's bots' thread (made by
        ``bot_factory``)."""
        self.storage = storage
        self.clock: Clock = clock or SystemClock()
        self._seed = seed_source or (lambda: secrets.randbits(63))
        self._token = token_source or (lambda: secrets.token_urlsafe(24))
        self._tables: dict[str, Mailbox] = {}
        self.ownership: Ownership = ownership or Alone()
        self.timers = Timers(self.clock, self._deliver)
        conn_ids = itertools.count(1)
        self._services = Services(
            storage=storage, clock=self.clock, timers=self.timers,
            bots=BotTurns(bot_delay, bot_factory, self._seed(), int(hand_pause * 1000),
                          BotWorkers(bot_workers) if bot_workers else None),
            idle_ms=None if idle_seconds is None else int(idle_seconds * 1000),
            lobby_idle_ms=None if lobby_idle_seconds is None else int(lobby_idle_seconds * 1000),
            conn_ids=lambda: next(conn_ids), fenced=self._fenced)
        self._closed = False

    # ------------------------------------------------------------------ life cycle

    async def start(self, recover: bool = True) -> None:
        """Rebuild every live table from storage (unless ``recover`` is False: a cluster node adopts
        tables one by one), then start the timers."""
        if recover:
            await self.recover()
        self.timers.start()

    async def close(self) -> None:
        """Stop timers and table tasks (storage stays open: its owner closes it)."""
        self._closed = True
        tasks = [box.task for box in self._tables.values() if box.task is not None]
        for task in tasks:
            task.cancel()
        await self.timers.stop()
        await asyncio.gather(*tasks, return_exceptions=True)
        for box in self._tables.values():
            box.fail_waiting()
        self._tables.clear()
        if self._services.bots.workers is not None:
            await self._services.bots.workers.close()

    async def recover(self) -> list[str]:
        """Replay every live table's log; then each gets a logged ``Recovered`` (deadlines re-armed in
        full, everyone away until they reconnect). Returns the ids rebuilt. The ``recovered`` commands
        are stored together (one group commit), not one table after another."""
        rebuilt: list[Mailbox] = []
        for table_id in self.storage.live_tables():
            if table_id in self._tables:
                continue
            try:
                box = self._replay(table_id)
            except (StorageError, TableError, CommandError, ValueError, KeyError) as e:
                log.error("table %s cannot be rebuilt from its log: %s", table_id, e)
                continue
            self._open(box)
            rebuilt.append(box)
        await asyncio.gather(*(box.call(Submit(Envelope(Recovered()))) for box in rebuilt))
        return [box.table_id for box in rebuilt]

    async def adopt(self, table_id: str, attempts: int = 5) -> bool:
        """Take over one live table (cluster: this process just won its lease): rebuild it from its
        log and store a ``Recovered`` (deadlines in full, everyone away until they reconnect). Should
        the old owner store one more command meanwhile, the fence refuses ours and the log is read
        again. False when the table is not live (closed, or unknown)."""
        if table_id in self._tables:
            return True
        for _ in range(attempts):
            read = await asyncio.to_thread(self._read, table_id)  # reads block: keep them off the loop
            if read is None:
                return False
            box = self._rebuild(table_id, *read)
            if box.table.phase == "closed":
                return False
            res = await box.command(Envelope(Recovered()), None)  # not opened yet: no one else sees it
            if res.ok:
                self._check_open()
                self._open(box)
                return True
        raise StorageError(f"table {table_id}: its log kept moving while it was taken over")

    async def let_go(self, table_id: str,
                     reason: str = "the table moved to another server; reconnect") -> None:
        """This process no longer owns the table: its sockets are asked to reconnect (elsewhere), its
        mailbox finishes the job at hand and stops. Its log stays; the new owner rebuilds from it."""
        box = self._tables.get(table_id)
        if box is None:
            return
        with contextlib.suppress(LobbyError):
            await box.call(LetGo(reason))
        if box.task is not None:
            await asyncio.gather(box.task, return_exceptions=True)

    def _fenced(self, box: Mailbox) -> None:
        if self._tables.get(box.table_id) is box:
            self.ownership.fenced(box.table_id)

    def _read(self, table_id: str) -> tuple[list[LogEntry], dict[str, Any]] | None:
        meta = self.storage.meta(table_id)
        return None if meta is None else (self.storage.log(table_id), meta)

    def _replay(self, table_id: str) -> Mailbox:
        return self._rebuild(table_id, self.storage.log(table_id), self.storage.meta(table_id) or {})

    def _rebuild(self, table_id: str, entries: list[LogEntry], meta: dict[str, Any]) -> Mailbox:
        t = replay_log([(Envelope(command_from_dict(e.command), e.player), e.at_ms) for e in entries])
        if t.version != entries[-1].version:
            raise ValueError(f"the log ends at version {entries[-1].version} but replays to {t.version}")
        cids = {(e.player, e.cid): e.version for e in entries if e.cid is not None}
        return Mailbox(t, self._services, cids, meta)

    def _open(self, box: Mailbox) -> None:
        self._tables[box.table_id] = box
        box.start(self._forget)

    def _forget(self, box: Mailbox) -> None:
        """A closed table leaves memory (its log stays in storage)."""
        if self._tables.get(box.table_id) is box:
            del self._tables[box.table_id]
            self.ownership.gone(box.table_id)
        self._services.bots.forget(box.table_id)

    def _deliver(self, table_id: str, job: Fire) -> bool:
        box = self._tables.get(table_id)
        if box is None:
            return False
        box.post(job)
        return True

    # ------------------------------------------------------------------ the facade

    async def create_table(self, settings: TableSettings | dict[str, Any] | None, host_name: str,
                           bots: str | None = None) -> Ticket:
        """A new table in the lobby with its host at seat 0 (player 0): the host's ticket.
        With ``bots`` (a level) every other seat gets a bot and the match starts at once."""
        if not isinstance(settings, TableSettings):
            try:
                settings = TableSettings.from_dict(settings)
            except SettingsError as e:
                raise LobbyError(str(e)) from None
        if bots is not None and bots not in LEVELS:
            raise LobbyError(f"unknown bot level (choose from {', '.join(LEVELS)})")
        self._check_open()
        token = self._token()
        for _ in range(20):  # a code taken (here, by a closed table, or by another process) is drawn again
            table_id = self._new_code()
            if table_id in self._tables:
                continue
            now = self.clock.now_ms()
            cmd = Create(table_id, settings, host_name, token, self._seed())
            try:
                t, _ = create(cmd, now)
            except TableError as e:
                raise LobbyError(str(e)) from None
            box = Mailbox(t, self._services)
            if not await self.ownership.claim(table_id):
                continue
            try:
                await self.storage.create_table(table_id, box.meta, LogEntry(1, now, command_to_dict(cmd)))
            except VersionConflict:
                self.ownership.gone(table_id)
                continue
            except StorageError as e:
                self.ownership.gone(table_id)
                log.error("table %s not created: %s", table_id, e)
                raise LobbyError("the server could not save that; try again") from None
            break
        else:
            raise LobbyError("no free table code; try again")
        self._check_open()
        self._open(box)
        if self._services.lobby_idle_ms is not None:  # created and never visited: closed in time too
            self.timers.push(now + self._services.lobby_idle_ms, table_id, "idle", t.version)
        if bots is not None:
            res: SubmitResult = await box.call(FillWithBots(bots))
            if not res.ok:
                raise LobbyError(res.reason or "the bots could not sit")
        return Ticket(table_id, 0, token)

    async def join(self, table_id: str, name: str) -> Ticket:
        """A new player at the table (not seated yet): their ticket. The token is their identity."""
        box = self._live(table_id)
        token = self._token()
        pid: int = await self._call(box, JoinAs(name, token))
        return Ticket(table_id, pid, token)

    async def connect(self, table_id: str, token: str | None, send: Send,
                      close: Close | None = None) -> Connection:
        """Bind a socket to the player holding ``token`` (``None``: a spectator). It gets a ``hello``
        at once, then one ``update`` per version. A newer socket for the same player replaces it
        (the older one is closed with ``REPLACED``)."""
        box = self._live(table_id)
        conn = Connection(table_id, None, send, conn_id=self._services.conn_ids())
        if close is not None:
            conn.close = close
        result: Connection = await self._call(box, Attach(token, conn))
        return result

    async def disconnect(self, conn: Connection) -> None:
        """The socket is gone. When it was its player's current one, their seat is held (ruling 18)."""
        box = self._tables.get(conn.table_id)
        if box is not None:
            await self._call(box, Detach(conn))

    async def submit(self, table_id: str, token: str, command: PlayerCommand,
                     cid: str | None = None) -> SubmitResult:
        """Apply a player's command (stored before anyone is told). A ``cid`` seen before from the same
        player is not applied again: the answer is the first one's ack, marked ``duplicate``."""
        box = self._live(table_id)
        if isinstance(command, AddBot) and command.level not in LEVELS:
            return SubmitResult(False, box.table.version,
                                f"unknown bot level (choose from {', '.join(LEVELS)})",
                                code=ErrorCode.BAD_MESSAGE, why="unknown_bot_level")
        result: SubmitResult = await self._call(box, SubmitAs(token, Envelope(command), cid))
        return result

    async def resync(self, conn: Connection) -> None:
        """The connection saw a gap (or came back): it is sent a ``snapshot`` with a fresh view."""
        await self._call(self._live(conn.table_id), Refresh(conn))

    def view(self, table_id: str, token: str) -> dict[str, Any]:
        """The current view of the player holding ``token`` (tests and audits)."""
        box = self._live(table_id)
        p = box.table.by_token(token)
        if p is None:
            raise LobbyError("unknown seat token")
        return table_view(box.facts, p.pid).to_dict()

    def list_open_tables(self) -> list[dict[str, Any]]:
        """Public tables in the lobby with a free seat and someone connected: for the lobby listing."""
        return [m for m in (box.meta for box in self._tables.values())
                if m.get("phase") == "lobby" and m.get("free_seats") and m.get("here")
                and not m.get("settings", {}).get("private")]

    async def lobby(self) -> list[dict[str, Any]]:
        return self.list_open_tables()

    async def describe(self, table_id: str) -> dict[str, Any]:
        return self.summary(table_id)

    def summary(self, table_id: str) -> dict[str, Any]:
        """What anyone holding a table's code may see of it (``truco.table.table_summary``)."""
        return self._live(table_id).meta

    def holds(self, table_id: str) -> bool:
        """Whether this process has the table live."""
        return table_id in self._tables

    def table_ids(self) -> list[str]:
        return list(self._tables)

    def bot_workers(self) -> dict[str, int]:
        """The bots' worker processes, for ``/health`` (all nought where the bots think on a thread)."""
        workers = self._services.bots.workers
        return workers.health() if workers is not None else {"count": 0, "alive": 0, "restarts": 0}

    def version(self, table_id: str) -> int:
        return self._live(table_id).table.version

    def table(self, table_id: str) -> Table:
        """The full state (server-side only: tests, audits). Never send it anywhere."""
        return self._live(table_id).table

    def watchers(self, table_id: str) -> int:
        """How many spectators watch a table."""
        box = self._tables.get(table_id)
        return len(box.spectators) if box is not None else 0

    async def settle(self) -> None:
        """Run everything that is due now, until nothing is left (tests drive a fake clock with it)."""
        for _ in range(100_000):
            fired = self.timers.dispatch_due()
            boxes = list(self._tables.values())
            await asyncio.gather(*(box.queue.join() for box in boxes))
            if not fired and all(box.queue.empty() for box in boxes) and not self.timers.due():
                return
        raise RuntimeError("the tables do not settle")

    # ------------------------------------------------------------------ helpers

    def _check_open(self) -> None:
        if self._closed:
            raise ShuttingDown("the server is shutting down")

    def _live(self, table_id: str) -> Mailbox:
        box = self._tables.get(table_id) if isinstance(table_id, str) else None
        if box is None:
            raise NoSuchTable("there is no such table")
        return box

    async def _call(self, box: Mailbox, job: Job) -> Any:
        self._check_open()
        return await box.call(job)

    def _new_code(self) -> str:
        n = self._seed()
        return "".join(_CODE_ALPHABET[(n >> (5 * i)) & 31] for i in range(6))
