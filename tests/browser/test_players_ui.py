"""What players asked for after trying the tables on their phones, checked on the mock page (real table
views, no server logic) and, where it takes the server, against the real one: the join page from the
table's phase, the waiting room's way out, the last trick and the hand told, the envido stake, forced
votes, the turn clock, the mazo asked twice, a small phone's fold, refusals in the player's words,
the language kept, codes typed by hand, names with emoji, private tables and the variants."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.browser.conftest import ROOT, WEB, LiveServer
from tests.browser.phone import (
    SHORT_HOLD,
    answer_the_call,
    create_table,
    dismiss_summary,
    new_phone,
    set_seat,
    shot,
    tap_first,
    view,
    wait_until,
)
from tests.browser.test_screens import open_mock

SMALL: ViewportSize = {"width": 360, "height": 740}
FIXTURES = ROOT / "tests" / "browser" / "mock" / "fixtures.json"


@pytest.fixture
def page(mock_page: Page) -> Page:
    """The mock-page tests here share one page (conftest.mock_page)."""
    return mock_page


# ---------------------------------------------------------------- the join page (GET /api/tables/<code>)

def test_the_join_page_offers_a_seat_only_in_a_lobby_with_room(page: Page, static_url: str) -> None:
    open_mock(page, static_url, "join")
    expect(page.get_by_role("button", name="Sentarse")).to_be_visible()
    expect(page.get_by_role("button", name="Solo mirar")).to_be_visible()
    for screen, why in [("join_full", "La mesa está completa: podés mirarla."),
                        ("join_playing", "La partida ya empezó: podés mirarla.")]:
        open_mock(page, static_url, screen)
        expect(page.get_by_test_id("no-seat")).to_have_text(why)
        expect(page.get_by_role("button", name="Sentarse")).to_have_count(0)
        expect(page.get_by_role("button", name="Solo mirar")).to_be_visible()
    open_mock(page, static_url, "join_missing")
    expect(page.get_by_role("alert")).to_have_text("No existe esa mesa (KX7P). Revisá el código.")
    expect(page.get_by_role("button", name="Sentarse")).to_have_count(0)
    expect(page.get_by_role("button", name="Solo mirar")).to_have_count(0)


def test_sentarse_is_not_clipped_on_a_small_phone(page: Page, static_url: str) -> None:
    page.set_viewport_size(SMALL)
    for screen in ("join", "home"):
        open_mock(page, static_url, screen)
        clipped = page.evaluate("""() => [...document.querySelectorAll('button')].filter(b => b.offsetParent)
            .filter(b => b.scrollWidth > b.clientWidth + 1 || b.getBoundingClientRect().right > innerWidth)
            .map(b => b.textContent.trim())""")
        assert clipped == [], (screen, clipped)


# ---------------------------------------------------------------- the waiting room

def test_the_waiting_room_says_who_is_missing_and_the_host_can_remove(page: Page, static_url: str) -> None:
    open_mock(page, static_url, "waiting_away")
    expect(page.locator(".seat-row.away")).to_contain_text("Caro")
    expect(page.locator(".seat-row.away .chip-away")).to_have_text("⚠ no está")
    status = page.locator(".waiting-screen p[role=status]")
    expect(status).to_have_text("Falta que vuelva Caro.")
    expect(page.locator("body")).not_to_contain_text("¡Están todos!")
    # one "Quitar" per other person (not for the host herself, not for a bot)
    expect(page.get_by_role("button", name=re.compile("^Quitar a "))).to_have_count(2)
    page.get_by_role("button", name="Quitar a Caro de la mesa").click()
    page.get_by_role("button", name="Salir de la mesa").click()
    assert page.evaluate("window.__sent") == [{"type": "remove_player", "player": 2}, {"type": "leave"}]


def test_a_guest_has_a_way_out_and_no_host_tools(page: Page, static_url: str) -> None:
    open_mock(page, static_url, "waiting_guest")
    expect(page.get_by_role("button", name="Salir de la mesa")).to_be_visible()
    expect(page.get_by_role("button", name=re.compile("^Quitar"))).to_have_count(0)
    expect(page.get_by_role("button", name="Empezar")).to_have_count(0)


def test_the_qr_hint_says_a_loopback_address_may_not_reach_friends(page: Page, static_url: str) -> None:
    open_mock(page, static_url, "waiting")  # served on 127.0.0.1
    expect(page.locator(".qr figcaption")).to_contain_text("Abriste la mesa en esta compu (127.0.0.1)")
    expect(page.locator(".qr figcaption")).not_to_contain_text("que escaneen esto")


# ---------------------------------------------------------------- the hand, told

def test_the_last_trick_stays_on_the_felt(page: Page, static_url: str) -> None:
    open_mock(page, static_url, "hold")
    tv = json.loads(FIXTURES.read_text())["table2_next_hand"]
    expect(page.locator(".felt.held")).to_be_visible()
    expect(page.locator(".felt .played .card")).to_have_count(sum(len(r) for r in tv["last_hand"]["rounds"]))
    expect(page.locator("button.card")).to_have_count(0)  # the new deal is not shown yet
    expect(page.locator(".actions button")).to_have_count(0)
    expect(page.locator(".hand-over-note")).to_have_text("Ganó la mano: Nosotros")


def test_the_summary_tells_the_tricks_and_who_took_the_hand(page: Page, static_url: str) -> None:
    open_mock(page, static_url, "summary2")
    hand = json.loads(FIXTURES.read_text())["table2_next_hand"]["last_hand"]
    expect(page.get_by_test_id("hand-winner")).to_have_text("Ganó la mano: Nosotros")
    tricks = page.locator(".tricks li")
    expect(tricks).to_have_count(len(hand["rounds"]))
    first = hand["rounds"][0]
    expect(tricks.first.locator(".trick-play")).to_have_count(len(first))
    taker = "Ana" if hand["results"][0] == 0 else "Bot 2"
    expect(tricks.first.locator(".trick-result")).to_have_text(f"la ganó {taker}")
    first_card = tricks.first.get_by_role("img").first
    expect(first_card).to_have_attribute("aria-label", re.compile(r"^(Ana|Bot 2): "))


def test_pica_pica_is_offered_for_six_at_the_full_table_only(page: Page, static_url: str) -> None:
    open_mock(page, static_url, "home")
    expect(page.locator("input[name=pica_pica]")).to_have_count(0)
    page.locator("label[for=players-6]").click()
    page.locator("label[for=pica_pica-true]").click()
    expect(page.get_by_text("una mano redonda y una de tres duelos")).to_be_visible()
    page.get_by_role("button", name="Crear la mesa").click()
    sent = page.evaluate("window.__sent")[-1]
    assert sent["type"] == "create"
    assert sent["settings"]["players"] == 6 and sent["settings"]["pica_pica"] is True
    page.locator("label[for=mode-casual]").click()  # casual hands keep no score: no pica-pica there
    expect(page.locator("input[name=pica_pica]")).to_have_count(0)
    page.locator("label[for=mode-full]").click()
    page.locator("label[for=players-4]").click()
    expect(page.locator("input[name=pica_pica]")).to_have_count(0)
    page.get_by_role("button", name="Crear la mesa").click()
    assert page.evaluate("window.__sent")[-1]["settings"]["pica_pica"] is False


def test_a_pica_pica_says_which_duel_is_on_and_who_waits(page: Page, static_url: str) -> None:
    open_mock(page, static_url, "pica")
    game = json.loads(FIXTURES.read_text())["table6_pica"]["game"]
    names = ["Ana", "Beto", "Caro", "Dani", "Eli", "Fede"]
    a, b = names[game["mano"]], names[(game["mano"] + 3) % 6]
    expect(page.get_by_test_id("pica-duel")).to_contain_text(f"Duelo 2 de 3: {a} contra {b}")
    expect(page.locator(".pica-strip .baza")).to_have_count(1)  # the first duel, won or lost
    done = [s for s in game["idle"] if any(s in (d["mano"], d["rival"]) for d in game["duels"])]
    waits = [s for s in game["idle"] if s not in done]
    expect(page.locator(".seat.is-idle")).to_have_count(4)
    expect(page.get_by_text("Ya jugó su duelo")).to_have_count(len(done))
    expect(page.get_by_text("Espera su duelo")).to_have_count(len(waits))
    expect(page.locator(".seat.is-folded")).to_have_count(0)  # waiting is not the mazo
    expect(page.locator(".senas-btn")).to_have_count(0)  # no señas in a pica-pica


def test_the_summary_of_a_pica_pica_tells_each_duel(page: Page, static_url: str) -> None:
    open_mock(page, static_url, "summary_pica")
    duels = json.loads(FIXTURES.read_text())["table6_pica_over"]["last_hand"]["duels"]
    expect(page.get_by_test_id("summary-duel")).to_have_count(3)
    for i, d in enumerate(duels):
        expect(page.get_by_test_id("summary-duel").nth(i).locator(".trick-play")).to_have_count(
            sum(len(r) for r in d["rounds"]))


def test_the_hand_that_ends_the_match_is_summarised_first(page: Page, static_url: str) -> None:
    open_mock(page, static_url, "summary_final")
    dialog = page.get_by_role("dialog", name="Resumen de la mano 1")
    expect(dialog).to_be_visible()
    expect(page.locator("#app[data-screen=match_end]")).to_be_visible()  # underneath
    dialog.get_by_role("button", name="Ver el resultado").click()
    expect(dialog).to_have_count(0)
    expect(page.locator("h1")).to_have_text("¡Ganaste!")  # mano a mano: singular


def test_one_on_one_is_singular(page: Page, static_url: str) -> None:
    open_mock(page, static_url, "match_end2")
    expect(page.locator("h1")).to_have_text("Perdiste")
    open_mock(page, static_url, "match_lost")  # four players: plural
    expect(page.locator("h1")).to_have_text("Perdieron")


def test_the_envido_stake_and_the_hand_so_far(page: Page, static_url: str) -> None:
    open_mock(page, static_url, "envido_stake")
    stake = "Envido, real envido: 5 querido / 2 no querido"
    expect(page.locator(".vote-panel").get_by_test_id("envido-stake")).to_have_text(stake)
    expect(page.get_by_test_id("hand-log")).to_contain_text("Envido")
    expect(page.get_by_test_id("hand-log")).to_contain_text("Real envido")
    open_mock(page, static_url, "envido_stake_caller")
    expect(page.locator(".announce").get_by_test_id("envido-stake")).to_have_text(stake)


def test_a_forced_vote_says_where_it_came_from(page: Page, static_url: str) -> None:
    open_mock(page, static_url, "vote_forced")
    expect(page.locator(".votes li.forced")).to_contain_text("No quiero (automático: se desconectó)")


def test_the_callers_never_see_the_other_teams_split(page: Page, static_url: str) -> None:
    open_mock(page, static_url, "vote_other")
    expect(page.locator(".vote-panel")).to_be_visible()
    expect(page.locator("body")).not_to_contain_text("No coinciden")


def test_the_turn_clock_counts_down_and_says_when_it_ran_out(page: Page, static_url: str) -> None:
    open_mock(page, static_url, "turn_clock")
    expect(page.get_by_test_id("turn-clock")).to_have_text(re.compile(r"Beto: (30|29) s para jugar"))
    open_mock(page, static_url, "turn_expired")
    expect(page.get_by_test_id("turn-expired")).to_have_text(
        "Se le acabó el tiempo a Beto: la mesa jugó por él.")


def test_the_mazo_asks_first(page: Page, static_url: str) -> None:
    open_mock(page, static_url, "my_turn")
    page.get_by_role("button", name="Me voy al mazo").click()
    assert page.evaluate("window.__sent") == [{"type": "confirm_mazo", "open": True}]  # nothing to the server
    expect(page.get_by_role("group", name="¿Te vas al mazo? Perdés la mano.")).to_be_visible()
    page.get_by_role("button", name="Sí, me voy").click()
    assert page.evaluate("window.__sent")[-1] == {"type": "act", "do": "mazo"}


# ---------------------------------------------------------------- a small phone

FOLD_SCREENS = ["my_turn", "table", "table2", "table6", "table8", "pica", "pica_dueling", "turn_clock",
                "start", "casual_host"]


PHONE: ViewportSize = {"width": 390, "height": 844}


@pytest.mark.parametrize("size", [SMALL, PHONE], ids=["360x740", "390x844"])
def test_your_cards_and_calls_fit_without_scrolling(page: Page, static_url: str,
                                                    size: ViewportSize) -> None:
    page.set_viewport_size(size)
    # as the fixtures are, then the worst case: every seat named with 24 characters, in both languages
    # (the English words once pushed a 6-seat pica-pica's calls 4 px past a 360×740 phone)
    for screen, lang, names in [*((s, "es", "") for s in FOLD_SCREENS),
                                *((s, lang, "long") for s in FOLD_SCREENS for lang in ("es", "en"))]:
        open_mock(page, static_url, screen, lang=lang, names=names)
        outside = page.evaluate("""() => [
            ...document.querySelectorAll('.my-hand .card, .actions button, .casual-panel button')]
            .map(e => [e.getAttribute('aria-label') || e.textContent.trim(), e.getBoundingClientRect()])
            .filter(([, r]) => r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth)
            .map(([n, r]) => `${n}: ${Math.round(r.top)}-${Math.round(r.bottom)}`)""")
        assert outside == [], (screen, lang, names, outside)
    # the worst case, the mano's first turn, offers every call: all of them are on screen
    open_mock(page, static_url, "my_turn")
    for name in ("Envido", "Real envido", "Falta envido", "Truco", "Me voy al mazo"):
        expect(page.get_by_role("button", name=name, exact=True)).to_be_in_viewport(ratio=1)


# ---------------------------------------------------------------- words and language

def _server_reason_codes() -> set[str]:
    """Every refusal code the server gives: TableError(..., "code") and illegal_reason's returns."""
    codes: set[str] = set()
    for path in (ROOT / "src/truco/table").glob("*.py"):
        src = path.read_text()
        codes |= set(re.findall(r'TableError\((?:[^()]|\([^()]*\))*?,\s*"([a-z_]+)"\)', src, re.S))
        codes |= set(re.findall(r'"only_in_lobby" if [^\n]* else "([a-z_]+)"', src))
    legal = (ROOT / "src/truco/engine/legal.py").read_text()
    body = legal[legal.index("def illegal_reason"):]
    end = body.find("\ndef ", 10)
    codes |= set(re.findall(r'return \(?"([a-z_]+)"', body if end < 0 else body[:end]))
    return codes


