"""Fuzzing: thousands of malformed, oversized, binary, replayed and out-of-turn frames. The server
stays up, the table is unchanged, and each bad frame gets an error (or a pong/snapshot for the
harmless ones) or a policy close."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from truco.bench.player_client import WsPlayer
from truco.protocol import (
    CloseCode,
    CommandMsg,
    ErrorCode,
    PingMsg,
    PolicyViolation,
    ProtocolError,
    ResyncMsg,
    decode,
)
from truco.server.socket import SocketLimits

from .conftest import serving

TYPES = ["act", "vote", "sena", "sit", "leave", "place", "shuffle_teams", "add_bot", "remove_bot", "start",
         "award", "undo_award", "end_hand", "rematch", "resync", "ping", "create", "join", "wake",
         "bot_act", "connect", "recovered", "hello", "", "ACT", None, 7]
KEYS = ["type", "id", "do", "card", "seat", "player", "team", "points", "level", "sena", "answer", "since",
        "token", "name", "settings", "__proto__", "constructor", "x"]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**63, 2**63 - 1) | st.floats(allow_nan=False)
    | st.text(max_size=40) | st.sampled_from(["play", "1e", "quiero", "truco", "mazo", "12c", "0x"]),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12)
messages = st.dictionaries(st.sampled_from(KEYS), json_values, max_size=6).map(
    lambda d: d) | st.builds(lambda t, d: {"type": t, **d}, st.sampled_from(TYPES),
                             st.dictionaries(st.sampled_from(KEYS[1:]), json_values, max_size=5))


def _check_decode(frame: str | bytes) -> None:
    """Either a message, or an error with a readable reason, or a policy close: nothing else."""
    try:
        msg = decode(frame)
    except ProtocolError as e:
        assert e.message and e.code in set(ErrorCode)
    except PolicyViolation as e:
        assert e.close_code in (CloseCode.POLICY, CloseCode.TOO_BIG)
    else:
        assert isinstance(msg, CommandMsg | ResyncMsg | PingMsg)


@pytest.mark.slow
@settings(max_examples=2000, deadline=None)
@given(messages)
def test_decode_never_fails_other_than_with_an_error_or_a_policy_violation(obj: dict[str, Any]) -> None:
    try:
        frame = orjson.dumps(obj).decode()
    except (TypeError, orjson.JSONEncodeError):
        return
    _check_decode(frame)


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=600) | st.text(max_size=600))
def test_decode_of_arbitrary_bytes_or_text_never_crashes(raw: bytes | str) -> None:
    _check_decode(raw)


def _random_json(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(8 if depth < 3 else 5)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice([True, False])
    if kind == 2:
        return rng.choice([0, 1, -1, 3, 64, 65, 2**31, -2**53, 2**62])
    if kind == 3:
        return rng.choice([0.5, -1.0, 1e300])
    if kind == 4:
        return rng.choice(["", "play", "1e", "7o", "quiero", "x" * rng.randrange(1, 60), "ñ", "\u0000", "🂡"])
    if kind == 5:
        return [_random_json(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(KEYS): _random_json(rng, depth + 1) for _ in range(rng.randrange(4))}


def _mistake(rng: random.Random, my_cards: list[str]) -> str:
    roll = rng.random()
    if roll < 0.3:  # out of turn: a well-formed play of one of my own cards, or a call
        msg: dict[str, Any] = {"type": "act", "id": f"o{rng.randrange(10**6)}"}
        if rng.random() < 0.6 and my_cards:
            msg.update(do="play", card=rng.choice(my_cards))
        else:
            msg["do"] = rng.choice(["truco", "envido", "mazo", "quiero", "no_quiero", "flor"])
        return orjson.dumps(msg).decode()
    msg = {"type": rng.choice(TYPES)}
    for _ in range(rng.randrange(5)):
        msg[rng.choice(KEYS[1:])] = _random_json(rng)
    return orjson.dumps(msg).decode()


@pytest.mark.slow
async def test_thousands_of_bad_frames_change_nothing_and_each_gets_an_answer_or_a_close() -> None:
    rng = random.Random(2024)
    limits = SocketLimits(rate=1e9, burst=1e9, max_errors=10**9)
    async with serving(limits=limits) as live:
        host = await live.create("Ana", players=2)
        guest = await live.join(host["code"], "Beto")
        code = host["code"]
        a = await live.player(code, host["token"])
        b = await live.player(code, guest["token"])
        await b.command({"type": "sit", "seat": 1})
        await a.command({"type": "start"})
        await a.until(lambda p: p.view["phase"] == "playing")
        await b.until(lambda p: p.version == a.version)
        first, second = (a, b) if a.view["legal"] else (b, a)
        legal = next(x for x in first.view["legal"] if x["do"] == "play")
        played = {"type": "act", "id": "m-1", "do": "play", "card": legal["card"]}
        assert (await first.command(played))["type"] == "ack"
        await second.until(lambda p: p.version == first.version)
        assert not first.view["legal"] and second.view["legal"]
        # the fuzzer is the player who just played: not their turn, and their command id is taken
        fuzzer, mover = first, second
        version = live.rt.version(code)
        game_before = dict(live.rt.table(code).game.__dict__)
        history = mover.view["game"]["history"]
        my_cards = list(fuzzer.view["game"]["cards"])
        counts = {"answered": 0, "closed": 0, "duplicate": 0}
        codes: set[str] = set()
        reasons: set[str] = set()
        for _ in range(3000):
            roll = rng.random()
            expect_close: int | None = None
            if roll < 0.08:
                frame: str | bytes = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
                expect_close = CloseCode.POLICY
            elif roll < 0.16:
                frame = rng.choice(["nope", "{", "[]", "1", '"x"', "{'a':1}", "null", "{}}", "\x00"])
                expect_close = CloseCode.POLICY
            elif roll < 0.2:
                frame = '{"type":"ping","pad":"' + "x" * rng.choice([5000, 20_000]) + '"}'
                expect_close = CloseCode.TOO_BIG
            elif roll < 0.3:  # a replay of an accepted command
                frame = orjson.dumps(played).decode()
            else:
                frame = _mistake(rng, my_cards)
            n = len(fuzzer.messages)
            await fuzzer.send_raw(frame)
            if expect_close is None:
                await fuzzer.until(lambda p, n=n: p.closed or any(
                    m["type"] in ("error", "pong", "snapshot", "ack") for m in p.messages[n:]))
                assert not fuzzer.closed, (frame, fuzzer.close_code)
                answers = ("error", "pong", "snapshot", "ack")
                reply = next(m for m in fuzzer.messages[n:] if m["type"] in answers)
                if reply["type"] == "ack":
                    assert reply["id"] == "m-1" and reply["duplicate"] is True
                    counts["duplicate"] += 1
                else:
                    counts["answered"] += 1
                    if reply["type"] == "error":
                        codes.add(reply["code"])
                        reasons.update([reply["reason"]] if reply.get("reason") else [])
            else:
                await fuzzer.until(lambda p: p.closed)
                assert fuzzer.close_code == expect_close, (frame, fuzzer.close_code)
                counts["closed"] += 1
                fuzzer = await live.player(code, fuzzer.token)
        # reconnections are versions of presence; the game itself did not move
        assert live.rt.version(code) >= version
        assert live.rt.table(code).game.__dict__ == game_before
        await mover.until(lambda p: p.version == live.rt.version(code))
        assert mover.view["game"]["history"] == history and mover.view["legal"]
        assert (await live.http.get("/health")).status_code == 200
        assert counts["answered"] > 2000 and counts["closed"] > 300 and counts["duplicate"] > 200
        # every error code (and refusal reason) a client met is one docs/protocol.md lists
        doc = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
        documented = set(re.findall(r"^\| `([a-z_]+)`", doc, re.M))
        reasons_paragraph = doc.split("player's language", 1)[1].split("\n\n", 1)[0]
        listed_reasons = set(re.findall(r"`([a-z_]+)`", reasons_paragraph))
        assert codes and codes <= documented, codes - documented
        assert reasons and reasons <= listed_reasons, reasons - listed_reasons
        await fuzzer.close()
        fresh = await WsPlayer(live.base_ws, code, mover.token).connect()
        await fresh.until(lambda p: p.view is not None)
        assert fresh.view["game"]["history"] == history
