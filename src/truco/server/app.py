"""The ASGI app: the lobby's HTTP API, the phone client's static files and the WebSocket endpoint.

Endpoints are module-level functions, as in Starlette; what they share (the runtime, the settings,
the rate limiters) is the ``Server`` kept in ``app.state.server``.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from starlette.applications import Starlette
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from truco.protocol import (
    PROTOCOL_VERSION,
    SUBPROTOCOL,
    TOKEN_PREFIX,
    CloseCode,
    ErrorCode,
    ProtocolError,
    RateLimiter,
)
from truco.protocol.lobby import MAX_BODY_BYTES, decode_create, decode_join, table_path
from truco.runtime import LobbyError, NoSuchTable, Runtime, Ticket
from truco.runtime.front import Front
from truco.server.codes import normalize_code
from truco.server.gc_policy import GcPolicy
from truco.server.health import LoopHealth
from truco.server.qr import qr_svg
from truco.server.replays import ROUTES as REPLAY_ROUTES
from truco.server.socket import SocketLimits, SocketSession

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
log = logging.getLogger("truco.server")


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
    post_limiter: Callable[[str], Awaitable[bool]] | None = None
    """Shared POST limits (a cluster keeps them in Redis, ``truco.cluster``); None: this process's own."""


@dataclass
class Server:
    """What the endpoints share."""

    rt: Runtime
    cfg: ServerConfig
    start_runtime: bool = True
    front: Front | None = None
    """What the endpoints and sockets speak to: ``rt`` itself, or a cluster node in front of it."""
    loop_health: LoopHealth = field(default_factory=LoopHealth)
    post_limits: dict[str, RateLimiter] = field(default_factory=dict)
    sockets: dict[tuple[str, str | None], int] = field(default_factory=dict)
    """Open sockets per (table, token): a bound on what one seat (or the spectators) may hold."""

    @property
    def tables(self) -> Front:
        return self.front or self.rt

    async def allow_post(self, request: Request) -> bool:
        if self.cfg.http_rate <= 0:
            return True
        key = request.client.host if request.client else "?"
        if self.cfg.post_limiter is not None:
            return await self.cfg.post_limiter(key)
        limiter = self.post_limits.get(key)
        if limiter is None:
            if len(self.post_limits) > 10_000:
                self.post_limits.clear()
            limiter = self.post_limits[key] = RateLimiter(self.cfg.http_rate, self.cfg.http_burst)
        return limiter.allow(time.monotonic())


def _server(conn: HTTPConnection) -> Server:
    server: Server = conn.app.state.server
    return server


class _JSON(JSONResponse):
    def render(self, content: Any) -> bytes:
        return orjson.dumps(content)


def _problem(status: int, code: ErrorCode, message: str) -> Response:
    return _JSON({"error": {"code": str(code), "message": message}}, status_code=status)


def _no_table() -> Response:
    return _problem(404, ErrorCode.NO_SUCH_TABLE, "there is no table with that code")


def _too_many() -> Response:
    return _problem(429, ErrorCode.RATE_LIMITED, "too many requests; wait a moment")


def _seated(ticket: Ticket) -> Response:
    """The answer to a create or a join: the seat token is the caller's identity from now on."""
    return _JSON({"table_id": ticket.table_id, "code": ticket.table_id, "token": ticket.token,
                  "player": ticket.player, "url": table_path(ticket.table_id)}, status_code=201)


async def _read_body(request: Request) -> bytes:
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, f"a request body is at most {MAX_BODY_BYTES} bytes")
    return body


# ------------------------------------------------------------------ HTTP


async def health(request: Request) -> Response:
    s = _server(request)
    try:
        window = min(60.0, max(1.0, float(request.query_params.get("window", "60"))))
    except ValueError:
        window = 60.0
    held = s.tables.table_ids()
    extra = {"held": held} if request.query_params.get("tables") == "1" else {}
    return _JSON({"ok": True, "protocol": PROTOCOL_VERSION, "tables": len(held),
                  **s.loop_health.summary(window), "bot_workers": s.rt.bot_workers(), **extra})


async def list_tables(request: Request) -> Response:
    tables = [{**m, "code": m["table_id"], "url": table_path(m["table_id"])}
              for m in await _server(request).tables.lobby()]
    return _JSON({"tables": tables})


async def create_table(request: Request) -> Response:
    s = _server(request)
    if not await s.allow_post(request):
        return _too_many()
    if len(s.tables.table_ids()) >= s.cfg.max_tables:
        return _problem(503, ErrorCode.UNAVAILABLE, "the server is full; try again later")
    try:
        req = decode_create(await _read_body(request))
        ticket = await s.tables.create_table(req.settings, req.name, bots=req.bots)
    except ProtocolError as e:
        return _problem(400, e.code, e.message)
    except LobbyError as e:
        return _problem(400, ErrorCode.BAD_MESSAGE, str(e))
    return _seated(ticket)


