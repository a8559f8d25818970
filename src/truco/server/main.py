"""``truco serve``: one process, its storage (SQLite or PostgreSQL), one uvicorn worker, and a banner
with the links."""

from __future__ import annotations

import contextlib
import logging
import os
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import uvicorn

from truco.runtime import Runtime
from truco.runtime.front import Front
from truco.server import redaction
from truco.server.address import lan_address, open_urls
from truco.server.app import ServerConfig, create_app
from truco.storage import Storage

WS_MAX_SIZE = 16 * 1024
"""uvicorn refuses larger frames outright (1009) before our own 4 KB check sees them."""


@dataclass(frozen=True)
class ScaleOut:
    """A cluster node in front of this process's runtime (``truco.cluster``, wired by ``truco serve
    --redis``): what the endpoints speak to, what runs before a graceful stop closes the sockets (the
    tables are handed over first), and the POST limit every node shares."""

    front: Front
    before_stop: Callable[[], Awaitable[None]]
    post_limiter: Callable[[str], Awaitable[bool]]


class _Server(uvicorn.Server):
    """uvicorn, with a step before it closes the sockets of a graceful stop: no new connection is
    accepted, then the tables are handed to other nodes, then the sockets close (and reconnect there)."""

    before_stop: Callable[[], Awaitable[None]] | None = None

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        if self.before_stop is not None:
            for server in self.servers:
                server.close()
            try:
                await self.before_stop()
            except Exception:
                logging.getLogger("truco.server").exception("handing the tables over failed")
        await super().shutdown(sockets)


def serve(storage: Storage, host: str, port: int, where: str, quiet: bool = False,
          scale_out: Callable[[Runtime], ScaleOut] | None = None, bot_workers: int = 0) -> int:
    """Serve until Ctrl-C. ``where`` says where the tables are kept, for the banner; ``bot_workers``
    processes hold the bots (``truco.runtime.bot_workers``; 0: the runtime's bots' thread).

    ``TRUCO_LOG_LEVEL`` (debug, info, warning…) and ``TRUCO_ACCESS_LOG=1`` make it talk more; no seat
    token ever reaches a log line (``truco.server.redaction``)."""
    redaction.install()
    level = os.environ.get("TRUCO_LOG_LEVEL", "").lower() or ("warning" if quiet else "info")
    logging.basicConfig(level=level.upper(), format="%(levelname)s:%(name)s: %(message)s")
    rt = Runtime(storage, bot_workers=bot_workers)
    urls = open_urls(host, port)
    public = next((u for who, u in urls if "phones" in who), None)
    cfg = ServerConfig(public_url=public, on_shutdown=[storage.close], gc_full_s=600.0)
    rate = os.environ.get("TRUCO_HTTP_RATE")
    if rate:
        cfg.http_rate = float(rate)
    node = scale_out(rt) if scale_out is not None else None
    if node is not None:
        cfg.post_limiter = node.post_limiter
    app = create_app(rt, cfg, front=node.front if node is not None else None)
    if not quiet:
        print("truco is running. Open:", flush=True)
        for who, url in urls:
            print(f"  {url}   ({who})", flush=True)
        if public is None and host in ("127.0.0.1", "localhost", "::1"):
            lan = lan_address()
            where_lan = f"http://{lan}:{port}/" if lan else "this computer's LAN address"
            print(f"  phones on your Wi-Fi: start with --host 0.0.0.0 (or TRUCO_HOST=0.0.0.0 make run), "
                  f"then open {where_lan}", flush=True)
        print(f"  tables are kept in {where}", flush=True)
        thinking = f"{bot_workers} process(es) of their own" if bot_workers else "the server's own thread"
        print(f"  bots think in {thinking}", flush=True)
    config = uvicorn.Config(app, host=host, port=port, log_level=level,
                            access_log=os.environ.get("TRUCO_ACCESS_LOG") == "1", ws_max_size=WS_MAX_SIZE,
                            ws_per_message_deflate=False, lifespan="on")
    server = _Server(config)
    if node is not None:
        server.before_stop = node.before_stop
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    return 0

