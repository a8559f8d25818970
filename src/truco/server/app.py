"""The ASGI app: the lobby's HTTP API, the phone client's static files and the WebSocket endpoint."""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from truco.protocol import PROTOCOL_VERSION, CloseCode, ErrorCode, ProtocolError, RateLimiter
from truco.protocol.lobby import MAX_BODY_BYTES, decode_create, decode_join
from truco.protocol.views import table_path, table_summary
from truco.runtime import Created, Joined, LobbyError, NoSuchTable
from truco.server.codes import normalize_code
from truco.server.gc_policy import GcPolicy
from truco.server.health import LoopHealth
from truco.server.qr import qr_svg
from truco.server.socket import SocketLimits, SocketSession
from truco.server.spectators import ServerRuntime

WEB_DIR = Path(__file__).resolve().parent.parent / "web"


@dataclass
class ServerConfig:
    web_dir: Path = WEB_DIR
    public_url: str | None = None
    """Base URL printed for phones (the LAN address); QR codes use it when set."""
    socket_limits: SocketLimits = field(default_factory=SocketLimits)
    http_rate: float = 2.0
    """POST requests per second per client address (bursts of ``http_burst``); 0 turns it off."""
    http_burst: float = 30.0
    max_tables: int = 20_000
    gc_full_s: float = 0.0
    """Run full garbage collections on this clock only (see ``gc_policy``); 0 (the default for an
    embedded app, e.g. in tests) leaves the process's collector alone. ``truco serve`` uses 600."""
    on_shutdown: list[Callable[[], None]] = field(default_factory=list)


class _JSON(JSONResponse):
    def render(self, content: Any) -> bytes:
        return orjson.dumps(content)


def _problem(status: int, code: ErrorCode | str, message: str) -> Response:
    return _JSON({"error": {"code": str(code), "message": message}}, status_code=status)


def _seated(seat: Created | Joined) -> Response:
    """The answer to a create or a join: the seat token is the caller's identity from now on."""
    return _JSON({"table_id": seat.table_id, "code": seat.table_id, "token": seat.token,
                  "player": seat.player, "url": table_path(seat.table_id)}, status_code=201)


