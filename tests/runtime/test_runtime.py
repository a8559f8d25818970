"""The runtime: stored before sent, one update per version, command ids, timers, bots, recovery."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.runtime.conftest import Inbox, MakeRuntime, submit
from truco.bots import LEVELS
from truco.engine import hand_record, public_view
from truco.protocol import CloseCode
from truco.runtime import BadToken, FakeClock, NoSuchTable, Runtime
from truco.storage import MemoryStorage, SQLiteStorage


async def four_humans(rt: Runtime, **settings: Any) -> tuple[str, list[str], list[Inbox]]:
    """A started table with four connected humans in seats 0..3; returns id, tokens, inboxes."""
    c = await rt.create_table({"players": 4, **settings}, "Ana")
    tokens = [c.token]
    for i, name in enumerate(("Beto", "Caro", "Dani"), start=1):
        j = await rt.join(c.table_id, name)
        assert (await submit(rt, c.table_id, j.token, {"type": "sit", "seat": i})).ok
        tokens.append(j.token)
    inboxes = []
    for tok in tokens:
        box = Inbox()
        await rt.connect(c.table_id, tok, box)
        inboxes.append(box)
    assert (await submit(rt, c.table_id, tokens[0], {"type": "start"})).ok
    return c.table_id, tokens, inboxes


async def humans_and_bots(rt: Runtime, **settings: Any) -> tuple[str, list[str], list[Inbox]]:
    """Humans in seats 0 and 1 (opponents), bots of two levels in seats 2 and 3; started."""
    c = await rt.create_table({"players": 4, **settings}, "Ana")
    j = await rt.join(c.table_id, "Beto")
    await submit(rt, c.table_id, j.token, {"type": "sit", "seat": 1})
    await submit(rt, c.table_id, c.token, {"type": "add_bot", "seat": 2, "level": "normal"})
    await submit(rt, c.table_id, c.token, {"type": "add_bot", "seat": 3, "level": "facil"})
    boxes = [Inbox(), Inbox()]
    for tok, box in zip((c.token, j.token), boxes, strict=True):
        await rt.connect(c.table_id, tok, box)
    assert (await submit(rt, c.table_id, c.token, {"type": "start"})).ok
    return c.table_id, [c.token, j.token], boxes


def turn(rt: Runtime, table_id: str) -> int:
    g = rt.table(table_id).game
    assert g is not None
    return g.turn


async def play_first_card(rt: Runtime, table_id: str, tokens: list[str]) -> None:
    seat = turn(rt, table_id)
    card = rt.view(table_id, tokens[seat])["game"]["cards"][0]
    res = await submit(rt, table_id, tokens[seat], {"type": "act", "do": "play", "card": card})
    assert res.ok, res


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
    clock.advance(9_999)
    await rt.settle()
    assert rt.table(table_id).vote is not None
    clock.advance(1)
    await rt.settle()
    assert rt.table(table_id).vote is None
    assert boxes[caller].events("vote_expired")


async def test_bots_act_after_their_delay(make_runtime: MakeRuntime):
    clock = FakeClock()
    rt = await make_runtime(clock=clock, bot_delay=1.0)
    c = await rt.create_table({"players": 2}, "Ana")
    box = Inbox()
    await rt.connect(c.table_id, c.token, box)
    await submit(rt, c.table_id, c.token, {"type": "add_bot", "seat": 1, "level": "facil"})
    await submit(rt, c.table_id, c.token, {"type": "start"})
    g = rt.table(c.table_id).game
    assert g is not None
    if g.turn == 0:
        card = box.view["game"]["cards"][0]
        await submit(rt, c.table_id, c.token, {"type": "act", "do": "play", "card": card})
    v = rt.version(c.table_id)
    clock.advance(999)
    await rt.settle()
    assert rt.version(c.table_id) == v  # the bot is still "thinking"
    clock.advance(1)
    await rt.settle()
    assert rt.version(c.table_id) > v


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


# ------------------------------------------------------------------ crash and resume


def fingerprint(rt: Runtime, table_id: str) -> dict[str, Any]:
    """Everything that must survive a restart (presence and deadline times aside)."""
    t = rt.table(table_id)
    assert t.game is not None
    return {"record": hand_record(t.game), "public": public_view(t.game), "vote": t.vote,
            "seats": t.seats, "hand_no": t.hand_no, "score": t.game.score,
            "deadline_kinds": sorted((d.kind, d.seat, d.length_ms)
                                     for d in t.deadlines if d.kind != "reconnect")}


async def test_crash_mid_vote_and_mid_hand_resumes_from_sqlite_with_deadlines_rearmed(
        make_runtime: MakeRuntime, tmp_path: Path):
    path = str(tmp_path / "truco.db")
    clock = FakeClock()
    rt = await make_runtime(SQLiteStorage(path), clock=clock)
    table_id, tokens, _ = await four_humans(rt)
    await play_first_card(rt, table_id, tokens)
    await play_first_card(rt, table_id, tokens)
    caller = turn(rt, table_id)
    await submit(rt, table_id, tokens[caller], {"type": "act", "do": "truco"}, cid="t1")
    a, b = (caller + 1) % 4, (caller + 3) % 4
    await submit(rt, table_id, tokens[a], {"type": "act", "do": "quiero"})
    clock.advance(3_000)
    await submit(rt, table_id, tokens[b], {"type": "act", "do": "no_quiero"})  # split: the window runs
    before = fingerprint(rt, table_id)
    my_cards = rt.view(table_id, tokens[a])["game"]["cards"]
    version = rt.version(table_id)
    await rt.close()  # the process dies: nothing more is written

    clock.advance(5 * 60_000)  # the server was down for five minutes: every deadline passed
    fresh = await make_runtime(SQLiteStorage(path), clock=clock)
    assert fresh.table_ids() == [table_id]
    assert fingerprint(fresh, table_id) == before
    t = fresh.table(table_id)
    assert t.version == version + 1  # the logged "recovered"
    now = clock.now_ms()
    for d in t.deadlines:
        assert d.at_ms == now + d.length_ms
    assert {d.kind for d in t.deadlines} == {"vote_window", "answer", "reconnect"}
    # a resent command id from before the crash is still recognised
    dup = await fresh.submit(table_id, tokens[caller], {"type": "act", "do": "truco"}, cid="t1")
    assert dup.duplicate
    # players come back with their tokens to their seats and cards
    box = Inbox()
    await fresh.connect(table_id, tokens[a], box)
    assert box.messages[0]["type"] == "hello" and box.view["game"]["cards"] == my_cards
    votes = {v["seat"]: v["vote"] for v in box.view["vote"]["votes"]}
    assert votes == {a: "quiero", b: "no_quiero"}
    # the re-armed window fires at its full length after recovery, not before
    clock.advance(9_999)
    await fresh.settle()
    assert fresh.table(table_id).vote is not None
    clock.advance(1)
    await fresh.settle()
    assert fresh.table(table_id).vote is None
    assert box.events("vote_expired")
    (told,) = box.events("server_restarted")  # the player is told why the deadlines moved
    assert {d["kind"] for d in told["deadlines"]} >= {"vote_window", "answer"}


async def test_a_restart_never_forces_a_vote(make_runtime: MakeRuntime, tmp_path: Path):
    path = str(tmp_path / "truco.db")
    clock = FakeClock()
    rt = await make_runtime(SQLiteStorage(path), clock=clock)
    table_id, tokens, _ = await four_humans(rt)
    caller = turn(rt, table_id)
    await submit(rt, table_id, tokens[caller], {"type": "act", "do": "truco"})
    await rt.close()
    fresh = await make_runtime(SQLiteStorage(path), clock=clock)
    t = fresh.table(table_id)
    assert t.vote is not None and t.vote.votes == ()
    a = (caller + 1) % 4
    await fresh.connect(table_id, tokens[a], Inbox())
    await submit(fresh, table_id, tokens[a], {"type": "act", "do": "quiero"})
    await fresh.connect(table_id, tokens[(a + 2) % 4], Inbox())
    await submit(fresh, table_id, tokens[(a + 2) % 4], {"type": "act", "do": "quiero"})
    g = fresh.table(table_id).game
    assert g is not None and g.truco_level == 1


async def test_a_bug_in_a_command_refuses_it_and_the_table_lives_on(make_runtime: MakeRuntime,
                                                                     monkeypatch: pytest.MonkeyPatch):
    import truco.runtime.mailbox as module
    rt = await make_runtime()
    table_id, tokens, _ = await four_humans(rt)
    v = rt.version(table_id)
    real = module.apply

    def broken(*a: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(module, "apply", broken)
    res = await submit(rt, table_id, tokens[0], {"type": "sena", "sena": "nada"})
    assert not res.ok and rt.version(table_id) == v
    monkeypatch.setattr(module, "apply", real)
    assert (await submit(rt, table_id, tokens[0], {"type": "sena", "sena": "nada"})).ok


@pytest.mark.parametrize("seed", range(4))
async def test_random_traffic_keeps_versions_contiguous_and_the_log_replays(
        make_runtime: MakeRuntime, tmp_path: Path, seed: int):
    """Random players send random commands (legal, illegal, stale, resent); then a fresh runtime
    rebuilds the same table from SQLite."""
    import random
    rng = random.Random(seed)
    path = str(tmp_path / "r.db")
    clock = FakeClock()
    rt = await make_runtime(SQLiteStorage(path), clock=clock)
    if seed < 2:
        table_id, tokens, boxes = await four_humans(rt, target=15)
    else:  # two humans, each with a bot partner: bot moves, bot votes and hints too
        table_id, tokens, boxes = await humans_and_bots(rt, target=15, flor=True)
    sent: list[tuple[str, dict[str, Any], str]] = []
    for i in range(250):
        await rt.settle()
        who = rng.randrange(len(tokens) + 1)
        token = tokens[who] if who < len(tokens) else "stale"
        view = boxes[who % len(tokens)].view
        if rng.random() < 0.7 and view["legal"]:
            a = rng.choice(view["legal"])
            cmd = {"type": "act", "do": a["do"]} | ({"card": a["card"]} if "card" in a else {})
        else:
            cmd = rng.choice([{"type": "act", "do": "mazo"}, {"type": "sena", "sena": "dos"},
                              {"type": "start"}, {"type": "rematch"}, {"type": "act", "do": "quiero"}])
        if sent and rng.random() < 0.1:
            token, cmd, cid = sent[-1]  # a resend
        else:
            cid = f"c{i}"
        sent.append((token, cmd, cid))
        res = await submit(rt, table_id, token, cmd, cid)
        assert res.ok or res.reason
        if rng.random() < 0.1:
            clock.advance(rng.choice([1_000, 10_000, 30_000]))
        if rt.table(table_id).phase == "over":
            await submit(rt, table_id, tokens[0], {"type": "rematch"})
    await rt.settle()
    last = rt.version(table_id)
    for box in boxes:
        versions = [m["version"] for m in box.messages]
        assert versions == list(range(versions[0], last + 1))
    assert_no_card_leaked(rt, table_id, boxes)
    if seed >= 2:
        assert any(box.events("bot_hint") for box in boxes), "the bots' hints were exercised"
    before = rt.table(table_id)
    await rt.close()
    fresh = await make_runtime(SQLiteStorage(path), clock=clock)
    after = fresh.table(table_id)
    assert after.version == before.version + 1
    assert after.seats == before.seats and after.hand_no == before.hand_no and after.vote == before.vote
    if before.game is not None:
        assert after.game is not None and hand_record(after.game) == hand_record(before.game)


def assert_no_card_leaked(rt: Runtime, table_id: str, boxes: list[Inbox]) -> None:
    """Replay the stored log version by version; every message a player got names only cards that
    player could know at that version (their own, played, or shown)."""
    from tests.table.test_properties import Knowledge, cards_in
    from truco.table import Create, Envelope, Table, apply, command_from_dict, create

    entries = rt.storage.log(table_id)
    first = command_from_dict(entries[0].command)
    assert isinstance(first, Create)
    t: Table
    t, _ = create(first, entries[0].at_ms)
    know = Knowledge()
    allowed: dict[int, dict[int, set[str]]] = {}
    for e in entries[1:]:
        t, _ = apply(t, Envelope(command_from_dict(e.command), e.player), e.at_ms)
        know.update(t)
        allowed[t.version] = {p.pid: know.allowed(p.pid) for p in t.players}
    for pid, box in enumerate(boxes):
        assert box.messages
        for m in box.messages:
            leaked = cards_in(m) - allowed[m["version"]][pid]
            assert not leaked, f"player {pid} was sent {leaked} at version {m['version']}"


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


async def _act_until(rt: Runtime, table_id: str, token: str, box: Inbox, stop: Any) -> None:
    """Ana plays her first card (or accepts) when she must, the bots the rest, until ``stop(view)``."""
    for _ in range(3000):
        await rt.settle()
        view = box.view
        if stop(view):
            return
        legal = view["legal"]
        if legal:
            act = next((a for a in legal if a["do"] in ("play", "quiero")), legal[0])
            cmd = {k: v for k, v in act.items() if k != "seat"} | {"type": "act"}
            res = await submit(rt, table_id, token, cmd)
            assert res.ok, res
    raise AssertionError("the match went nowhere")


async def test_a_pica_pica_match_with_bots_survives_a_restart_mid_duel_and_its_record_replays(
        make_runtime: MakeRuntime, tmp_path: Path):
    from truco.engine import replay
    from truco.protocol.replays import download_record

    path = str(tmp_path / "truco.db")
    clock = FakeClock()
    rt = await make_runtime(SQLiteStorage(path), clock=clock)
    c = await rt.create_table({"players": 6, "pica_pica": True}, "Ana")
    box = Inbox()
    await rt.connect(c.table_id, c.token, box)
    for s in range(1, 6):
        level = "facil" if s % 2 else "random"
        await submit(rt, c.table_id, c.token, {"type": "add_bot", "seat": s, "level": level})
    await submit(rt, c.table_id, c.token, {"type": "start"})
    # Ana's own duel stops the bots: the table waits on her in the middle of a pica-pica (the runtime
    # of these tests draws fixed seeds: the same match every run)
    await _act_until(rt, c.table_id, c.token, box,
                     lambda v: v["phase"] != "playing" or (v["game"]["pica"] and v["legal"]))
    assert box.view["phase"] == "playing", "the match ended before a pica-pica"
    duel = box.view["game"]["duel"]
    before = fingerprint(rt, c.table_id)
    await rt.close()

    fresh = await make_runtime(SQLiteStorage(path), clock=clock)
    assert fingerprint(fresh, c.table_id) == before  # the same duel, cards, score and turn
    box = Inbox()
    await fresh.connect(c.table_id, c.token, box)
    assert box.view["game"]["duel"] == duel and len(box.view["game"]["duels"]) == duel and box.view["legal"]
    await _act_until(fresh, c.table_id, c.token, box, lambda v: v["phase"] != "playing")
    match = fresh.storage.matches(c.table_id)[0]
    assert any(h.get("pica") for h in match["hands"])
    result = replay(download_record(match))
    assert list(result.state.score) == match["result"]["score"]


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
