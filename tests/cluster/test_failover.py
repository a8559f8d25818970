"""A node that dies, a node that freezes, a Redis that restarts: every table goes on, nothing acked
is lost, and no table is ever held live by two nodes at once."""

from __future__ import annotations

import asyncio
import contextlib
import random
import signal
import time
from typing import Any

import httpx
import pytest
import redis

from truco.storage.postgres import PostgresStorage

from .conftest import LEASE_MS, Cluster
from .roaming import Roamer
from .tables import Table, audit
from .test_many_tables import close_all, finish, make_tables


def holders(cluster: Cluster, codes: list[str]) -> dict[str, str | None]:
    r = redis.Redis.from_url(cluster.redis.url)
    try:
        values = r.mget([f"truco:lease:{c}" for c in codes])
    finally:
        r.close()
    return {c: None if v is None else v.decode() for c, v in zip(codes, values, strict=True)}


def in_play_by_node(cluster: Cluster, tables: list[Table]) -> list[list[Table]]:
    """The tables still in play that each node (by index) holds the lease of, from one read."""
    owners = holders(cluster, [t.code for t in tables])
    return [[t for t in tables if owners[t.code] == f"n{i}" and not t.over()]
            for i in range(len(cluster.nodes))]


async def played_out(cluster: Cluster, play: asyncio.Task[None], tables: list[Table], what: str) -> None:
    """Wait for ``finish``; when it times out, say what the nodes logged of the unfinished tables."""
    try:
        await play
    except TimeoutError as e:
        stuck = [t.code for t in tables if not t.over()]
        raise TimeoutError(f"{e} ({what})\n{cluster.logs_about(stuck)}") from e


async def held_by_node(cluster: Cluster, http: httpx.AsyncClient) -> dict[int, set[str]]:
    """What each live node answers it holds, asked at the same moment."""
    nodes = [(i, n) for i, n in enumerate(cluster.nodes) if n in cluster.live()]

    async def ask(n: object) -> set[str]:
        try:
            r = await http.get(f"{n.url}/health", params={"tables": "1"}, timeout=2)  # type: ignore[attr-defined]
            return set(r.json()["held"])
        except (httpx.HTTPError, ValueError):
            return set()

    answers = await asyncio.gather(*(ask(n) for _, n in nodes))
    return {i: a for (i, _), a in zip(nodes, answers, strict=True)}


class OwnershipWatch:
    """Samples every live node's tables all along; any table two nodes hold at once is recorded."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.twice: list[tuple[str, list[int]]] = []
        self.samples = 0
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        async with httpx.AsyncClient() as http:
            while True:
                held = await held_by_node(self.cluster, http)
                seen: dict[str, list[int]] = {}
                for i, tables in held.items():
                    for t in tables:
                        seen.setdefault(t, []).append(i)
                self.twice += [(t, nodes) for t, nodes in seen.items() if len(nodes) > 1]
                self.samples += 1
                await asyncio.sleep(0.05)

    def __enter__(self) -> OwnershipWatch:
        self._task = asyncio.create_task(self._run())
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()


async def wait_for(pred: object, timeout: float, what: str, play: asyncio.Task[None] | None = None) -> None:
    """Wait for ``pred()``; with ``play`` (the people playing), fail at once with its own error if
    it fails first: waiting on a table that nobody plays any more only hides why."""
    deadline = time.monotonic() + timeout
    while not pred():  # type: ignore[operator]
        if play is not None and play.done():
            await play  # raises what stopped the play
            raise AssertionError(f"every table ended before: {what}")
        if time.monotonic() > deadline:
            raise TimeoutError(what)
        await asyncio.sleep(0.02)


def where(tables: list[Table]) -> str:
    """Each table's people: the version each saw, the phase, the node of its socket, its reconnects."""
    def person(p: Roamer) -> str:
        node = p.sock and p.sock.url.split("/ws/")[0]
        return f"v{p.version} {p.view and p.view['phase']} {node} r{p.reconnects}"

    return "; ".join(f"{t.code}: " + ", ".join(person(p) for p in t.people) for t in tables)


def audit_all(postgres_url: str, tables: list[Table]) -> None:
    storage = PostgresStorage(postgres_url, pool_size=2)
    try:
        for t in tables:
            log = storage.log(t.code)
            assert [e.version for e in log] == list(range(1, len(log) + 1))
            audit(t, log)
    finally:
        storage.close()


def in_vote(t: Table) -> bool:
    return any(p.view is not None and p.view.get("vote") is not None for p in t.people)


def past_first_hand(t: Table) -> bool:
    return any(p.view is not None and (p.view.get("game") or {}).get("hand_no", 0) > 1 for p in t.people)


def mid_hand(t: Table) -> bool:
    return any(p.view is not None and p.view["phase"] == "playing" and p.view.get("vote") is None
               and any(r for r in (p.view.get("game") or {}).get("rounds", [])) for p in t.people)