def test_every_refusal_code_has_words_in_both_languages() -> None:
    codes = _server_reason_codes()
    assert {"not_your_turn", "seat_taken", "host_only", "only_in_lobby", "seats_empty", "casual_calls_aloud",
            "answer_pending", "leave_during_match", "only_during_match", "envido_too_late"} <= codes
    es, en = ((WEB / "js" / "lang" / f"{lang}.js").read_text() for lang in ("es", "en"))
    missing = sorted(c for c in codes | {"generic"} if f"  err_{c}: " not in es or f"  err_{c}: " not in en)
    assert missing == []


def test_the_language_toggle_on_the_table_is_remembered(page: Page, static_url: str) -> None:
    open_mock(page, static_url, "my_turn")
    page.get_by_role("button", name="Cambiar el idioma a inglés").click()
    expect(page.locator(".turn-text")).to_have_text("Your turn")
    page.goto(f"{static_url}/dev/mock.html?screen=my_turn")  # no ?lang: the choice is kept
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator(".turn-text")).to_have_text("Your turn")
    assert page.evaluate("localStorage.getItem('truco.lang')") == "en"


def test_a_refusal_is_said_in_the_players_words(browser: Browser, live_server: LiveServer) -> None:
    created = live_server.post("/api/tables", {"settings": {"players": 2}, "name": "Ana"})
    joined = live_server.post(f"/api/tables/{created['code']}/join", {"name": "Beto"})
    ctx, guest = new_phone(browser)
    set_seat(guest, live_server.url, created["code"], joined["token"], "Beto")
    expect(guest.locator("#app[data-screen=waiting]")).to_be_visible()
    guest.evaluate("window.__truco.send({type: 'start'})")  # only the host may start
    expect(guest.locator(".toast")).to_have_text("Eso lo hace quien organiza la mesa.")
    guest.evaluate("window.__truco.send({type: 'remove_player', player: 0})")
    expect(guest.locator(".toast")).to_have_text("Eso lo hace quien organiza la mesa.")
    guest.evaluate("window.__truco.send({type: 'end_hand'})")
    expect(guest.locator(".toast")).to_have_text("Los puntos se anotan a mano solo en modo casual.")
    ctx.close()


