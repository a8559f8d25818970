"""The WebSocket protocol end to end: hello, commands with ids, errors, resync, spectators, limits."""

from __future__ import annotations

import orjson

from truco.bench.player_client import WsPlayer
from truco.protocol import MAX_FRAME_BYTES, CloseCode
from truco.server.socket import SocketLimits

from .conftest import Live, serving


async def _two_player_table(live: Live) -> tuple[dict, dict, WsPlayer, WsPlayer]:
    host = await live.create("Ana", players=2)
    guest = await live.join(host["code"], "Beto")
    a = await live.player(host["code"], host["token"])
    b = await live.player(host["code"], guest["token"])
    return host, guest, a, b


async def _started(live: Live) -> tuple[str, WsPlayer, WsPlayer]:
    host, _, a, b = await _two_player_table(live)
    assert (await b.command({"type": "sit", "seat": 1}))["type"] == "ack"
    assert (await a.command({"type": "start"}))["type"] == "ack"
    await a.until(lambda p: p.view is not None and p.view["phase"] == "playing")
    await b.until(lambda p: p.version == a.version)
    return host["code"], a, b


def _turn(a: WsPlayer, b: WsPlayer) -> WsPlayer:
    return a if a.view and a.view["legal"] else b


async def test_hello_carries_the_seat_the_protocol_version_and_the_full_view(live: Live) -> None:
    host = await live.create("Ana", players=2)
    a = await live.player(host["code"], host["token"])
    hello = a.messages[0]
    assert hello["type"] == "hello" and hello["protocol"] == 1 and hello["role"] == "player"
    assert hello["seat"] == 0 and hello["player"] == 0
    assert hello["version"] == hello["view"]["version"] >= 1
    assert hello["view"]["me"]["host"] is True
    await a.close()


async def test_an_unknown_token_is_closed_with_4001(live: Live) -> None:
    host = await live.create("Ana", players=2)
    p = await WsPlayer(live.base_ws, host["code"], "not-a-token").connect()
    await p.until(lambda p: p.closed)
    assert p.close_code == CloseCode.BAD_TOKEN
    assert not any(m["type"] == "hello" for m in p.messages)


async def test_an_unknown_table_is_closed_with_4003(live: Live) -> None:
    p = await WsPlayer(live.base_ws, "ZZZZZZ", "whatever").connect()
    await p.until(lambda p: p.closed)
    assert p.close_code == CloseCode.TABLE_CLOSED


async def test_an_accepted_command_is_acked_with_its_id_and_everyone_gets_the_version(live: Live) -> None:
    _, _, a, b = await _two_player_table(live)
    reply = await b.command({"type": "sit", "seat": 1, "id": "sit-1"})
    assert reply == {"type": "ack", "id": "sit-1", "version": reply["version"]}
    await a.until(lambda p: p.version == reply["version"])
    assert a.view is not None and a.view["seats"][1]["name"] == "Beto"


async def test_a_mistake_gets_an_error_with_code_message_and_id_and_changes_nothing(live: Live) -> None:
    code, a, b = await _started(live)
    before = live.rt.version(code)
    waiting = b if _turn(a, b) is a else a
    card = waiting.view["game"]["cards"][0]
    reply = await waiting.command({"type": "act", "do": "play", "card": card, "id": "oops"})
    assert reply["type"] == "error" and reply["code"] == "illegal" and reply["id"] == "oops"
    assert reply["message"]
    reply = await waiting.command({"type": "act", "do": "dance", "id": "bad-1"})
    assert reply["type"] == "error" and reply["code"] == "bad_message" and reply["id"] == "bad-1"
    assert live.rt.version(code) == before


async def test_a_resent_command_id_is_applied_once(live: Live) -> None:
    code, a, b = await _started(live)
    mover = _turn(a, b)
    card = mover.view["game"]["legal"][0]
    msg = {"type": "act", "do": card["do"], **({"card": card["card"]} if "card" in card else {}), "id": "tap"}
    first = await mover.command(msg)
    version = live.rt.version(code)
    await mover.send_raw(orjson.dumps(msg).decode())
    await mover.until(lambda p: sum(1 for m in p.messages if m.get("id") == "tap") == 2)
    second = [m for m in mover.messages if m.get("id") == "tap"][1]
    assert first["type"] == "ack" and second == {**first, "duplicate": True}
    assert live.rt.version(code) == version


