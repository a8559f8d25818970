"""Bots in worker processes (``truco.runtime.bot_workers``): the same play as on the bots' thread, a
bot's memory kept for its match, and a worker that dies or hangs costs its tables a fallback move,
never a stalled table."""

from __future__ import annotations

import asyncio
import io
import json
import os
import signal
import sys
import threading
import time
from typing import Any

import pytest

from tests.bots.matches import views_of_a_match
from tests.runtime.conftest import Inbox, submit
from tests.runtime.tables import against_a_bot, turn
from tests.runtime.test_runtime import play_to_the_end
from truco.bots import make_bot
from truco.bots.guard import to_plain
from truco.bots.stdio import serve_many
from truco.engine import Rules, SeatView
from truco.runtime import FakeClock, Runtime
from truco.runtime.bot_turns import BotTurns
from truco.runtime.bot_workers import BotWorkers, WorkerGone
from truco.storage import MemoryStorage


async def _match_log(workers: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    seeds, tokens = iter(range(777, 10_000)), iter(range(10_000))
    rt = Runtime(MemoryStorage(), FakeClock(), seed_source=lambda: next(seeds) * 2654435761 % (1 << 63),
                 token_source=lambda: f"token-{next(tokens):08d}-of-this-test", bot_delay=0, hand_pause=0,
                 bot_workers=workers)
    await rt.start()
    try:
        c = await rt.create_table({"players": 4, "target": 15}, "Ana")
        box = Inbox()
        await rt.connect(c.table_id, c.token, box)
        for seat, level in ((1, "maestro"), (2, "dificil"), (3, "normal")):
            bot = {"type": "add_bot", "seat": seat, "level": level}
            assert (await submit(rt, c.table_id, c.token, bot)).ok
        assert (await submit(rt, c.table_id, c.token, {"type": "start"})).ok
        await play_to_the_end(rt, c.table_id, c.token, box)
        return [e.command for e in rt.storage.log(c.table_id)], box.view["result"]
    finally:
        await rt.close()


async def test_bots_in_a_worker_process_play_the_match_they_play_on_the_bots_thread():
    on_thread, result = await _match_log(0)
    in_worker, result_there = await _match_log(1)
    assert result["winner"] in (0, 1)
    assert sum(1 for c in on_thread if c["type"] == "bot_act") > 50
    assert in_worker == on_thread and result_there == result


def _view() -> SeatView:
    """The first view of a mano a mano match played by bots."""
    return next(views_of_a_match(Rules(players=2), seed=5))[1]


def test_a_worker_makes_each_bot_once_for_its_match_and_forgets_a_closed_tables_bots():
    made: list[tuple[str, int]] = []

    def make(level: str, seed: int) -> Any:
        made.append((level, seed))
        return make_bot(level, seed)

    view = to_plain(_view())
    def ask(rid: int, table: str | None, bot: str, level: str, seed: int, kind: str = "choose",
            plain: Any = view) -> dict[str, Any]:
        req = {"id": rid, "bot": bot, "level": level, "seed": seed, "type": kind, "view": plain}
        return req if table is None else {**req, "table": table}

    lines = [
        ask(1, "T1", "1/0/normal", "normal", 9),
        ask(2, "T1", "1/0/normal", "normal", 9, "hint"),
        ask(3, "T2", "1/0/facil", "facil", 4, "senas"),
        ask(4, "T1/1", "0/normal", "normal", 2),
        {"type": "forget", "table": "T1"},
        {"type": "forget"},  # names no table: drops nothing
        ask(5, "T1", "1/0/normal", "normal", 9),
        ask(6, "T1/1", "0/normal", "normal", 2),
        ask(7, "T2", "1/0/facil", "facil", 4, plain={"bad": 1}),
        ask(8, None, "1/0/facil", "facil", 4),
    ]
    out = io.StringIO()
    assert serve_many(make, io.StringIO("".join(json.dumps(x) + "\n" for x in lines)), out) == 0
    answers = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [a["id"] for a in answers] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert [a["type"] for a in answers] == ["act", "act", "senas", "act", "act", "act", "error", "error"]
    assert answers[2]["senas"] == [] and "KeyError" in answers[6]["error"] and "table" in answers[7]["error"]
    # T1's bot is made again only after its table is forgotten; the table "T1/1" is another table,
    # whatever its id looks like, and keeps its bot
    assert made == [("normal", 9), ("facil", 4), ("normal", 2), ("normal", 9)]


class _Hangs:
    """A bot that thinks for 5 s on its decision (a busy loop with short sleeps), its own catch-all
    around it, and then plays."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def choose(self, view: Any) -> Any:
        until = time.monotonic() + 5
        try:
            while time.monotonic() < until:
                sum(range(1000))
                time.sleep(0.001)
        except Exception:  # a bot's own catch-all must not swallow the worker's budget
            pass
        return self.inner.choose(view)


def test_a_bot_that_hangs_in_a_worker_loses_its_own_memory_only_and_the_worker_answers_on():
    """A worker gives a decision ``budget`` seconds: past it, that bot answers an error (its table plays
    the fallback) and is dropped; the worker's other bots keep their memory of their matches, where a
    worker killed for its silence (30 s, the server's backstop) would have lost them all."""
    assert threading.current_thread() is threading.main_thread()  # where the budget's alarm can ring
    made: list[str] = []

    def make(level: str, seed: int) -> Any:
        made.append(level)
        if level == "hangs":  # the first one hangs; the one made again after it was dropped plays
            return _Hangs(make_bot("normal", seed)) if made.count("hangs") == 1 else make_bot("normal", seed)
        return make_bot(level, seed)

    plain = to_plain(_view())
    asks = [("T1", "normal"), ("T2", "hangs"), ("T1", "normal"), ("T2", "hangs"), ("T1", "normal")]
    lines = [{"id": i, "table": table, "bot": "1/1", "level": level, "seed": 1, "type": "choose",
              "view": plain}
             for i, (table, level) in enumerate(asks, 1)]
    out = io.StringIO()
    started = time.monotonic()
    assert serve_many(make, io.StringIO("".join(json.dumps(x) + "\n" for x in lines)), out, budget=0.3) == 0
    answers = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [a["type"] for a in answers] == ["act", "error", "act", "act", "act"]
    assert answers[1]["error"].startswith("Overrun") and answers[1]["id"] == 2
    assert made == ["normal", "hangs", "hangs"]  # T2's bot made again; T1's kept its memory
    assert time.monotonic() - started < 4  # the hung decision was given up at 0.3 s, not left for 5
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # no alarm left behind


async def test_a_worker_that_is_killed_costs_its_tables_one_fallback_move_and_starts_again():
    workers = BotWorkers(1)
    try:
        bot = workers.bot("T", "1/0/normal", "normal", 3)
        view = _view()
        assert workers.health() == {"count": 1, "alive": 0, "restarts": 0}  # started on first use
        assert (await bot.choose_async(view)) in view.legal
        [pid] = workers.pids()
        assert workers.health() == {"count": 1, "alive": 1, "restarts": 0}
        thinking = asyncio.create_task(bot.choose_async(view))
        os.kill(pid, signal.SIGKILL)
        await asyncio.sleep(0)
        with pytest.raises(WorkerGone):
            await asyncio.wait_for(thinking, 10)
        assert (await bot.choose_async(view)) in view.legal  # a fresh worker answers
        assert workers.restarts == 1 and workers.pids() != [pid]
        assert workers.health() == {"count": 1, "alive": 1, "restarts": 1}  # what /health reports
    finally:
        await workers.close()
    assert workers.pids() == []


SILENT = (sys.executable, "-c", "import sys, time\nsys.stdin.readline()\ntime.sleep(120)")
"""A worker that takes a request and never answers."""


async def test_a_bots_answer_that_comes_as_its_table_is_stopped_does_not_keep_the_table_running():
    """The server closing cancels each table's task; when a bot's answer comes in that same moment, the
    cancel must still stop the task (``asyncio.wait_for`` on Python 3.11 returned the answer and lost the
    cancel: the table went back to its queue and ``Runtime.close`` waited for it forever)."""
    workers = BotWorkers(1, command=SILENT)
    try:
        asking = asyncio.create_task(workers.ask(0, {"type": "choose"}))
        async with asyncio.timeout(10):
            while not _pending(workers):  # the request is out, the worker started
                await asyncio.sleep(0.01)
        [answer] = _pending(workers)
        answer.set_result({"type": "act", "do": "mazo"})
        asking.cancel()
        with pytest.raises(asyncio.CancelledError):
            await asking
    finally:
        await workers.close()


def _pending(workers: BotWorkers) -> list[asyncio.Future[dict[str, Any]]]:
    return [f for w in workers._workers if w is not None for f in w.pending.values()]


async def test_a_bots_worker_that_never_answers_is_ended_and_its_table_plays_the_bots_fallback():
    seeds = iter(range(31, 10_000))
    rt = Runtime(MemoryStorage(), FakeClock(), seed_source=lambda: next(seeds) * 2654435761 % (1 << 63),
                 bot_delay=0, hand_pause=0, bot_workers=1)
    workers = rt._services.bots.workers
    assert workers is not None
    workers.command = SILENT
    workers.timeout = 0.5
    await rt.start()
    try:
        a, _, box = await against_a_bot(rt, "maestro")
        await rt.settle()
        moves = [e.command for e in rt.storage.log(a) if e.command["type"] == "bot_act"]
        assert moves and moves[0]["seat"] == 1  # the bot's turn passed: its fallback, its first legal action
        assert box.view["phase"] != "playing" or turn(rt, a) == 0
        # each of the bot's turns (one or more, as the deal goes) started a worker that hung and was killed
        assert workers.pids() == [] and workers.restarts == len(moves) - 1
    finally:
        await rt.close()


def test_bots_in_workers_are_made_by_level_so_a_factory_is_refused():
    with pytest.raises(ValueError, match="factory"):
        BotTurns(0, lambda level, seed: make_bot(level, seed), 1, workers=BotWorkers(1))
