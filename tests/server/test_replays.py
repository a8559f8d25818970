"""Replays over HTTP (truco.server.replays): the page, a spectator's and a player's replay, the
download that ``truco replay`` reads, and a table's statistics. The seat token never in a URL."""

from __future__ import annotations

import random
from typing import Any

from truco.engine import replay

from .conftest import Live
from .play import autoplay, phase_is


async def _finished(live: Live) -> tuple[str, list[Any], list[str]]:
    host = await live.create("Ana", players=2, target=15)
    code = host["code"]
    guest = await live.join(code, "Beto")
    players = [await live.player(code, host["token"]), await live.player(code, guest["token"])]
    assert (await players[1].command({"type": "sit", "seat": 1}))["type"] == "ack"
    assert (await players[0].command({"type": "start"}))["type"] == "ack"
    await autoplay(players, random.Random(5), phase_is(players, "over"), timeout=60, pace=0.0)
    return code, players, [host["token"], guest["token"]]


async def test_a_match_still_on_has_no_replay_yet(live: Live) -> None:
    host = await live.create("Ana", players=2)
    assert (await live.http.get(f"/api/replays/{host['code']}/1")).status_code == 404
    assert (await live.http.get("/api/replays/ZZZZZZ/1")).status_code == 404
    assert (await live.http.get(f"/api/replays/{host['code']}/uno")).status_code == 404


async def test_a_finished_match_is_replayed_for_a_spectator_without_anyones_hand(live: Live) -> None:
    code, players, tokens = await _finished(live)
    page = await live.http.get(f"/r/{code}/1")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    r = await live.http.get(f"/api/replays/{code}/1")
    body = r.json()
    assert r.status_code == 200 and body["viewer_seat"] is None and body["hands"]
    assert all(h["mine"] is None for h in body["hands"])
    assert not any(tok in r.text for tok in tokens)
    for p in players:
        await p.close()


async def test_a_player_sends_their_seat_token_in_the_body_and_sees_their_own_hands(live: Live) -> None:
    code, players, tokens = await _finished(live)
    r = await live.http.post(f"/api/replays/{code}/1", json={"token": tokens[1]})
    body = r.json()
    assert body["viewer_seat"] == 1
    assert [h["mine"] for h in body["hands"]] == [h["dealt"][1] for h in body["hands"]]
    assert (await live.http.post(f"/api/replays/{code}/1", content=b"not json")).status_code == 400
    for p in players:
        await p.close()


async def test_the_match_record_downloads_as_the_json_truco_replay_reads(live: Live) -> None:
    code, players, _ = await _finished(live)
    r = await live.http.get(f"/api/replays/{code}/1/record.json")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    result = replay(r.json())
    assert result.state.match_over and list(result.state.score) == players[0].view["result"]["score"]
    for p in players:
        await p.close()


async def test_a_tables_statistics_count_its_finished_matches(live: Live) -> None:
    code, players, _ = await _finished(live)
    stats = (await live.http.get(f"/api/replays/{code}/stats")).json()
    assert [m["match_no"] for m in stats["matches"]] == [1] and stats["counted"] == 1
    score = players[0].view["result"]["score"]
    assert [sum(stats["points"][k][t] for k in ("envido", "truco", "flor")) for t in (0, 1)] == score
    assert (await live.http.get(f"/r/{code}")).status_code == 200
    for p in players:
        await p.close()