async def test_resync_answers_with_a_fresh_view_at_the_current_version(live: Live) -> None:
    code, a, _ = await _started(live)
    await a.send({"type": "resync", "since": 1})
    await a.until(lambda p: p.messages[-1]["type"] == "snapshot")
    snap = a.messages[-1]
    assert snap["version"] == live.rt.version(code) and snap["view"]["game"]["cards"]


async def test_ping_gets_a_pong(live: Live) -> None:
    host = await live.create("Ana", players=2)
    a = await live.player(host["code"], host["token"])
    await a.send({"type": "ping"})
    await a.until(lambda p: p.messages[-1]["type"] == "pong")


async def test_a_spectator_sees_the_public_view_and_cannot_act(live: Live) -> None:
    code, a, b = await _started(live)
    s = await live.player(code, None)
    hello = s.messages[0]
    assert hello["role"] == "spectator" and hello["seat"] is None and hello["player"] is None
    game = hello["view"]["game"]
    assert "cards" not in game and "dealt" not in game and hello["view"]["legal"] == []
    reply = await s.command({"type": "act", "do": "mazo", "id": "sneak"})
    assert reply["code"] == "not_allowed" and reply["id"] == "sneak"
    mover = _turn(a, b)
    legal = mover.view["game"]["legal"][0]
    await mover.command({"type": "act", **{k: v for k, v in legal.items() if k != "seat"}})
    await s.until(lambda p: p.version == live.rt.version(code))


async def test_binary_frames_close_with_policy(live: Live) -> None:
    host = await live.create("Ana", players=2)
    a = await live.player(host["code"], host["token"])
    await a.send_raw(b"\x00\xff binary")
    await a.until(lambda p: p.closed)
    assert a.close_code == CloseCode.POLICY


async def test_text_that_is_not_json_closes_with_policy(live: Live) -> None:
    host = await live.create("Ana", players=2)
    a = await live.player(host["code"], host["token"])
    await a.send_raw("{{{{ nope")
    await a.until(lambda p: p.closed)
    assert a.close_code == CloseCode.POLICY


async def test_an_oversized_frame_closes_with_too_big(live: Live) -> None:
    host = await live.create("Ana", players=2)
    for size in (MAX_FRAME_BYTES + 10, 100_000):
        a = await live.player(host["code"], host["token"])
        await a.send_raw('{"type":"ping","pad":"' + "x" * size + '"}')
        await a.until(lambda p: p.closed)
        assert a.close_code == CloseCode.TOO_BIG


async def test_flooding_closes_with_policy() -> None:
    async with serving(limits=SocketLimits(rate=5, burst=10)) as lv:
        host = await lv.create("Ana", players=2)
        a = await lv.player(host["code"], host["token"])
        for _ in range(50):
            if a.closed:
                break
            await a.send_raw('{"type":"ping"}')
        await a.until(lambda p: p.closed)
        assert a.close_code == CloseCode.POLICY


async def test_many_mistakes_in_a_row_close_the_socket() -> None:
    async with serving(limits=SocketLimits(rate=1000, burst=1000, max_errors=5)) as lv:
        host = await lv.create("Ana", players=2)
        a = await lv.player(host["code"], host["token"])
        for i in range(5):
            await a.send({"type": "act", "do": "dance", "id": f"d{i}"})
        await a.until(lambda p: p.closed)
        assert a.close_code == CloseCode.POLICY
        assert sum(1 for m in a.messages if m["type"] == "error") == 5


async def test_a_second_socket_for_the_same_seat_gets_the_same_view(live: Live) -> None:
    code, a, _ = await _started(live)
    again = await live.player(code, a.token)
    assert again.messages[0]["view"]["game"]["cards"] == a.view["game"]["cards"]
    await again.close()


async def test_a_second_socket_on_a_seat_replaces_the_first_with_4002() -> None:
    """A reload, a second tab, a reconnect racing the old socket: the newest socket holds the seat."""
    async with serving() as lv:
        host = await lv.create("Ana", players=2)
        first = await lv.player(host["code"], host["token"])
        second = await lv.player(host["code"], host["token"])
        await first.until(lambda p: p.closed)
        assert first.close_code == CloseCode.REPLACED
        v = second.version
        await second.send({"type": "add_bot", "seat": 1, "level": "random"})
        await second.until(lambda p: p.version > v)
        assert lv.rt.table(host["code"]).players[0].connected  # the replaced socket did not disconnect her
        await second.close()


async def test_too_many_spectators_are_refused() -> None:
    async with serving(limits=SocketLimits(max_spectators_per_table=1)) as lv:
        host = await lv.create("Ana", players=2)
        s1 = await lv.player(host["code"], None)
        s2 = await WsPlayer(lv.base_ws, host["code"]).connect()
        await s2.until(lambda p: p.closed)
        assert s2.close_code == CloseCode.POLICY and not s2.messages
        await s1.close()


