"""``truco serve`` on PostgreSQL: selected by ``--db postgresql://…`` or ``TRUCO_DB``; killed with -9
mid-hand and restarted, every player finds the same cards, trick and turn, and the match goes on."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from truco.bench.player_client import WsPlayer
from truco.bench.server_process import ServerProcess, free_port


def _essentials(view: dict[str, Any]) -> dict[str, Any]:
    g = view["game"]
    return {"seat": view["me"]["seat"], "phase": view["phase"], "cards": g["cards"], "score": g["score"],
            "turn": g["turn"], "rounds": g["rounds"], "hand_no": g["hand_no"]}


async def _connect(server: ServerProcess, code: str, tokens: list[str]) -> list[WsPlayer]:
    players = []
    for token in tokens:
        p = await WsPlayer(server.ws_url, code, token).connect()
        await p.until(lambda p: p.view is not None)
        players.append(p)
    return players


async def _play_one_card(players: list[WsPlayer]) -> None:
    mover = next(p for p in players if any(a["do"] == "play" for a in p.view["legal"]))
    card = next(a["card"] for a in mover.view["legal"] if a["do"] == "play")
    assert (await mover.command({"type": "act", "do": "play", "card": card}))["type"] == "ack"
    for p in players:
        await p.until(lambda p: p.version == mover.version)


@pytest.mark.slow
async def test_kill_9_on_postgres_loses_nothing(postgres_url: str, tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    port = free_port()
    server = ServerProcess.truco(port, postgres_url, log=log).start()
    try:
        async with httpx.AsyncClient(base_url=server.url) as http:
            host = (await http.post("/api/tables", json={"name": "Ana", "settings": {"players": 2}})).json()
            code = host["code"]
            guest = (await http.post(f"/api/tables/{code}/join", json={"name": "Beto"})).json()
        tokens = [host["token"], guest["token"]]
        players = await _connect(server, code, tokens)
        assert (await players[1].command({"type": "sit", "seat": 1}))["type"] == "ack"
        assert (await players[0].command({"type": "start"}))["type"] == "ack"
        for p in players:
            await p.until(lambda p: p.view["phase"] == "playing" and p.version == players[0].version)
        await _play_one_card(players)
        before = [_essentials(p.view) for p in players]

        server.kill9()
        for p in players:
            await p.until(lambda p: p.closed)
        # the same database, named this time by the environment
        server = ServerProcess([sys.executable, "-m", "truco.cli.main", "serve", "--host", "127.0.0.1",
                                "--port", str(port), "--quiet"], port, env={"TRUCO_DB": postgres_url},
                               log=log).start()
        players = await _connect(server, code, tokens)
        for p in players:
            await p.until(lambda p: p.version == players[-1].version)
        assert [_essentials(p.view) for p in players] == before
        updates = [m for p in players for m in p.messages if m["type"] == "update"]
        assert "server_restarted" in [e["type"] for m in updates for e in m["events"]]
        await _play_one_card(players)  # and the table takes its next command
        for p in players:
            await p.close()
    finally:
        server.stop()
