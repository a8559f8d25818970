"""Strict decoding of client frames: garbage closes, mistakes get an error, nothing is guessed."""

from __future__ import annotations

import orjson
import pytest

from truco.engine import Do
from truco.engine.cards import parse_card
from truco.protocol import (
    MAX_FRAME_BYTES,
    CloseCode,
    CommandMsg,
    ErrorCode,
    PingMsg,
    PolicyViolation,
    ProtocolError,
    RateLimiter,
    ResyncMsg,
    command_frame,
    decode,
)
from truco.table.commands import Act, AddBot, Award, Sena, Sit, Start


def frame(**fields: object) -> str:
    return orjson.dumps(fields).decode()


def test_a_play_decodes_to_an_act_with_its_command_id() -> None:
    msg = decode(frame(type="act", id="c1", do="play", card="1e"))
    assert msg == CommandMsg("c1", Act(Do.PLAY, parse_card("1e")))


def test_a_vote_is_an_act_with_the_answer() -> None:
    assert decode(frame(type="vote", id="v-7", answer="quiero")) == CommandMsg("v-7", Act(Do.QUIERO))


def test_host_and_lobby_commands_decode() -> None:
    assert decode(frame(type="start", id="s")) == CommandMsg("s", Start())
    assert decode(frame(type="add_bot", id="b", seat=3, level="random")) == \
        CommandMsg("b", AddBot(3, "random"))
    assert decode(frame(type="award", id="a", team=1, points=3)) == CommandMsg("a", Award(1, 3))
    assert decode(frame(type="sit", id="x", seat=2)) == CommandMsg("x", Sit(2))
    assert decode(frame(type="sena", id="y", sena="ancho_espada")) == CommandMsg("y", Sena("ancho_espada"))


def test_resync_and_ping() -> None:
    assert decode(frame(type="resync", since=12)) == ResyncMsg(12)
    assert decode(frame(type="ping")) == PingMsg()


def test_a_command_frame_round_trips() -> None:
    cmd = Act(Do.PLAY, parse_card("7o"))
    assert decode(command_frame("k9", cmd)) == CommandMsg("k9", cmd)


@pytest.mark.parametrize("raw", [b"\x00\x01", b'{"type":"ping"}', None])
def test_binary_frames_are_a_policy_violation(raw: bytes | None) -> None:
    with pytest.raises(PolicyViolation) as e:
        decode(raw)
    assert e.value.close_code == CloseCode.POLICY


@pytest.mark.parametrize("raw", ["not json", "[1,2]", '"ping"', "{", "1", "null"])
def test_text_that_is_not_a_json_object_is_garbage(raw: str) -> None:
    with pytest.raises(PolicyViolation) as e:
        decode(raw)
    assert e.value.close_code == CloseCode.POLICY


def test_an_oversized_frame_closes_with_too_big() -> None:
    big = frame(type="ping", pad="x" * MAX_FRAME_BYTES)
    with pytest.raises(PolicyViolation) as e:
        decode(big)
    assert e.value.close_code == CloseCode.TOO_BIG


def test_multibyte_text_is_measured_in_bytes() -> None:
    big = frame(type="ping", pad="ñ" * (MAX_FRAME_BYTES // 2))
    assert len(big) < MAX_FRAME_BYTES * 2
    with pytest.raises(PolicyViolation):
        decode(big)


@pytest.mark.parametrize("fields, needle", [
    ({"type": "act", "do": "play", "card": "1e"}, "id"),
    ({"type": "act", "id": "", "do": "play", "card": "1e"}, "id"),
    ({"type": "act", "id": "x" * 41, "do": "play", "card": "1e"}, "id"),
    ({"type": "act", "id": "c", "do": "play", "card": "8e"}, "card"),
    ({"type": "act", "id": "c", "do": "play", "card": "1E"}, "card"),
    ({"type": "act", "id": "c", "do": "play"}, "card"),
    ({"type": "act", "id": "c", "do": "truco", "card": "1e"}, "card"),
    ({"type": "act", "id": "c", "do": "dance"}, "dance"),
    ({"type": "act", "id": "c", "do": "play", "card": "1e", "seat": 2}, "seat"),
    ({"type": "act", "id": "c", "do": ["play"]}, "do"),
    ({"type": "vote", "id": "c", "answer": "play"}, "answer"),
    ({"type": "vote", "id": "c", "answer": "quiero", "seat": 1}, "vote"),
    ({"type": "sit", "id": "c", "seat": True}, "seat"),
    ({"type": "sit", "id": "c", "seat": 10**12}, "seat"),
    ({"type": "sit", "id": "c", "seat": -1}, "seat"),
    ({"type": "sit", "id": "c", "seat": 1.5}, "seat"),
    ({"type": "sena", "id": "c", "sena": "x" * 100}, "sena"),
    ({"type": "award", "id": "c", "team": 1, "points": None}, "points"),
    ({"type": "create", "id": "c"}, "create"),
    ({"type": "join", "id": "c", "name": "x", "token": "y"}, "join"),
    ({"type": "bot_act", "id": "c", "seat": 1, "do": "mazo"}, "bot_act"),
    ({"type": "resync"}, "since"),
    ({"type": "resync", "since": -1}, "since"),
    ({"type": "ping", "x": 1}, "ping"),
    ({"id": "c"}, "type"),
])
def test_malformed_messages_get_a_bad_message_error(fields: dict[str, object], needle: str) -> None:
    with pytest.raises(ProtocolError) as e:
        decode(frame(**fields))
    assert e.value.code == ErrorCode.BAD_MESSAGE
    assert needle in e.value.message or needle in str(fields.get("type"))


def test_a_bad_command_reports_its_own_id() -> None:
    with pytest.raises(ProtocolError) as e:
        decode(frame(type="act", id="tap-3", do="dance"))
    assert e.value.command_id == "tap-3"


def test_system_commands_cannot_be_sent_by_a_client() -> None:
    for kind in ("create", "join", "connect", "disconnect", "wake", "recovered", "bot_act", "bot_hint"):
        with pytest.raises(ProtocolError):
            decode(frame(type=kind, id="c"))


def test_rate_limiter_allows_a_burst_then_refuses() -> None:
    rl = RateLimiter(rate=10, burst=5)
    assert all(rl.allow(0.0) for _ in range(5))
    assert not rl.allow(0.0)


def test_rate_limiter_refills_with_time() -> None:
    rl = RateLimiter(rate=10, burst=5)
    for _ in range(5):
        rl.allow(0.0)
    assert rl.allow(0.1)
    assert not rl.allow(0.1)
    assert all(rl.allow(10.0) for _ in range(5))