async def test_a_client_asking_for_another_protocol_version_is_closed_with_4005(live: Live) -> None:
    host = await live.create("Ana", players=2)
    p = await WsPlayer(live.base_ws, host["code"] + "?protocol=2", host["token"]).connect()
    await p.until(lambda p: p.closed)
    assert p.close_code == CloseCode.BAD_PROTOCOL and not p.messages
    ok = await live.player(host["code"] + "?protocol=1", host["token"])
    assert ok.messages[0]["protocol"] == 1


async def test_a_sena_reaches_the_partner_only_not_the_rivals_or_spectators(live: Live) -> None:
    host = await live.create("Ana", players=4)
    code = host["code"]
    tokens = [host["token"]] + [(await live.join(code, n))["token"] for n in ("Beto", "Caro", "Dani")]
    players = [await live.player(code, t) for t in tokens]
    for seat, p in enumerate(players[1:], start=1):
        assert (await p.command({"type": "sit", "seat": seat}))["type"] == "ack"
    assert (await players[0].command({"type": "start"}))["type"] == "ack"
    spectator = await live.player(code, None)
    reply = await players[0].command({"type": "sena", "sena": "ancho_espada"})
    assert reply["type"] == "ack"
    for p in [*players, spectator]:
        await p.until(lambda p: p.version >= reply["version"])

    def heard(p: WsPlayer) -> bool:
        return any(e["type"] == "sena" for m in p.messages if m["type"] == "update" for e in m["events"])

    assert heard(players[2])
    assert not heard(players[1]) and not heard(players[3]) and not heard(spectator)
    assert players[2].view["senas"] == [{"from": 0, "sena": "ancho_espada"}]
    assert players[1].view["senas"] == [] and spectator.view["senas"] == []


async def test_a_refusal_carries_a_reason_code_over_the_socket(live: Live) -> None:
    host = await live.create("Ana", players=2)
    ana = await live.player(host["code"], host["token"])
    reply = await ana.command({"type": "start"})
    assert reply["type"] == "error" and reply["code"] == "illegal" and reply["reason"] == "seats_empty"
    reply = await ana.command({"type": "add_bot", "seat": 1, "level": "godlike"})
    assert reply["code"] == "bad_message" and reply["reason"] == "unknown_bot_level"
    await ana.close()


async def test_a_guest_removed_by_the_host_is_told_and_their_socket_closes(live: Live) -> None:
    host = await live.create("Ana", players=4)
    guest = await live.join(host["code"], "Beto")
    ana = await live.player(host["code"], host["token"])
    beto = await live.player(host["code"], guest["token"])
    reply = await ana.command({"type": "remove_player", "player": guest["player"]})
    assert reply["type"] == "ack"
    await beto.until(lambda p: p.closed)
    assert beto.messages[-1]["type"] == "left" and beto.close_code == CloseCode.NORMAL
    again = await WsPlayer(live.base_ws, host["code"], guest["token"]).connect()
    await again.until(lambda p: p.closed)
    assert again.close_code == CloseCode.REVOKED  # an ended token says so, not "unknown"
    await ana.close()


async def test_the_token_travels_in_the_subprotocol_and_the_old_url_form_still_works(live: Live) -> None:
    host = await live.create("Ana", players=2)
    new = await live.player(host["code"], host["token"])
    assert new.ws is not None and new.ws.subprotocol == "truco" and "token" not in new.url
    assert new.messages[0]["role"] == "player"
    old = await WsPlayer(live.base_ws, host["code"], host["token"], token_in_url=True).connect()
    await old.until(lambda p: bool(p.messages))
    assert old.messages[0]["type"] == "hello" and old.messages[0]["role"] == "player"
    await old.close()
    await new.close()


async def test_leave_gets_its_ack_before_the_socket_closes(live: Live) -> None:
    host = await live.create("Ana", players=4)
    guest = await live.join(host["code"], "Beto")
    beto = await live.player(host["code"], guest["token"])
    cid = await beto.send({"type": "leave"})
    await beto.until(lambda p: p.closed)
    assert beto.reply_to(cid) is not None and beto.reply_to(cid)["type"] == "ack"
    assert [m["type"] for m in beto.messages[-2:]] in (["left", "ack"], ["ack", "left"])
    assert beto.close_code == CloseCode.NORMAL
