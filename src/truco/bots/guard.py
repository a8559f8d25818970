"""What a bot is handed, and from where it is called: a view that shares nothing, a fresh stack.

The engine builds a seat's view field by field, but its tuples, its ``Rules`` and the ``Action``s
of its history are the very objects the full ``State`` holds: ``gc.get_referrers`` on one of them
finds the state, and the caller's frame (``sys._getframe(1)``) holds it in a local. So a bot at a
table or in the arena gets

- ``detached(view)``: the view written out as plain data (``to_plain``, the wire form of
  ``SeatView.to_dict`` plus the hand's starting score) and read back (``from_plain``): every
  container in it is new, only ints, strings, ``None`` and the ``Do`` members are shared;
- and is called from a thread of its own (``Guarded``): its stack starts in that thread, whose
  frames hold the detached view and nothing else. A server awaits that thread
  (``call_apart_async``), so its event loop serves every other table and socket while a bot thinks;
  a bot that keeps the thread past ``THREAD_BUDGET`` (10 s) is given up (``Stuck``) and a fresh thread
  takes the calls behind it, so one hung bot does not stall every bot table of the process.

This stops a bot from *stumbling on* what it must not see. It is not a sandbox: Python code can
reach any object of its process (``gc.get_objects()``, ``sys._current_frames()``). A bot we did
not write runs in its own process and talks to the table like a phone does (``truco bot``,
``truco.bots.remote``), where the server only ever sends it its seat's view.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import queue
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from truco.bots.base import Bot
from truco.engine import Action, Do, PublicView, Rules, Seat, SeatView
from truco.engine.cards import parse_card
from truco.engine.types import SENAS


def to_plain(view: SeatView) -> dict[str, Any]:
    """The view as JSON-ready data: the wire form (``SeatView.to_dict``) plus ``start_score`` and
    ``start_chicos``, which the wire leaves out and a bot that replays the hand needs."""
    d = view.to_dict()
    d["start_score"] = list(view.public.start_score)
    d["start_chicos"] = list(view.public.start_chicos)
    d["partner_senas"] = [{"seat": s, "sena": x} for s, x in view.senas]
    return d


def _pair(x: Any) -> tuple[int, int]:
    a, b = x
    return int(a), int(b)


def _ints(xs: Any) -> tuple[int, ...]:
    return tuple(int(x) for x in xs)


def _cards(xs: Any) -> tuple[int, ...]:
    return tuple(parse_card(str(x)) for x in xs)


def _rounds(xs: Any) -> tuple[tuple[tuple[int, int], ...], ...]:
    return tuple(tuple((int(p["seat"]), parse_card(str(p["card"]))) for p in r) for r in xs)


def _do(x: Any) -> Do | None:
    return None if x is None else Do(str(x))


def action_from_plain(d: Mapping[str, Any]) -> Action:
    card = d.get("card")
    return Action(int(d["seat"]), Do(str(d["do"])), None if card is None else parse_card(str(card)))


def action_to_plain(a: Action) -> dict[str, Any]:
    return a.to_dict()


def from_plain(d: Mapping[str, Any], start_score: tuple[int, int] | None = None,
               start_chicos: tuple[int, int] | None = None) -> SeatView:
    """A ``SeatView`` from ``to_plain`` (or the ``game`` of a view sent to a phone, which has no
    ``start_score``: pass it, else the current score is taken)."""
    stake = d.get("envido_stake")
    envido_stake: tuple[int | None, int] | None = None
    if stake is not None:
        q = stake["querido"]
        envido_stake = (None if q == "falta" else int(q), int(stake["no_querido"]))
    rules = Rules.from_dict(dict(d["rules"]))
    score = _pair(d["score"])
    chicos = _pair(d["chicos"])
    if "start_score" in d:
        start_score = _pair(d["start_score"])
    if "start_chicos" in d:
        start_chicos = _pair(d["start_chicos"])
    pending_call = _do(d.get("pending_call"))
    truco_level = _do(d.get("truco_level"))
    public = PublicView(
        rules=rules,
        hand_no=int(d["hand_no"]),
        dealer=int(d["dealer"]),
        mano=int(d["mano"]),
        score=score,
        chicos=chicos,
        start_score=start_score if start_score is not None else score,
        start_chicos=start_chicos if start_chicos is not None else chicos,
        rounds=_rounds(d["rounds"]),
        results=_ints(d["results"]),
        cards_left=_ints(d["cards_left"]),
        turn=int(d["turn"]),
        to_act=_ints(d["to_act"]),
        folded=_ints(d["folded"]),
        pending=None if d.get("pending") is None else str(d["pending"]),
        pending_call=pending_call,
        answer_team=int(d["answer_team"]),
        truco_value=int(d["truco_value"]),
        truco_level=truco_level,
        truco_owner=int(d["truco_owner"]),
        envido_chain=tuple(Do(str(c)) for c in d["envido_chain"]),
        envido_stake=envido_stake,
        envido_open=bool(d["envido_open"]),
        flor_chain=tuple(Do(str(c)) for c in d["flor_chain"]),
        sung=tuple((int(s["seat"]), int(s["tanto"]), bool(s["flor"])) for s in d["sung"]),
        shown=tuple((int(s["seat"]), _cards(s["cards"])) for s in d["shown"]),
        history=tuple(action_from_plain(a) for a in d["history"]),
        hand_over=bool(d["hand_over"]),
        hand_winner=int(d["hand_winner"]),
        chico_over=bool(d["chico_over"]),
        match_over=bool(d["match_over"]),
        winner=int(d["winner"]),
        pies=_ints(d["pies"]),
        pica=bool(d.get("pica", False)),
        duel=int(d.get("duel", -1)),
        idle=_ints(d.get("idle", ())),
        duels=tuple((int(x["mano"]), int(x["rival"]), int(x["winner"]), _rounds(x["rounds"]),
                     _ints(x["results"])) for x in d.get("duels", ())),
    )
    return SeatView(
        seat=int(d["seat"]),
        team=int(d["team"]),
        cards=_cards(d["cards"]),
        dealt=_cards(d["dealt"]),
        my_tanto=int(d["my_tanto"]),
        my_flor=bool(d["my_flor"]),
        legal=tuple(action_from_plain(a) for a in d["legal"]),
        public=public,
        senas=tuple((int(x["seat"]), str(x["sena"])) for x in d.get("partner_senas", ())),
    )


def detached(view: SeatView) -> SeatView:
    """An equal view that shares no container with ``view`` (nor with the state it came from)."""
    return from_plain(to_plain(view))


# ---------------------------------------------------------------- a fresh stack for every call


THREAD_BUDGET = 10.0
"""Seconds a bot may keep the bots' thread on one call that an event loop awaits (``call_apart_async``),
as a worker gives each decision (``stdio.DECISION_BUDGET``). Past it the call raises ``Stuck``: a thread
cannot be stopped, so it is left to the bot, and a fresh thread takes the calls queued behind it."""


class Stuck(Exception):
    """A bot kept the bots' thread past ``THREAD_BUDGET``: its table plays the fallback, and whoever
    holds the bot makes it anew (its old self may still be running, on the thread it was left)."""


class _Job:
    __slots__ = ("args", "error", "fn", "ms", "result", "runner", "started", "then")

    def __init__(self, fn: Any, args: tuple[Any, ...], then: Callable[[], None]) -> None:
        self.fn = fn
        self.args = args
        self.result: Any = None
        self.error: BaseException | None = None
        self.ms = 0.0
        self.then = then
        """Called on the bots' thread once the result is in: it wakes whoever waits for it."""
        self.started: float | None = None
        """When the bots' thread began it (``time.monotonic``); ``None`` while it waits in the queue."""
        self.runner: _Worker | None = None
        """The thread's worker that runs it (a job queued behind a stuck call moves to a fresh one)."""

    def run(self) -> None:
        fn, args = self.fn, self.args
        self.fn = None
        self.args = ()
        self.started = time.monotonic()
        t0 = time.thread_time()
        try:
            self.result = fn(*args)
        except BaseException as e:  # handed back to the caller, raised there
            self.error = e
        self.ms = (time.thread_time() - t0) * 1000.0
        self.then()

    def outcome(self) -> tuple[Any, float]:
        if self.error is not None:
            raise self.error
        return self.result, self.ms


