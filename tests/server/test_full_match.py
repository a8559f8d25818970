"""A full 4-seat match through real WebSockets against a real `truco serve` process, bots in two seats."""

from __future__ import annotations

import random
from pathlib import Path

import httpx
import pytest

from truco.bench.player_client import WsPlayer
from truco.bench.server_process import ServerProcess, free_port

from .play import autoplay, phase_is


@pytest.mark.slow
async def test_a_four_seat_match_with_two_humans_and_two_bots_plays_to_the_end(tmp_path: Path) -> None:
    server = ServerProcess.truco(free_port(), tmp_path / "truco.db", log=tmp_path / "server.log").start()
    try:
        async with httpx.AsyncClient(base_url=server.url) as http:
            host = (await http.post("/api/tables", json={
                "name": "Ana", "settings": {"players": 4, "target": 15, "bot_delay": 0}})).json()
            code = host["code"]
            guest = (await http.post(f"/api/tables/{code}/join", json={"name": "Caro"})).json()
        ana = await WsPlayer(server.ws_url, code, host["token"]).connect()
        caro = await WsPlayer(server.ws_url, code, guest["token"]).connect()
        spectator = await WsPlayer(server.ws_url, code).connect()
        assert (await caro.command({"type": "sit", "seat": 2}))["type"] == "ack"
        for seat in (1, 3):
            assert (await ana.command({"type": "add_bot", "seat": seat, "level": "random"}))["type"] == "ack"
        assert (await ana.command({"type": "start"}))["type"] == "ack"
        humans = [ana, caro]
        await autoplay(humans, random.Random(7), phase_is(humans, "over"), timeout=120)
        result = ana.view["result"]
        assert result["cancelled"] is False and max(result["score"]) >= 15
        assert caro.view["result"] == result
        await spectator.until(lambda s: s.view["phase"] == "over")
        assert spectator.view["result"] == result
        assert not any(m["type"] == "error" and m["code"] != "illegal" for m in ana.messages + caro.messages)
        versions = [m["version"] for m in ana.messages if m["type"] in ("update", "hello")]
        assert versions == list(range(versions[0], versions[0] + len(versions)))
        for p in (ana, caro, spectator):
            await p.close()
    finally:
        server.stop()
    assert server.proc is not None and server.proc.returncode == 0
