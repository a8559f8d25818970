"""The outgoing queue of one socket: bounded, and a hello replaces the runtime's first snapshot."""

from __future__ import annotations

from typing import Any, cast

import orjson

from truco.protocol import CloseCode
from truco.server.socket import SocketLimits, SocketSession


def _session(max_outgoing: int = 512) -> SocketSession:
    limits = SocketLimits(max_outgoing=max_outgoing)
    return SocketSession(cast(Any, None), cast(Any, None), "ABCDEF", "tok", limits)


def test_a_client_that_does_not_read_is_closed_and_its_queue_dropped() -> None:
    s = _session(max_outgoing=3)
    for v in range(3):
        s.push({"type": "update", "version": v})
    assert len(s.out) == 3 and s.closing is None
    s.push({"type": "update", "version": 3})
    assert s.closing is not None and s.closing[0] == CloseCode.POLICY
    assert not s.out
    s.push({"type": "update", "version": 4})
    assert not s.out


def test_the_connect_snapshot_becomes_a_hello_with_seat_and_protocol() -> None:
    s = _session()
    view = {"me": {"player": 2, "seat": 1, "host": False, "name": "Caro"}, "version": 9}
    s.push({"type": "snapshot", "table_id": "ABCDEF", "version": 9, "reason": "connect", "view": view})
    hello = orjson.loads(s.out[0])
    assert hello == {"type": "hello", "protocol": 1, "role": "player", "table_id": "ABCDEF", "player": 2,
                     "seat": 1, "version": 9, "view": view}


def test_a_resync_snapshot_stays_a_snapshot() -> None:
    s = _session()
    s.push({"type": "snapshot", "table_id": "ABCDEF", "version": 9, "reason": "resync", "view": {}})
    assert orjson.loads(s.out[0])["type"] == "snapshot"
