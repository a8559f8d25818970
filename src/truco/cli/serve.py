"""``truco serve``: the lobby, the tables and the phone client on one port (SQLite or PostgreSQL,
in-memory bus)."""

from __future__ import annotations

import argparse
import os
import sys


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise SystemExit(f"{name} must be a port number, not {raw!r}") from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default=os.environ.get("TRUCO_HOST", "127.0.0.1"),
                        help="address to listen on; 0.0.0.0 lets phones on your Wi-Fi join "
                             "(env TRUCO_HOST, default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=_env_int("TRUCO_PORT", 8000),
                        help="TCP port (env TRUCO_PORT, default 8000)")
    parser.add_argument("--db", default=os.environ.get("TRUCO_DB", "./truco.db"),
                        help="where every table's log is kept: a SQLite file, or a "
                             "postgresql://user:pass@host/db URL (env TRUCO_DB, default ./truco.db)")
    parser.add_argument("--quiet", action="store_true", help="no start-up banner, warnings only")


def run(args: argparse.Namespace) -> int:
    from truco.server.main import serve
    from truco.storage import describe, open_storage

    try:
        storage = open_storage(args.db)
    except Exception as e:  # a bad path, a locked file, no database server: say so, no traceback
        print(f"truco serve: cannot open {describe(args.db)}: {e}", file=sys.stderr)
        return 2
    return serve(storage, host=args.host, port=args.port, where=describe(args.db), quiet=args.quiet)
