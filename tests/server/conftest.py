"""A real uvicorn serving the app on 127.0.0.1 inside the test's event loop, so a test can reach
the runtime (fake clock, full state for audits) while its clients go through real sockets."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
import uvicorn

from truco.bench.player_client import WsPlayer
from truco.bench.server_process import free_port
from truco.runtime import Clock, FakeClock, Runtime
from truco.server.app import ServerConfig, create_app
from truco.server.socket import SocketLimits
from truco.storage import MemoryStorage


@dataclass
class Live:
    rt: Runtime
    clock: Clock
    http: httpx.AsyncClient
    base_ws: str
    base_http: str
    storage: MemoryStorage

    async def create(self, name: str = "Ana", **settings: Any) -> dict[str, Any]:
        r = await self.http.post("/api/tables", json={"name": name, "settings": settings})
        assert r.status_code == 201, r.text
        body: dict[str, Any] = r.json()
        return body

    async def join(self, code: str, name: str) -> dict[str, Any]:
        r = await self.http.post(f"/api/tables/{code}/join", json={"name": name})
        assert r.status_code == 201, r.text
        body: dict[str, Any] = r.json()
        return body

    async def player(self, code: str, token: str | None) -> WsPlayer:
        p = await WsPlayer(self.base_ws, code, token).connect()
        await p.until(lambda p: any(m["type"] == "hello" for m in p.messages))
        return p


class _InLoopServer(uvicorn.Server):
    """uvicorn without its signal handlers: Ctrl-C stays with pytest."""

    @contextlib.contextmanager
    def capture_signals(self):  # type: ignore[no-untyped-def]
        yield


@contextlib.asynccontextmanager
async def serving(clock: Clock | None = None, limits: SocketLimits | None = None,
                  http_rate: float = 0.0) -> AsyncIterator[Live]:
    storage = MemoryStorage()
    clock = clock or FakeClock()
    rt = Runtime(storage, clock=clock, bot_delay=0.0, hand_pause=0)
    cfg = ServerConfig(socket_limits=limits or SocketLimits(), http_rate=http_rate)
    app = create_app(rt, cfg)
    port = free_port()
    server = _InLoopServer(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                           lifespan="on", ws_max_size=16 * 1024,
                                           ws_per_message_deflate=False))
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()
        await asyncio.sleep(0.01)
    base = f"127.0.0.1:{port}"
    async with httpx.AsyncClient(base_url=f"http://{base}", timeout=10) as http:
        try:
            yield Live(rt, clock, http, f"ws://{base}", f"http://{base}", storage)
        finally:
            server.should_exit = True
            await asyncio.wait_for(task, 10)


@pytest.fixture
async def live() -> AsyncIterator[Live]:
    async with serving() as lv:
        yield lv