@pytest.mark.slow
async def test_kill_9_of_a_node_mid_hand_and_mid_vote_loses_no_acked_command_and_every_table_ends(
        cluster: Cluster, postgres_url: str) -> None:
    rng = random.Random(9)
    tables = await make_tables(cluster, rng, 15)
    killed: list[str] = []
    # Until the kill, people answering a vote wait (as a slow phone would, up to the table's answer
    # time): a vote opened at a table stays open, so the moment the test needs lasts seconds
    # instead of the fraction of a second random play leaves it, and no longer depends on load.
    play = asyncio.create_task(finish(tables, timeout=120,
                                      hold=lambda view: not killed and view.get("vote") is not None))
    with OwnershipWatch(cluster) as watch:
        victims: list[int] = []

        def ready() -> bool:
            # The victim is whichever node is first seen holding a table mid-vote and another
            # mid-hand: which node leases which table depends on timing. (Requiring both of node 1
            # alone timed out one clean-clone run after 120 s, 2026-12-04.)
            for i, mine in enumerate(in_play_by_node(cluster, tables)):
                if any(in_vote(t) for t in mine) and any(mid_hand(t) for t in mine):
                    victims.append(i)
                    return True
            return False

        await wait_for(ready, 120, "no node ever held a table mid-vote and another mid-hand", play)
        victim = victims[0]
        name = f"n{victim}"
        taken = [c for c, n in holders(cluster, [t.code for t in tables]).items() if n == name]
        assert any(in_vote(t) for t in tables if t.code in taken)  # held open: the kill lands mid-vote
        cluster.nodes[victim].kill9()
        killed_at = time.monotonic()
        killed.append(name)  # the held votes are answered now, through the node that takes over
        await wait_for(lambda: all(h not in (None, name) for h in holders(cluster, taken).values()),
                       30, "the dead node's tables were not taken over")
        failover_s = time.monotonic() - killed_at
        await played_out(cluster, play, tables, f"killed {name}; taken {taken}")
    assert all(t.over() for t in tables)
    assert failover_s < LEASE_MS / 1000 + 5
    assert watch.samples > 10 and watch.twice == []
    await close_all(tables)
    audit_all(postgres_url, tables)
    assert sum(p.reconnects for t in tables for p in t.people) > 0


@pytest.mark.slow
async def test_a_node_paused_past_its_lease_cannot_write_and_lets_its_tables_go(
        cluster: Cluster, postgres_url: str) -> None:
    rng = random.Random(19)
    tables = await make_tables(cluster, rng, 9)
    play = asyncio.create_task(finish(tables, timeout=120))
    chosen: list[tuple[int, list[str]]] = []

    def holding() -> bool:
        # the node to freeze is whichever is first seen holding a table still in play (which node
        # leases which table depends on timing: a fixed node may hold none)
        for i, mine in enumerate(in_play_by_node(cluster, tables)):
            if mine:
                chosen.append((i, [t.code for t in mine]))
                return True
        return False

    await wait_for(holding, 30, "no node holds a table in play", play)
    frozen, taken = chosen[0]
    name = f"n{frozen}"
    node = cluster.nodes[frozen]
    assert node.proc is not None
    node.proc.send_signal(signal.SIGSTOP)
    cluster.stopped.add(frozen)
    await wait_for(lambda: all(h not in (None, name) for h in holders(cluster, taken).values()),
                   30, "the frozen node's tables were not taken over")
    node.proc.send_signal(signal.SIGCONT)
    cluster.stopped.discard(frozen)
    async with httpx.AsyncClient() as http:
        deadline = time.monotonic() + 30
        while True:
            try:
                r = await http.get(f"{node.url}/health", params={"tables": "1"}, timeout=5)
                still = set(r.json()["held"]) & set(taken)
            except httpx.HTTPError as e:  # waking up: busy with what queued while it slept
                still = {repr(e)}
            if not still:
                break
            assert time.monotonic() < deadline, f"{name} still holds {still}"
            await asyncio.sleep(0.05)
    await played_out(cluster, play, tables, f"froze {name}; taken {taken}")
    assert all(t.over() for t in tables)
    await close_all(tables)
    audit_all(postgres_url, tables)
    log = cluster.log_of(frozen)
    assert "let go of table" in log


