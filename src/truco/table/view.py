"""What one person may know about a table, built field by field (never filtered from the state).

A player sees the seats, names, presence and deadlines; their own cards (through the engine's
``view_for``); their team's votes and their bot partner's hint only while their team answers; the
señas their partners sent them; the casual score; the result. A spectator is a person with no
player at the table: the same view without a hand, a vote, a seña or a ``me``. Nobody's token.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from truco.engine import (
    Action,
    Do,
    PublicView,
    SeatView,
    hand_states,
    public_to_dict,
    public_view,
    to_act,
    view_for,
)
from truco.engine.view import partners_senas
from truco.table.events import MatchResult
from truco.table.fairness import fairness_view
from truco.table.queries import Facts
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
    """The answer a team owes. ``votes``, ``options``, ``hint`` and the split window only for the
    answering team: the callers never learn that their rivals disagree."""

    team: int
    call: Do
    mine: bool
    options: tuple[Do, ...]
    votes: tuple[tuple[int, Do | None, bool], ...]
    """(seat, vote or None, forced): a forced "no quiero" came from a disconnection or the clock."""
    my_vote: Do | None
    hint: tuple[int, Do] | None
    window_ends_ms: int | None
    answer_ends_ms: int | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "team": self.team, "call": str(self.call), "mine": self.mine,
            "options": [str(d) for d in self.options],
            "votes": [{"seat": s, "vote": None if d is None else str(d), "forced": f}
                      for s, d, f in self.votes],
            "my_vote": None if self.my_vote is None else str(self.my_vote),
            "hint": None if self.hint is None else {"seat": self.hint[0], "vote": str(self.hint[1])},
            "window_ends_ms": self.window_ends_ms, "answer_ends_ms": self.answer_ends_ms,
        }


@dataclass(frozen=True, slots=True)
class TableView:
    """One person's view of the table, ready for ``to_dict`` and the wire."""

    table_id: str
    version: int
    phase: str
    settings: dict[str, Any]
    match_no: int
    me: int | None
    """My player id; ``None`` for a spectator."""
    my_name: str | None
    my_seat: int | None
    host: int
    seats: tuple[SeatInfo, ...]
    lobby: tuple[tuple[int, str, int | None, bool], ...]
    """Every player at the table: (player, name, seat or None, connected)."""
    game: SeatView | None
    """The engine's view for my seat (my cards), while a match is on."""
    public: PublicView | None
    """The public part of the hand, for a person without a seat."""
    commands: tuple[str, ...]
    """The command types I may send now (``act`` when I have legal actions, ``start``, …)."""
    vote: VoteView | None
    deadlines: tuple[tuple[str, int, int], ...]
    """(kind, at_ms, seat or -1), absolute times on the server's clock."""
    casual: dict[str, Any] | None
    senas: tuple[tuple[int, str], ...]
    """Señas my partners sent me this hand: (from seat, seña)."""
    last_hand: dict[str, Any] | None
    result: MatchResult | None
    fairness: dict[str, Any]
    """Commitments, who contributed and the last reveal (``truco.table.fairness.fairness_view``)."""

    @property
    def legal(self) -> tuple[Action, ...]:
        """What I may do now at this table (a vote while my team answers)."""
        return self.game.legal if self.game is not None else ()

    def to_dict(self, public_dict: dict[str, Any] | None = None) -> dict[str, Any]:
        """JSON-ready. ``public_dict`` (``public_to_dict`` of the same hand) may be shared among the
        views of one version: it is only read, never changed."""
        game: dict[str, Any] | None
        if self.game is not None:
            game = self.game.to_dict(public_dict)
        elif self.public is not None:
            game = public_dict if public_dict is not None else public_to_dict(self.public)
        else:
            game = None
        me = None if self.me is None else {"player": self.me, "name": self.my_name, "seat": self.my_seat,
                                           "host": self.me == self.host}
        return {
            "table_id": self.table_id, "version": self.version, "phase": self.phase,
            "settings": self.settings, "match_no": self.match_no, "me": me, "host": self.host,
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
            "result": None if self.result is None else self.result.to_dict(),
            "fairness": self.fairness,
        }


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


