"""Deals anyone can verify and matches watched again, in a real browser against the real server: the
phone's SHA-256 and shuffle agree with the server's, the "reparto verificado" mark and its details,
the replay link at the match's end, the replay page step by step (a spectator's and a player's),
the record download and the statistics chart. Screenshots at 390×844 and 360×740."""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, ViewportSize, expect
from websockets.sync.client import connect

from tests.browser.conftest import LiveServer
from tests.browser.phone import new_phone, set_seat, shot, wait_until
from truco.engine.cards import NAME, shuffled_deck_sha256
from truco.engine.fairness import dealt_from_seed
from truco.protocol import SUBPROTOCOL, TOKEN_PREFIX

CHECKED_MINE = ("window.__truco.state().extra.fair?.result.checks"
                ".some((c) => c.key === 'fair_mine_in' && !c.late) ?? false")
"""The last deal the phone checked had this phone's contribution in it."""
MARK_SIZE = ("() => { const r = document.querySelector('[data-testid=fair-mark]')?.getBoundingClientRect();"
             " return r && r.width ? [r.width, r.height] : null; }")
SIZES: dict[str, ViewportSize] = {"": {"width": 390, "height": 844}, "-360": {"width": 360, "height": 740}}


def play_to_the_end(server: LiveServer, players: int = 2) -> tuple[str, str]:
    """A match against bots, played by a socket client (the mazo whenever it may, else its first legal
    action), that contributes to every deal. Returns the table code and the player's token."""
    seat = server.post("/api/tables", {"settings": {"players": players, "target": 15}, "name": "Ana",
                                       "bots": "random"})
    code, token = seat["code"], seat["token"]
    url = server.url.replace("http", "ws") + f"/ws/{code}"
    sent = 0
    acted = -1
    contributed: set[tuple[int, int]] = set()
    with connect(url, subprotocols=[SUBPROTOCOL, TOKEN_PREFIX + token]) as ws:  # type: ignore[list-item]
        while True:
            msg = json.loads(ws.recv(timeout=30))
            v = msg.get("view")
            if not v:
                continue
            if v["phase"] == "over":
                return code, token
            nxt = v["fairness"]["next"]
            if nxt and not nxt["mine"] and (nxt["match_no"], nxt["hand_no"]) not in contributed:
                contributed.add((nxt["match_no"], nxt["hand_no"]))
                value = hashlib.sha256(f"{code}{nxt['hand_no']}".encode()).hexdigest()[:32]
                sent += 1
                ws.send(json.dumps({"type": "contribute", "id": f"f{sent}", "match_no": nxt["match_no"],
                                    "hand_no": nxt["hand_no"], "value": value}))
            if v["legal"] and v["version"] != acted:
                acted = v["version"]
                legal: list[dict[str, Any]] = v["legal"]
                a = next((x for x in legal if x["do"] == "mazo"), legal[0])
                sent += 1
                ws.send(json.dumps({"type": "act", "id": f"a{sent}", "do": a["do"],
                                    **({"card": a["card"]} if a.get("card") else {})}))


def play_until(phone: Page, done: Any, timeout: float = 60) -> bool:
    """The phone plays its first legal action (a card when it may) whenever it has one, until ``done()``
    (True) or the match is over (False)."""
    acted = [-1, 0.0]

    def step() -> bool:
        if done():
            return True
        tv = phone.evaluate("window.__truco.state().tv")
        if tv and tv["phase"] == "over":
            return True
        # once per version; again after a while if the table did not move (a refusal, a lost frame)
        if tv and tv["legal"] and (tv["version"] != acted[0] or time.monotonic() - acted[1] > 2):
            acted[0], acted[1] = tv["version"], time.monotonic()
            a = next((x for x in tv["legal"] if x["do"] == "play"), tv["legal"][0])
            phone.evaluate("(c) => window.__truco.send(c)",
                           {"type": "act", "do": a["do"], **({"card": a["card"]} if a.get("card") else {})})
        return False

    try:
        wait_until(step, timeout, "the hands to be played")
        return bool(done())
    except AssertionError:
        tv = phone.evaluate("window.__truco.state()")
        raise AssertionError(f"stuck: {json.dumps(tv)[:3000]}") from None


