"""The runtime: stored before sent, one update per version, command ids, timers, bots, lobbies.

Recovery after a crash is in ``test_restart.py``."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Mapping
from typing import Any

import pytest

from tests.runtime.conftest import Inbox, MakeRuntime, submit
from tests.runtime.tables import against_a_bot, four_humans, play_first_card, turn, vote_closes_after
from truco.bots import LEVELS, Bot
from truco.engine import Action, Seat, SeatView
from truco.protocol import CloseCode
from truco.runtime import BadToken, FakeClock, NoSuchTable, Runtime
from truco.storage import MemoryStorage


async def test_every_accepted_command_is_stored_before_it_is_sent(make_runtime: MakeRuntime):
    storage = MemoryStorage()
    rt = await make_runtime(storage)
    c = await rt.create_table({"players": 2}, "Ana")
    seen: list[int] = []

    def send(msg: dict[str, Any]) -> None:
        stored = storage.log(c.table_id)[-1].version
        assert stored >= msg.version
        seen.append(msg.version)

    await rt.connect(c.table_id, c.token, send)
    await submit(rt, c.table_id, c.token, {"type": "add_bot", "seat": 1, "level": "random"})
    await submit(rt, c.table_id, c.token, {"type": "start"})
    await rt.settle()
    assert len(seen) > 3


async def test_every_player_gets_one_update_per_version_in_order(make_runtime: MakeRuntime):
    rt = await make_runtime()
    table_id, tokens, boxes = await four_humans(rt)
    for _ in range(3):
        await play_first_card(rt, table_id, tokens)
    last = rt.version(table_id)
    for box in boxes:
        versions = [m["version"] for m in box.messages]
        assert versions == list(range(versions[0], last + 1))
        assert box.messages[0]["type"] == "hello"


async def test_a_resent_command_id_is_applied_once(make_runtime: MakeRuntime):
    rt = await make_runtime()
    table_id, tokens, _ = await four_humans(rt)
    seat = turn(rt, table_id)
    card = rt.view(table_id, tokens[seat])["game"]["cards"][0]
    cmd = {"type": "act", "do": "play", "card": card}
    first = await submit(rt, table_id, tokens[seat], cmd, cid="tap-1")
    again = await submit(rt, table_id, tokens[seat], cmd, cid="tap-1")
    assert first.ok and again.ok and again.duplicate and again.version == first.version
    assert rt.version(table_id) == first.version


async def test_a_stale_token_does_nothing(make_runtime: MakeRuntime):
    rt = await make_runtime()
    table_id, _, _ = await four_humans(rt)
    v = rt.version(table_id)
    res = await submit(rt, table_id, "not-a-token", {"type": "act", "do": "mazo"})
    assert not res.ok and res.reason == "unknown seat token" and rt.version(table_id) == v
    with pytest.raises(BadToken):
        await rt.connect(table_id, "not-a-token", Inbox())
    with pytest.raises(NoSuchTable):
        await submit(rt, "NOPE", "x", {"type": "start"})


async def test_an_illegal_command_gets_a_reason_and_changes_nothing(make_runtime: MakeRuntime):
    rt = await make_runtime()
    table_id, tokens, boxes = await four_humans(rt)
    other = (turn(rt, table_id) + 1) % 4
    v = rt.version(table_id)
    res = await submit(rt, table_id, tokens[other], {"type": "act", "do": "mazo"}, cid="x")
    assert not res.ok and res.version == v and res.reason == "it is not your turn"
    assert rt.version(table_id) == v and all(b.messages[-1]["version"] == v for b in boxes)


async def test_the_vote_window_fires_from_the_timer_heap(make_runtime: MakeRuntime):
    clock = FakeClock()
    rt = await make_runtime(clock=clock)
    table_id, tokens, boxes = await four_humans(rt)
    caller = turn(rt, table_id)
    assert (await submit(rt, table_id, tokens[caller], {"type": "act", "do": "truco"})).ok
    a, b = (caller + 1) % 4, (caller + 3) % 4
    await submit(rt, table_id, tokens[a], {"type": "act", "do": "quiero"})
    await submit(rt, table_id, tokens[b], {"type": "act", "do": "no_quiero"})
    vote = boxes[a].view["vote"]
    assert vote["window_ends_ms"] == clock.now_ms() + 10_000
    await vote_closes_after(rt, table_id, clock, 10_000)
    assert boxes[caller].events("vote_expired")


async def test_bots_act_after_their_delay(make_runtime: MakeRuntime):
    clock = FakeClock()
    rt = await make_runtime(clock=clock, bot_delay=1.0)
    table_id, _, _ = await against_a_bot(rt)
    v = rt.version(table_id)
    clock.advance(999)
    await rt.settle()
    assert rt.version(table_id) == v  # the bot is still "thinking"
    clock.advance(1)
    await rt.settle()
    assert rt.version(table_id) > v


async def test_other_tables_and_sockets_are_served_while_a_bot_thinks(make_runtime: MakeRuntime):
    """A bot thinks on its own thread and the table's task awaits it: another table is created,
    joined and changed meanwhile, while this table keeps its own commands for after the bot's move."""
    asked, release = threading.Event(), threading.Event()
    answered: list[int] = []

    class Thinker:
        """A bot that thinks until the test lets it answer (30 s at most, so a regression fails
        instead of hanging)."""

        level = "thinker"

        def choose(self, view: SeatView) -> Action:
            asked.set()
            release.wait(30)
            answered.append(view.seat)
            return view.legal[0]

        def hint(self, view: SeatView) -> Action:
            return view.legal[0]

        def reconsider(self, view: SeatView, votes: Mapping[Seat, Action]) -> Action:
            return view.legal[0]

    def factory(level: str, seed: int) -> Bot:
        return Thinker()

    rt = await make_runtime(bot_factory=factory)
    a, ana, _ = await against_a_bot(rt)
    assert await asyncio.to_thread(asked.wait, 30)  # the bot's turn came: it is thinking now
    try:
        version = rt.version(a)
        later = asyncio.create_task(submit(rt, a, ana, {"type": "act", "do": "mazo"}))
        b = await rt.create_table({"players": 2}, "Beto")
        other = Inbox()
        await rt.connect(b.table_id, b.token, other)
        res = await submit(rt, b.table_id, b.token, {"type": "add_bot", "seat": 1, "level": "facil"})
        assert res.ok and other.view["seats"][1]["level"] == "facil"
        assert answered == [] and not later.done()  # all of that while the bot still thinks
        assert rt.version(a) == version  # and its table waits for it
    finally:
        release.set()
    await rt.settle()
    assert answered == [1]
    assert later.done()
    kinds = [e.command["type"] for e in rt.storage.log(a)]
    assert kinds[version] == "bot_act"  # the bot's move first, then Ana's command


