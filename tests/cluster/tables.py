"""Tables for the cluster tests: made through random nodes, played by ``Roamer`` people and bots, then
audited against the log in PostgreSQL (no card leaked, every acked command stored)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import httpx

from tests.server.test_no_leak import _leaks, _secrets_told, _truth_and_secrets
from truco.storage import LogEntry

from .conftest import Cluster
from .roaming import Roamer


@dataclass
class Table:
    code: str
    people: list[Roamer] = field(default_factory=list)
    watchers: list[Roamer] = field(default_factory=list)

    def over(self) -> bool:
        return all(p.view is not None and p.view["phase"] == "over" for p in self.people)


def ws_bases(cluster: Cluster) -> list[str]:
    return [n.ws_url for n in cluster.live()]


async def make_table(cluster: Cluster, http: httpx.AsyncClient, rng: random.Random, players: int,
                     humans: tuple[int, ...], watchers: int = 0, target: int = 15) -> Table:
    """A table made on a random node, joined on others, every socket on a random node; bots in the
    other seats; started."""
    def node() -> str:
        return rng.choice(cluster.live()).url

    r = await http.post(f"{node()}/api/tables", json={
        "name": "Host", "settings": {"players": players, "target": target, "bot_delay": 0}})
    assert r.status_code == 201, r.text
    host = r.json()
    table = Table(host["code"])
    tokens = [host["token"]]
    for i in range(1, len(humans)):
        r = await http.post(f"{node()}/api/tables/{table.code}/join", json={"name": f"P{i}"})
        assert r.status_code == 201, r.text
        tokens.append(r.json()["token"])
    for token in tokens:
        p = Roamer(lambda: ws_bases(cluster), table.code, token, random.Random(rng.random()))
        await p.ensure()
        table.people.append(p)
    for _ in range(watchers):
        w = Roamer(lambda: ws_bases(cluster), table.code, None, random.Random(rng.random()))
        await w.ensure()
        table.watchers.append(w)
    for p, seat in zip(table.people[1:], humans[1:], strict=True):
        assert (await p.command({"type": "sit", "seat": seat}))["type"] == "ack"
    host_p = table.people[0]
    for seat in range(players):
        if seat not in humans:
            reply = await host_p.command({"type": "add_bot", "seat": seat, "level": "random"})
            assert reply["type"] == "ack", reply
    assert (await host_p.command({"type": "start"}))["type"] == "ack"
    return table


def audit(table: Table, log: list[LogEntry]) -> None:
    """No frame any socket of this table received names a card its reader may not know, and every
    command that was acked is in the log, as sent by its player."""
    public_at, own_at, secret_at = _truth_and_secrets(log)
    leaks: list[str] = []
    for p in table.people:
        leaks += _leaks(p.all_frames(), p.player, public_at, own_at)
        leaks += _secrets_told(p.all_frames(), p.player, secret_at)
    for w in table.watchers:
        leaks += _leaks(w.all_frames(), None, public_at, own_at)
        leaks += _secrets_told(w.all_frames(), None, secret_at)
    assert leaks == []
    stored = {(e.player, e.cid) for e in log if e.cid is not None}
    for p in table.people:
        missing = [cid for cid in p.acked if (p.player, cid) not in stored]
        assert missing == [], f"acked but not in the log of {table.code}: {missing}"


def frames_of(table: Table) -> int:
    return sum(len(p.all_frames()) for p in [*table.people, *table.watchers])


def seats_of(view: dict[str, Any]) -> int:
    return len(view["seats"])
