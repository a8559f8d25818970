"""The bots' thread (``truco.bots.guard``): a bot that keeps it past its budget is given up, the calls
queued behind it go to a fresh thread, and its table plays the fallback and makes the bot anew.

Bots in worker processes have their own budget (``test_bot_workers.py``); this is the thread a
server uses without workers, as the tests, the arena and a terminal game do."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator, Mapping

import pytest

from tests.bots.matches import views_of_a_match
from tests.runtime.conftest import MakeRuntime, submit
from tests.runtime.tables import against_a_bot, turn
from truco.bots import Bot
from truco.bots import guard as guard_module
from truco.bots.guard import Guarded, Stuck
from truco.bots.registry import make_level
from truco.engine import Action, Rules, Seat, SeatView


class _Hangs:
    """A bot whose ``choose`` keeps the thread until the test releases it (30 s at most, so that a
    regression fails instead of hanging the suite)."""

    level = "hangs"

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()

    def choose(self, view: SeatView) -> Action:
        self.entered.set()
        self.release.wait(30)
        return view.legal[0]

    def hint(self, view: SeatView) -> Action:
        return view.legal[0]

    def reconsider(self, view: SeatView, votes: Mapping[Seat, Action]) -> Action:
        return view.legal[0]


@pytest.fixture
def short_budget(monkeypatch: pytest.MonkeyPatch) -> Iterator[float]:
    monkeypatch.setattr(guard_module, "THREAD_BUDGET", 0.3)
    yield 0.3


def _bots_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "truco-bots"]


async def _until(check: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "waited too long"
        await asyncio.sleep(0.01)


async def test_a_bot_past_its_budget_is_given_up_and_the_calls_queued_behind_it_are_answered(
        short_budget: float):
    view = next(views_of_a_match(Rules(players=2), seed=5))[1]
    hangs = _Hangs()
    stuck, behind = Guarded(hangs), Guarded(make_level("normal", 3))
    try:
        first = asyncio.create_task(stuck.choose_async(view))
        assert await asyncio.to_thread(hangs.entered.wait, 10)  # the thread is in the hung call
        second = asyncio.create_task(behind.choose_async(view))  # queued behind it
        started = time.monotonic()
        with pytest.raises(Stuck):
            await asyncio.wait_for(first, 10)
        assert stuck.stuck and not behind.stuck
        assert time.monotonic() - started < 5  # given up near its 0.3 s, not left for the 30 s it would take
        assert (await asyncio.wait_for(second, 10)) in view.legal  # a fresh thread answered it
        assert not behind.stuck  # the time it waited in the queue was not counted against it
        assert (await behind.choose_async(view)) in view.legal  # and the fresh thread answers on
        assert len(_bots_threads()) == 2  # the fresh one, and the one left to the hung call
    finally:
        hangs.release.set()
    await _until(lambda: len(_bots_threads()) == 1)  # the hung call returned: its thread stopped


async def test_a_table_whose_bot_hangs_on_the_bots_thread_plays_its_fallback_and_makes_the_bot_anew(
        make_runtime: MakeRuntime, short_budget: float):
    made: list[Bot] = []
    hangs = _Hangs()

    def factory(level: str, seed: int) -> Bot:
        made.append(hangs if not made else make_level("normal", seed))
        return made[-1]

    rt = await make_runtime(bot_factory=factory)
    try:
        a, ana, box = await against_a_bot(rt, "normal")
        await _until(lambda: any(e.command["type"] == "bot_act" for e in rt.storage.log(a)))
        await rt.settle()
        first = next(e.command for e in rt.storage.log(a) if e.command["type"] == "bot_act")
        assert hangs.entered.is_set() and first["seat"] == 1
        assert len(made) == 1
        for _ in range(20):  # Ana plays on until the bot's next turn
            await rt.settle()
            if len(made) == 2 or box.view["phase"] != "playing":
                break
            if turn(rt, a) == 0:
                act = next(x for x in box.view["legal"] if x["do"] in ("play", "quiero", "no_quiero"))
                cmd = {k: v for k, v in act.items() if k != "seat"} | {"type": "act"}
                assert (await submit(rt, a, ana, cmd)).ok
        assert len(made) == 2 and made[1] is not hangs  # its next turn asked a bot made anew
    finally:
        hangs.release.set()
    await _until(lambda: len(_bots_threads()) == 1)