async def play_to_the_end(rt: Runtime, table_id: str, token: str, box: Inbox) -> None:
    """The one human plays a card (or takes a call) at each turn, the bots answer, until the match is over."""
    for _ in range(2000):
        await rt.settle()
        view = box.view
        if view["phase"] != "playing":
            return
        legal = view["legal"]
        assert legal, "the table waits for nobody"
        act = next((a for a in legal if a["do"] in ("play", "quiero")), legal[0])
        cmd = {k: v for k, v in act.items() if k != "seat"} | {"type": "act"}
        res = await submit(rt, table_id, token, cmd)
        assert res.ok, res


async def test_a_match_against_bots_runs_to_its_end(make_runtime: MakeRuntime):
    rt = await make_runtime()
    c = await rt.create_table({"players": 4, "target": 15}, "Ana")
    box = Inbox()
    await rt.connect(c.table_id, c.token, box)
    for s, level in ((1, "facil"), (2, "normal"), (3, "random")):
        await submit(rt, c.table_id, c.token, {"type": "add_bot", "seat": s, "level": level})
    await submit(rt, c.table_id, c.token, {"type": "start"})
    await play_to_the_end(rt, c.table_id, c.token, box)
    assert box.view["phase"] == "over" and box.view["result"]["winner"] in (0, 1)
    assert rt.storage.matches(c.table_id)[0]["result"] == box.view["result"]


