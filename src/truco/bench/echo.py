"""A bare WebSocket echo app: the benchmark's physical limit for one uvicorn worker on this machine."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect


async def _echo(ws: WebSocket) -> None:
    await ws.accept()
    try:
        while True:
            await ws.send_text(await ws.receive_text())
    except WebSocketDisconnect:
        pass


app = Starlette(routes=[WebSocketRoute("/echo", _echo)])
