"""Four phones join one table through the shared link and play whole hands: an envido with the tantos
sung, a truco whose team vote first splits and then agrees inside the 10 s window, a mazo, and the
hand summaries. Everything is done by tapping what the screen offers."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import LiveServer
from tests.browser.phone import (
    create_table,
    dismiss_summary,
    join_table,
    new_phone,
    shot,
    tap_first,
    view,
    wait_until,
)

STAKE = "Envido: 2 querido / 1 no querido"


def legal(page: Page) -> list[str]:
    return [a["do"] for a in view(page).get("legal", [])]


def seat(page: Page) -> int:
    return int(view(page)["me"]["seat"])


def tap(page: Page, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).click()


def summary_rows(page: Page) -> list[tuple[str, str, str]]:
    """The summary sheet's lines: (us/them, reason code, points)."""
    rows = page.eval_on_selector_all(".summary-table tr", """els => els.map(e =>
        [e.className, e.dataset.reason, e.querySelector('.pts').textContent])""")
    return sorted((a, b, c) for a, b, c in rows)


def expected_rows(page: Page) -> list[tuple[str, str, str]]:
    """What the summary should say, from the server's last_hand: points summed by team and reason."""
    mine = seat(page) % 2
    sums: dict[tuple[int, str], int] = {}
    for pt in view(page)["last_hand"]["points"]:
        sums[(pt["team"], pt["reason"])] = sums.get((pt["team"], pt["reason"]), 0) + pt["points"]
    return sorted(("us" if team == mine else "them", reason, f"+{n}") for (team, reason), n in sums.items())


def go_to_mazo(page: Page) -> None:
    """The mazo gives the hand away: it asks once more before it is sent."""
    tap(page, "Me voy al mazo")
    expect(page.get_by_role("group", name="¿Te vas al mazo? Perdés la mano.")).to_be_visible()
    tap(page, "Sí, me voy")


def play_until_hand_over(pages: list[Page], hand_no: int, mazo_team: int | None = None) -> None:
    """Everyone plays any legal card in turn (a team going to the mazo goes when it is their turn)."""

    def step() -> bool:
        for p in pages:
            g = view(p).get("game") or {}
            if g.get("hand_no", hand_no) > hand_no or view(p).get("phase") != "playing":
                return True
        for p in pages:
            acts = legal(p)
            if mazo_team is not None and seat(p) % 2 == mazo_team and "mazo" in acts:
                go_to_mazo(p)
                return False
            cards = p.locator("button.card.playable")
            if cards.count() and tap_first(cards):
                return False
        return False

    wait_until(step, timeout=60, what=f"hand {hand_no} to end")


