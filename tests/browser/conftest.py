"""Chromium for Playwright, a static server for the mock page, and the real server for end-to-end tests.

Never downloads a browser: a Playwright-managed Chromium is used when one is installed, otherwise
Debian's ``/usr/bin/chromium`` (or ``TRUCO_CHROMIUM``). Without either, the browser tests skip with
the reason, unless ``TRUCO_REQUIRE_SERVICES=1`` (CI), where they fail.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import shutil
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "src" / "truco" / "web"
MOCK = Path(__file__).resolve().parent / "mock"
"""The dev mock page: served beside the client in tests only, never by the product."""
SHOTS = ROOT / "artifacts" / "screenshots"
SYSTEM_CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]
PHONE = {"width": 390, "height": 844}


def _required() -> bool:
    return os.environ.get("TRUCO_REQUIRE_SERVICES") == "1"


def unavailable(reason: str) -> None:
    """Skip, or fail when CI requires every service."""
    if _required():
        pytest.fail(f"{reason} (TRUCO_REQUIRE_SERVICES=1)")
    pytest.skip(reason)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


def _playwright_chromium_installed() -> bool:
    base = Path(os.environ.get("PLAYWRIGHT_BROWSERS_PATH") or Path.home() / ".cache" / "ms-playwright")
    return base.is_dir() and any(p.name.startswith("chromium") for p in base.iterdir())


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    try:
        import playwright  # noqa: F401
    except ImportError:
        unavailable("playwright is not installed (pip install playwright pytest-playwright)")
    chosen = os.environ.get("TRUCO_CHROMIUM")
    if not chosen and _playwright_chromium_installed():
        return {**browser_type_launch_args, "args": CHROMIUM_ARGS}
    exe = chosen or (SYSTEM_CHROMIUM if os.path.exists(SYSTEM_CHROMIUM) else shutil.which("chromium"))
    if not exe or not os.path.exists(exe):
        unavailable(f"no Chromium at {exe or SYSTEM_CHROMIUM}: apt-get install -y chromium "
                    "(never `playwright install` here)")
    return {**browser_type_launch_args, "executable_path": exe, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="package")
def browser_context_args() -> dict[str, Any]:
    """Every ``page`` is a phone (the plugin's own version needs a session-wide Playwright)."""
    return {"viewport": PHONE, "device_scale_factor": 2, "has_touch": True, "locale": "es-AR"}


def free_port() -> int:
    with contextlib.closing(socket.socket()) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def _module_tab(browser: Any, browser_context_args: dict[str, Any]) -> Iterator[Any]:
    ctx = browser.new_context(**browser_context_args)
    yield ctx.new_page()
    ctx.close()


@pytest.fixture
def mock_page(_module_tab: Any) -> Iterator[Any]:
    """One phone page for all the mock-page tests of a module: a new context and its first load of
    the page took most of each such test. Every test opens its screen first (a new document); here
    it starts at a phone's size, and what it stored is cleared after it."""
    page = _module_tab
    page.set_viewport_size(PHONE)
    yield page
    page.context.clear_cookies()
    if page.url.startswith("http"):
        page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    """The client's files as they are, with the mock page under ``/dev/``."""

    def translate_path(self, path: str) -> str:
        if path.startswith("/dev/"):
            return str(MOCK / path.split("?", 1)[0].removeprefix("/dev/"))
        return super().translate_path(path)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="session")
def static_url() -> Iterator[str]:
    """The client's files served as they are (for the mock page: no server logic involved)."""
    handler = functools.partial(_QuietHandler, directory=str(WEB))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="session")
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS


class LiveServer:
    """The real ASGI app (runtime + SQLite) under uvicorn, in a thread, on 127.0.0.1 and a free port."""

    def __init__(self, db: Path, bot_delay: float = 0.05, hand_pause: float = 0.0) -> None:
        import uvicorn

        from truco.runtime import Runtime
        from truco.server.app import ServerConfig, create_app
        from truco.server.main import WS_MAX_SIZE
        from truco.storage import SQLiteStorage

        self.storage = SQLiteStorage(str(db))
        self.rt = Runtime(self.storage, bot_delay=bot_delay, hand_pause=hand_pause)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        cfg = ServerConfig(http_rate=0, on_shutdown=[self.storage.close])
        config = uvicorn.Config(create_app(self.rt, cfg), host="127.0.0.1", port=self.port,
                                log_level="warning", access_log=False, ws_max_size=WS_MAX_SIZE,
                                ws_per_message_deflate=False, lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> LiveServer:
        import time
        import urllib.request

        self.thread.start()
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/health", timeout=1) as r:
                    if r.status == 200:
                        return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the server did not start")

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        import json
        import urllib.request

        req = urllib.request.Request(self.url + path, data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"}, method="POST")
        with urllib.request.urlopen(req, timeout=5) as r:
            data: dict[str, Any] = json.loads(r.read())
            return data


@pytest.fixture(scope="package")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    try:
        import truco.server.app  # noqa: F401
    except ImportError as e:
        unavailable(f"the server is not available: {e}")
    server = LiveServer(tmp_path_factory.mktemp("db") / "truco.db").start()
    yield server
    server.stop()


# ---------------------------------------------------------------- Playwright, for this package only
#
# pytest-playwright keeps its sync Playwright (and the event loop it runs in the main thread) for the
# whole session, so every asyncio test collected after the browser tests fails with "cannot be called
# from a running event loop". The same fixtures at package scope end with the last browser test.


@pytest.fixture(scope="package")
def playwright(_pw_api_request_contexts: Any) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    if _pw_api_request_contexts:
        _pw_api_request_contexts.instrument(pw)
    yield pw
    pw.stop()


@pytest.fixture(scope="package")
def browser_type(playwright: Any, browser_name: str) -> Any:
    return getattr(playwright, browser_name)


@pytest.fixture(scope="package")
def launch_browser(browser_type_launch_args: dict[str, Any], browser_type: Any) -> Any:
    def launch(**kwargs: Any) -> Any:
        return browser_type.launch(**{**browser_type_launch_args, **kwargs})

    return launch


@pytest.fixture(scope="package")
def browser(launch_browser: Any) -> Iterator[Any]:
    b = launch_browser()
    yield b
    b.close()
