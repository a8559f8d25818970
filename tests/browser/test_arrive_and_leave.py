"""Friends come and go as they do on phones, against the real server, in one run: four sit down; the
host leaves the waiting room (the host role passes at once to someone here) and comes back as a
guest; a guest leaves; a newcomer sits in the freed seat and the host removes her (her phone says so
and goes back to the sala); someone closes the page (the waiting room says who is missing) and is
removed, and their phone, back later with the ended token (close 4004), lands on the join page; the
four start; a late fifth person can only watch; and a token that never got a seat never blanks the
page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.conftest import LiveServer
from tests.browser.phone import (
    create_table,
    join_table,
    new_phone,
    set_seat,
    shot,
    tap_first,
    view,
    wait_until,
)


def status_line(page: Page) -> Any:
    return page.locator(".waiting-screen p[role=status]")


def stored_seat(page: Page, code: str) -> Any:
    return page.evaluate(f"localStorage.getItem('truco.seat.{code}')")


def test_friends_arrive_leave_are_removed_and_watch(browser: Browser, live_server: LiveServer,
                                                     shots: Path) -> None:
    contexts: list[BrowserContext] = []
    sockets: list[str] = []

    def phone() -> Page:
        ctx, page = new_phone(browser)
        contexts.append(ctx)
        page.on("websocket", lambda ws: sockets.append(ws.url))
        return page

    ana = phone()
    code = create_table(ana, live_server.url, "Ana", players=4)
    link = f"{live_server.url}/m/{code}"
    names = {}
    for name in ("Beto", "Caro", "Dani"):
        p = phone()
        join_table(p, link, name)
        names[name] = p
    names["Ana"] = ana
    expect(status_line(ana)).to_have_text("¡Están todos! Tocá «Empezar».")
    # the seat token travels in the WebSocket subprotocol, never in the address
    assert sockets and all("token" not in url for url in sockets)

    # ---- the host leaves the waiting room: the host role passes at once to someone who is here
    ana.get_by_role("button", name="Salir de la mesa").click()
    expect(ana.locator("#app[data-screen=home]")).to_be_visible()
    expect(ana.locator(".flash")).to_have_text(f"Saliste de la mesa {code}.")
    assert stored_seat(ana, code) is None
    host = wait_until(lambda: next((p for n, p in names.items() if n != "Ana" and view(p)["me"]["host"]),
                                   None), what="a new host")
    expect(host.get_by_role("button", name="Empezar")).to_be_disabled()  # Ana's seat is free now
    expect(host.locator(".seat-row.empty")).to_have_count(1)
    # Ana comes back through the link, as a guest
    join_table(ana, link, "Ana")
    assert view(ana)["me"]["host"] is False

    # ---- a guest leaves
    guests = [n for n in ("Beto", "Caro", "Dani") if names[n] is not host]
    leaver, dropper = guests[0], guests[1]
    names[leaver].get_by_role("button", name="Salir de la mesa").click()
    expect(names[leaver].locator("#app[data-screen=home]")).to_be_visible()
    expect(names[leaver].locator(".flash")).to_have_text(f"Saliste de la mesa {code}.")
    expect(host.locator(".seat-row.empty")).to_have_count(1)

    # ---- a newcomer sits in the freed seat and the host removes her: her phone says so, in the sala
    eli = phone()
    join_table(eli, link, "Eli")
    expect(host.get_by_role("button", name="Quitar a Eli de la mesa")).to_be_visible()
    shot(host, shots, "live-waiting-host-tools")
    host.get_by_role("button", name="Quitar a Eli de la mesa").click()
    expect(eli.locator("#app[data-screen=home]")).to_be_visible()
    expect(eli.locator(".flash")).to_have_text(f"Quien organiza te sacó de la mesa {code}.")
    assert stored_seat(eli, code) is None
    shot(eli, shots, "live-removed")
    join_table(names[leaver], link, leaver)  # the guest who left comes back

    # ---- someone closes the page: the waiting room says who is away, not "¡Están todos!"
    drop_ctx = names[dropper].context
    names[dropper].close()
    expect(host.locator(".seat-row.away")).to_contain_text(dropper)
    expect(status_line(host)).to_have_text(f"Falta que vuelva {dropper}.")
    expect(status_line(ana)).to_have_text(f"Falta que vuelva {dropper}.")
    shot(host, shots, "live-waiting-away")
    host.get_by_role("button", name=f"Quitar a {dropper} de la mesa").click()
    expect(host.locator(".seat-row.empty")).to_have_count(1)
    # their phone comes back later with the stored (now ended) token: the join page, with why
    back = drop_ctx.new_page()
    errors: list[str] = []
    back.on("pageerror", lambda e: errors.append(str(e)))
    back.js_errors = errors  # type: ignore[attr-defined]
    back.goto(link)
    expect(back.locator("#app[data-screen=join]")).to_be_visible()
    expect(back.locator(".flash")).to_contain_text("Ya no tenés lugar en esta mesa")
    assert stored_seat(back, code) is None
    shot(back, shots, "live-seat-gone")
    back.get_by_label("Tu nombre").fill(dropper)
    back.get_by_role("button", name="Sentarse").click()
    expect(back.locator("#app[data-screen=waiting]")).to_be_visible()
    names[dropper] = back
    assert errors == []

    # ---- the four start
    expect(status_line(host)).to_have_text("¡Están todos! Tocá «Empezar».")
    host.get_by_role("button", name="Empezar").click()
    four = [names[n] for n in ("Ana", "Beto", "Caro", "Dani")]
    for p in four:
        expect(p.locator("#app[data-screen=table]")).to_be_visible()
        expect(p.locator(".my-hand .card")).to_have_count(3)

    # ---- a late fifth person: no seat is offered once the match is on; watching works
    fede = phone()
    fede.goto(link)
    expect(fede.get_by_test_id("no-seat")).to_have_text("La partida ya empezó: podés mirarla.")
    expect(fede.get_by_role("button", name="Sentarse")).to_have_count(0)
    expect(fede.get_by_label("Tu nombre")).to_have_count(0)
    shot(fede, shots, "live-join-late")
    fede.get_by_role("button", name="Solo mirar").click()
    expect(fede.locator("#app[data-screen=table]")).to_be_visible()
    expect(fede.locator("button.card")).to_have_count(0)
    expect(fede.get_by_role("status").filter(has_text="Estás mirando")).to_be_visible()
    # the four play a whole trick while Fede watches it on the felt
    def played(page: Page) -> int:
        return sum(len(r) for r in (view(page).get("game") or {}).get("rounds", []))

    def trick_played() -> bool:
        # anyone's newer view counts: a fifth card must not go down before Fede's view catches up
        if max(played(p) for p in [fede, *four]) >= 4:
            return played(fede) >= 4
        for p in four:
            cards = p.locator("button.card.playable")
            if cards.count() and tap_first(cards):
                break
        return False

    wait_until(trick_played, timeout=30, what="a whole trick")
    expect(fede.locator(".felt .played > .card")).to_have_count(4)

    # ---- a token that never got a seat (a join that raced the start) never blanks the page
    token = live_server.post(f"/api/tables/{code}/join", {"name": "Gabi"})["token"]
    gabi = phone()
    set_seat(gabi, live_server.url, code, token, "Gabi")
    expect(gabi.locator("#app[data-screen=join]")).to_be_visible()
    expect(gabi.locator(".flash")).to_have_text("La partida empezó sin vos: no quedó lugar. Podés mirarla.")
    expect(gabi.get_by_role("button", name="Solo mirar")).to_be_visible()
    assert stored_seat(gabi, code) is None
    gabi.reload()
    expect(gabi.locator("#app[data-screen=join]")).to_be_visible()
    expect(gabi.get_by_role("button", name="Solo mirar")).to_be_visible()
    # the table never saw Gabi sit, and nobody's page broke
    assert all(s["name"] != "Gabi" for s in view(fede)["seats"])
    for p in [*four, fede, gabi, eli, ana]:
        assert p.js_errors == [], p.js_errors  # type: ignore[attr-defined]
    for c in contexts:
        c.close()


def test_an_unknown_seat_token_lands_on_the_join_page(browser: Browser, live_server: LiveServer) -> None:
    """Close 4001 (a token this table never gave): forgotten, and the join/watch page says why."""
    created = live_server.post("/api/tables", {"settings": {"players": 2}, "name": "Ana"})
    ctx, page = new_phone(browser)
    set_seat(page, live_server.url, created["code"], "not-a-token-of-this-table", "Ana")
    expect(page.locator("#app[data-screen=join]")).to_be_visible()
    expect(page.locator(".flash")).to_contain_text("no reconoce tu lugar guardado")
    expect(page.get_by_role("button", name="Sentarse")).to_be_visible()  # the lobby has a free seat
    assert stored_seat(page, created["code"]) is None
    assert page.js_errors == []  # type: ignore[attr-defined]
    ctx.close()
