"""A graceful shutdown (SIGTERM, as a service manager sends it): every socket is closed with a
documented code, clients come back after the restart to the same cards, their seats are held for the
full minute again and no deadline fires early."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import httpx
import pytest

from truco.bench.player_client import WsPlayer
from truco.bench.server_process import ServerProcess, free_port


@pytest.mark.slow
async def test_sigterm_closes_sockets_with_a_documented_code_and_the_table_resumes(tmp_path: Path) -> None:
    db, log = tmp_path / "truco.db", tmp_path / "server.log"
    port = free_port()
    server = ServerProcess.truco(port, db, log=log).start()
    try:
        async with httpx.AsyncClient(base_url=server.url) as http:
            host = (await http.post("/api/tables", json={"name": "Ana", "settings": {"players": 2}})).json()
            code = host["code"]
            guest = (await http.post(f"/api/tables/{code}/join", json={"name": "Beto"})).json()
        tokens = [host["token"], guest["token"]]
        players = [await WsPlayer(server.ws_url, code, t).connect() for t in tokens]
        for p in players:
            await p.until(lambda p: p.view is not None)
        await players[1].command({"type": "sit", "seat": 1})
        await players[0].command({"type": "start"})
        for p in players:
            await p.until(lambda p: p.view["phase"] == "playing" and p.version == players[0].version)
        cards = [p.view["game"]["cards"] for p in players]
        server.stop(signal.SIGTERM)
        for p in players:
            await p.until(lambda p: p.closed)
            assert p.close_code in (1001, 1012), p.close_code  # going away / service restart: reconnect
        restarted_at = time.time() * 1000
        server = ServerProcess.truco(port, db, log=log).start()
        back = [await WsPlayer(server.ws_url, code, tokens[0]).connect()]
        await back[0].until(lambda p: p.view is not None)
        view = back[0].view
        assert view["game"]["cards"] == cards[0] and view["phase"] == "playing"
        held = view["seats"][1]["held_until_ms"]  # Beto is not back yet: his seat waits a full minute
        assert held is not None and held >= restarted_at + 59_000
        back.append(await WsPlayer(server.ws_url, code, tokens[1]).connect())
        await back[1].until(lambda p: p.view is not None and p.view["game"]["cards"] == cards[1])
        await back[0].until(lambda p: p.view["seats"][1]["connected"])
        assert back[0].view["phase"] == "playing" and not back[0].view["deadlines"]
        def events(p: WsPlayer) -> list[str]:
            return [e["type"] for m in p.messages if m["type"] == "update" for e in m["events"]]

        await back[1].until(lambda p: "server_restarted" in events(p))  # told why the clock moved
        assert "match_cancelled" not in events(back[0]) + events(back[1])
        for p in back:
            await p.close()
    finally:
        server.stop()