@pytest.mark.slow
async def test_a_redis_restart_mid_match_loses_nothing_accepted_and_play_goes_on(
        cluster: Cluster, postgres_url: str) -> None:
    rng = random.Random(29)
    tables = await make_tables(cluster, rng, 9)
    play = asyncio.create_task(finish(tables, timeout=120))
    try:
        await wait_for(lambda: all(t.over() or past_first_hand(t) for t in tables), 60, "no play", play)
    except TimeoutError as e:
        raise TimeoutError(f"{e}: {where(tables)}\n{cluster.logs_about([t.code for t in tables])}") from e
    # The last table to leave its first hand has just left it, so it is mid-match: the restart lands
    # while play goes on, however long these random matches turn out. (A fixed total of versions was
    # sometimes never reached: one clean-clone run saw all nine matches end below it, 2026-12-05.)
    assert not all(t.over() for t in tables)
    cluster.redis.stop()
    cluster.redis.start()  # empty: no lease, no lobby, no node list
    with contextlib.suppress(Exception):
        await play
    said = [[ln for ln in cluster.log_of(i).splitlines() if "Redis" in ln][-5:]  # to debug a failure
            for i in range(len(cluster.nodes))]
    assert play.exception() is None, (play.exception(), said)
    assert all(t.over() for t in tables)
    await close_all(tables)
    audit_all(postgres_url, tables)
    assert any("back on Redis" in cluster.log_of(i) for i in range(3))


@pytest.mark.slow
async def test_a_node_stopped_with_sigterm_hands_its_tables_over_before_its_lease_would_lapse(
        cluster: Cluster, postgres_url: str) -> None:
    rng = random.Random(39)
    tables = await make_tables(cluster, rng, 9)
    play = asyncio.create_task(finish(tables, timeout=120))
    await wait_for(lambda: "n0" in holders(cluster, [t.code for t in tables if not t.over()]).values(),
                   30, "n0 holds no table in play", play)
    taken = [c for c, n in holders(cluster, [t.code for t in tables]).items() if n == "n0"]
    node = cluster.nodes[0]
    assert node.proc is not None
    node.proc.send_signal(signal.SIGTERM)
    stopped_at = time.monotonic()
    await wait_for(lambda: all(h not in (None, "n0") for h in holders(cluster, taken).values()),
                   30, "the stopping node's tables were not taken over")
    handover_s = time.monotonic() - stopped_at
    await played_out(cluster, play, tables, f"stopped n0; taken {taken}")
    assert all(t.over() for t in tables)
    await close_all(tables)
    audit_all(postgres_url, tables)
    assert "handed its tables over" in cluster.log_of(0)
    assert handover_s < LEASE_MS / 1000 + 2


def _essentials(view: dict[str, Any]) -> dict[str, Any]:
    g = view["game"]
    return {"seat": view["me"]["seat"], "phase": view["phase"], "cards": g["cards"], "score": g["score"],
            "turn": g["turn"], "rounds": g["rounds"], "hand_no": g["hand_no"],
            "legal": sorted(str(a) for a in view["legal"]),
            "vote": view["vote"] and {k: view["vote"][k] for k in ("team", "call", "options")}}


@pytest.mark.slow
async def test_after_kill_9_of_its_owner_a_table_has_the_same_cards_score_turn_and_call_on_another_node(
        cluster: Cluster) -> None:
    owner, *others = cluster.nodes
    async with httpx.AsyncClient(timeout=20) as http:
        r = await http.post(f"{owner.url}/api/tables", json={"name": "Ana", "settings": {"players": 2}})
        host = r.json()
        r = await http.post(f"{others[0].url}/api/tables/{host['code']}/join", json={"name": "Beto"})
        guest = r.json()
    assert holders(cluster, [host["code"]])[host["code"]] == "n0"
    rng = random.Random(5)

    def away() -> list[str]:  # the people's sockets stay off the node that will die
        return [n.ws_url for n in cluster.live() if n is not owner]

    people = [Roamer(away, host["code"], t, random.Random(rng.random()))
              for t in (host["token"], guest["token"])]
    for p in people:
        await p.ensure()
    assert (await people[1].command({"type": "sit", "seat": 1}))["type"] == "ack"
    assert (await people[0].command({"type": "start"}))["type"] == "ack"
    await wait_for(lambda: all(p.view and p.view["phase"] == "playing" for p in people), 20, "no start")
    mover = next(p for p in people if p.view and any(a["do"] == "truco" for a in p.view["legal"]))
    assert (await mover.command({"type": "act", "do": "truco"}))["type"] == "ack"  # a call to answer
    version = mover.version
    await wait_for(lambda: all(p.version == version for p in people), 20, "the call did not reach both")
    before = [_essentials(p.view) for p in people]  # type: ignore[arg-type]
    assert any(b["vote"] is not None or "quiero" in str(b["legal"]) for b in before)

    owner.kill9()
    await wait_for(lambda: all(p.sock is None or p.sock.closed or p.version > version for p in people),
                   30, "the sockets never noticed")
    for p in people:
        await p.ensure()
        await p.sock.until(lambda s: s.version > version, 30)  # type: ignore[union-attr]
    after = [_essentials(p.view) for p in people]  # type: ignore[arg-type]
    assert after == before
    assert holders(cluster, [host["code"]])[host["code"]] in ("n1", "n2")
    for p in people:
        await p.close()
