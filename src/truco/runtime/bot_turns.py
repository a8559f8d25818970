"""The bots' turns: which bot plays at which table, how long it seems to think, and what it does.

A bot sees only its seat's view (``truco.table.bot_view``), detached from the table's state and
asked on a thread of its own (``truco.bots.guard``) or, where the runtime has bot workers, in a
process of its own (``truco.runtime.bot_workers``, as plain data); the table's task awaits it: the
event loop serves every other table and socket while a bot thinks, and this table takes its next
job once the bot has answered. What it chooses goes through the table like any command (``BotAct``,
``BotHint``). Its seed is a one-way hash of the table's secret (``truco.bots.seeds``): knowing it
tells nothing about the deals. A bot that fails or answers illegally plays its first legal action
instead: a bug in a bot must never stall a table. One that keeps the bots' thread past its budget
(``guard.THREAD_BUDGET``) is made anew for its next turn; in a worker the worker does that.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from truco.bots import Bot
from truco.bots.guard import Guarded, guard
from truco.bots.registry import make_level
from truco.bots.seeds import bot_seed
from truco.bots.turns import agreed, decline
from truco.engine import Action, Seat, SeatView
from truco.runtime.bot_workers import BotWorkers
from truco.table import BotAct, BotHint, BotSena, Command, Facts, Table, bot_recall, bot_view

log = logging.getLogger("truco.runtime")

BotFactory = Callable[[str, int], Bot]


class TableBot(Protocol):
    """A bot as a table asks it: on the bots' thread (``Guarded``) or in a worker (``WorkerBot``)."""

    async def choose_async(self, view: SeatView) -> Action: ...
    async def hint_async(self, view: SeatView) -> Action: ...
    async def senas_async(self, view: SeatView) -> tuple[str, ...]: ...
    async def recall_async(self, views: Sequence[SeatView]) -> None: ...
    async def reconsider_async(self, view: SeatView, votes: Mapping[Seat, Action]) -> Action: ...

    @property
    def recalled(self) -> bool:
        """It was told the hands of this match played before it was made."""
        ...


