"""kill -9 the server mid-hand and mid-vote; restarted on the same database, every client reconnects
with its token and finds the same cards, score, turn and vote, and the match finishes normally."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import httpx
import pytest

from truco.bench.player_client import WsPlayer
from truco.bench.server_process import ServerProcess, free_port

from .play import autoplay, phase_is


def _essentials(view: dict[str, Any]) -> dict[str, Any]:
    """What must survive a crash exactly, for one player."""
    g = view["game"]
    vote = view["vote"]
    return {
        "seat": view["me"]["seat"], "phase": view["phase"],
        "cards": g["cards"], "dealt": g["dealt"], "score": g["score"], "turn": g["turn"],
        "rounds": g["rounds"], "hand_no": g["hand_no"], "pending": g["pending"],
        "pending_call": g["pending_call"], "history": g["history"],
        "vote": None if vote is None else {k: vote[k] for k in ("team", "call", "mine", "votes", "my_vote")},
    }


async def _connect_all(server: ServerProcess, code: str, tokens: list[str]) -> list[WsPlayer]:
    players = []
    for token in tokens:
        p = await WsPlayer(server.ws_url, code, token).connect()
        await p.until(lambda p: p.view is not None)
        players.append(p)
    return players


async def _restart(server: ServerProcess, db: Path, log: Path, code: str, tokens: list[str],
                   players: list[WsPlayer]) -> tuple[ServerProcess, list[WsPlayer]]:
    before = [_essentials(p.view) for p in players]
    server.kill9()
    for p in players:
        await p.until(lambda p: p.closed)
    server = ServerProcess.truco(server.port, db, log=log).start()
    players = await _connect_all(server, code, tokens)
    for p in players:  # the last to connect sees everyone's presence settle
        await p.until(lambda p: p.version == players[-1].version)
    after = [_essentials(p.view) for p in players]
    assert after == before
    return server, players


@pytest.mark.slow
async def test_kill_9_mid_hand_and_mid_vote_loses_nothing(tmp_path: Path) -> None:
    db, log = tmp_path / "truco.db", tmp_path / "server.log"
    server = ServerProcess.truco(free_port(), db, log=log).start()
    rng = random.Random(11)
    try:
        async with httpx.AsyncClient(base_url=server.url) as http:
            host = (await http.post("/api/tables", json={"name": "Ana", "settings": {
                "players": 4, "target": 15, "bot_delay": 0}})).json()
            code = host["code"]
            tokens = [host["token"]]
            for name in ("Beto", "Caro", "Dani"):
                r = await http.post(f"/api/tables/{code}/join", json={"name": name})
                tokens.append(r.json()["token"])
        players = await _connect_all(server, code, tokens)
        for seat, p in enumerate(players[1:], start=1):
            assert (await p.command({"type": "sit", "seat": seat}))["type"] == "ack"
        assert (await players[0].command({"type": "start"}))["type"] == "ack"
        for p in players:
            await p.until(lambda p: p.view["phase"] == "playing" and p.version == players[0].version)

        # mid-hand: two cards on the table, no call pending
        for _ in range(2):
            mover = next(p for p in players if any(a["do"] == "play" for a in p.view["legal"]))
            card = next(a["card"] for a in mover.view["legal"] if a["do"] == "play")
            assert (await mover.command({"type": "act", "do": "play", "card": card}))["type"] == "ack"
        for p in players:
            await p.until(lambda p: p.version == mover.version)
        assert sum(len(r) for r in players[0].view["game"]["rounds"]) == 2
        server, players = await _restart(server, db, log, code, tokens, players)

        # mid-vote: someone calls truco, one of the two answering players votes, then the crash
        caller = next(p for p in players if any(a["do"] == "truco" for a in p.view["legal"]))
        assert (await caller.command({"type": "act", "do": "truco"}))["type"] == "ack"
        answering = [p for p in players if p.seat % 2 != caller.seat % 2]
        for p in answering:
            await p.until(lambda p: p.view["vote"] is not None and p.view["vote"]["options"])
        assert (await answering[0].command({"type": "vote", "answer": "quiero"}))["type"] == "ack"
        for p in players:
            await p.until(lambda p: p.version == answering[0].version)
        assert answering[1].view["vote"]["votes"] and answering[1].view["vote"]["my_vote"] is None
        server, players = await _restart(server, db, log, code, tokens, players)
        vote = answering[1].seat
        still = next(p for p in players if p.seat == vote)
        assert still.view["vote"] is not None and "quiero" in still.view["vote"]["options"]

        # and the match finishes normally
        await autoplay(players, rng, phase_is(players, "over"), timeout=120)
        result = players[0].view["result"]
        assert result["cancelled"] is False and max(result["score"]) >= 15
        events = [e["type"] for p in players for m in p.messages if m["type"] == "update"
                  for e in m["events"]]
        assert "server_restarted" in events
        for p in players:
            await p.close()
    finally:
        server.stop()
