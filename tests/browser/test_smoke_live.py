"""Smoke: the real server serves the client; a table is created and joined through the link."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, expect

from tests.browser.conftest import LiveServer
from tests.browser.helpers import create_table, join_table, new_phone, shot


def test_create_join_and_start(browser: Browser, live_server: LiveServer,
        shots: Path) -> None:
    host_ctx, host = new_phone(browser)
    code = create_table(host, live_server.url, "Ana", players=2)
    link = host.locator("#share-link").input_value()
    assert link.endswith(f"/m/{code}")
    expect(host.locator(".qr svg, .qr img")).to_be_visible()
    guest_ctx, guest = new_phone(browser)
    join_table(guest, link, "Beto")
    expect(host.get_by_role("button", name="Empezar")).to_be_enabled()
    shot(host, shots, "live-waiting")
    host.get_by_role("button", name="Empezar").click()
    expect(host.locator("#app[data-screen=table]")).to_be_visible()
    expect(guest.locator("#app[data-screen=table]")).to_be_visible()
    expect(guest.locator(".my-hand .card")).to_have_count(3)
    shot(guest, shots, "live-table2")
    assert host.js_errors == [] and guest.js_errors == []  # type: ignore[attr-defined]
    host_ctx.close()
    guest_ctx.close()
