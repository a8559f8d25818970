"""Every screen rendered from real table views (the mock page), checked for the basics and saved as a
390×844 screenshot under artifacts/screenshots/ to be looked at."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.phone import shot

SCREENS = ["home", "home_flash", "join", "join_full", "join_playing", "join_missing", "join_seat_gone",
           "waiting", "waiting_away", "waiting_guest", "start", "my_turn", "mazo_confirm", "table", "vote",
           "vote_bot", "vote_other", "vote_forced", "envido_stake", "envido_stake_caller", "turn_clock",
           "turn_expired", "table2", "table6", "table8", "pica", "pica_dueling", "summary_pica",
           "hold", "hold4", "summary", "summary2", "summary_casual",
           "summary_final", "match_end", "match_end2", "match_lost", "cancelled", "replaced", "disconnected",
           "reconnecting", "senas", "sena_received", "casual_host", "casual_player", "spectator"]


@pytest.fixture
def page(mock_page: Page) -> Page:
    """The mock-page tests here share one page (conftest.mock_page)."""
    return mock_page


def open_mock(page: Page, static_url: str, screen: str, lang: str = "es", names: str = "") -> None:
    """The mock page on ``screen``; ``names="long"``: every seat named with 24 characters (the most)."""
    errors: list[str] = []

    def on_error(e: Any) -> None:
        errors.append(str(e))

    page.on("pageerror", on_error)  # removed after: the page is shared by the module's tests
    try:
        query = f"screen={screen}&lang={lang}" + (f"&names={names}" if names else "")
        page.goto(f"{static_url}/dev/mock.html?{query}")
        page.wait_for_selector("body[data-ready='1']")
    finally:
        page.remove_listener("pageerror", on_error)
    assert not errors, errors


def test_every_screen_renders_and_is_saved(page: Page, static_url: str, shots: Path) -> None:
    """Every screen at 390×844, saved to be looked at; every button has a name a screen reader can say."""
    for screen in SCREENS:
        open_mock(page, static_url, screen)
        shot(page, shots, f"mock-{screen}", settle_ms=120)
        unnamed = page.evaluate("""() => [...document.querySelectorAll('button')]
            .filter(b => !(b.getAttribute('aria-label') || b.textContent.trim())).length""")
        assert unnamed == 0, screen


def test_every_screen_on_a_small_phone_is_saved(page: Page, static_url: str, shots: Path) -> None:
    """Every screen on a small phone (360×740), to be looked at too; nothing wider than the phone."""
    page.set_viewport_size({"width": 360, "height": 740})
    for screen in SCREENS:
        open_mock(page, static_url, screen)
        shot(page, shots, f"mock-360-{screen}", settle_ms=120, sharp=False)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, screen


@pytest.mark.parametrize("screen", ["table", "my_turn", "mazo_confirm", "vote", "casual_host", "waiting",
                                    "waiting_away", "home", "join", "senas", "summary2", "summary_final",
                                    "cancelled", "hold", "pica_dueling", "summary_pica"])
def test_touch_targets_are_at_least_44px(page: Page, static_url: str, screen: str) -> None:
    open_mock(page, static_url, screen)
    small = page.evaluate("""() => [
        ...document.querySelectorAll('button, input[type=text], select, .seg span')]
        .filter(e => e.offsetParent !== null)
        .map(e => [e.getBoundingClientRect(), e.getAttribute('aria-label') || e.textContent.trim()])
        .filter(([r]) => r.height < 44 || r.width < 44).map(([r, n]) => `${n}: ${r.width}x${r.height}`)""")
    assert small == []


@pytest.mark.parametrize("width", [360, 390, 430])
def test_nothing_overflows_a_phone_width(page: Page, static_url: str, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 800})
    for screen in ["table", "my_turn", "table6", "pica", "summary_pica", "vote", "casual_host", "waiting",
                   "waiting_away", "home",
                   "join", "summary", "summary2", "senas", "replaced", "hold4", "envido_stake"]:
        open_mock(page, static_url, screen)
        scroll = page.evaluate("document.documentElement.scrollWidth")
        assert scroll <= width, f"{screen} is {scroll}px wide on a {width}px phone"


@pytest.mark.parametrize("width", [360, 390])
def test_the_longest_names_never_push_a_screen_wider_than_the_phone(page: Page, static_url: str,
                                                                     width: int) -> None:
    """A name may be 24 characters (the server's limit). With every seat so named, no screen is wider
    than the phone: the turn line is cut with an ellipsis, never the hand's value or the casual badge
    (under 375 px the badge is not in the strip), and the language button stays on screen. (A long
    name once pushed the info strip 100 px past a 360 px phone.) The words are cut on screen only:
    the turn line still says the whole name."""
    page.set_viewport_size({"width": width, "height": 800})
    strip_js = """() => {
        const s = document.querySelector('.info-strip');
        if (!s) return null;
        const box = (sel) => { const e = s.querySelector(sel); return e ? {
            right: e.getBoundingClientRect().right, cut: e.scrollWidth > e.clientWidth, text: e.textContent,
        } : null; };
        return { lang: box('.lang'), value: box('.truco-value'), casual: box('.chip-casual'),
                 turn: box('.turn-text') };
    }"""
    strips = 0
    for lang in ("es", "en"):
        for screen in SCREENS:
            open_mock(page, static_url, screen, lang=lang, names="long")
            scroll = page.evaluate("document.documentElement.scrollWidth")
            assert scroll <= width, f"{screen} ({lang}): {scroll}px wide on a {width}px phone, long names"
            strip = page.evaluate(strip_js)
            if strip is None:
                continue
            strips += 1
            assert strip["lang"]["right"] <= width, (screen, lang, strip)
            for whole in ("value", "casual"):
                assert strip[whole] is None or not strip[whole]["cut"], (screen, lang, whole, strip)
    assert strips >= 20  # the table screens were there to be checked
    open_mock(page, static_url, "table", names="long")
    turn = page.locator(".info-strip .turn-text")
    assert turn.evaluate("e => e.scrollWidth > e.clientWidth")  # cut on screen...
    expect(turn).to_have_text("Le toca a Juan Bautista Rodríguez")  # ...and whole for a screen reader


def test_table_shows_mano_pie_dealer_and_turn(page: Page, static_url: str) -> None:
    open_mock(page, static_url, "table")
    expect(page.locator(".chip-mano")).to_have_count(1)
    expect(page.locator(".chip-pie")).to_have_count(2)  # one pie per team
    expect(page.locator(".chip-dealer")).to_have_count(1)
    expect(page.locator(".seat.is-turn")).to_have_count(1)  # yours included


def test_only_legal_cards_and_calls_are_offered(page: Page, static_url: str) -> None:
    open_mock(page, static_url, "vote")
    # a truco is pending: no card may be played, the answers are in the vote panel
    expect(page.locator("button.card")).to_have_count(0)
    expect(page.get_by_role("button", name="Quiero", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="No quiero")).to_be_visible()
    page.get_by_role("button", name="Quiero", exact=True).click()
    assert page.evaluate("window.__sent") == [{"type": "vote", "answer": "quiero"}]


def test_vote_panel_shows_partner_vote_and_countdown(page: Page, static_url: str) -> None:
    open_mock(page, static_url, "vote")
    expect(page.locator(".votes li")).to_contain_text("No quiero")
    expect(page.locator(".vote-timer")).to_contain_text("s para ponerse de acuerdo")


def test_bot_partner_hint(page: Page, static_url: str) -> None:
    open_mock(page, static_url, "vote_bot")
    expect(page.locator(".bot-hint")).to_contain_text("te sugiere")


def test_english_is_available(page: Page, static_url: str, shots: Path) -> None:
    open_mock(page, static_url, "vote", lang="en")
    expect(page.get_by_role("button", name="Quiero (accept)")).to_be_visible()
    shot(page, shots, "mock-vote-en")


def test_casual_host_buttons(page: Page, static_url: str) -> None:
    open_mock(page, static_url, "casual_host")
    page.get_by_role("button", name="+3 para Ellos").click()
    page.get_by_role("button", name="Deshacer el último punto anotado").click()
    sent = page.evaluate("window.__sent")
    assert sent[0] == {"type": "award", "team": 1, "points": 3}
    assert sent[1] == {"type": "undo_award"}
    end_hand = "Terminar la mano (después de un «no quiero» en voz alta)"
    expect(page.get_by_role("button", name=end_hand)).to_be_visible()


def test_the_whole_deck_sheet(page: Page, static_url: str, shots: Path) -> None:
    page.set_viewport_size({"width": 900, "height": 640})
    page.goto(f"{static_url}/dev/deck.html")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator(".card svg")).to_have_count(41)  # 40 faces and the back
    shot(page, shots, "deck")


def test_the_hand_summary_is_the_servers_last_hand(page: Page, static_url: str) -> None:
    """Each team's points with the reason the engine paid them, the score, the tantos, the cards shown:
    all read from ``last_hand`` (fixture ``table4_hand_over``: an envido and a truco, both wanted)."""
    import json

    from tests.browser.conftest import MOCK

    hand = json.loads((MOCK / "fixtures.json").read_text())["table4_hand_over"]["last_hand"]
    open_mock(page, static_url, "summary")
    overlay = page.get_by_role("dialog", name="Resumen de la mano 1")
    expect(overlay).to_be_visible()
    rows = page.eval_on_selector_all(".summary-table tr", """els => els.map(e => [e.className,
        e.dataset.reason, e.querySelector('td').textContent, e.querySelector('.pts').textContent])""")
    # I sit at seat 0 (team 0): "us" is team 0
    want = sorted(["us" if p["team"] == 0 else "them", p["reason"], p["reason"].capitalize(),
                   f"+{p['points']}"] for p in hand["points"])
    assert sorted(rows) == want and {r[1] for r in rows} == {"envido", "truco"}
    score = hand["score"]
    expect(page.locator(".summary-score")).to_have_text(f"Nosotros {score[0]} · Ellos {score[1]}")
    expect(overlay.locator(".sung li")).to_have_count(len(hand["sung"]))
    expect(overlay.locator(".shown .card")).to_have_count(sum(len(s["cards"]) for s in hand["shown"]))


def test_the_casual_summary_counts_the_hosts_awards(page: Page, static_url: str) -> None:
    open_mock(page, static_url, "summary_casual")
    expect(page.locator(".summary-table tr")).to_have_count(2)
    expect(page.locator(".summary-table tr.us")).to_contain_text("Anotado+2")
    expect(page.locator(".summary-table tr.them")).to_contain_text("Anotado+3")
    expect(page.locator(".summary-score")).to_have_text("Nosotros 2 · Ellos 3")


def _engine_reason_codes() -> set[str]:
    """Every reason the engine pays points for (the string given to ``_award`` / ``_end_hand``)."""
    import re

    from tests.browser.conftest import ROOT

    src = (ROOT / "src" / "truco" / "engine" / "game.py").read_text()
    codes = set(re.findall(r'_(?:award|end_hand)\([^\n]*?"([a-z_]+)"', src))
    codes |= set(re.findall(r'reason = [^\n]*?"([a-z_]+)"', src))
    return codes


def test_every_reason_code_has_words_in_both_languages() -> None:
    """The summary maps each reason code to a key explicitly (overlays.js REASON_KEYS): every code the
    engine pays, plus ``casual``, has one, and both Spanish and English have that key."""
    import re

    from tests.browser.conftest import WEB

    overlays = (WEB / "js" / "overlays.js").read_text()
    table = overlays[overlays.index("REASON_KEYS = {"):]
    table = table[:table.index("};")]
    keys = dict(re.findall(r"(\w+): \"(\w+)\"", table))
    codes = _engine_reason_codes()
    assert {"truco", "envido", "mazo", "truco_no_querido", "contra_flor_al_resto"} <= codes  # the parse works
    assert codes | {"casual"} == set(keys)
    es, en = ((WEB / "js" / "lang" / f"{lang}.js").read_text() for lang in ("es", "en"))
    for key in keys.values():
        assert f"  {key}: " in es and f"  {key}: " in en, key


def test_both_languages_have_words_for_the_same_keys() -> None:
    import re

    from tests.browser.conftest import WEB

    es, en = (set(re.findall(r"^  (\w+): ", (WEB / "js" / "lang" / f"{lang}.js").read_text(), re.M))
              for lang in ("es", "en"))
    assert len(es) > 300  # the parse works
    assert sorted(es - en) == [] and sorted(en - es) == []


def test_the_cancelled_screen_names_who_the_server_says(page: Page, static_url: str) -> None:
    # Beto's seat is already free in this view: only result.name can name him
    open_mock(page, static_url, "cancelled")
    expect(page.locator(".why")).to_have_text("Beto se desconectó y no volvió a tiempo. Nadie suma puntos.")
    open_mock(page, static_url, "cancelled", lang="en")
    expect(page.locator(".why")).to_contain_text("Beto disconnected")


def test_a_replaced_tab_says_so_and_offers_to_take_the_seat_back(page: Page, static_url: str) -> None:
    open_mock(page, static_url, "replaced")
    expect(page.locator("#app[data-screen=replaced]")).to_be_visible()
    expect(page.get_by_role("alert")).to_contain_text("otra pestaña")
    expect(page.locator("button.card")).to_have_count(0)  # nothing to play from here
    page.get_by_role("button", name="Jugar en esta pestaña").click()
    assert page.evaluate("window.__sent") == [{"type": "take_seat_here"}]


def test_a_spectator_sees_no_hand_and_no_buttons(page: Page, static_url: str) -> None:
    open_mock(page, static_url, "spectator")
    expect(page.locator(".my-hand .card, button.card")).to_have_count(0)
    expect(page.locator(".actions button")).to_have_count(0)
    expect(page.get_by_role("status").filter(has_text="Estás mirando")).to_be_visible()
    expect(page.locator(".score-team").first).to_have_text("Equipo 1")


def _keys(a: object, b: object, where: str = "") -> list[str]:
    """Where two JSON values differ in their object keys (values themselves may differ)."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = [f"{where}: {sorted(set(a) ^ set(b))}"] if set(a) != set(b) else []
        for k in set(a) & set(b):
            out += _keys(a[k], b[k], f"{where}.{k}")
        return out
    if isinstance(a, list) and isinstance(b, list) and a and b:
        return _keys(a[0], b[0], f"{where}[0]")
    return []


def test_the_mock_fixtures_have_the_shape_the_server_sends_today() -> None:
    """mock/fixtures.json is rebuilt from real table sessions; when the view changes, rebuild it
    (python tests/browser/make_fixtures.py) so the mock page keeps drawing what phones receive."""
    import json

    from tests.browser.conftest import MOCK
    from tests.browser.make_fixtures import build

    stored = json.loads((MOCK / "fixtures.json").read_text())
    fresh = json.loads(json.dumps(build()))
    assert sorted(stored) == sorted(fresh)
    assert [d for key in fresh for d in _keys(stored[key], fresh[key], key)] == []
