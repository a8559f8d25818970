"""The runtime after a crash: every table resumes from SQLite with its deadlines re-armed, a resent
command is still recognised, the stored log replays to the same table with no card leaked, and a
bug in one command refuses that command and leaves the table alive."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.runtime.conftest import Inbox, MakeRuntime, submit
from tests.runtime.tables import four_humans, humans_and_bots, play_first_card, turn, vote_closes_after
from truco.engine import hand_record, public_view
from truco.runtime import FakeClock, Runtime
from truco.storage import SQLiteStorage


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
    await vote_closes_after(fresh, table_id, clock, 10_000)
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
