"""The lobby's HTTP API: create, list, look up, join, QR, health; bad bodies get a 4xx, never a 500."""

from __future__ import annotations

from truco.server.codes import ALPHABET

from .conftest import Live, serving


async def test_health_answers_ok_with_the_protocol_version(live: Live) -> None:
    r = await live.http.get("/health")
    assert r.status_code == 200
    assert r.json()["ok"] is True and r.json()["protocol"] == 1


async def test_health_reports_the_event_loop_lag_and_gc_pauses(live: Live) -> None:
    body = (await live.http.get("/health", params={"window": "5"})).json()
    assert body["window_s"] == 5.0
    for key in ("loop_lag_p99_ms", "loop_lag_max_ms", "gc_max_ms", "gc_full"):
        assert key in body
    assert (await live.http.get("/health", params={"window": "bogus"})).json()["window_s"] == 60.0


async def test_health_reports_the_bots_workers_and_none_where_the_bots_think_on_a_thread(live: Live) -> None:
    body = (await live.http.get("/health")).json()
    assert body["bot_workers"] == {"count": 0, "alive": 0, "restarts": 0}


async def test_create_returns_a_readable_code_a_token_and_the_link(live: Live) -> None:
    body = await live.create("Ana", players=4, target=15)
    code = body["code"]
    assert len(code) == 6 and set(code) <= set(ALPHABET)
    assert body["url"] == f"/m/{code}"
    assert len(body["token"]) >= 24 and body["player"] == 0


async def test_open_tables_are_listed_without_tokens(live: Live) -> None:
    body = await live.create("Ana")
    assert (await live.http.get("/api/tables")).json()["tables"] == []  # nobody there yet
    host = await live.player(body["code"], body["token"])
    r = await live.http.get("/api/tables")
    tables = r.json()["tables"]
    assert [t["code"] for t in tables] == [body["code"]]
    assert body["token"] not in r.text
    assert tables[0]["free_seats"] == 3 and tables[0]["host"] == "Ana"
    await host.close()


async def test_a_table_is_found_by_its_code_in_any_case(live: Live) -> None:
    body = await live.create("Ana", players=2)
    r = await live.http.get(f"/api/tables/{body['code'].lower()}")
    assert r.status_code == 200 and r.json()["code"] == body["code"]
    assert body["token"] not in r.text


async def test_an_unknown_code_is_404(live: Live) -> None:
    assert (await live.http.get("/api/tables/ZZZZZZ")).status_code == 404
    assert (await live.http.get("/api/tables/not-a-code-at-all")).status_code == 404
    r = await live.http.post("/api/tables/ZZZZZZ/join", json={"name": "Caro"})
    assert r.status_code == 404


async def test_join_returns_a_new_token(live: Live) -> None:
    body = await live.create("Ana")
    joined = await live.join(body["code"], "Caro")
    assert joined["token"] != body["token"] and joined["player"] == 1


async def test_bad_create_bodies_are_refused_with_a_reason(live: Live) -> None:
    cases = [b"not json", b"[]", b'{"name": ""}', b'{"name": "x", "settings": {"players": 5}}',
             b'{"name": "x", "settings": {"bogus": 1}}', b'{"name": "x", "evil": 1}',
             b'{"name": "a\\u0000b"}', b'{"name": "' + b"x" * 30 + b'"}', b'{"name": 7}',
             b'{"name": "x", "settings": "full"}', b'{"name": "x", "settings": {"players": true}}']
    for body in cases:
        r = await live.http.post("/api/tables", content=body)
        assert r.status_code == 400, body
        assert r.json()["error"]["message"]
    assert live.rt.table_ids() == []


async def test_an_oversized_body_is_refused(live: Live) -> None:
    r = await live.http.post("/api/tables", content=b'{"name": "' + b"x" * 5000 + b'"}')
    assert r.status_code == 400
    assert live.rt.table_ids() == []


async def test_the_qr_code_is_an_svg_of_the_table_link(live: Live) -> None:
    body = await live.create("Ana")
    r = await live.http.get(f"/api/tables/{body['code']}/qr.svg")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert r.text.startswith("<svg")
    assert (await live.http.get("/api/tables/ZZZZZZ/qr.svg")).status_code == 404


async def test_table_links_serve_the_client_page(live: Live) -> None:
    body = await live.create("Ana")
    r = await live.http.get(f"/m/{body['code']}")
    assert r.status_code in (200, 404)
    if r.status_code == 200:
        assert "html" in r.headers["content-type"]


async def test_static_files_cannot_escape_the_web_directory(live: Live) -> None:
    for path in ("/../pyproject.toml", "/%2e%2e/%2e%2e/pyproject.toml", "/..%2f..%2fserver/app.py"):
        r = await live.http.get(path)
        assert r.status_code == 404 or "build-system" not in r.text


async def test_posting_too_fast_is_rate_limited() -> None:
    async with serving(http_rate=1.0) as lv:
        codes = [(await lv.http.post("/api/tables", json={"name": "Ana"})).status_code for _ in range(40)]
    assert codes[0] == 201 and 429 in codes
