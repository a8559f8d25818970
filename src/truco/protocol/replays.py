"""Matches watched again, as wire JSON: a replay built from a table's log for one viewer, the match
record that ``truco replay`` and ``truco verify`` read, and the points of a table's matches by kind.
Pure; it lives with the wire formats so that the server can serve it without reaching into the table.

A replay is built the way the live views are: by applying the logged commands again and keeping,
step by step, only the events whose audience reached the viewer. A spectator gets what everyone
heard; a player who sat at the table gets what their seat heard (their own cards, their team's
votes and señas). Every seat's cards become public when the hand is over and its deal revealed
(docs/fairness.md): only then does a replay show the cards nobody played.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable
from typing import Any

from truco.engine import ActionError, RecordError, public_to_dict, public_view, replay
from truco.engine.cards import NAME
from truco.engine.types import HandEnded, PointsAwarded
from truco.table import (
    Audience,
    Create,
    Envelope,
    Table,
    TableError,
    apply,
    command_from_dict,
    create,
    event_dict,
)

KEPT = frozenset({
    "match_started", "hand_started", "card_played", "called", "answered", "went_to_mazo", "tanto_sung",
    "son_buenas", "round_ended", "points_awarded", "cards_shown", "hand_ended", "chico_ended", "match_ended",
    "vote_opened", "vote_cast", "vote_split", "vote_decided", "vote_expired", "bot_hint", "sena",
    "turn_expired", "hand_ended_early", "awarded", "award_undone", "deal_revealed", "match_over",
    "match_cancelled", "duel_started", "duel_ended",
})
"""What a replay tells: the game, the votes, the deal's reveal. Presence and the lobby are left out."""


class NoSuchMatch(LookupError):
    """No finished or cancelled match with that number at this table."""


def _viewer(t: Table, token: str | None) -> int | None:
    """The player whose seat token this is (one who left since is still themselves), else ``None``."""
    if not token:
        return None
    for p in t.players:
        if hmac.compare_digest(p.token.encode(), token.encode()):
            return p.pid
    return None


def _hears(audience: Audience, seat: int | None) -> bool:
    return audience.kind == "everyone" or (seat is not None and audience.reaches(seat))


def _felt(t: Table) -> dict[str, Any]:
    """The public part of the hand on the table, as the steps of a replay show it."""
    assert t.game is not None
    p = public_to_dict(public_view(t.game))
    return {k: p[k] for k in ("hand_no", "dealer", "mano", "score", "rounds", "results", "sung", "shown",
                              "folded", "truco_value", "hand_over", "pica", "duel", "duels")}


def replay_from_log(entries: Iterable[Any], match_no: int, token: str | None = None) -> dict[str, Any]:
    """``match_replay`` from stored log entries (``truco.storage.LogEntry``: command, player, at_ms)."""
    return match_replay([(Envelope(command_from_dict(e.command), e.player), e.at_ms) for e in entries],
                        match_no, token)


def match_replay(log: list[tuple[Envelope, int]], match_no: int, token: str | None = None) -> dict[str, Any]:
    """Match ``match_no`` of the table whose log this is, hand by hand and step by step, as the holder
    of ``token`` may see it (``None`` or an unknown token: a spectator). Raises ``NoSuchMatch`` when
    the match has not ended (or never was)."""
    (first, now0), rest = log[0], log[1:]
    if not isinstance(first.command, Create):
        raise TableError("a table log starts with create", "bad_log")
    t, _ = create(first.command, now0)
    seat: int | None = None
    seats: list[dict[str, Any]] = []
    hands: list[dict[str, Any]] = []
    for env, now in rest:
        before = t
        t, out = apply(t, env, now)
        starting = before.phase != "playing" and t.phase == "playing" and t.match_no == match_no
        if not (starting or (before.phase == "playing" and before.match_no == match_no)):
            continue
        if starting:
            viewer = _viewer(t, token)
            seat = next((s for s, slot in enumerate(t.seats) if viewer is not None and slot.player == viewer),
                        None)
            seats = [{"seat": s, "team": s % 2, "bot": slot.bot,
                      "name": t.players[slot.player].name if slot.player is not None else None}
                     for s, slot in enumerate(t.seats)]
        events = [d for d in (event_dict(e.event) for e in out.effects if _hears(e.audience, seat))
                  if d["type"] in KEPT]
        cut = next((i for i, e in enumerate(events) if e["type"] == "hand_started"), len(events))
        if hands and hands[-1]["end"] is None:
            hand = hands[-1]
            if events[:cut]:
                hand["steps"].append({"events": events[:cut], "felt": None})
            if t.phase == "playing" and t.hand_no == hand["hand_no"]:
                if events[:cut]:
                    hand["steps"][-1]["felt"] = _felt(t)
            else:
                _close_hand(hand, t)
        if cut < len(events) and t.game is not None:
            g = t.game
            hands.append({"hand_no": t.hand_no, "dealer": g.dealer, "mano": g.mano,
                          "mine": [NAME[c] for c in g.dealt[seat]] if seat is not None else None,
                          "steps": [{"events": events[cut:], "felt": _felt(t)}], "end": None, "dealt": None,
                          "fairness": None})
        if t.phase != "playing":
            result = t.result.to_dict() if t.result is not None else None
            return {"table_id": t.table_id, "match_no": match_no, "players": len(seats), "seats": seats,
                    "settings": t.settings.to_dict(), "viewer_seat": seat, "result": result,
                    "cancelled": bool(result and result["cancelled"]), "hands": hands}
    raise NoSuchMatch(match_no)


