"""What one player may know about a table, built field by field (never filtered from the state).

A player sees the seats, names, presence and deadlines; their own cards (through the engine's
``view_for``); their team's votes and their bot partner's hint only while their team answers; the
señas their partners sent them; the casual score; the result. Nobody's token but their own.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from truco.engine import Action, Do, PublicView, SeatView, public_to_dict, public_view, view_for
from truco.engine.cards import NAME
from truco.table.session import commands_open, seat_legal, voters
from truco.table.state import Table


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    team: int
    kind: str
    """``human``, ``bot`` or ``empty``."""
    name: str | None
    player: int | None
    level: str | None
    connected: bool
    held_until_ms: int | None
    """While a disconnected player's seat is held: when the hold ends."""

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "team": self.team, "kind": self.kind, "name": self.name,
                "player": self.player, "level": self.level, "connected": self.connected,
                "held_until_ms": self.held_until_ms}


@dataclass(frozen=True, slots=True)
class VoteView:
    """The answer a team owes. ``votes``, ``options`` and ``hint`` only for the answering team."""

    team: int
    call: Do
    mine: bool
    options: tuple[Do, ...]
    votes: tuple[tuple[int, Do | None], ...]
    my_vote: Do | None
    hint: tuple[int, Do] | None
    window_ends_ms: int | None
    answer_ends_ms: int | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "team": self.team, "call": str(self.call), "mine": self.mine,
            "options": [str(d) for d in self.options],
            "votes": [{"seat": s, "vote": None if d is None else str(d)} for s, d in self.votes],
            "my_vote": None if self.my_vote is None else str(self.my_vote),
            "hint": None if self.hint is None else {"seat": self.hint[0], "vote": str(self.hint[1])},
            "window_ends_ms": self.window_ends_ms, "answer_ends_ms": self.answer_ends_ms,
        }


@dataclass(frozen=True, slots=True)
class TableView:
    """One player's view of the table, ready for ``to_dict`` and the wire."""

    table_id: str
    version: int
    phase: str
    settings: dict[str, Any]
    match_no: int
    me: int
    my_name: str
    my_seat: int | None
    host: int
    seats: tuple[SeatInfo, ...]
    lobby: tuple[tuple[int, str, int | None, bool], ...]
    """Every player at the table: (player, name, seat or None, connected)."""
    game: SeatView | None
    """The engine's view for my seat (my cards), while a match is on."""
    public: PublicView | None
    """The public part of the hand, for a player without a seat."""
    legal: tuple[Action, ...]
    """What I may do now at this table (a vote while my team answers)."""
    commands: tuple[str, ...]
    """The command types I may send now (``act`` when ``legal`` is not empty, ``start``, …)."""
    vote: VoteView | None
    deadlines: tuple[tuple[str, int, int], ...]
    """(kind, at_ms, seat or -1), absolute times on the server's clock."""
    casual: dict[str, Any] | None
    senas: tuple[tuple[int, str], ...]
    """Señas my partners sent me this hand: (from seat, seña)."""
    last_hand: dict[str, Any] | None
    result: dict[str, Any] | None

    def to_dict(self, public_dict: dict[str, Any] | None = None) -> dict[str, Any]:
        """JSON-ready. ``public_dict`` (``public_to_dict`` of the same hand) may be shared among the
        views of one version: it is only read, never changed."""
        game: dict[str, Any] | None
        if self.game is not None:
            game = _seat_dict(self.game, self.legal, public_dict)
        elif self.public is not None:
            game = public_dict if public_dict is not None else public_to_dict(self.public)
        else:
            game = None
        return {
            "table_id": self.table_id, "version": self.version, "phase": self.phase,
            "settings": self.settings, "match_no": self.match_no,
            "me": {"player": self.me, "name": self.my_name, "seat": self.my_seat,
                   "host": self.me == self.host},
            "host": self.host,
            "seats": [s.to_dict() for s in self.seats],
            "players": [{"player": p, "name": n, "seat": s, "connected": c} for p, n, s, c in self.lobby],
            "game": game,
            "legal": [a.to_dict() for a in self.legal],
            "commands": list(self.commands),
            "vote": None if self.vote is None else self.vote.to_dict(),
            "deadlines": [{"kind": k, "at_ms": at, "seat": s} for k, at, s in self.deadlines],
            "casual": self.casual,
            "senas": [{"from": s, "sena": x} for s, x in self.senas],
            "last_hand": self.last_hand,
            "result": self.result,
        }