def _vote_view(facts: Facts, seat: int | None) -> VoteView | None:
    t = facts.table
    v = t.vote
    if v is None or t.game is None:
        return None
    window = next((d.at_ms for d in t.deadlines if d.kind == "vote_window"), None)
    answer = next((d.at_ms for d in t.deadlines if d.kind == "answer"), None)
    if seat is None or seat % 2 != v.team:
        return VoteView(v.team, v.call, False, (), (), None, None, None, answer)
    options = tuple(a.do for a in facts.seat_legal(seat))
    hint = next(((s, d) for s, d in v.hints if s % 2 == seat % 2), None)
    votes = tuple((s, v.vote_of(s), s in v.forced) for s in facts.voters())
    return VoteView(v.team, v.call, True, options, votes, v.vote_of(seat), hint, window, answer)


def table_view(facts: Facts, pid: int | None, public: PublicView | None = None) -> TableView:
    """Build player ``pid``'s view (``None``: a spectator's). Raises ``KeyError`` for a player who is
    not at the table. ``public`` (``public_view(t.game)``) may be shared among the views of one version."""
    t = facts.table
    me = None
    if pid is not None:
        me = t.player(pid)
        if me is None:
            raise KeyError(pid)
    seat = me.seat if me is not None else None
    game: SeatView | None = None
    if t.game is not None and t.phase == "playing":
        if public is None:
            public = public_view(t.game)
        if seat is not None:
            game = view_for(t.game, seat, public, facts.seat_legal(seat))
    senas = partners_senas(t.senas, seat) if seat is not None else ()
    answering = t.vote is not None and seat is not None and seat % 2 == t.vote.team
    deadlines = tuple((d.kind, d.at_ms, d.seat) for d in sorted(t.deadlines, key=lambda d: d.at_ms)
                      if d.kind != "vote_window" or answering)
    shown_result = t.phase == "over" or pid is None or pid in t.result_players
    casual = None
    if t.settings.mode == "casual":
        casual = {"score": list(t.casual_score), "target": t.settings.target,
                  "awards": [{"team": tm, "points": pts} for tm, pts in t.awards]}
    return TableView(
        table_id=t.table_id, version=t.version, phase=t.phase, settings=t.settings.to_dict(),
        match_no=t.match_no, me=pid, my_name=me.name if me is not None else None, my_seat=seat,
        host=t.host, seats=_seat_infos(t),
        lobby=tuple((p.pid, p.name, p.seat, p.connected) for p in t.players if not p.left),
        game=game, public=public if game is None and t.phase == "playing" else None,
        commands=facts.commands_open(pid) if pid is not None else (),
        vote=_vote_view(facts, seat),
        deadlines=deadlines, casual=casual, senas=senas, last_hand=t.last_hand,
        result=t.result if shown_result else None,
        fairness=fairness_view(t, pid),
    )


def table_views(facts: Facts, pids: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
    """The JSON views of several people at one version (``None``: spectators), sharing the public
    part of the hand."""
    t = facts.table
    public = public_view(t.game) if t.game is not None and t.phase == "playing" else None
    public_dict = public_to_dict(public) if public is not None else None
    return {pid: table_view(facts, pid, public).to_dict(public_dict) for pid in pids}


def bot_view(facts: Facts, seat: int) -> SeatView:
    """The engine view a bot in ``seat`` decides from (calls removed in casual mode)."""
    t = facts.table
    assert t.game is not None
    view = view_for(t.game, seat, legal=facts.playable(seat))
    senas = partners_senas(t.senas, seat)
    return replace(view, senas=senas) if senas else view


def bot_recall(t: Table, seat: int) -> list[SeatView]:
    """What a bot made anew in ``seat`` during a match (a restarted server, a table taken over by
    another node, a worker started again) is told of the match so far: for each hand already over,
    the seat's view at the last point the engine offered it a move (its turn, or its team's answer),
    the latest view a bot there could have been asked in. Built from the match record's deals and
    actions: nothing the seat did not see then (no señas: the record keeps none)."""
    out: list[SeatView] = []
    for i, record in enumerate(t.hands):
        states = hand_states(record, i + 1)
        last = next((st for st in reversed(states) if not st.hand_over and seat in to_act(st)), None)
        if last is not None:
            out.append(view_for(last, seat))
    return out


def table_summary(t: Table) -> dict[str, Any]:
    """What anyone may see of a table in the lobby listing (and what storage keeps as its metadata).
    ``here``: how many people are connected now (a table nobody is at is not worth listing)."""
    host = t.player(t.host)
    return {
        "table_id": t.table_id, "phase": t.phase, "host": host.name if host else None,
        "settings": t.settings.to_dict(),
        "seats": [("bot" if s.bot else "human" if s.player is not None else "empty") for s in t.seats],
        "free_seats": sum(1 for s in t.seats if s.empty),
        "match_no": t.match_no,
        "here": sum(1 for p in t.players if p.connected and not p.left),
    }
