"""Wire views built from public facts only: a spectator's view and a table's lobby summary.

Like a seat's view, each is built field by field (never filtered from the state): seat names and
presence, the engine's public view of the hand, which team owes an answer, the deadlines, the score.
Never a hand, a vote, a seña or a token.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from truco.engine import public_to_dict, public_view
from truco.table import EVERYONE, Effect, Table


def table_path(code: str) -> str:
    """The link path of a table: ``/m/<code>``."""
    return f"/m/{code}"


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


def public_events(effects: Iterable[Effect]) -> list[dict[str, Any]]:
    """The events of an outcome that everyone may see (a spectator gets only these)."""
    return [e.event for e in effects if e.audience == EVERYONE]


def table_summary(t: Table) -> dict[str, Any]:
    """What anyone holding a table's code may see of it in the lobby."""
    host = t.player(t.host)
    return {
        "table_id": t.table_id, "code": t.table_id, "url": table_path(t.table_id), "phase": t.phase,
        "host": host.name if host else None, "settings": t.settings.to_dict(),
        "seats": [("bot" if s.bot else "human" if s.player is not None else "empty") for s in t.seats],
        "free_seats": sum(1 for s in t.seats if s.empty), "match_no": t.match_no,
    }