# ---------------------------------------------------------------- the home page

def test_codes_typed_by_hand_and_names_with_emoji(browser: Browser, live_server: LiveServer,
                                                  shots: Path) -> None:
    host_ctx, host = new_phone(browser)
    code = create_table(host, live_server.url, "Ana", players=2)
    ctx, page = new_phone(browser)
    page.goto(live_server.url + "/")
    # the logo is the Spanish deck's ancho de espadas; the placeholder shows a whole (6-character) code
    expect(page.locator(".logo svg")).to_have_count(1)
    placeholder = page.get_by_label("Entrar con un código").get_attribute("placeholder") or ""
    assert len(placeholder.split()[-1]) == 6
    # a wrong code says so on the home page
    page.get_by_label("Entrar con un código").fill("zzz-zzz")
    page.get_by_role("button", name="Entrar", exact=True).click()
    expect(page.get_by_role("alert")).to_have_text("No existe esa mesa (ZZZZZZ). Revisá el código.")
    expect(page.locator("#app[data-screen=home]")).to_be_visible()
    # a code with a dash and a space, in lower case, is the same code
    page.get_by_label("Entrar con un código").fill(f"{code[:3].lower()}- {code[3:].lower()}")
    page.get_by_role("button", name="Entrar", exact=True).click()
    expect(page.locator("#app[data-screen=join]")).to_be_visible()
    assert page.url.endswith(f"/m/{code}")
    # a name with joined emoji (a family: 7 code points, 11 UTF-16 units) is kept as typed
    name = "👩‍👩‍👧‍👦 Familia Pérez"
    page.get_by_label("Tu nombre").fill(name)
    assert page.get_by_label("Tu nombre").input_value() == name
    page.get_by_role("button", name="Sentarse").click()
    expect(page.locator("#app[data-screen=waiting]")).to_be_visible()
    assert view(page)["me"]["name"] == name
    expect(host.locator(".seat-row").nth(1)).to_contain_text(name)
    shot(host, shots, "live-waiting-emoji")
    assert page.js_errors == [] and host.js_errors == []  # type: ignore[attr-defined]
    ctx.close()
    host_ctx.close()


