"""Spectators: read-only sockets that get the public view and the public events only.

The runtime facade binds sockets to players; it has no watcher. This thin subclass adds one without
touching table logic: after every accepted command it sends each spectator the events addressed to
everyone and a view built from public facts only (seat names, the engine's public view, deadlines).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from truco.engine import public_to_dict, public_view
from truco.runtime import Runtime, Send
from truco.table import EVERYONE, Outcome, Table


@dataclass(eq=False)
class Watcher:
    table_id: str
    send: Send


def spectator_view(t: Table) -> dict[str, Any]:
    """What anyone may see of a table, built field by field: never a hand, a vote, a seña or a token."""
    held = {d.seat: d.at_ms for d in t.deadlines if d.kind == "reconnect"}
    seats = []
    for seat, slot in enumerate(t.seats):
        if slot.player is not None:
            p = t.players[slot.player]
            seats.append({"seat": seat, "team": seat % 2, "kind": "human", "name": p.name,
                          "player": p.pid, "level": None, "connected": p.connected,
                          "held_until_ms": held.get(seat)})
        elif slot.bot is not None:
            seats.append({"seat": seat, "team": seat % 2, "kind": "bot", "name": f"bot {seat + 1}",
                          "player": None, "level": slot.bot, "connected": True, "held_until_ms": None})
        else:
            seats.append({"seat": seat, "team": seat % 2, "kind": "empty", "name": None, "player": None,
                          "level": None, "connected": False, "held_until_ms": None})
    game = None
    if t.game is not None and t.phase == "playing":
        game = public_to_dict(public_view(t.game))
    vote = None
    if t.vote is not None and t.game is not None:
        vote = {"team": t.vote.team, "call": str(t.vote.call), "mine": False}
    casual = None
    if t.settings.mode == "casual":
        casual = {"score": list(t.casual_score), "target": t.settings.target,
                  "awards": [{"team": tm, "points": pts} for tm, pts in t.awards]}
    return {
        "table_id": t.table_id, "version": t.version, "phase": t.phase,
        "settings": t.settings.to_dict(), "match_no": t.match_no, "me": None,
        "host": t.host, "seats": seats,
        "players": [{"player": p.pid, "name": p.name, "seat": p.seat, "connected": p.connected}
                    for p in t.players if not p.left],
        "game": game, "legal": [], "commands": [], "vote": vote,
        "deadlines": [{"kind": d.kind, "at_ms": d.at_ms, "seat": d.seat}
                      for d in sorted(t.deadlines, key=lambda d: d.at_ms)],
        "casual": casual, "senas": [],
        "last_hand": t.last_hand, "result": t.result,
    }


class ServerRuntime(Runtime):
    """The runtime plus spectators."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._watchers: dict[str, list[Watcher]] = {}

    async def watch(self, table_id: str, send: Send) -> Watcher:
        """Attach a spectator; it gets a ``snapshot`` at once, then one ``update`` per version."""
        live = self._live(table_id)

        def run(lv: Any) -> Watcher:
            w = Watcher(table_id, send)
            self._watchers.setdefault(table_id, []).append(w)
            t = lv.table
            send({"type": "snapshot", "table_id": table_id, "version": t.version, "reason": "connect",
                  "view": spectator_view(t)})
            return w

        return await self._call(live, run)

    async def unwatch(self, w: Watcher) -> None:
        watchers = self._watchers.get(w.table_id)
        if watchers and w in watchers:
            watchers.remove(w)
            if not watchers:
                del self._watchers[w.table_id]

    def watcher_count(self, table_id: str) -> int:
        return len(self._watchers.get(table_id, ()))

    def _after(self, live: Any, out: Outcome, now: int) -> None:
        super()._after(live, out, now)
        watchers = self._watchers.get(live.table_id)
        if not watchers:
            return
        t = live.table
        msg = {"type": "update", "table_id": t.table_id, "version": t.version,
               "events": [e.event for e in out.effects if e.audience == EVERYONE],
               "view": spectator_view(t)}
        for w in list(watchers):
            try:
                w.send(msg)
            except Exception:  # a broken spectator socket must not touch the table
                watchers.remove(w)

    async def spectator_snapshot(self, table_id: str) -> dict[str, Any]:
        """A fresh public view (a spectator's resync)."""
        live = self._live(table_id)

        def run(lv: Any) -> dict[str, Any]:
            t = lv.table
            return {"type": "snapshot", "table_id": table_id, "version": t.version, "reason": "resync",
                    "view": spectator_view(t)}

        return await self._call(live, run)
