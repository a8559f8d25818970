"""Seat tokens never leave the phone: a whole match on a real server process, logging at DEBUG with
the access log on, and not one line of its output names a token."""

from __future__ import annotations

import random
from pathlib import Path

import httpx
import pytest

from truco.bench.player_client import WsPlayer
from truco.bench.server_process import ServerProcess, free_port

from .play import autoplay, phase_is


@pytest.mark.slow
async def test_a_match_logged_at_debug_names_no_seat_token(tmp_path: Path) -> None:
    db, log = tmp_path / "truco.db", tmp_path / "server.log"
    env = {"TRUCO_LOG_LEVEL": "debug", "TRUCO_ACCESS_LOG": "1"}
    server = ServerProcess.truco(free_port(), db, log=log, env=env).start()
    try:
        async with httpx.AsyncClient(base_url=server.url) as http:
            host = (await http.post("/api/tables", json={"name": "Ana", "settings": {
                "players": 2, "target": 15, "bot_delay": 0}})).json()
            code = host["code"]
            guest = (await http.post(f"/api/tables/{code}/join", json={"name": "Beto"})).json()
            tokens = [host["token"], guest["token"]]
        ana = await WsPlayer(server.ws_url, code, tokens[0]).connect()
        beto = await WsPlayer(server.ws_url, code, tokens[1], token_in_url=True).connect()  # the old form
        players = [ana, beto]
        for p in players:
            await p.until(lambda p: p.view is not None)
        assert (await beto.command({"type": "sit", "seat": 1}))["type"] == "ack"
        assert (await ana.command({"type": "start"}))["type"] == "ack"
        await autoplay(players, random.Random(3), phase_is(players, "over"), timeout=120)
        for p in players:
            await p.close()
    finally:
        server.stop()
    text = log.read_text(errors="replace")
    assert "POST /api/tables" in text and "WebSocket /ws/" in text  # the access log was on
    assert "truco.token.…" in text or "token=…" in text  # the handshake was logged, redacted
    leaks = [line for line in text.splitlines() if any(t in line for t in tokens)]
    assert not leaks, leaks[:5]
