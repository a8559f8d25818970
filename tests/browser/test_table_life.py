"""A seat survives a reload; a player who leaves for good cancels the match after the grace time; one
person plays a whole match against a bot; the host of a casual table scores with buttons and undoes."""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import Browser, Page, WebSocket, expect

from tests.browser.conftest import LiveServer
from tests.browser.phone import (
    SHORT_HOLD,
    answer_the_call,
    create_table,
    dismiss_summary,
    join_table,
    new_phone,
    set_seat,
    shot,
    state,
    tap_first,
    view,
    wait_until,
)


def on_table(page: Page) -> None:
    expect(page.locator("#app[data-screen=table]")).to_be_visible()


def test_reload_mid_hand_resumes_the_seat_with_the_same_cards(browser: Browser, live_server: LiveServer,
        shots: Path) -> None:
    host_ctx, host = new_phone(browser)
    create_table(host, live_server.url, "Ana", players=2)
    guest_ctx, guest = new_phone(browser)
    join_table(guest, host.locator("#share-link").input_value(), "Beto")
    host.get_by_role("button", name="Empezar").click()
    on_table(host)
    on_table(guest)
    # whoever is mano plays a card, so the hand is under way
    first = wait_until(lambda: next((p for p in (host, guest)
                                     if p.locator("button.card.playable").count()), None))
    # a double tap (two taps before the server answers) plays one card, once
    first.evaluate("() => { const b = document.querySelector('button.card.playable'); b.click(); b.click() }")
    wait_until(lambda: sum(len(r) for r in view(guest)["game"]["rounds"]) == 1, what="the card on the table")
    first.wait_for_timeout(500)
    assert first.locator(".toast").count() == 0  # no second command, so no refusal to show
    assert sum(len(r) for r in view(guest)["game"]["rounds"]) == 1
    before = view(guest)
    guest.reload()
    on_table(guest)
    expect(guest.locator(".my-hand .card")).to_have_count(len(before["game"]["cards"]))
    after = wait_until(lambda: view(guest).get("game") and view(guest))
    assert after["me"]["seat"] == before["me"]["seat"]
    assert after["game"]["cards"] == before["game"]["cards"]
    assert after["game"]["rounds"] == before["game"]["rounds"]
    assert sorted(guest.eval_on_selector_all(".my-hand .card", "els => els.map(e => e.dataset.card)")) == \
        sorted(before["game"]["cards"])
    shot(guest, shots, "live-after-reload")
    # a lost connection (not a reload): the page reconnects by itself and keeps the seat
    hellos = state(guest)["hellos"]
    guest.evaluate("window.__truco.dropConnection()")
    wait_until(lambda: state(guest)["hellos"] == hellos + 1, what="the automatic reconnection")
    expect(guest.locator(".banner.warn")).to_have_count(0)
    assert view(guest)["game"]["cards"] == before["game"]["cards"]
    host_ctx.close()
    guest_ctx.close()


def test_closing_the_page_for_good_cancels_after_the_grace_time(browser: Browser, live_server: LiveServer,
        shots: Path) -> None:
    settings = {"players": 2, "reconnect_seconds": 3}  # the grace time, shortened for the test
    created = live_server.post("/api/tables", {"settings": settings, "name": "Ana"})
    code = created["code"]
    joined = live_server.post(f"/api/tables/{code}/join", {"name": "Beto"})
    host_ctx, host = new_phone(browser)
    # the host's phone clock is an hour late: countdowns must still run on the server's clock
    host_ctx.add_init_script("(() => { const real = Date.now; Date.now = () => real() - 3600000; })()")
    set_seat(host, live_server.url, code, created["token"], "Ana")
    guest_ctx, guest = new_phone(browser)
    set_seat(guest, live_server.url, code, joined["token"], "Beto")
    expect(host.get_by_role("button", name="Empezar")).to_be_enabled()
    host.get_by_role("button", name="Empezar").click()
    on_table(host)
    on_table(guest)
    guest_ctx.close()  # gone for good
    expect(host.locator(".banner.away")).to_contain_text("Beto se desconectó")
    expect(host.locator(".chip-away")).to_be_visible()
    expect(host.locator(".banner.away")).to_have_text(re.compile(r"Lo esperamos [0-3] s"))
    assert 3590_000 < state(host)["clockOffset"] < 3610_000
    shot(host, shots, "live-disconnected")
    expect(host.locator("#app[data-screen=cancelled]")).to_be_visible(timeout=10_000)
    # the server says who did not come back (their seat is already free in this view)
    result = view(host)["result"]
    assert (result["reason"], result["seat"], result["name"]) == ("disconnected", 1, "Beto")
    assert all(s["name"] != "Beto" for s in view(host)["seats"])
    expect(host.locator(".why")).to_have_text("Beto se desconectó y no volvió a tiempo. Nadie suma puntos.")
    shot(host, shots, "live-cancelled")
    # a newcomer who sits in the freed seat gets a normal waiting room, not the last match's cancellation
    caro_ctx, caro = new_phone(browser)
    join_table(caro, f"{live_server.url}/m/{code}", "Caro")
    assert view(caro)["result"] is None
    expect(caro.locator(".why")).to_have_count(0)
    # the host read it: she stays at the table, in the waiting room, with Caro
    host.get_by_role("button", name="Quedarme en la mesa").click()
    expect(host.locator("#app[data-screen=waiting]")).to_be_visible()
    expect(host.locator(".team-box").nth(1)).to_contain_text("Caro")
    assert caro.js_errors == [] and host.js_errors == []  # type: ignore[attr-defined]
    caro_ctx.close()
    host_ctx.close()