@pytest.mark.parametrize("level", LEVELS)
async def test_every_level_offered_at_a_table_can_be_seated_and_plays_a_match_to_its_end(
        make_runtime: MakeRuntime, level: str):
    rt = await make_runtime()
    c = await rt.create_table({"players": 2, "target": 15}, "Ana")
    box = Inbox()
    await rt.connect(c.table_id, c.token, box)
    assert (await submit(rt, c.table_id, c.token, {"type": "add_bot", "seat": 1, "level": level})).ok
    seat = box.view["seats"][1]
    assert (seat["kind"], seat["level"]) == ("bot", level)
    assert (await submit(rt, c.table_id, c.token, {"type": "start"})).ok
    await play_to_the_end(rt, c.table_id, c.token, box)
    result = box.view["result"]
    assert box.view["phase"] == "over" and result["reason"] == "target" and max(result["score"]) >= 15


async def test_ruling18_through_the_runtime_a_lost_connection_cancels_the_match_after_60_s(
        make_runtime: MakeRuntime):
    clock = FakeClock()
    storage = MemoryStorage()
    rt = await make_runtime(storage, clock=clock)
    c = await rt.create_table({"players": 2}, "Ana")
    j = await rt.join(c.table_id, "Beto")
    await submit(rt, c.table_id, j.token, {"type": "sit", "seat": 1})
    ana = Inbox()
    await rt.connect(c.table_id, c.token, ana)
    closed: list[int] = []
    phone = await rt.connect(c.table_id, j.token, Inbox(), lambda code, why: closed.append(code))
    tablet = await rt.connect(c.table_id, j.token, Inbox())
    assert closed == [CloseCode.REPLACED]  # the newest socket holds the seat
    await submit(rt, c.table_id, c.token, {"type": "start"})
    await rt.disconnect(phone)  # the replaced socket going away changes nothing: Beto is still here
    assert rt.table(c.table_id).deadlines == ()
    await rt.disconnect(tablet)  # his socket: the seat is held
    assert [(d.kind, d.seat) for d in rt.table(c.table_id).deadlines] == [("reconnect", 1)]
    assert ana.events("seat_held")[0]["until_ms"] == clock.now_ms() + 60_000
    clock.advance(59_999)
    await rt.settle()
    assert rt.table(c.table_id).phase == "playing"
    clock.advance(1)
    await rt.settle()
    assert rt.table(c.table_id).phase == "lobby"
    assert ana.events("match_cancelled") and ana.view["result"]["cancelled"]
    assert storage.matches(c.table_id)[0]["result"]["cancelled"]


async def test_open_tables_are_listed_while_someone_is_there_until_they_are_full(make_runtime: MakeRuntime):
    rt = await make_runtime()
    c = await rt.create_table({"players": 2}, "Ana")
    assert rt.list_open_tables() == []  # created, but its host has not arrived
    ana = await rt.connect(c.table_id, c.token, Inbox())
    assert [t["table_id"] for t in rt.list_open_tables()] == [c.table_id]
    assert rt.list_open_tables()[0]["host"] == "Ana"
    await rt.disconnect(ana)
    assert rt.list_open_tables() == []  # the host closed the page: nobody to play with
    await rt.connect(c.table_id, c.token, Inbox())
    await submit(rt, c.table_id, c.token, {"type": "add_bot", "seat": 1})
    assert rt.list_open_tables() == []


async def test_a_private_table_is_never_listed(make_runtime: MakeRuntime):
    rt = await make_runtime()
    c = await rt.create_table({"players": 4, "private": True}, "Ana")
    await rt.connect(c.table_id, c.token, Inbox())
    assert rt.list_open_tables() == [] and rt.summary(c.table_id)["settings"]["private"] is True


