"""``truco serve``: the lobby, the tables and the phone client on one port (SQLite or PostgreSQL);
with ``--redis`` (PostgreSQL only) one node of a cluster (``truco.cluster``, docs/scaling.md)."""

from __future__ import annotations

import argparse
import os
import secrets
import socket
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from truco.runtime import Runtime
    from truco.server.main import ScaleOut


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise SystemExit(f"{name} must be a whole number, not {raw!r}") from None


def default_bot_workers() -> int:
    """One core for the event loop, the others (up to 8) for the bots: 1 on a 2-core machine."""
    return max(1, min(8, (os.cpu_count() or 2) - 1))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default=os.environ.get("TRUCO_HOST", "127.0.0.1"),
                        help="address to listen on; 0.0.0.0 lets phones on your Wi-Fi join "
                             "(env TRUCO_HOST, default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=_env_int("TRUCO_PORT", 8000),
                        help="TCP port (env TRUCO_PORT, default 8000)")
    parser.add_argument("--db", default=os.environ.get("TRUCO_DB", "./truco.db"),
                        help="where every table's log is kept: a SQLite file, or a "
                             "postgresql://user:pass@host/db URL (env TRUCO_DB, default ./truco.db)")
    parser.add_argument("--redis", default=os.environ.get("TRUCO_REDIS") or None,
                        help="join a cluster: redis://host:port/db holds the tables' leases and carries "
                             "messages between nodes; needs --db postgresql://… (env TRUCO_REDIS)")
    parser.add_argument("--node-id", default=os.environ.get("TRUCO_NODE_ID") or None,
                        help="this node's name in the cluster (env TRUCO_NODE_ID; default host-pid-random)")
    parser.add_argument("--lease-ms", type=int, default=_env_int("TRUCO_LEASE_MS", 4000),
                        help="a dead node's tables move after about this long (env TRUCO_LEASE_MS, "
                             "default 4000)")
    parser.add_argument("--bot-workers", type=int,
                        default=_env_int("TRUCO_BOT_WORKERS", default_bot_workers()),
                        help="processes the bots think in, each table's bots in one of them; 0 keeps them "
                             "on the server's own thread (env TRUCO_BOT_WORKERS; default: the cores but "
                             f"one, at most 8, here {default_bot_workers()})")
    parser.add_argument("--quiet", action="store_true", help="no start-up banner, warnings only")


def run(args: argparse.Namespace) -> int:
    from truco.server.main import serve
    from truco.storage import describe, is_postgres_url, open_storage

    if args.redis and not is_postgres_url(args.db):
        print("truco serve: --redis needs --db postgresql://… (every node reads the same tables)",
              file=sys.stderr)
        return 2
    try:
        storage = open_storage(args.db)
    except Exception as e:  # a bad path, a locked file, no database server: say so, no traceback
        print(f"truco serve: cannot open {describe(args.db)}: {e}", file=sys.stderr)
        return 2
    scale_out = None
    if args.redis:
        scale_out = node_factory(args.redis, args.node_id, args.lease_ms, args.port)
    if args.bot_workers < 0:
        print("truco serve: --bot-workers must be 0 or more", file=sys.stderr)
        return 2
    return serve(storage, host=args.host, port=args.port, where=describe(args.db), quiet=args.quiet,
                 scale_out=scale_out, bot_workers=args.bot_workers)


def node_factory(redis_url: str, node_id: str | None, lease_ms: int,
                 port: int) -> Callable[[Runtime], ScaleOut]:
    """A cluster node (``truco.cluster``) around the runtime ``serve`` makes. The node id is new in
    every process: a restarted node is a new node (the old one's tables were taken over meanwhile)."""
    from redis.asyncio import Redis

    from truco.cluster import ClusterNode, NodeConfig
    from truco.server.main import ScaleOut

    name = node_id or f"{socket.gethostname()}-{port}-{os.getpid()}-{secrets.token_hex(2)}"

    def make(rt: Runtime) -> ScaleOut:
        redis = Redis.from_url(redis_url, socket_timeout=5, socket_connect_timeout=2)
        cfg = NodeConfig(name, lease_ms=lease_ms, tick_s=lease_ms / 4000)  # four renewals per lease
        rate = os.environ.get("TRUCO_HTTP_RATE")
        if rate:
            cfg.http_rate = float(rate)
        node = ClusterNode(rt, redis, cfg)
        return ScaleOut(node, node.handover, node.allow_post)

    return make