HELD_AT_THE_END = SHORT_HOLD + """
window.__heldAtTheEnd = false;
new MutationObserver(() => {
  const felt = document.querySelector(".felt.held");
  const over = window.__truco?.state().tv?.phase === "over";
  if (felt && felt.checkVisibility() && over) window.__heldAtTheEnd = true;
}).observe(document, { subtree: true, childList: true, attributes: true });
"""


def test_one_person_plays_a_whole_match_against_a_bot(browser: Browser, live_server: LiveServer,
        shots: Path) -> None:
    ctx, page = new_phone(browser)
    # A short hold (waiting 2.5 s for every hand took most of a whole match); so that no check races
    # it, the page itself notes when the felt is held with the match over (an observer runs on every
    # change to the page).
    ctx.add_init_script(HELD_AT_THE_END)
    page.goto(live_server.url + "/")
    page.get_by_label("Tu nombre").fill("Ana")
    # the bots' level and the points are chosen on the home page
    page.get_by_label("Nivel de los bots").select_option("facil")
    page.locator("label[for=bots-target-15]").click()
    page.get_by_role("button", name="Mano a mano (2)").click()
    on_table(page)
    assert view(page)["settings"]["target"] == 15
    assert {s["level"] for s in view(page)["seats"] if s["kind"] == "bot"} == {"facil"}
    seen_vote = False

    def step() -> bool:
        if view(page).get("phase") == "over":
            return True
        # What there is to do is looked at before the summary: a hand's summary shows when its last
        # trick leaves the felt, and while the trick is held nothing can be answered or played, so a
        # summary that shows after this look cannot cover what is tapped next (a tap on a covered card
        # would wait until the summary closes by itself, 8 s later).
        answers = page.locator(".vote-panel .vote-buttons button")
        cards = page.locator("button.card.playable")
        to_answer, to_play = answers.count(), cards.count()
        if page.locator("[data-testid=summary-close]").count():
            dismiss_summary(page)
            return False
        if to_answer:
            nonlocal seen_vote
            if not seen_vote:
                shot(page, shots, "live-bot-call")
                seen_vote = True
            answer_the_call(page)
        elif to_play:
            tap_first(cards)
        return False

    wait_until(step, timeout=240, what="the end of the match")
    # the hand that ended the match: its last trick on the felt, then its summary, then the result
    wait_until(lambda: page.evaluate("window.__heldAtTheEnd"), what="the last trick held on the felt")
    summary = page.get_by_role("dialog", name=re.compile("Resumen de la mano"))
    expect(summary).to_be_visible(timeout=6000)
    expect(summary.get_by_test_id("hand-winner")).to_contain_text("Ganó la mano")
    shot(page, shots, "live-final-hand-summary")
    summary.get_by_role("button", name="Ver el resultado").click()
    expect(page.locator("#app[data-screen=match_end]")).to_be_visible()
    result = view(page)["result"]
    assert result["cancelled"] is False and max(result["score"]) >= 15
    # mano a mano it is "you", not "you all"
    expect(page.locator("h1")).to_have_text("¡Ganaste!" if result["winner"] == 0 else "Perdiste")
    expect(page.get_by_role("button", name="Revancha")).to_be_visible()
    shot(page, shots, "live-match-end")
    assert page.js_errors == []  # type: ignore[attr-defined]
    ctx.close()