def test_four_friends_play_whole_hands(browser: Browser, live_server: LiveServer,
        shots: Path) -> None:
    contexts = []
    ctx, host = new_phone(browser)
    contexts.append(ctx)
    create_table(host, live_server.url, "Ana", players=4)
    link = host.locator("#share-link").input_value()
    pages = [host]
    for name in ("Beto", "Caro", "Dani"):
        ctx, p = new_phone(browser)
        contexts.append(ctx)
        join_table(p, link, name)
        pages.append(p)
    expect(host.get_by_role("button", name="Empezar")).to_be_enabled()
    shot(host, shots, "live-waiting-4")
    tap(host, "Empezar")
    for p in pages:
        expect(p.locator("#app[data-screen=table]")).to_be_visible()
        expect(p.locator(".my-hand .card")).to_have_count(3)
        # mano, pie (one per team) and the dealer are always on show
        expect(p.locator(".chip-mano")).to_have_count(1)
        expect(p.locator(".chip-pie")).to_have_count(2)
        expect(p.locator(".chip-dealer")).to_have_count(1)

    # ---- hand 1: an envido, accepted by the other team's two votes; the table sings the tantos
    caller = wait_until(lambda: next((p for p in pages if "envido" in legal(p)), None),
                        what="an envido button")
    tap(caller, "Envido")
    answering = [p for p in pages if seat(p) % 2 != seat(caller) % 2]
    for p in pages:
        expect(p.locator(".announce-call")).to_have_text("¡Envido!")
    for p in answering:
        expect(p.locator(".vote-panel")).to_be_visible()
        # what the envido called so far pays, accepted or declined (game.envido_stake)
        expect(p.locator(".vote-panel").get_by_test_id("envido-stake")).to_have_text(STAKE)
    expect(caller.locator(".announce").get_by_test_id("envido-stake")).to_have_text(STAKE)
    for p in answering:
        tap(p, "Quiero")
    for p in pages:
        expect(p.locator(".sung li").first).to_be_visible()
    sung = view(host)["game"]["sung"]
    assert sung and all(s["tanto"] == -1 or 0 <= s["tanto"] <= 33 for s in sung)
    shot(host, shots, "live-envido-sung")

    # ---- a truco: the answering team's votes differ, the window opens, then they agree inside it
    caller = wait_until(lambda: next((p for p in pages if "truco" in legal(p)), None), what="a truco button")
    tap(caller, "Truco")
    a, b = [p for p in pages if seat(p) % 2 != seat(caller) % 2]
    expect(a.locator(".vote-panel")).to_be_visible()
    tap(a, "Quiero")
    expect(b.locator(".votes li")).to_contain_text("Quiero")  # b sees a's vote
    tap(b, "No quiero")
    expect(a.locator(".vote-timer")).to_contain_text("para ponerse de acuerdo")
    expect(b.locator(".vote-timer")).to_contain_text("para ponerse de acuerdo")
    # the callers never learn that the other team disagrees
    for p in pages:
        if seat(p) % 2 == seat(caller) % 2:
            expect(p.locator(".vote-panel")).to_be_visible()
            expect(p.locator("body")).not_to_contain_text("ponerse de acuerdo")
            expect(p.locator("body")).not_to_contain_text("No coinciden")
    # one line tells the hand so far: the calls and answers
    expect(host.get_by_test_id("hand-log")).to_contain_text("Truco")
    expect(host.get_by_test_id("hand-log")).to_contain_text("Envido")
    assert view(a)["vote"]["window_ends_ms"] is not None
    shot(b, shots, "live-vote-split")
    tap(b, "Quiero")
    for p in pages:
        expect(p.locator(".vote-panel")).to_have_count(0)
    assert view(host)["game"]["truco_value"] == 2
    play_until_hand_over(pages, 1)
    # the last trick stays on the felt a moment, without the new deal's cards, before the summary
    for p in pages:
        expect(p.locator(".felt.held")).to_be_visible()
    held = [p.locator(".felt .played .card").count() for p in pages]
    rounds = view(host)["last_hand"]["rounds"]
    assert held == [sum(len(r) for r in rounds)] * 4
    assert host.locator(".overlay").count() == 0 and host.locator("button.card.playable").count() == 0
    shot(host, shots, "live-last-trick")
    for p in pages:
        expect(p.locator(".overlay")).to_contain_text("Resumen de la mano 1")
        # who took the hand, and each trick: who played what, who took it
        winner = view(p)["last_hand"]["winner"]
        expect(p.get_by_test_id("hand-winner")).to_have_text(
            "Ganó la mano: " + ("Nosotros" if winner == seat(p) % 2 else "Ellos"))
        expect(p.locator(".tricks li")).to_have_count(len(rounds))
        expect(p.locator(".tricks li").first.locator(".trick-play")).to_have_count(len(rounds[0]))
        expect(p.locator(".summary-table")).to_contain_text("Envido")
        expect(p.locator(".summary-table")).to_contain_text("Truco")
        # the sheet is the server's last_hand: each team's points with the engine's reason
        assert summary_rows(p) == expected_rows(p)
    assert {pt["reason"] for pt in view(host)["last_hand"]["points"]} == {"envido", "truco"}
    shot(host, shots, "live-hand-summary")
    for p in pages:
        dismiss_summary(p)

    # ---- señas: a player signals; only the partner sees it
    sender = host
    partner = next(p for p in pages if p is not host and seat(p) % 2 == seat(host) % 2)
    tap(sender, "Señas")
    expect(sender.get_by_role("dialog")).to_contain_text("Solo la ve tu equipo")
    shot(sender, shots, "live-senas-panel")
    tap(sender, "Ancho de espada")
    expect(partner.locator(".sena-toast")).to_contain_text("Ana te hace una seña: Ancho de espada")
    shot(partner, shots, "live-sena-received")
    for p in pages:
        if seat(p) % 2 != seat(host) % 2:
            expect(p.locator(".sena-toast")).to_have_count(0)
            assert view(p)["senas"] == []

    # ---- hand 2: the team in turn goes to the mazo, one player after the other
    goer = wait_until(lambda: next((p for p in pages if "mazo" in legal(p)), None), what="a mazo button")
    team = seat(goer) % 2
    tap(goer, "Me voy al mazo")  # a tap asks first: nothing is sent yet
    expect(goer.get_by_role("button", name="Sí, me voy")).to_be_visible()
    tap(goer, "Sigo jugando")
    expect(goer.get_by_role("button", name="Me voy al mazo")).to_be_visible()
    assert "mazo" in legal(goer)
    go_to_mazo(goer)
    expect(host.locator(".seat.is-folded, .area-me .folded-note").first).to_be_visible()
    play_until_hand_over(pages, 2, mazo_team=team)
    for p in pages:
        expect(p.locator(".overlay")).to_contain_text("Resumen de la mano 2")
        expect(p.locator(".summary-table")).to_contain_text("al mazo")  # "Beto y Dani se fueron al mazo"
        assert summary_rows(p) == expected_rows(p)
    assert view(host)["last_hand"]["mazo"]
    shot(pages[1], shots, "live-mazo-summary")
    for p in pages:
        assert p.js_errors == []  # type: ignore[attr-defined]
    for c in contexts:
        c.close()
