"""The outgoing queue of one socket: bounded, and every message encoded at once from its typed record."""

from __future__ import annotations

from typing import Any, cast

import orjson

from truco.protocol import CloseCode, Hello, Update
from truco.server.socket import SocketLimits, SocketSession


def _session(max_outgoing: int = 512) -> SocketSession:
    limits = SocketLimits(max_outgoing=max_outgoing)
    return SocketSession(cast(Any, None), cast(Any, None), "ABCDEF", "tok", limits)


def _update(version: int) -> Update:
    return Update(table_id="ABCDEF", version=version, server_now_ms=5, events=[], view={})


def test_a_client_that_does_not_read_is_closed_and_its_queue_dropped() -> None:
    s = _session(max_outgoing=3)
    for v in range(3):
        s.push(_update(v))
    assert len(s.out) == 3 and s.closing is None
    s.push(_update(3))
    assert s.closing is not None and s.closing[0] == CloseCode.POLICY
    assert not s.out
    s.push(_update(4))
    assert not s.out


def test_a_hello_carries_the_seat_the_protocol_and_the_server_clock() -> None:
    s = _session()
    view = {"me": {"player": 2, "seat": 1, "host": False, "name": "Caro"}, "version": 9}
    s.push(Hello(table_id="ABCDEF", role="player", player=2, seat=1, version=9, server_now_ms=1234, view=view,
                 protocol=1))
    assert orjson.loads(s.out[0]) == {"type": "hello", "protocol": 1, "role": "player", "table_id": "ABCDEF",
                                      "player": 2, "seat": 1, "version": 9, "server_now_ms": 1234,
                                      "view": view}
