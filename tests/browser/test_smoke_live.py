"""Smoke: the real server serves the client; a table is created and joined through the link."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, expect

from tests.browser.conftest import LiveServer
from tests.browser.phone import create_table, join_table, new_phone, shot


def test_create_join_and_start(browser: Browser, live_server: LiveServer,
        shots: Path) -> None:
    host_ctx, host = new_phone(browser)
    code = create_table(host, live_server.url, "Ana", players=2)
    link = host.locator("#share-link").input_value()
    assert link.endswith(f"/m/{code}")
    expect(host.locator(".qr svg, .qr img")).to_be_visible()
    guest_ctx, guest = new_phone(browser)
    guest.goto(link)
    expect(guest.locator("#app[data-screen=join]")).to_be_visible()
    expect(guest.locator("main")).to_contain_text("Ana")  # whose table it is
    shot(guest, shots, "live-join")
    join_table(guest, link, "Beto")
    expect(host.get_by_role("button", name="Empezar")).to_be_enabled()
    shot(host, shots, "live-waiting")
    host.get_by_role("button", name="Empezar").click()
    expect(host.locator("#app[data-screen=table]")).to_be_visible()
    expect(guest.locator("#app[data-screen=table]")).to_be_visible()
    expect(guest.locator(".my-hand .card")).to_have_count(3)
    shot(guest, shots, "live-table2")
    # a third phone just watches: the table, no hand, no buttons
    watcher_ctx, watcher = new_phone(browser)
    watcher.goto(link)
    watcher.get_by_role("button", name="Solo mirar").click()
    expect(watcher.locator("#app[data-screen=table]")).to_be_visible()
    expect(watcher.locator(".seat-name").filter(has_text="Beto")).to_be_visible()
    expect(watcher.locator("button.card")).to_have_count(0)
    shot(watcher, shots, "live-spectator")
    watcher_ctx.close()
    assert host.js_errors == [] and guest.js_errors == []  # type: ignore[attr-defined]
    host_ctx.close()
    guest_ctx.close()


def test_host_arranges_the_seats(browser: Browser, live_server: LiveServer, shots: Path) -> None:
    host_ctx, host = new_phone(browser)
    create_table(host, live_server.url, "Ana", players=4)
    guest_ctx, guest = new_phone(browser)
    join_table(guest, host.locator("#share-link").input_value(), "Beto")
    expect(host.locator(".seat-row").nth(2)).to_contain_text("Beto")  # rows: team 1 (1, 3), team 2 (2, 4)
    # Beto sat at seat 2 (the other team); the host moves him to seat 3, her partner
    host.get_by_role("button", name="Cambiar de lugar: Beto").click()
    host.locator(".seat-row").nth(1).get_by_role("button", name="Pasarlo acá").click()
    expect(host.locator(".team-box").first).to_contain_text("Beto")
    expect(guest.locator(".team-box").first).to_contain_text("Beto")
    host.get_by_label("Nivel del bot").select_option("dificil")
    host.get_by_role("button", name="Poner un bot (#2)").click()
    host.get_by_role("button", name="Poner un bot (#4)").click()
    expect(host.locator(".chip-bot")).to_have_count(2)
    expect(host.locator(".chip-bot").first).to_contain_text("difícil")
    host.get_by_role("button", name="Sacar el bot (#4)").click()
    expect(host.locator(".chip-bot")).to_have_count(1)
    expect(host.get_by_role("button", name="Empezar")).to_be_disabled()
    host.get_by_role("button", name="Poner un bot (#4)").click()
    host.get_by_role("button", name="Mezclar equipos").click()
    expect(host.get_by_role("button", name="Empezar")).to_be_enabled()
    shot(host, shots, "live-waiting-arranged")
    host.get_by_role("button", name="Empezar").click()
    expect(guest.locator("#app[data-screen=table]")).to_be_visible()
    host_ctx.close()
    guest_ctx.close()


def test_open_tables_and_join_by_code(browser: Browser, live_server: LiveServer, shots: Path) -> None:
    host_ctx, host = new_phone(browser)
    code = create_table(host, live_server.url, "Fede", players=4)
    ctx, other = new_phone(browser)
    other.goto(live_server.url + "/")
    listed = other.locator(".open-tables li").filter(has_text=code)
    expect(listed).to_contain_text("Fede")
    shot(other, shots, "live-home-open-tables")
    listed.get_by_role("button").click()
    expect(other.locator("#app[data-screen=join]")).to_be_visible()
    # and by typing the code, in any case
    other.goto(live_server.url + "/")
    other.get_by_label("Entrar con un código").fill(code.lower())
    other.get_by_role("button", name="Entrar", exact=True).click()
    expect(other.locator("#app[data-screen=join]")).to_be_visible()
    assert other.url.endswith(f"/m/{code}")
    host_ctx.close()
    ctx.close()