def test_a_private_table_with_the_variants(browser: Browser, live_server: LiveServer, shots: Path) -> None:
    ctx, page = new_phone(browser)
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.post_data or "") if r.method == "POST" else None)
    page.goto(live_server.url + "/")
    page.get_by_label("Tu nombre").fill("Ana")
    page.locator("label[for=players-4]").click()
    page.locator("label[for=chicos-3]").click()
    page.locator("label[for=falta-malas_wins]").click()
    page.locator("label[for=turn-30]").click()
    page.get_by_label(re.compile("^Mesa privada")).check()
    shot(page, shots, "live-home-create")
    page.get_by_role("button", name="Crear la mesa").click()
    expect(page.locator("#app[data-screen=waiting]")).to_be_visible()
    body = json.loads(posts[-1])
    assert {k: body["settings"][k] for k in ("private", "chicos", "falta", "turn_seconds")} == \
        {"private": True, "chicos": 3, "falta": "malas_wins", "turn_seconds": 30}
    settings = view(page)["settings"]
    assert (settings["private"], settings["chicos"], settings["falta"], settings["turn_seconds"]) == \
        (True, 3, "malas_wins", 30)
    code = view(page)["table_id"]
    # never listed among the open tables
    other_ctx, other = new_phone(browser)
    other.goto(live_server.url + "/")
    expect(other.locator(".open-tables, .panel p.muted").first).to_be_visible()
    other.wait_for_timeout(300)
    assert code not in other.locator("main").inner_text()
    other_ctx.close()
    ctx.close()


