"""``truco bench server --nodes N [--kill-one]``: the same table load as ``truco bench server``, through
HAProxy to N ``truco serve --redis`` nodes on one PostgreSQL and one Redis, all started for the run on
this machine. Reported per action: each node's CPU, the bytes the players received; per second: the
log entries stored (commits), PostgreSQL transactions, Redis commands and publishes. With
``--kill-one`` one node is killed with SIGKILL halfway and the time until every one of its tables has
a new owner is reported (the failover time)."""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx

from truco.bench.server_load import _run_tables, raise_fd_limit
from truco.bench.server_process import ServerProcess, free_port
from truco.bench.services import haproxy, postgres, redis_server, tree_cpu_seconds


def _pg_counters(url: str) -> dict[str, float]:
    import psycopg
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SELECT (SELECT count(*) FROM log), xact_commit FROM pg_stat_database "
                           "WHERE datname = current_database()").fetchone()
        conn.execute("SELECT pg_stat_clear_snapshot()")
    assert row is not None
    return {"storage_commits": float(row[0]), "pg_transactions": float(row[1])}


def _redis_counters(url: str) -> dict[str, float]:
    import redis
    r = redis.Redis.from_url(url)
    try:
        stats = r.info("stats")
        commands = r.info("commandstats")
        cpu = r.info("cpu")
    finally:
        r.close()
    publish = commands.get("cmdstat_publish", {})
    return {"redis_cpu_ms": 1000 * float(cpu["used_cpu_user"]) + 1000 * float(cpu["used_cpu_sys"]),
            "redis_commands": float(stats["total_commands_processed"]),
            "redis_publishes": float(publish.get("calls", 0) if isinstance(publish, dict) else 0)}


async def _kill_one(nodes: list[ServerProcess], redis_url: str) -> dict[str, Any]:
    """Kill the last node with SIGKILL; wait until each table it held has another owner."""
    import redis.asyncio as aredis
    victim = nodes[-1]
    name = f"n{len(nodes) - 1}"
    async with httpx.AsyncClient(timeout=10) as http:
        held: list[str] = (await http.get(f"{victim.url}/health", params={"tables": "1"})).json()["held"]
    assert victim.proc is not None
    victim.proc.send_signal(signal.SIGKILL)
    killed = time.perf_counter()
    r = aredis.Redis.from_url(redis_url)
    try:
        while True:
            owners = await r.mget([f"truco:lease:{t}" for t in held]) if held else []
            if all(o is not None and o != name.encode() for o in owners):
                break
            if time.perf_counter() - killed > 60:
                break
            await asyncio.sleep(0.02)
    finally:
        await r.aclose()
    return {"killed_node_tables": len(held), "failover_s": round(time.perf_counter() - killed, 2)}


def measure_cluster(tables: int, nodes: int, pace: float, seconds: float, kill_one: bool) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="truco-bench-cluster-") as tmp, ExitStack() as stack:
        root = Path(tmp)
        db, pg_pid = stack.enter_context(postgres(root))
        redis_url = stack.enter_context(redis_server(root))
        procs: list[ServerProcess] = []
        for i in range(nodes):
            port = free_port()
            argv = [sys.executable, "-m", "truco.cli.main", "serve", "--host", "127.0.0.1",
                    "--port", str(port), "--db", db, "--redis", redis_url,
                    "--node-id", f"n{i}", "--quiet"]
            node = ServerProcess(argv, port, env={"TRUCO_HTTP_RATE": "0"}, log=root / f"node{i}.log")
            procs.append(stack.enter_context(node.start(timeout=60)))
        lb_port = free_port()
        stack.enter_context(haproxy(root, lb_port, [p.port for p in procs]))
        front = ServerProcess([], lb_port)
        pids = [p.proc.pid for p in procs if p.proc is not None]

        def probe() -> dict[str, float]:
            return {**_pg_counters(db), **_redis_counters(redis_url),
                    "pg_cpu_ms": 1000 * tree_cpu_seconds(pg_pid)}

        midway = (lambda: _kill_one(procs, redis_url)) if kill_one else None
        result = asyncio.run(_run_tables(front, tables, pace, seconds, pids=pids, counters=probe,
                                      midway=midway))
        result["nodes"] = nodes
        return result


def run(args: argparse.Namespace) -> int:
    raise_fd_limit()
    for n in args.tables:
        r = measure_cluster(n, args.nodes, args.pace, args.seconds, args.kill_one)
        if args.json:
            print(json.dumps(r))
            continue
        per_s = r["per_s"]
        print(f"{n} tables on {args.nodes} nodes behind HAProxy, one action per table every {args.pace:g} s, "
              f"{args.seconds:g} s measured:")
        print(f"  {r['actions_per_s']} actions/s, p50 {r['p50_ms']} ms, p99 {r['p99_ms']} ms, "
              f"max {r['max_ms']} ms, errors {r['errors']} {r['error_kinds'] or ''}")
        print(f"  CPU ms per action by node {r['cpu_ms_per_action_by_process']} "
              f"(all nodes {r['server_cpu']:.0%} of a core); load generator {r['client_cpu']:.0%}; "
              f"load average {r['load_average']}")
        print(f"  bytes to the players per action {r['bytes_to_players_per_action']}")
        print(f"  storage commits/s {per_s.get('storage_commits')}, PostgreSQL transactions/s "
              f"{per_s.get('pg_transactions')}, Redis commands/s {per_s.get('redis_commands')} "
              f"(publishes/s {per_s.get('redis_publishes')}); Redis CPU "
              f"{per_s.get('redis_cpu_ms', 0) / max(1.0, r['actions_per_s']):.2f} ms per action, "
              f"PostgreSQL CPU {per_s.get('pg_cpu_ms', 0) / max(1.0, r['actions_per_s']):.2f} ms per action")
        if "failover_s" in r:
            print(f"  killed one node (kill -9) holding {r['killed_node_tables']} tables: "
                  f"every one had a new owner after {r['failover_s']} s")
    return 0