def _seat_dict(v: SeatView, legal: tuple[Action, ...], public_dict: dict[str, Any] | None) -> dict[str, Any]:
    """``SeatView.to_dict`` with the table's legal actions, reusing a shared public part."""
    d = dict(public_dict) if public_dict is not None else public_to_dict(v.public)
    d.update({
        "seat": v.seat,
        "team": v.team,
        "cards": [NAME[c] for c in v.cards],
        "dealt": [NAME[c] for c in v.dealt],
        "my_tanto": v.my_tanto,
        "my_flor": v.my_flor,
        "legal": [a.to_dict() for a in legal],
    })
    return d


def _seat_infos(t: Table) -> tuple[SeatInfo, ...]:
    held = {d.seat: d.at_ms for d in t.deadlines if d.kind == "reconnect"}
    out = []
    for seat, slot in enumerate(t.seats):
        if slot.player is not None:
            p = t.players[slot.player]
            out.append(SeatInfo(seat, seat % 2, "human", p.name, p.pid, None, p.connected, held.get(seat)))
        elif slot.bot is not None:
            out.append(SeatInfo(seat, seat % 2, "bot", f"bot {seat + 1}", None, slot.bot, True, None))
        else:
            out.append(SeatInfo(seat, seat % 2, "empty", None, None, None, False, None))
    return tuple(out)


def _vote_view(t: Table, seat: int | None) -> VoteView | None:
    v = t.vote
    if v is None or t.game is None:
        return None
    window = next((d.at_ms for d in t.deadlines if d.kind == "vote_window"), None)
    answer = next((d.at_ms for d in t.deadlines if d.kind == "answer"), None)
    mine = seat is not None and seat % 2 == v.team
    if not mine:
        return VoteView(v.team, v.call, False, (), (), None, None, window, answer)
    assert seat is not None
    humans = voters(t)
    options = tuple(a.do for a in seat_legal(t, seat))
    hint = next(((s, d) for s, d in v.hints if s % 2 == seat % 2), None)
    return VoteView(v.team, v.call, True, options, tuple((s, v.vote_of(s)) for s in humans),
                    v.vote_of(seat), hint, window, answer)


def table_view(t: Table, pid: int, public: PublicView | None = None) -> TableView:
    """Build player ``pid``'s view. Raises ``KeyError`` for a player who is not at the table.
    ``public`` (``public_view(t.game)``) may be shared among the views of one version."""
    me = t.player(pid)
    if me is None:
        raise KeyError(pid)
    seat = me.seat
    game: SeatView | None = None
    if t.game is not None and t.phase == "playing":
        if public is None:
            public = public_view(t.game)
        if seat is not None:
            game = view_for(t.game, seat, public)
    legal = seat_legal(t, seat) if seat is not None else ()
    senas = tuple((s, x) for s, x in t.senas if seat is not None and s % 2 == seat % 2 and s != seat)
    casual = None
    if t.settings.mode == "casual":
        casual = {"score": list(t.casual_score), "target": t.settings.target,
                  "awards": [{"team": tm, "points": pts} for tm, pts in t.awards]}
    return TableView(
        table_id=t.table_id, version=t.version, phase=t.phase, settings=t.settings.to_dict(),
        match_no=t.match_no, me=pid, my_name=me.name, my_seat=seat, host=t.host,
        seats=_seat_infos(t),
        lobby=tuple((p.pid, p.name, p.seat, p.connected) for p in t.players if not p.left),
        game=game, public=public if game is None and t.phase == "playing" else None, legal=legal,
        commands=commands_open(t, pid),
        vote=_vote_view(t, seat),
        deadlines=tuple((d.kind, d.at_ms, d.seat) for d in sorted(t.deadlines, key=lambda d: d.at_ms)),
        casual=casual, senas=senas, last_hand=t.last_hand, result=t.result,
    )


def table_views(t: Table, pids: Iterable[int]) -> dict[int, dict[str, Any]]:
    """The JSON views of several players at one version, sharing the public part of the hand."""
    public = public_view(t.game) if t.game is not None and t.phase == "playing" else None
    public_dict = public_to_dict(public) if public is not None else None
    return {pid: table_view(t, pid, public).to_dict(public_dict) for pid in pids}