async def test_a_lobby_nobody_is_at_closes_after_30_minutes(make_runtime: MakeRuntime):
    clock = FakeClock()
    rt = await make_runtime(clock=clock)
    c = await rt.create_table({"players": 4}, "Ana")
    ana = await rt.connect(c.table_id, c.token, Inbox())
    await rt.disconnect(ana)
    clock.advance(30 * 60 * 1000 - 1)
    await rt.settle()
    assert c.table_id in rt.table_ids()
    clock.advance(1)
    await rt.settle()
    assert c.table_id not in rt.table_ids()


async def test_a_bot_waits_before_the_first_move_of_a_hand(make_runtime: MakeRuntime):
    """People read how a hand ended before the next one moves: the hand pause (4 s), not the bot's
    usual 0.5 s."""
    clock = FakeClock()
    rt = await make_runtime(clock=clock, hand_pause=4.0, bot_delay=0.5)
    c = await rt.create_table({"players": 2}, "Ana")
    await rt.connect(c.table_id, c.token, Inbox())
    await submit(rt, c.table_id, c.token, {"type": "add_bot", "seat": 1, "level": "facil"})
    await submit(rt, c.table_id, c.token, {"type": "start"})

    def game() -> Any:
        g = rt.table(c.table_id).game
        assert g is not None
        return g

    for _ in range(8):
        if game().turn == 1:  # the bot leads this hand: an ordinary delay
            clock.advance(500)
            await rt.settle()
        # the bot may have called: decline it, else leave the hand
        do = "no_quiero" if game().pending else "mazo"
        await submit(rt, c.table_id, c.token, {"type": "act", "do": do})
        if game().turn == 1 and game().history == ():
            break
    else:
        raise AssertionError("the bot never led a hand")
    assert game().history == ()
    clock.advance(3_999)
    await rt.settle()
    assert game().history == ()
    clock.advance(1)
    await rt.settle()
    assert len(game().history) == 1


async def test_bad_settings_are_refused_before_a_table_exists(make_runtime: MakeRuntime):
    from truco.runtime import LobbyError
    rt = await make_runtime()
    with pytest.raises(LobbyError, match="players"):
        await rt.create_table({"players": 5}, "Ana")
    assert rt.table_ids() == []


async def test_a_vote_with_a_stale_token_changes_nothing(make_runtime: MakeRuntime):
    rt = await make_runtime()
    table_id, tokens, _boxes = await four_humans(rt)
    caller = turn(rt, table_id)
    await submit(rt, table_id, tokens[caller], {"type": "act", "do": "truco"})
    a = (caller + 1) % 4
    await submit(rt, table_id, tokens[a], {"type": "act", "do": "quiero"})
    vote, version = rt.table(table_id).vote, rt.version(table_id)
    stale = tokens[a][:-1] + ("x" if tokens[a][-1] != "x" else "y")
    res = await submit(rt, table_id, stale, {"type": "act", "do": "no_quiero"})
    assert not res.ok and res.reason == "unknown seat token"
    assert rt.table(table_id).vote == vote and rt.version(table_id) == version


async def test_unknown_bot_levels_are_refused(make_runtime: MakeRuntime):
    rt = await make_runtime()
    c = await rt.create_table({"players": 2}, "Ana")
    res = await submit(rt, c.table_id, c.token, {"type": "add_bot", "seat": 1, "level": "genius"})
    assert not res.ok and "unknown bot level" in (res.reason or "")
    assert (await submit(rt, c.table_id, c.token, {"type": "add_bot", "seat": 1, "level": "dificil"})).ok


async def test_closing_the_runtime_answers_every_waiting_command(make_runtime: MakeRuntime):
    import asyncio

    from truco.runtime import LobbyError
    rt = await make_runtime()
    c = await rt.create_table({"players": 2}, "Ana")
    waiting = asyncio.create_task(rt.submit(c.table_id, c.token, {"type": "add_bot", "seat": 1}))
    await asyncio.sleep(0)
    await rt.close()
    with pytest.raises(LobbyError, match="shutting down"):
        await waiting
    with pytest.raises(LobbyError):
        await rt.join(c.table_id, "Beto")