def create_app(rt: ServerRuntime, config: ServerConfig | None = None, *,
               start_runtime: bool = True) -> Starlette:
    """The app serving ``rt``. With ``start_runtime`` the app's lifespan starts and closes it."""
    cfg = config or ServerConfig()
    post_limits: dict[str, RateLimiter] = {}

    def client_key(request: Request) -> str:
        return request.client.host if request.client else "?"

    def allow_post(request: Request) -> bool:
        if cfg.http_rate <= 0:
            return True
        key = client_key(request)
        limiter = post_limits.get(key)
        if limiter is None:
            if len(post_limits) > 10_000:
                post_limits.clear()
            limiter = post_limits[key] = RateLimiter(cfg.http_rate, cfg.http_burst)
        return limiter.allow(time.monotonic())

    async def read_body(request: Request) -> bytes:
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY_BYTES:
                raise ProtocolError(ErrorCode.BAD_MESSAGE,
                                    f"a request body is at most {MAX_BODY_BYTES} bytes")
        return body

    def lookup(request: Request) -> str | None:
        return normalize_code(request.path_params["code"])

    async def health(request: Request) -> Response:
        try:
            window = min(60.0, max(1.0, float(request.query_params.get("window", "60"))))
        except ValueError:
            window = 60.0
        return _JSON({"ok": True, "protocol": PROTOCOL_VERSION, "tables": len(rt.table_ids()),
                      **loop_health.summary(window)})

    async def list_tables(request: Request) -> Response:
        tables = [{**m, "code": m["table_id"], "url": table_path(m["table_id"])}
                  for m in rt.list_open_tables()]
        return _JSON({"tables": tables})

    async def create_table(request: Request) -> Response:
        if not allow_post(request):
            return _problem(429, "rate_limited", "too many requests; wait a moment")
        if len(rt.table_ids()) >= cfg.max_tables:
            return _problem(503, ErrorCode.UNAVAILABLE, "the server is full; try again later")
        try:
            req = decode_create(await read_body(request))
            created = await rt.create_table(req.settings, req.name)
        except ProtocolError as e:
            return _problem(400, e.code, e.message)
        except LobbyError as e:
            return _problem(400, ErrorCode.BAD_MESSAGE, str(e))
        return _seated(created)

    async def get_table(request: Request) -> Response:
        code = lookup(request)
        try:
            if code is None:
                raise NoSuchTable("there is no such table")
            return _JSON(table_summary(rt.table(code)))
        except NoSuchTable:
            return _problem(404, "no_such_table", "there is no table with that code")

    async def join_table(request: Request) -> Response:
        if not allow_post(request):
            return _problem(429, "rate_limited", "too many requests; wait a moment")
        code = lookup(request)
        try:
            req = decode_join(await read_body(request))
            if code is None:
                raise NoSuchTable("there is no such table")
            joined = await rt.join(code, req.name)
        except ProtocolError as e:
            return _problem(400, e.code, e.message)
        except NoSuchTable:
            return _problem(404, "no_such_table", "there is no table with that code")
        except LobbyError as e:
            return _problem(409, ErrorCode.ILLEGAL, str(e))
        return _seated(joined)

    async def table_qr(request: Request) -> Response:
        code = lookup(request)
        if code is None or code not in rt.table_ids():
            return _problem(404, "no_such_table", "there is no table with that code")
        base = cfg.public_url or str(request.base_url)
        return Response(qr_svg(base.rstrip("/") + table_path(code)), media_type="image/svg+xml")

    async def client_page(request: Request) -> Response:
        index = cfg.web_dir / "index.html"
        if not index.is_file():
            return _problem(404, "no_client", "the phone client is not installed")
        return FileResponse(index, media_type="text/html")

    sockets: dict[tuple[str, str | None], int] = {}

    async def websocket(ws: WebSocket) -> None:
        code = normalize_code(ws.path_params["code"]) or ""
        token = ws.query_params.get("token") or None
        await ws.accept()
        wanted = ws.query_params.get("protocol")
        if wanted is not None and wanted != str(PROTOCOL_VERSION):
            await ws.close(CloseCode.BAD_PROTOCOL, f"this server speaks protocol {PROTOCOL_VERSION}")
            return
        key = (code, token)
        limit = (cfg.socket_limits.max_sockets_per_player if token
                 else cfg.socket_limits.max_spectators_per_table)
        if sockets.get(key, 0) >= limit:
            await ws.close(CloseCode.POLICY, "too many connections")
            return
        sockets[key] = sockets.get(key, 0) + 1
        try:
            await SocketSession(ws, rt, code, token, cfg.socket_limits).run()
        finally:
            sockets[key] -= 1
            if not sockets[key]:
                del sockets[key]

    loop_health = LoopHealth()
    gc_policy = GcPolicy(cfg.gc_full_s)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if start_runtime:
            await rt.start()
        loop_health.start()
        gc_policy.start()
        try:
            yield
        finally:
            await gc_policy.stop()
            await loop_health.stop()
            if start_runtime:
                await rt.close()
                for fn in cfg.on_shutdown:
                    fn()

    routes: list[Route | WebSocketRoute | Mount] = [
        Route("/health", health),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{code}", get_table, methods=["GET"]),
        Route("/api/tables/{code}/join", join_table, methods=["POST"]),
        Route("/api/tables/{code}/qr.svg", table_qr, methods=["GET"]),
        Route("/m/{code}", client_page, methods=["GET"]),
        WebSocketRoute("/ws/{code}", websocket),
        Mount("/", StaticFiles(directory=cfg.web_dir, html=True, check_dir=False), name="web"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)
