"""Driving the phone client like a person: tap what is on the screen, read what the server says."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

PHONE = {"width": 390, "height": 844}
SHORT_HOLD = "window.__trucoTiming = { holdMs: 400 };"
"""An init script: a hand's last trick stays on the felt 0.4 s instead of 2.5 s (the client's test
hook), for tests that play hand after hand and look at no hold."""


def new_phone(browser: Browser) -> tuple[BrowserContext, Page]:
    ctx = browser.new_context(viewport=PHONE, device_scale_factor=2, has_touch=True, locale="es-AR")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.js_errors = errors  # type: ignore[attr-defined]
    return ctx, page


def state(page: Page) -> dict[str, Any]:
    """The client's last table view (what the server sent this player)."""
    raw = page.evaluate("JSON.stringify(window.__truco ? window.__truco.state() : null)")
    return json.loads(raw) if raw else {}


def view(page: Page) -> dict[str, Any]:
    return state(page).get("tv") or {}


def screen(page: Page) -> str:
    return page.evaluate("document.getElementById('app').dataset.screen || ''")


def set_seat(page: Page, base: str, code: str, token: str, name: str) -> None:
    """Give this browser a seat token, as if it had created or joined the table itself."""
    page.goto(base + "/")
    page.evaluate("([c, s]) => localStorage.setItem('truco.seat.' + c, s)",
                  [code, json.dumps({"token": token, "name": name})])
    page.goto(f"{base}/m/{code}")


def create_table(page: Page, base: str, name: str, players: int = 4, mode: str = "full") -> str:
    page.goto(base + "/")
    page.get_by_label("Tu nombre").fill(name)
    page.locator(f"label[for=players-{players}]").click()
    if mode == "casual":
        page.locator("label[for=mode-casual]").click()
    page.get_by_role("button", name="Crear la mesa").click()
    expect(page.locator("#app[data-screen=waiting]")).to_be_visible()
    return page.url.rsplit("/", 1)[-1]


def join_table(page: Page, link: str, name: str) -> None:
    page.goto(link)
    page.get_by_label("Tu nombre").fill(name)
    page.get_by_role("button", name="Sentarse").click()
    expect(page.locator("#app[data-screen=waiting]")).to_be_visible()


def wait_until(fn: Any, timeout: float = 15.0, what: str = "condition") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = fn()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


GONE_MS = 3000
"""How long ``tap_first`` waits for a button it saw a moment ago before it lets the loop look again."""


def tap_first(locator: Locator, timeout_ms: float = GONE_MS) -> bool:
    """Tap the first element ``locator`` finds, if it is still there (False when it went away).

    A loop that looks and then taps races the server: between the look and the tap the next update
    may take the button away (this phone's tap of a moment ago was answered, a bot played, a summary
    closed by itself). Playwright's click would wait its whole 30 s for a button that is not coming
    back, and in a loop that drives several phones in turn nothing else moves meanwhile: a test that
    fails under load only. A button gone for ``timeout_ms`` is left alone, and the loop looks again.
    """
    try:
        locator.first.click(timeout=timeout_ms)
    except PlaywrightTimeout:
        return False
    return True


def answer_the_call(page: Page) -> bool:
    """Tap "quiero" on the vote panel when it is offered, else its first answer (see ``tap_first``)."""
    quiero = page.locator(".vote-buttons .answer-quiero")
    return tap_first(quiero if quiero.count() else page.locator(".vote-panel .vote-buttons button"))


def dismiss_summary(page: Page) -> None:
    btn = page.locator("[data-testid=summary-close]")
    if btn.count():
        tap_first(btn)


def shot(page: Page, shots: Path, name: str, settle_ms: int = 350, sharp: bool = True) -> None:
    """A 2× picture to look at (``sharp``), and a light 1× copy (``css/``) small enough for the docs."""
    page.wait_for_timeout(settle_ms)
    if sharp:
        page.screenshot(path=str(shots / f"{name}.png"), full_page=True)
    (shots / "css").mkdir(exist_ok=True)
    page.screenshot(path=str(shots / "css" / f"{name}.png"), full_page=True, scale="css")
