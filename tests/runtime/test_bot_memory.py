"""A bot made anew during a match remembers the hands before it: after a restart, on the node that
takes a table over, in a worker started again. ``maestro`` reads its rivals from every hand of the
match (``rivals.Memory``); a bot made mid-match is told each hand already over, as the seat saw it
(``truco.table.bot_recall``), before its next turn."""

from __future__ import annotations

import io
import json
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from tests.runtime.conftest import Inbox, MakeRuntime, submit
from tests.runtime.tables import humans_and_bots
from truco.bots import Bot
from truco.bots.guard import Guarded, to_plain
from truco.bots.maestro import MaestroBot
from truco.bots.profile import Profile
from truco.bots.registry import make_level
from truco.bots.rivals import Memory
from truco.bots.stdio import serve_many
from truco.engine import Rules, SeatView, hand_states, to_act
from truco.engine.cards import NAME
from truco.runtime import FakeClock, Runtime
from truco.storage import SQLiteStorage
from truco.table import bot_recall


def _mine(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A person's move: a card when they may, else decline; never a bet (a match lasts many hands)."""
    for do in ("play", "no_quiero", "con_flor_me_achico", "quiero"):
        for a in legal:
            if a["do"] == do:
                return a
    return legal[0]


async def _move(rt: Runtime, table_id: str, humans: dict[int, tuple[str, Inbox]]) -> bool:
    """One person whose move (or vote) the table waits for makes it; False when none is waited for."""
    t = rt.table(table_id)
    g = t.game
    assert g is not None
    voted = {s for s, _ in t.vote.votes} if t.vote is not None else set()
    for seat in to_act(g):
        if seat in humans and seat not in voted:
            token, box = humans[seat]
            act = _mine(box.view["legal"])
            cmd = {k: v for k, v in act.items() if k != "seat"} | {"type": "act"}
            assert (await submit(rt, table_id, token, cmd)).ok
            return True
    return False


async def _play_until(rt: Runtime, table_id: str, humans: dict[int, tuple[str, Inbox]], hand_no: int) -> None:
    """The people (seat: token, inbox) play on until hand ``hand_no`` is on the table (the bots act as
    the table settles, so it waits for a person then)."""
    for _ in range(2_000):
        await rt.settle()
        t = rt.table(table_id)
        assert t.phase == "playing", "the match ended first"
        assert t.game is not None
        if t.hand_no >= hand_no and not t.game.hand_over:
            return
        await _move(rt, table_id, humans)
    raise AssertionError("the hand never came")


async def _against_maestro(rt: Runtime, players: int) -> tuple[str, str, Inbox]:
    """Ana in seat 0, ``maestro`` in every other seat (señas off: the match record keeps none)."""
    c = await rt.create_table({"players": players, "senas": False}, "Ana", bots="maestro")
    box = Inbox()
    await rt.connect(c.table_id, c.token, box)
    return c.table_id, c.token, box


def _finished(memory: dict[Any, SeatView], hand_no: int) -> dict[Any, SeatView]:
    return {k: v for k, v in memory.items() if k[0] < hand_no}


def _bots(rt: Runtime, table_id: str) -> dict[int, MaestroBot]:
    """The table's bots by seat, as the runtime holds them (on its bots' thread)."""
    out = {}
    for (table, _, seat, _), held in rt._services.bots._bots.items():
        assert isinstance(held, Guarded)
        bot = held._bot
        if table == table_id and isinstance(bot, MaestroBot):
            out[seat] = bot
    return out


async def _restarted(make_runtime: MakeRuntime, tmp_path: Path, hand_no: int, players: int = 2
                     ) -> tuple[dict[int, MaestroBot], dict[int, MaestroBot], int]:
    """Ana against ``maestro``s until hand ``hand_no``; the server dies and a fresh one rebuilds the
    table from its log; Ana plays on until every bot seat has a bot again. Returns the bots before and
    after, by seat, and the hand the restart came in."""
    path = str(tmp_path / "truco.db")
    clock = FakeClock()
    rt = await make_runtime(SQLiteStorage(path), clock=clock)
    table_id, token, box = await _against_maestro(rt, players)
    await _play_until(rt, table_id, {0: (token, box)}, hand_no=hand_no)
    hand_no = rt.table(table_id).hand_no
    before = _bots(rt, table_id)
    assert sorted(before) == list(range(1, players))
    await rt.close()  # nothing more is written

    fresh = await make_runtime(SQLiteStorage(path), clock=clock)
    box = Inbox()
    await fresh.connect(table_id, token, box)
    for _ in range(50):
        await fresh.settle()
        if len(_bots(fresh, table_id)) == players - 1:
            break
        assert await _move(fresh, table_id, {0: (token, box)})
    return before, _bots(fresh, table_id), hand_no


@pytest.mark.parametrize("players", [2, 4])
async def test_a_maestro_made_again_after_a_restart_remembers_every_hand_of_the_match_as_it_saw_it(
        make_runtime: MakeRuntime, tmp_path: Path, players: int):
    before, after, hand_no = await _restarted(make_runtime, tmp_path, 5, players)
    for seat, first in before.items():
        second = after[seat]
        seen = _finished(first.memory.hands, hand_no)
        assert len(seen) >= hand_no - 2  # it decided in (nearly) every hand before this one
        assert _finished(second.memory.hands, hand_no) == seen  # the same views, hand by hand
        was, now = Memory(), Memory()
        was.hands, now.hands = seen, _finished(second.memory.hands, hand_no)
        read = [vars(p) for p in now.all_profiles(second.maestro)]
        assert read == [vars(p) for p in was.all_profiles(first.maestro)]  # it reads its rivals the same
        assert read != [vars(Profile()), vars(Profile())]  # and the hands told it something


async def test_without_the_recall_the_bot_made_again_would_start_the_match_blank(
        make_runtime: MakeRuntime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The control: the same restart with the recall turned off leaves the new bot knowing no hand
    but the one on the table (what every restart did before)."""
    from truco.runtime import bot_turns
    monkeypatch.setattr(bot_turns, "bot_recall", lambda t, seat: [])
    before, after, hand_no = await _restarted(make_runtime, tmp_path, 3)
    assert _finished(before[1].memory.hands, hand_no)
    assert _finished(after[1].memory.hands, hand_no) == {}


async def test_the_recall_is_each_hand_over_as_the_seat_last_had_a_move_in_it_with_only_its_own_cards(
        make_runtime: MakeRuntime):
    """At a table of four (two people, two bots) the views told are each seat's own: its cards, the
    public record up to its last move in the hand, and no card another seat kept hidden."""
    rt = await make_runtime()
    table_id, tokens, boxes = await humans_and_bots(rt)
    humans = {0: (tokens[0], boxes[0]), 1: (tokens[1], boxes[1])}
    await _play_until(rt, table_id, humans, hand_no=4)
    t = rt.table(table_id)
    assert len(t.hands) >= 3
    for seat in range(4):
        views = bot_recall(t, seat)
        moved = [h for h, record in enumerate(t.hands, start=1)
                 if any(not st.hand_over and seat in to_act(st) for st in hand_states(record, h))]
        assert [v.public.hand_no for v in views] == moved  # a hand over before its turn: nothing to tell
        for view in views:
            states = hand_states(t.hands[view.public.hand_no - 1], view.public.hand_no)
            assert view.seat == seat and view.dealt == states[0].dealt[seat]
            last = max(i for i, st in enumerate(states) if not st.hand_over and seat in to_act(st))
            assert len(view.public.history) == last  # its last move in the hand, nothing after it
            end = states[-1]
            public = {c for r in end.rounds for _, c in r} | {c for _, c in end.plays}
            public |= {c for _, cs in end.shown for c in cs}
            plain = json.dumps(to_plain(view))
            for other in range(4):
                if other != seat:  # a card another seat never played nor showed is in no view of this one
                    assert not any(f'"{NAME[c]}"' in plain for c in set(end.dealt[other]) - public)


def test_a_worker_says_which_request_made_a_bot_and_a_recall_fills_its_memory():
    """The worker's side (``serve_many``): the request that makes a bot answers ``"made": true``, and a
    ``recall`` gives a ``maestro`` the views, a bot without a memory nothing to do."""
    from tests.bots.matches import views_of_a_match
    views = [v for _, v in views_of_a_match(Rules(players=2), seed=8)]
    by_hand: dict[int, SeatView] = {}
    for v in views:
        if v.seat == 1:
            by_hand[v.public.hand_no] = v
    told = [by_hand[h] for h in sorted(by_hand)[:-1]]
    made: list[Bot] = []

    def make(level: str, seed: int) -> Bot:
        made.append(make_level(level, seed))
        return made[-1]

    who = {"table": "T", "level": "maestro", "seed": 3}
    lines = [
        {**who, "bot": "m", "id": 1, "type": "recall", "views": [to_plain(v) for v in told]},
        {**who, "bot": "m", "id": 2, "type": "choose", "view": to_plain(by_hand[max(by_hand)])},
        {**who, "bot": "n", "level": "normal", "id": 3, "type": "recall", "views": [to_plain(told[0])]},
    ]
    out = io.StringIO()
    serve_many(make, io.StringIO("".join(json.dumps(x) + "\n" for x in lines)), out, budget=None)
    answers = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [a.get("made", False) for a in answers] == [True, False, True]
    assert [a["type"] for a in answers] == ["recalled", "act", "recalled"]
    bot = made[0]
    assert isinstance(bot, MaestroBot)
    assert {k[0] for k in bot.memory.hands} == {v.public.hand_no for v in told} | {max(by_hand)}


async def test_a_worker_killed_mid_match_has_its_bot_told_the_match_again(make_runtime: MakeRuntime):
    """Workers (``truco serve``'s default): after a SIGKILL the next request starts a fresh worker,
    whose answer says it made the bot; before the bot's following turn the table sends it the
    hands so far."""
    rt = await make_runtime(bot_workers=1)
    workers = rt._services.bots.workers
    assert workers is not None
    sent: list[dict[str, Any]] = []
    ask = workers.ask

    async def watched(slot: int, request: dict[str, Any]) -> dict[str, Any]:
        sent.append(request)
        return await ask(slot, request)

    workers.ask = watched  # type: ignore[method-assign]
    table_id, token, box = await _against_maestro(rt, 2)
    await _play_until(rt, table_id, {0: (token, box)}, hand_no=3)
    assert not [r for r in sent if r["type"] == "recall"]  # made at the first hand: nothing to tell
    (pid,) = workers.pids()
    os.kill(pid, signal.SIGKILL)
    hand_no = rt.table(table_id).hand_no
    await _play_until(rt, table_id, {0: (token, box)}, hand_no=hand_no + 2)
    recalls = [r for r in sent if r["type"] == "recall"]
    assert recalls, "the bot made again in the fresh worker was never told the match"
    assert len(recalls[0]["views"]) >= hand_no - 1
    assert all(v["seat"] == 1 for v in recalls[0]["views"])