async def get_table(request: Request) -> Response:
    code = normalize_code(request.path_params["code"])
    if code is None:
        return _no_table()
    try:
        return _JSON({**await _server(request).tables.describe(code), "code": code, "url": table_path(code)})
    except NoSuchTable:
        return _no_table()


async def join_table(request: Request) -> Response:
    s = _server(request)
    if not await s.allow_post(request):
        return _too_many()
    code = normalize_code(request.path_params["code"])
    try:
        name = decode_join(await _read_body(request))
        if code is None:
            return _no_table()
        ticket = await s.tables.join(code, name)
    except ProtocolError as e:
        return _problem(400, e.code, e.message)
    except NoSuchTable:
        return _no_table()
    except LobbyError as e:
        return _problem(409, ErrorCode.ILLEGAL, str(e))
    return _seated(ticket)


async def table_qr(request: Request) -> Response:
    s = _server(request)
    code = normalize_code(request.path_params["code"])
    if code is None:
        return _no_table()
    try:
        await s.tables.describe(code)
    except NoSuchTable:
        return _no_table()
    base = s.cfg.public_url or str(request.base_url)
    return Response(qr_svg(base.rstrip("/") + table_path(code)), media_type="image/svg+xml")


async def client_page(request: Request) -> Response:
    return FileResponse(_server(request).cfg.web_dir / "index.html", media_type="text/html")


# ------------------------------------------------------------------ the socket


async def table_socket(ws: WebSocket) -> None:
    s = _server(ws)
    code = normalize_code(ws.path_params["code"]) or ""
    offered: list[str] = list(ws.scope.get("subprotocols") or [])
    token = next((p.removeprefix(TOKEN_PREFIX) for p in offered if p.startswith(TOKEN_PREFIX)), None) or None
    if token is None and ws.query_params.get("token"):
        token = ws.query_params["token"]  # deprecated: a URL ends up in access logs and proxies
        log.warning("a client sent its seat token in the socket URL (deprecated; use the "
                    "truco.token.<token> subprotocol)")
    await ws.accept(subprotocol=SUBPROTOCOL if SUBPROTOCOL in offered else None)
    wanted = ws.query_params.get("protocol")
    if wanted is not None and wanted != str(PROTOCOL_VERSION):
        await ws.close(CloseCode.BAD_PROTOCOL, f"this server speaks protocol {PROTOCOL_VERSION}")
        return
    key = (code, token)
    limits = s.cfg.socket_limits
    limit = limits.max_sockets_per_player if token else limits.max_spectators_per_table
    if s.sockets.get(key, 0) >= limit:
        await ws.close(CloseCode.POLICY, "too many connections")
        return
    s.sockets[key] = s.sockets.get(key, 0) + 1
    try:
        await SocketSession(ws, s.tables, code, token, limits).run()
    finally:
        s.sockets[key] -= 1
        if not s.sockets[key]:
            del s.sockets[key]


ROUTES: list[Route | WebSocketRoute] = [
    Route("/health", health),
    Route("/api/tables", list_tables, methods=["GET"]),
    Route("/api/tables", create_table, methods=["POST"]),
    Route("/api/tables/{code}", get_table, methods=["GET"]),
    Route("/api/tables/{code}/join", join_table, methods=["POST"]),
    Route("/api/tables/{code}/qr.svg", table_qr, methods=["GET"]),
    Route("/m/{code}", client_page, methods=["GET"]),
    *REPLAY_ROUTES,
    WebSocketRoute("/ws/{code}", table_socket),
]


@contextlib.asynccontextmanager
async def _lifespan(app: Starlette) -> AsyncIterator[None]:
    s: Server = app.state.server
    gc_policy = GcPolicy(s.cfg.gc_full_s)
    if s.start_runtime:
        await s.tables.start()
    s.loop_health.start()
    gc_policy.start()
    try:
        yield
    finally:
        await gc_policy.stop()
        await s.loop_health.stop()
        if s.start_runtime:
            await s.tables.close()
            for fn in s.cfg.on_shutdown:
                fn()


def create_app(rt: Runtime, config: ServerConfig | None = None, *, start_runtime: bool = True,
               front: Front | None = None) -> Starlette:
    """The app serving ``rt``. With ``start_runtime`` the app's lifespan starts and closes it (or
    ``front``, a cluster node in front of ``rt``, which starts and closes ``rt`` itself)."""
    cfg = config or ServerConfig()
    static = Mount("/", StaticFiles(directory=cfg.web_dir, html=True, check_dir=False), name="web")
    app = Starlette(routes=[*ROUTES, static], lifespan=_lifespan)
    app.state.server = Server(rt, cfg, start_runtime, front=front)
    return app