async def test_a_table_nobody_comes_back_to_is_closed_after_the_idle_time(make_runtime: MakeRuntime):
    clock = FakeClock()
    storage = MemoryStorage()
    rt = await make_runtime(storage, clock=clock, idle_seconds=3600)
    c = await rt.create_table({"players": 2}, "Ana")
    conn = await rt.connect(c.table_id, c.token, Inbox())
    await submit(rt, c.table_id, c.token, {"type": "add_bot", "seat": 1})
    await submit(rt, c.table_id, c.token, {"type": "start"})  # against a bot: no deadlines at all
    await rt.settle()
    await rt.disconnect(conn)
    clock.advance(3_599_000)
    await rt.settle()
    assert rt.table_ids() == [c.table_id]
    clock.advance(1_000)
    await rt.settle()
    assert rt.table_ids() == [] and storage.live_tables() == []
    (record,) = storage.matches(c.table_id)
    assert record["result"]["reason"] == "abandoned" and record["result"]["cancelled"]


async def test_a_connected_player_keeps_a_table_alive(make_runtime: MakeRuntime):
    clock = FakeClock()
    rt = await make_runtime(clock=clock, idle_seconds=60)
    c = await rt.create_table({"players": 2}, "Ana")
    await rt.connect(c.table_id, c.token, Inbox())
    clock.advance(10 * 60_000)
    await rt.settle()
    assert rt.table_ids() == [c.table_id]


async def test_each_seat_s_legal_actions_are_computed_once_per_version(make_runtime: MakeRuntime,
                                                                        monkeypatch: pytest.MonkeyPatch):
    """One card play at a 2-seat table: the reducer, both players' views and the bots' scheduling
    share one ``Facts``, so the rules are asked once per seat for the new version."""
    import truco.engine.view as engine_view
    import truco.table.queries as queries

    rt = await make_runtime()
    c = await rt.create_table({"players": 2}, "Ana")
    j = await rt.join(c.table_id, "Beto")
    await submit(rt, c.table_id, j.token, {"type": "sit", "seat": 1})
    boxes = [Inbox(), Inbox()]
    for tok, box in zip((c.token, j.token), boxes, strict=True):
        await rt.connect(c.table_id, tok, box)
    await submit(rt, c.table_id, c.token, {"type": "start"})
    tokens = [c.token, j.token]
    seat = turn(rt, c.table_id)
    card = rt.view(c.table_id, tokens[seat])["game"]["cards"][0]
    asked: list[int] = []
    for module in (queries, engine_view):
        name = "engine_legal" if module is queries else "legal_actions_for"
        real = getattr(module, name)

        def counting(state: Any, s: int, real: Any = real) -> Any:
            asked.append(s)
            return real(state, s)

        monkeypatch.setattr(module, name, counting)
    assert (await submit(rt, c.table_id, tokens[seat], {"type": "act", "do": "play", "card": card})).ok
    assert sorted(asked) == [0, 1] and all(box.view["version"] == rt.version(c.table_id) for box in boxes)


async def test_bot_partners_sign_their_cards_to_their_team_at_the_start_of_a_hand(make_runtime: MakeRuntime):
    from truco.bots.senas import truthful_senas

    rt = await make_runtime()
    c = await rt.create_table({"players": 4}, "Ana")
    box = Inbox()
    await rt.connect(c.table_id, c.token, box)
    for s in (1, 2, 3):
        await submit(rt, c.table_id, c.token, {"type": "add_bot", "seat": s, "level": "dificil"})
    await submit(rt, c.table_id, c.token, {"type": "start"})
    await rt.settle()
    t = rt.table(c.table_id)
    assert t.game is not None and t.hand_no == 1 and box.view["legal"]  # the table waits for Ana
    heard = [(e["seat"], e["sena"]) for e in box.events("sena")]
    assert heard == [(2, x) for x in truthful_senas(t.game.dealt[2])]  # her partner's, and true
    assert {s for s, _ in t.senas} == {1, 2, 3}  # the rivals signed to each other, unheard by her
    assert [e for e in rt.storage.log(c.table_id) if e.command["type"] == "bot_sena"]  # stored