class _Worker:
    """One thread per process that runs the bots' calls; its frames hold only the job at hand.
    ``abandoned``: left to a stuck call (no call is queued on it any more); it stops when (if ever)
    that call returns and it reads the ``None`` that ``_abandon`` left in its queue."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.abandoned = False
        self.jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        threading.Thread(target=_serve, args=(self,), name="truco-bots", daemon=True).start()


def _serve(worker: _Worker) -> None:
    jobs = worker.jobs
    while (job := jobs.get()) is not None:  # ``None``: left to a stuck call (``_abandon``), and it returned
        job.runner = worker
        job.run()
        del job


_worker: _Worker | None = None
_worker_lock = threading.Lock()


def _submit(job: _Job) -> None:
    """Queue ``job`` on this process's bots' thread, started here if there is none (or only one that a
    stuck call keeps, or one of the parent's: a forked child has no thread of its own)."""
    global _worker
    with _worker_lock:
        if _worker is None or _worker.pid != os.getpid() or _worker.abandoned:
            _worker = _Worker()
        _worker.jobs.put(job)


def _abandon(worker: _Worker) -> None:
    """Leave ``worker``'s thread to the call that keeps it; the calls queued behind it go to a fresh one."""
    global _worker
    with _worker_lock:  # no call is queued on ``worker`` from here on (``_submit``)
        worker.abandoned = True
        waiting: list[_Job] = []
        with contextlib.suppress(queue.Empty):
            while True:
                job = worker.jobs.get_nowait()
                if job is not None:
                    waiting.append(job)
        worker.jobs.put(None)  # if the stuck call returns after all, its thread stops there
        if waiting:
            if _worker is None or _worker.abandoned:
                _worker = _Worker()
            for job in waiting:
                _worker.jobs.put(job)


def call_apart(fn: Any, *args: Any) -> tuple[Any, float]:
    """``fn(*args)`` on the bots' thread: returns its result and the CPU milliseconds it took there.
    The calling thread waits, however long (the arena, a terminal game: no budget)."""
    done: queue.SimpleQueue[bool] = queue.SimpleQueue()
    job = _Job(fn, args, lambda: done.put(True))
    _submit(job)
    done.get()
    return job.outcome()


async def call_apart_async(fn: Any, *args: Any) -> tuple[Any, float]:
    """``call_apart`` for an event loop: the loop goes on serving everything else (other tables,
    every socket) while the bot thinks, and this coroutine resumes with the result. A call that keeps
    the thread ``THREAD_BUDGET`` seconds from when the thread began it raises ``Stuck``; the time it
    waited in the queue behind other calls is not counted against it."""
    loop = asyncio.get_running_loop()
    woken: asyncio.Future[None] = loop.create_future()

    def wake() -> None:  # on the bots' thread
        with contextlib.suppress(RuntimeError):  # the loop closed while the bot thought: nobody waits
            loop.call_soon_threadsafe(_resolve, woken)

    job = _Job(fn, args, wake)
    _submit(job)
    budget = THREAD_BUDGET
    wait = budget
    while not woken.done():
        await asyncio.wait((woken,), timeout=wait)  # a cancel of this task is not lost (unlike wait_for)
        started, runner = job.started, job.runner
        if woken.done() or started is None or runner is None:
            wait = budget  # done, or still queued: the call it waits behind answers for its own time
            continue
        over = time.monotonic() - started
        if over < budget:
            wait = budget - over
            continue
        _abandon(runner)
        raise Stuck(f"a bot's call kept the bots' thread {over:.1f} s (its budget: {budget:g} s)")
    return job.outcome()


def _resolve(woken: asyncio.Future[None]) -> None:
    if not woken.done():  # a cancelled waiter (the table's task stopped) wants nothing
        woken.set_result(None)


class Guarded:
    """A bot called the safe way: with a detached view, on the bots' own thread; each call waits for
    it (``choose``) or, from an event loop, awaits it (``choose_async``).

    ``last_ms`` is the CPU time of the last call, measured on that thread (the caller's own CPU
    clock would not see it)."""

    def __init__(self, bot: Bot) -> None:
        self._bot = bot
        self.level = bot.level
        self.last_ms = 0.0
        self.stuck = False
        """A call kept the bots' thread past its budget (``Stuck``): the bot may be running there still,
        so it must not be asked again (``BotTurns`` makes it anew)."""
        self.recalled = False
        """It was told the hands of the match played before it was made (``recall_async``)."""

    def _legal(self, view: SeatView, action: Any) -> Action:
        # hand back the caller's own legal action when it is one (never an object the bot made)
        for a in view.legal:
            if a == action:
                return a
        if isinstance(action, Action):
            return Action(int(action.seat), Do(action.do), action.card)
        raise TypeError(f"a bot answers with an Action, not {type(action).__name__}")

    def _apart(self, fn: Any, *args: Any) -> Any:
        result, self.last_ms = call_apart(fn, *args)
        return result

    async def _awaited(self, fn: Any, *args: Any) -> Any:
        try:
            result, self.last_ms = await call_apart_async(fn, *args)
        except Stuck:
            self.stuck = True
            raise
        return result

    def choose(self, view: SeatView) -> Action:
        return self._legal(view, self._apart(self._bot.choose, detached(view)))

    async def choose_async(self, view: SeatView) -> Action:
        return self._legal(view, await self._awaited(self._bot.choose, detached(view)))

    def hint(self, view: SeatView) -> Action:
        return self._legal(view, self._apart(self._bot.hint, detached(view)))

    async def hint_async(self, view: SeatView) -> Action:
        return self._legal(view, await self._awaited(self._bot.hint, detached(view)))

    def reconsider(self, view: SeatView, votes: Mapping[Seat, Action]) -> Action:
        return self._legal(view, self._apart(self._bot.reconsider, detached(view), _plain_votes(votes)))

    async def recall_async(self, views: Sequence[SeatView]) -> None:
        """Tell a bot made mid-match the hands it did not play (``truco.table.bot_recall``), on the
        bots' thread, each view detached; a bot without ``recall`` remembers nothing, so it is not asked."""
        try:
            if views and hasattr(self._bot, "recall"):
                await self._awaited(recall_match, self._bot, [detached(v) for v in views])
        finally:
            self.recalled = True  # a bot that fails to recall plays on without it, not asked again

    async def reconsider_async(self, view: SeatView, votes: Mapping[Seat, Action]) -> Action:
        action = await self._awaited(self._bot.reconsider, detached(view), _plain_votes(votes))
        return self._legal(view, action)

    def senas(self, view: SeatView) -> tuple[str, ...]:
        """The señas the bot makes to its partners at the start of a hand (none if it makes none);
        anything but known seña names, each once, is dropped."""
        if getattr(self._bot, "senas", None) is None:
            return ()
        return known_senas(self._apart(self._bot.senas, detached(view)))  # type: ignore[attr-defined]

    async def senas_async(self, view: SeatView) -> tuple[str, ...]:
        if getattr(self._bot, "senas", None) is None:
            return ()
        return known_senas(await self._awaited(self._bot.senas, detached(view)))  # type: ignore[attr-defined]


def _plain_votes(votes: Mapping[Seat, Action]) -> dict[Seat, Action]:
    """The votes as fresh objects (none of the caller's reaches the bot)."""
    return {int(s): action_from_plain(a.to_dict()) for s, a in votes.items()}


def recall_match(bot: object, views: Sequence[SeatView]) -> None:
    """Tell a bot made mid-match the hands of the match before it (``truco.table.bot_recall``), one
    view a hand; a bot without ``recall`` remembers nothing of a match, so it is told nothing."""
    recall = getattr(bot, "recall", None)
    if recall is not None:
        for view in views:
            recall(view)


def known_senas(result: Any) -> tuple[str, ...]:
    out: list[str] = []
    for x in result if isinstance(result, tuple | list) else ():
        if isinstance(x, str) and x in SENAS and x not in out:
            out.append(x)
    return tuple(out)


def guard(bot: Bot) -> Guarded:
    return bot if isinstance(bot, Guarded) else Guarded(bot)