def test_the_turn_clock_on_a_live_table(browser: Browser, live_server: LiveServer, shots: Path) -> None:
    created = live_server.post("/api/tables", {"settings": {"players": 2, "turn_seconds": 5}, "name": "Ana"})
    code = created["code"]
    joined = live_server.post(f"/api/tables/{code}/join", {"name": "Beto"})
    a_ctx, ana = new_phone(browser)
    set_seat(ana, live_server.url, code, created["token"], "Ana")
    b_ctx, beto = new_phone(browser)
    set_seat(beto, live_server.url, code, joined["token"], "Beto")
    expect(ana.get_by_role("button", name="Empezar")).to_be_enabled()
    ana.get_by_role("button", name="Empezar").click()
    for p in (ana, beto):
        expect(p.get_by_test_id("turn-clock")).to_be_visible()
    turn = next(p for p in (ana, beto) if p.locator("button.card.playable").count())
    expect(turn.get_by_test_id("turn-clock")).to_have_text(re.compile(r"Te quedan [1-5] s para jugar"))
    # nobody plays: the clock runs out, the table plays for them, and both phones say so
    for p in (ana, beto):
        expect(p.get_by_test_id("turn-expired")).to_be_visible(timeout=9000)
    expect(turn.get_by_test_id("turn-expired")).to_have_text("Se te acabó el tiempo: la mesa jugó por vos.")
    wait_until(lambda: sum(len(r) for r in view(ana)["game"]["rounds"]) >= 1, what="the card played for them")
    a_ctx.close()
    b_ctx.close()