def _close_hand(hand: dict[str, Any], t: Table) -> None:
    """The hand is over: the felt as it ended, its summary and, now that its deal is revealed,
    every seat's cards."""
    summary = t.last_hand if t.last_hand is not None and t.last_hand["hand_no"] == hand["hand_no"] else None
    felt = next((s["felt"] for s in reversed(hand["steps"]) if s["felt"] is not None), None)
    if summary is not None and felt is not None:
        felt = {**felt, "rounds": summary["rounds"], "results": summary["results"], "sung": summary["sung"],
                "shown": summary["shown"], "score": summary["score"], "hand_over": True}
    elif t.game is not None and t.game.hand_no == hand["hand_no"]:
        felt = {**_felt(t), "hand_over": True}  # a match that ended mid-hand
    for step in hand["steps"]:
        if step["felt"] is None:
            step["felt"] = felt
    hand["end"] = {"summary": summary}
    rec = next((r for r in reversed(t.hands) if (r.get("fairness") or {}).get("hand_no") == hand["hand_no"]),
               None)
    if rec is not None:
        hand["dealt"] = rec["hands"]
        hand["fairness"] = rec["fairness"]


# ------------------------------------------------------------------ records and statistics


def download_record(match: dict[str, Any]) -> dict[str, Any]:
    """A stored match record as the JSON ``truco replay`` reads: one ``deals`` list continuing from
    the first hand's score, each deal with its ``fairness`` reveal for ``truco verify``."""
    hands = match.get("hands") or []
    if not hands:
        raise NoSuchMatch("the match has no hand")
    if match.get("casual"):
        raise NoSuchMatch("a casual match is scored by hand: it has no record to replay")
    first = hands[0]
    return {"rules": first["rules"], "score": first["score"], "chicos": first["chicos"],
            "deals": [{k: h[k] for k in ("dealer", "hands", "actions", "pica", "fairness") if k in h}
                      for h in hands]}


def _kind(reason: str) -> str:
    """The engine's reason for points → the part of the game that paid them."""
    if "flor" in reason:
        return "flor"
    if reason.startswith("envido") or "envido" in reason:
        return "envido"
    return "truco"


def match_points(match: dict[str, Any]) -> dict[str, Any]:
    """Points won by envido, truco and flor, and hands won, per team, in one stored match."""
    points = {k: [0, 0] for k in ("envido", "truco", "flor")}
    hands_won = [0, 0]
    try:
        result = replay(download_record(match))
    except (NoSuchMatch, RecordError, ActionError, KeyError):
        return {"match_no": match.get("match_no"), "points": points, "hands_won": hands_won, "counted": False}
    for e in result.events:
        if isinstance(e, PointsAwarded):
            points[_kind(e.reason)][e.team] += e.points
        elif isinstance(e, HandEnded) and e.winner in (0, 1):
            hands_won[e.winner] += 1
    return {"match_no": match.get("match_no"), "points": points, "hands_won": hands_won, "counted": True}


def table_stats(matches: list[dict[str, Any]]) -> dict[str, Any]:
    """Every match of a table, and the totals the statistics chart draws."""
    per = [match_points(m) for m in matches]
    total = {k: [sum(p["points"][k][team] for p in per) for team in (0, 1)]
             for k in ("envido", "truco", "flor")}
    hands = [sum(p["hands_won"][team] for p in per) for team in (0, 1)]
    listing = [{"match_no": m.get("match_no"), "result": m.get("result"),
                "seats": m.get("seats"), "casual": bool(m.get("casual"))} for m in matches]
    return {"matches": listing, "per_match": per, "points": total, "hands_won": hands,
            "counted": sum(1 for p in per if p["counted"])}
