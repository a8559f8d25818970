"""What each socket of a table is sent: a hello when it connects, then one update per accepted
command (the events its person may hear and their new view), a snapshot when it asks to resync.

Views are built per person from the table's ``Facts`` (never filtered); a spectator is a connection
with no player, served by the same fan-out with the public view and the public events.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from truco.protocol import PROTOCOL_VERSION, CloseCode, Hello, Left, ServerMessage, Snapshot, Update
from truco.runtime.connections import Connection
from truco.table import Effect, Facts, Outcome, event_dict, table_view, table_views

log = logging.getLogger("truco.runtime")


def deliver(conn: Connection, msg: ServerMessage) -> None:
    """Hand ``msg`` to ``conn``; a broken socket must never touch the table."""
    try:
        conn.send(msg)
    except Exception:
        log.exception("table %s: sending to a socket failed", conn.table_id)


def hello(facts: Facts, conn: Connection, now_ms: int) -> Hello:
    t = facts.table
    seat = None
    if conn.player is not None:
        p = t.player(conn.player)
        seat = p.seat if p is not None else None
    return Hello(table_id=t.table_id, role="spectator" if conn.player is None else "player",
                 player=conn.player, seat=seat, version=t.version, server_now_ms=now_ms,
                 view=table_view(facts, conn.player).to_dict(), protocol=PROTOCOL_VERSION)


def snapshot(facts: Facts, conn: Connection, reason: str, now_ms: int) -> Snapshot:
    t = facts.table
    return Snapshot(table_id=t.table_id, version=t.version, reason=reason, server_now_ms=now_ms,
                    view=table_view(facts, conn.player).to_dict())


def _events_for(effects: Iterable[Effect], seat: int | None,
                cache: dict[int, dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for i, e in enumerate(effects):
        if e.audience.reaches(seat):
            d = cache.get(i)
            if d is None:
                d = cache[i] = event_dict(e.event)
            out.append(d)
    return out


def fan_out(facts: Facts, conns: Iterable[Connection], out: Outcome, now_ms: int) -> list[Connection]:
    """Send every connection its update for this version; returns the connections whose player is
    no longer at the table (they are sent ``left`` and asked to close)."""
    t = facts.table
    conns = list(conns)
    gone = [c for c in conns if c.player is not None and t.player(c.player) is None]
    here = [c for c in conns if c not in gone]
    views = table_views(facts, {c.player for c in here})
    cache: dict[int, dict[str, Any]] = {}
    for c in here:
        seat = None
        if c.player is not None:
            p = t.player(c.player)
            seat = p.seat if p is not None else None
        deliver(c, Update(table_id=t.table_id, version=t.version, server_now_ms=now_ms,
                          events=_events_for(out.effects, seat, cache), view=views[c.player]))
    for c in gone:
        deliver(c, Left(table_id=t.table_id, version=t.version))
        c.close(CloseCode.NORMAL, "you left the table")
    return gone