def test_a_small_phone_on_a_live_table_against_bots(browser: Browser, live_server: LiveServer,
                                                    shots: Path) -> None:
    """360×740, four players, your first turn of a hand: your cards and every call fit on the screen."""
    ctx = browser.new_context(viewport=SMALL, device_scale_factor=2, has_touch=True, locale="es-AR")
    ctx.add_init_script(SHORT_HOLD)
    page = ctx.new_page()
    page.goto(live_server.url + "/")
    page.get_by_label("Tu nombre").fill("Ana")
    page.get_by_role("button", name="De a cuatro (4)").click()
    expect(page.locator("#app[data-screen=table]")).to_be_visible()

    def first_turn() -> bool:
        v = view(page)
        g = v.get("game") or {}
        # what there is to do, looked at before the summary: nothing can be answered or played while
        # a hand's last trick is held, and its summary shows when the hold ends, so a summary that
        # shows after this look cannot cover what is tapped (or measured) next
        answers = page.locator(".vote-panel .vote-buttons button")
        cards = page.locator("button.card.playable")
        to_answer, playable = answers.count(), cards.count()
        if page.locator(".overlay").count():
            dismiss_summary(page)
            return False
        if to_answer:  # the rivals called: our team answers (the bots' hint aside)
            answer_the_call(page)
            return False
        acts = {a["do"] for a in v.get("legal", [])}
        if "truco" in acts and "mazo" in acts and len(g.get("cards", [])) == 3 and playable:
            return True
        if playable:
            tap_first(cards)
        return False

    wait_until(first_turn, timeout=120, what="my first turn of a hand")
    for el in [*page.locator(".my-hand button.card").all(), *page.locator(".actions button").all()]:
        expect(el).to_be_in_viewport(ratio=1)
    assert page.evaluate("document.documentElement.scrollHeight") <= 740
    shot(page, shots, "live-360-your-turn")
    ctx.close()