def test_the_phone_shuffles_and_hashes_exactly_like_the_server(page: Page, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/")
    seed = hashlib.sha256(b"truco").digest()
    got = page.evaluate("""async (hex) => {
        const f = await import('/js/fairness.js');
        const seed = f.fromHex(hex);
        return { sha: f.toHex(f.sha256(new TextEncoder().encode('abc'))),
                 long: f.toHex(f.sha256(new Uint8Array(200).fill(7))),
                 deck: f.shuffledDeck(seed), zero: f.shuffledDeck(new Uint8Array(32)),
                 deal: f.dealFromSeed(seed, 6, 4) };
    }""", seed.hex())
    assert got["sha"] == hashlib.sha256(b"abc").hexdigest()
    assert got["long"] == hashlib.sha256(bytes([7]) * 200).hexdigest()
    assert got["deck"] == [NAME[c] for c in shuffled_deck_sha256(seed)]
    assert got["zero"] == [NAME[c] for c in shuffled_deck_sha256(bytes(32))]
    assert got["deal"] == [[NAME[c] for c in h] for h in dealt_from_seed(seed, 6, 4)]


def test_after_a_hand_the_phone_shows_the_deal_verified_with_its_details(browser: Browser,
                                                                       live_server: LiveServer,
                                                                       shots: Path) -> None:
    for suffix, size in SIZES.items():
        ctx, phone = new_phone(browser)
        phone.set_viewport_size(size)
        for _ in range(4):  # a falta envido may end a match against bots in its first hand: again
            seat = live_server.post("/api/tables", {"settings": {"players": 4, "target": 30}, "name": "Ana",
                                                    "bots": "normal"})
            set_seat(phone, live_server.url, seat["code"], seat["token"], "Ana")
            expect(phone.locator("#app[data-screen=table], #app[data-screen=match_end]")).to_be_visible()
            # hand 1 was dealt before this phone could contribute; its contribution goes into a later one
            if play_until(phone, lambda p=phone: p.evaluate(CHECKED_MINE)):
                break
        else:
            raise AssertionError("four matches ended in their first hand")
        mark = phone.locator("[data-testid=fair-mark]")
        expect(mark).to_be_visible()
        expect(mark).to_have_class("btn ghost small fair-mark ok")
        width, height = wait_until(lambda p=phone: p.evaluate(MARK_SIZE), 10, "the mark drawn")
        assert width >= 44 and height >= 44
        shot(phone, shots, f"fair-mark{suffix}")
        mark.click()
        sheet = phone.locator("[data-screen=fairness]")
        expect(sheet).to_be_visible()
        expect(sheet.locator("[data-check=fair_commit].ok")).to_have_count(1)
        expect(sheet.locator("[data-check=fair_commit_before].ok")).to_have_count(1)
        expect(sheet.locator("[data-check=fair_mine_in].ok")).to_have_count(1)
        expect(sheet.locator("[data-check=fair_cards].ok")).to_have_count(1)
        shot(phone, shots, f"fair-details{suffix}")
        phone.locator("[data-testid=fair-close]").click()
        expect(sheet).to_have_count(0)
        assert phone.js_errors == []  # type: ignore[attr-defined]
        ctx.close()


def test_a_finished_match_links_to_its_replay_which_a_player_watches_step_by_step(
        browser: Browser, live_server: LiveServer, shots: Path) -> None:
    code, token = play_to_the_end(live_server)
    for suffix, size in SIZES.items():
        ctx, phone = new_phone(browser)
        phone.set_viewport_size(size)
        set_seat(phone, live_server.url, code, token, "Ana")
        expect(phone.locator("#app[data-screen=match_end]")).to_be_visible()
        link = phone.get_by_test_id("replay-link")
        expect(link).to_have_attribute("href", f"/r/{code}/1")
        shot(phone, shots, f"match-end-replay-link{suffix}")
        link.click()
        expect(phone.locator("#app[data-screen=replay]")).to_be_visible()
        expect(phone.get_by_text("como jugador")).to_be_visible()
        expect(phone.locator(".replay-mine .card")).to_have_count(3)  # a player sees their own cards
        shot(phone, shots, f"replay-start{suffix}")
        nxt = phone.get_by_test_id("replay-next")
        while not phone.locator("[data-testid=replay-all]").count():
            nxt.click()
        expect(phone.get_by_test_id("replay-fair")).to_contain_text("Reparto verificado")
        shot(phone, shots, f"replay-hand-end{suffix}")
        for button in phone.locator("button, a.btn").all():
            b = button.bounding_box()
            assert b is not None and b["height"] >= 44, button.inner_text()
        assert phone.js_errors == []  # type: ignore[attr-defined]
        ctx.close()


def test_a_spectator_watches_the_replay_without_anyones_hand_until_it_is_revealed(
        page: Page, live_server: LiveServer, shots: Path) -> None:
    code, _ = play_to_the_end(live_server)
    page.set_viewport_size(SIZES[""])
    page.goto(f"{live_server.url}/r/{code}/1")
    expect(page.locator("#app[data-screen=replay]")).to_be_visible()
    expect(page.get_by_text("como espectador")).to_be_visible()
    expect(page.locator(".replay-mine")).to_have_count(0)
    expect(page.locator("[data-testid=replay-all]")).to_have_count(0)
    download = page.request.get(f"{live_server.url}/api/replays/{code}/1/record.json")
    assert download.ok and download.json()["deals"]


def test_a_tables_statistics_are_a_chart(browser: Browser, live_server: LiveServer, shots: Path) -> None:
    code, _ = play_to_the_end(live_server)
    for suffix, size in SIZES.items():
        ctx, phone = new_phone(browser)
        phone.set_viewport_size(size)
        phone.goto(f"{live_server.url}/r/{code}")
        expect(phone.locator("#app[data-screen=stats]")).to_be_visible()
        expect(phone.locator("svg.stats-chart").first).to_be_visible()
        # points by envido, truco and flor, and hands won: two bars (teams) in each group
        assert phone.locator("[data-testid=chart-points] rect.bar").count() == 6
        assert phone.locator("[data-testid=chart-hands] rect.bar").count() == 2
        assert phone.locator("table").count() == 0
        expect(phone.get_by_role("link", name="Partido 1")).to_have_attribute("href", f"/r/{code}/1")
        shot(phone, shots, f"stats{suffix}")
        ctx.close()
