"""Any node accepts any socket and any HTTP call: a table owned by one node is played through the
others, each seat getting its own view built at the owner; the lobby and the POST limit span the nodes.
(Slow: each test starts its own three nodes.)"""

from __future__ import annotations

import asyncio

import httpx
import pytest

from truco.bench.player_client import WsPlayer

from .conftest import Cluster


@pytest.mark.slow
async def test_any_node_serves_any_table_and_each_seat_gets_its_own_view(cluster: Cluster) -> None:
    n0, n1, n2 = cluster.nodes
    async with httpx.AsyncClient(timeout=20) as http:
        r = await http.post(f"{n0.url}/api/tables", json={"name": "Ana", "settings": {"players": 2}})
        host = r.json()
        code = host["code"]
        r = await http.post(f"{n1.url}/api/tables/{code}/join", json={"name": "Beto"})
        assert r.status_code == 201, r.text
        guest = r.json()
        summary = (await http.get(f"{n2.url}/api/tables/{code}")).json()
        assert summary["code"] == code
    ana = await WsPlayer(n2.ws_url, code, host["token"]).connect()
    beto = await WsPlayer(n1.ws_url, code, guest["token"]).connect()
    watcher = await WsPlayer(n0.ws_url, code).connect()
    for p in (ana, beto, watcher):
        await p.until(lambda p: p.view is not None)
    assert (await beto.command({"type": "sit", "seat": 1}))["type"] == "ack"
    assert (await ana.command({"type": "start"}))["type"] == "ack"
    for p in (ana, beto, watcher):
        await p.until(lambda p: p.view["phase"] == "playing", 20)
    await ana.until(lambda p: p.version == watcher.version)
    await beto.until(lambda p: p.version == watcher.version)
    mine, theirs = ana.view["game"]["cards"], beto.view["game"]["cards"]
    assert len(mine) == 3 and len(theirs) == 3 and not set(mine) & set(theirs)
    assert not watcher.view["game"].get("cards")  # a spectator holds no hand
    for p in (ana, beto, watcher):
        await p.close()


@pytest.mark.slow
async def test_the_lobby_lists_open_tables_of_every_node(cluster: Cluster) -> None:
    n0, n1, _ = cluster.nodes
    async with httpx.AsyncClient(timeout=20) as http:
        r = await http.post(f"{n0.url}/api/tables", json={"name": "Ana", "settings": {"players": 2}})
        code = r.json()["code"]
        host = await WsPlayer(n0.ws_url, code, r.json()["token"]).connect()  # the lobby lists tables
        await host.until(lambda p: p.view is not None)                     # whose host is there
        deadline = asyncio.get_running_loop().time() + 20
        while code not in [t["code"] for t in (await http.get(f"{n1.url}/api/tables")).json()["tables"]]:
            assert asyncio.get_running_loop().time() < deadline, "n1 never listed n0's open table"
            await asyncio.sleep(0.1)
        await host.close()


@pytest.mark.slow
async def test_the_post_limit_is_shared_by_every_node(cluster: Cluster) -> None:
    slow = [cluster.add_node(TRUCO_HTTP_RATE="0.01"), cluster.add_node(TRUCO_HTTP_RATE="0.01")]
    async with httpx.AsyncClient(timeout=20) as http:
        statuses = [(await http.post(f"{slow[i % 2].url}/api/tables", json={"name": "Ana"})).status_code
                    for i in range(31)]
    assert statuses[:30] == [201] * 30  # the burst, spent half on each node
    assert statuses[30] == 429          # one bucket for both: the 31st is refused
