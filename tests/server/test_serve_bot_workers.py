"""``truco serve --bot-workers``: a served table's bots think in a process of the server's, which ends
with the server however the server ends (a ``kill -9`` included): no bot is left running."""

from __future__ import annotations

import random
import time
from pathlib import Path

import httpx

from truco.bench.player_client import WsPlayer
from truco.bench.server_process import ServerProcess, free_port

from .play import autoplay


def bot_workers_of(pid: int) -> list[int]:
    """The server's child processes that are bots' workers (Linux: /proc)."""
    kids: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            kids += [int(x) for x in (task / "children").read_text().split()]
        except OSError:
            continue
    return [k for k in kids if b"truco.bots.stdio" in _cmdline(k)]


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has exited (its parent is gone and nobody has reaped it yet)


async def test_a_served_tables_bots_think_in_a_worker_process_that_ends_when_the_server_is_killed(
        tmp_path: Path) -> None:
    server = ServerProcess.truco(free_port(), tmp_path / "truco.db", "--bot-workers", "1",
                                 log=tmp_path / "server.log").start()
    assert server.proc is not None
    workers: list[int] = []
    try:
        async with httpx.AsyncClient(base_url=server.url) as http:
            host = (await http.post("/api/tables", json={
                "name": "Ana", "settings": {"players": 2, "target": 15, "bot_delay": 0}})).json()
        ana = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
        assert (await ana.command({"type": "add_bot", "seat": 1, "level": "maestro"}))["type"] == "ack"
        assert bot_workers_of(server.proc.pid) == []  # started on a bot's first turn, not before
        assert (await ana.command({"type": "start"}))["type"] == "ack"
        started = ana.version

        def the_bot_has_moved() -> bool:
            return any(m["type"] == "update" and m.get("version", 0) > started
                       and any(e.get("seat") == 1 for e in m.get("events", ())) for m in ana.messages) \
                or ana.version >= started + 6

        await autoplay([ana], random.Random(3), the_bot_has_moved, timeout=60)
        deadline = time.monotonic() + 20
        while not workers and time.monotonic() < deadline:
            workers[:] = bot_workers_of(server.proc.pid)
            time.sleep(0.05)
        assert len(workers) == 1
        async with httpx.AsyncClient(base_url=server.url) as http:
            health = (await http.get("/health")).json()
        assert health["bot_workers"] == {"count": 1, "alive": 1, "restarts": 0}
        errors = [m for m in ana.messages if m["type"] == "error" and m["code"] != "illegal"]
        assert errors == []
        await ana.close()
    finally:
        server.kill9()
    deadline = time.monotonic() + 15
    while any(_alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(w) for w in workers), "a bots' worker outlived its killed server"
