"""Replays over HTTP: the page at ``/r/<code>/<match>`` (and a table's statistics at ``/r/<code>``),
the replay as JSON (a spectator's by GET, a player's by POST with their seat token in the body,
never in a URL), the match record to download, and the points of a table's matches.

Everything is built from storage, away from the event loop: a finished match never changes, so a
small cache keeps the replays asked for most recently.
"""

from __future__ import annotations

import asyncio
import hashlib
import inspect
from collections import OrderedDict
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Route

from truco.protocol import ErrorCode, ProtocolError
from truco.protocol.lobby import MAX_BODY_BYTES
from truco.protocol.replays import NoSuchMatch, download_record, replay_from_log, table_stats
from truco.server.codes import normalize_code
from truco.storage.base import StorageError

CACHE_SIZE = 128
_cache: OrderedDict[tuple[str, int, str], dict[str, Any]] = OrderedDict()


def _json(content: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(orjson.dumps(content), status_code=status, media_type="application/json", headers=headers)


def _problem(status: int, code: ErrorCode, message: str) -> Response:
    return _json({"error": {"code": str(code), "message": message}}, status)


def _not_found() -> Response:
    return _problem(404, ErrorCode.NO_SUCH_TABLE, "there is no finished match with that code and number")


def _storage(request: Request) -> Any:
    return request.app.state.server.rt.storage


def _match_no(request: Request) -> int | None:
    raw = request.path_params["match"]
    return int(raw) if raw.isdigit() and 0 < len(raw) <= 9 else None


def _replay_now(storage: Any, code: str, match_no: int, token: str | None) -> dict[str, Any]:
    return replay_from_log(storage.log(code), match_no, token)


async def _replay(request: Request, token: str | None) -> Response:
    code = normalize_code(request.path_params["code"])
    match_no = _match_no(request)
    if code is None or match_no is None:
        return _not_found()
    key = (code, match_no, hashlib.sha256((token or "").encode()).hexdigest())
    found = _cache.get(key)
    if found is None:
        try:
            found = await asyncio.to_thread(_replay_now, _storage(request), code, match_no, token)
        except (StorageError, NoSuchMatch):
            return _not_found()
        _cache[key] = found
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    else:
        _cache.move_to_end(key)
    return _json(found)


async def replay_json(request: Request) -> Response:
    """A spectator's replay: what everyone at the table heard."""
    return await _replay(request, None)


async def replay_for_player(request: Request) -> Response:
    """A player's replay: ``{"token": "<seat token>"}`` in the body adds what their seat heard."""
    allowed = request.app.state.server.allow_post(request)
    if inspect.isawaitable(allowed):  # a cluster's shared limits answer asynchronously
        allowed = await allowed
    if not allowed:
        return _problem(429, ErrorCode.RATE_LIMITED, "too many requests; wait a moment")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            return _problem(400, ErrorCode.BAD_MESSAGE, f"a request body is at most {MAX_BODY_BYTES} bytes")
    try:
        data = orjson.loads(body or b"{}")
        token = data.get("token") if isinstance(data, dict) else None
        if token is not None and (not isinstance(token, str) or len(token) > 128):
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "token must be a string")
    except (orjson.JSONDecodeError, ProtocolError):
        return _problem(400, ErrorCode.BAD_MESSAGE, 'the body is {"token": "<your seat token>"}')
    return await _replay(request, token or None)


async def match_download(request: Request) -> Response:
    """The match as the hand record JSON ``truco replay`` and ``truco verify`` read."""
    code = normalize_code(request.path_params["code"])
    match_no = _match_no(request)
    if code is None or match_no is None:
        return _not_found()
    try:
        matches = await asyncio.to_thread(_storage(request).matches, code)
        match = next(m for m in matches if m.get("match_no") == match_no)
        record = download_record(match)
    except (StorageError, StopIteration):
        return _not_found()
    except NoSuchMatch as e:
        return _problem(404, ErrorCode.NO_SUCH_TABLE, str(e))
    name = f"truco-{code}-{match_no}.json"
    return _json(record, headers={"Content-Disposition": f'attachment; filename="{name}"'})


async def stats_json(request: Request) -> Response:
    """Every finished match of a table, and its points by envido, truco and flor and hands won."""
    code = normalize_code(request.path_params["code"])
    if code is None:
        return _not_found()
    try:
        matches = await asyncio.to_thread(_storage(request).matches, code)
    except StorageError:
        return _not_found()
    stats = await asyncio.to_thread(table_stats, sorted(matches, key=lambda m: int(m.get("match_no", 0))))
    return _json({"code": code, **stats})


async def replay_page(request: Request) -> Response:
    return FileResponse(request.app.state.server.cfg.web_dir / "replay.html", media_type="text/html")


ROUTES = [
    Route("/r/{code}", replay_page, methods=["GET"]),
    Route("/r/{code}/{match}", replay_page, methods=["GET"]),
    Route("/api/replays/{code}/stats", stats_json, methods=["GET"]),
    Route("/api/replays/{code}/{match}", replay_json, methods=["GET"]),
    Route("/api/replays/{code}/{match}", replay_for_player, methods=["POST"]),
    Route("/api/replays/{code}/{match}/record.json", match_download, methods=["GET"]),
]