def test_casual_table_host_scores_with_buttons_and_undoes(browser: Browser, live_server: LiveServer,
        shots: Path) -> None:
    host_ctx, host = new_phone(browser)
    host_ctx.add_init_script(SHORT_HOLD)
    create_table(host, live_server.url, "Ana", players=2, mode="casual")
    host.get_by_role("button", name="Poner un bot (#2)").click()
    host.get_by_role("button", name="Empezar").click()
    on_table(host)
    expect(host.get_by_role("button", name="Truco")).to_have_count(0)  # no calls in casual mode
    host.get_by_role("button", name="+3 para Nosotros").click()
    expect(host.locator("[data-testid=score-us]")).to_have_text("3")
    host.get_by_role("button", name="+2 para Ellos").click()
    expect(host.locator("[data-testid=score-them]")).to_have_text("2")
    shot(host, shots, "live-casual")
    host.get_by_role("button", name="Deshacer el último punto anotado").click()
    expect(host.locator("[data-testid=score-them]")).to_have_text("0")
    expect(host.locator("[data-testid=score-us]")).to_have_text("3")
    assert view(host)["casual"]["score"] == [3, 0]
    # a double tap on a host button acts once: "+4" adds 4, "Deshacer" undoes one award, with no refusal
    double_tap(host, "+4 para Nosotros")
    expect(host.locator("[data-testid=score-us]")).to_have_text("7")
    host.wait_for_timeout(700)
    assert view(host)["casual"]["score"] == [7, 0]
    double_tap(host, "Deshacer el último punto anotado")
    expect(host.locator("[data-testid=score-us]")).to_have_text("3")
    host.wait_for_timeout(700)
    assert view(host)["casual"]["score"] == [3, 0]
    expect(host.locator(".toast")).to_have_count(0)
    hand = view(host)["game"]["hand_no"]
    # "Terminar mano" tapped twice ends one hand, not two
    double_tap(host, "Terminar la mano (después de un «no quiero» en voz alta)")
    wait_until(lambda: (view(host).get("game") or {}).get("hand_no") == hand + 1, what="the next hand")
    host.wait_for_timeout(700)
    assert view(host)["game"]["hand_no"] == hand + 1
    # the summary counts the host's awards (the undone one is gone) and the casual score
    expect(host.locator(".summary-table")).to_contain_text("Anotado")
    expect(host.locator(".summary-table")).to_contain_text("+3")
    expect(host.locator(".summary-table")).not_to_contain_text("+2")
    expect(host.locator(".summary-score")).to_have_text("Nosotros 3 · Ellos 0")
    shot(host, shots, "live-casual-summary")
    dismiss_summary(host)
    expect(host.locator(".hand-no")).to_have_text(f"Mano {hand + 1}")
    # a hand played to its end: the server pays nothing (the host scores) but says who took it
    while (view(host).get("game") or {}).get("hand_no") == hand + 1:
        cards = host.locator("button.card.playable")
        if cards.count():
            tap_first(cards)
        host.wait_for_timeout(100)
    last = view(host)["last_hand"]
    assert last["points"] == [] and last["winner"] in (0, 1)
    team = "Nosotros" if last["winner"] == 0 else "Ellos"
    expect(host.get_by_test_id("hand-winner")).to_have_text(f"Ganó la mano: {team} — anotá", timeout=6000)
    shot(host, shots, "live-casual-winner")
    assert host.js_errors == []  # type: ignore[attr-defined]
    host_ctx.close()


def double_tap(page: Page, label: str) -> None:
    """Two taps before the server can answer the first (as a thumb does on a slow phone)."""
    page.evaluate("(l) => { const b = document.querySelector(`button[aria-label=\"${l}\"]`);"
                  " b.click(); b.click(); }", label)


def test_with_a_bot_partner_the_human_decides_and_sees_its_hint(browser: Browser, live_server: LiveServer,
                                                                 shots: Path) -> None:
    ctx, page = new_phone(browser)
    ctx.add_init_script(SHORT_HOLD)
    sockets: list[WebSocket] = []
    page.on("websocket", lambda ws: sockets.append(ws))
    page.goto(live_server.url + "/")
    page.get_by_label("Tu nombre").fill("Ana")
    page.get_by_role("button", name="De a cuatro (4)").click()
    on_table(page)
    expect(page.locator(".chip-bot")).to_have_count(3)

    def step() -> bool:
        v = view(page)
        if v.get("phase") != "playing":
            raise AssertionError("the match ended before the other team called anything")
        if (v.get("vote") or {}).get("mine"):
            return True
        # looked at before the summary, as in the whole match above: a summary cannot cover this card
        cards = page.locator("button.card.playable")
        to_play = cards.count()
        if page.locator("[data-testid=summary-close]").count():
            dismiss_summary(page)
            return False
        if to_play:
            tap_first(cards)
        return False

    wait_until(step, timeout=180, what="a call my team must answer")
    expect(page.locator(".bot-hint")).to_contain_text("te sugiere")
    expect(page.locator(".vote-buttons button").first).to_be_visible()
    shot(page, shots, "live-bot-partner-hint")
    me = view(page)["me"]["seat"]

    def my_vote_decides(payload: str | bytes) -> bool:
        msg = json.loads(payload)
        events = (msg.get("events") or []) if msg.get("type") == "update" else []
        return any(e["type"] == "vote_cast" and e["seat"] == me and e["vote"] == "quiero" for e in events) \
            and any(e["type"] == "vote_decided" and e["team"] == me % 2 and e["answer"] == "quiero"
                    for e in events)

    # The one update that carries my vote carries my team's decision too: decided at once, without
    # waiting for the bot partner. Watched in the update itself, set up before the tap, because the
    # rivals' bots (50 ms) may hand my team the next call before any poll of the view sees this one
    # decided (a raise comes back at once; after a quiero, a new hand may bring the same call).
    with sockets[-1].expect_event("framereceived", predicate=my_vote_decides, timeout=15_000):
        page.locator(".vote-buttons").get_by_role("button", name="Quiero", exact=True).click()
    ctx.close()
