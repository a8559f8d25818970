"""Every screen rendered from real table views (the mock page), checked for the basics and saved as a
390×844 screenshot under artifacts/screenshots/ to be looked at."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.phone import shot

SCREENS = ["home", "waiting", "start", "table", "vote", "vote_bot", "vote_other", "table2", "table6",
           "summary", "match_end", "match_lost", "cancelled", "disconnected", "reconnecting", "senas",
           "sena_received", "casual_host", "casual_player", "spectator"]


def open_mock(page: Page, static_url: str, screen: str, lang: str = "es") -> None:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{static_url}/dev/mock.html?screen={screen}&lang={lang}")
    page.wait_for_selector("body[data-ready='1']")
    assert not errors, errors


@pytest.mark.parametrize("screen", SCREENS)
def test_screen_renders_and_is_saved(page: Page, static_url: str, shots: Path, screen: str) -> None:
    open_mock(page, static_url, screen)
    shot(page, shots, f"mock-{screen}")
    # every button has a name a screen reader can say
    unnamed = page.evaluate("""() => [...document.querySelectorAll('button')]
        .filter(b => !(b.getAttribute('aria-label') || b.textContent.trim())).length""")
    assert unnamed == 0


@pytest.mark.parametrize("screen", ["table", "vote", "casual_host", "waiting", "home", "senas"])
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
    for screen in ["table", "table6", "vote", "casual_host", "waiting", "home", "summary", "senas"]:
        open_mock(page, static_url, screen)
        scroll = page.evaluate("document.documentElement.scrollWidth")
        assert scroll <= width, f"{screen} is {scroll}px wide on a {width}px phone"


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