class BotTurns:
    """Bots of every table of this process, and how long they wait before acting."""

    def __init__(self, delay: float | tuple[float, float], factory: BotFactory | None,
                 jitter_seed: int, hand_pause_ms: int = 0, workers: BotWorkers | None = None) -> None:
        """``workers``: the bots live in those processes (made by level); else on this process's
        bots' thread, made by ``factory``."""
        if workers is not None and factory is not None:
            raise ValueError("bots in workers are made by level there: no factory")
        self.workers = workers
        self.delay = delay
        self.hand_pause_ms = hand_pause_ms
        self._factory = factory or make_level
        self._jitter = random.Random(jitter_seed)
        self._bots: dict[tuple[str, int, int, str], TableBot] = {}
        self._signed: set[tuple[str, int, int, int]] = set()
        """(table, match, hand, seat) of the bots already asked for their señas this hand."""

    def delay_ms(self, t: Table, hand_ended: bool = False) -> int:
        """How long a bot seems to think: the table's own ``bot_delay`` when it sets one, exactly;
        else the runtime's, and at the start of a hand at least ``hand_pause_ms``, so the people at
        the table see how the last hand ended before the next one moves."""
        if t.settings.bot_delay is not None:
            return int(t.settings.bot_delay * 1000)
        think = self._think_ms()
        return max(think, self.hand_pause_ms) if hand_ended else think

    def _think_ms(self) -> int:
        if isinstance(self.delay, tuple):
            lo, hi = self.delay
            return int(self._jitter.uniform(lo, hi) * 1000)
        return int(self.delay * 1000)

    def forget(self, table_id: str) -> None:
        for key in [k for k in self._bots if k[0] == table_id]:
            del self._bots[key]
        if self.workers is not None:
            self.workers.forget(table_id)
        self._signed = {k for k in self._signed if k[0] != table_id}

    def senas_pending(self, facts: Facts) -> tuple[int, ...]:
        """Bot seats that may sign to their partners now and were not asked yet this hand."""
        t = facts.table
        return tuple(s for s in facts.bot_senas_due()
                     if (t.table_id, t.match_no, t.hand_no, s) not in self._signed)

    async def senas(self, facts: Facts) -> list[Command]:
        """Ask every bot that may sign now, once a hand, for its señas (a level may make none)."""
        t = facts.table
        out: list[Command] = []
        for seat in self.senas_pending(facts):
            self._signed.add((t.table_id, t.match_no, t.hand_no, seat))
            try:
                signs = await (await self._ready(t, seat)).senas_async(bot_view(facts, seat))
            except Exception:
                log.exception("table %s: bot %d failed to sign", t.table_id, seat)
                signs = ()
            out += [BotSena(seat, s) for s in signs]
        return out

    async def _ready(self, t: Table, seat: int) -> TableBot:
        """The bot of ``seat``, told the hands of the match already over if it was made after them (a
        restarted server, a table taken over, a worker started again, a stuck bot made anew): it goes
        on remembering the match as the bot before it did (``truco.table.bot_recall``)."""
        bot = self._bot(t, seat)
        if not bot.recalled:
            try:
                views = bot_recall(t, seat) if t.settings.mode == "full" else []
            except Exception:  # a record that does not replay: the bot plays on without the match
                log.exception("table %s: the hands before bot %d cannot be rebuilt", t.table_id, seat)
                views = []
            try:
                await bot.recall_async(views)  # marks it told, whatever happens
            except Exception:
                log.exception("table %s: bot %d failed to recall the match", t.table_id, seat)
        return bot

    def _bot(self, t: Table, seat: int) -> TableBot:
        level = t.seats[seat].bot or "random"
        key = (t.table_id, t.match_no, seat, level)
        bot = self._bots.get(key)
        if bot is None or (isinstance(bot, Guarded) and bot.stuck):  # a stuck one may still run: a new one
            seed = bot_seed(t.seed, t.match_no, seat)
            if self.workers is not None:
                bot = self.workers.bot(t.table_id, "/".join(map(str, key[1:])), level, seed)
            else:
                bot = guard(self._factory(level, seed))
            self._bots[key] = bot
        return bot

    async def hints(self, facts: Facts) -> list[Command]:
        """What each bot partner of a voting team would answer (shown to its humans only)."""
        out: list[Command] = []
        for seat in facts.hints_wanted():
            view = bot_view(facts, seat)
            try:
                hint = await (await self._ready(facts.table, seat)).hint_async(view)
            except Exception:
                log.exception("table %s: bot %d failed to hint", facts.table.table_id, seat)
                hint = view.legal[0]
            out.append(BotHint(seat, hint.do))
        return out

    async def _team_answer(self, facts: Facts, seat: int, view: SeatView) -> Action:
        """The answer of a team of bots, played through its first bot (``seat``), as the arena's bots
        answer (``truco.bots.turns.next_action``) and as their levels expect: every bot with a legal
        answer votes; one vote applies at once; votes that differ are reconsidered once, each bot
        seeing them all (the mildest that still takes the bet on); still split, the team declines."""
        t = facts.table
        voters = [s for s in facts.answering_seats() if t.seats[s].bot is not None]
        if len(voters) < 2:
            return await (await self._ready(t, seat)).choose_async(view)
        views = {s: view if s == seat else bot_view(facts, s) for s in voters}
        bots = {s: await self._ready(t, s) for s in voters}
        votes = {s: await bots[s].choose_async(views[s]) for s in voters}
        answer = agreed(votes, seat)
        if answer is None:
            answer = agreed({s: await bots[s].reconsider_async(views[s], votes) for s in voters}, seat)
        return answer if answer is not None else decline(view.legal)

    async def move(self, facts: Facts) -> tuple[Command, Command] | None:
        """The move of the bot the table waits for, and a fallback (its first legal action)."""
        seats = facts.bots_to_act()
        if not seats:
            return None
        seat = seats[0]
        view = bot_view(facts, seat)
        try:
            if facts.table.vote is not None:
                action = await self._team_answer(facts, seat, view)
            else:
                action = await (await self._ready(facts.table, seat)).choose_async(view)
        except Exception:
            log.exception("table %s: bot %d failed to choose", facts.table.table_id, seat)
            action = view.legal[0]
        first = view.legal[0]
        return BotAct(seat, action.do, action.card), BotAct(seat, first.do, first.card)
