"""Who is here, and what time does by itself (ruling 18): connections, seats held for a player who
dropped, the deadlines firing, our own restart, and tables nobody comes back to."""

from __future__ import annotations

from dataclasses import replace

from truco.engine import Action, Do
from truco.engine.cards import POWER
from truco.table.commands import Abandon, Connect, Disconnect, Recovered, Wake
from truco.table.edits import (
    Ctx,
    TableError,
    add_deadline,
    deadline_infos,
    drop_deadlines,
    set_player,
    set_result,
    set_slot,
)
from truco.table.effects import EVERYONE, to_seat, to_team
from truco.table.events import (
    Connected,
    Disconnected,
    HostChanged,
    MatchCancelled,
    MatchResult,
    SeatHeld,
    ServerRestarted,
    TableClosed,
    TurnExpired,
    VoteCast,
    VoteExpired,
)
from truco.table.hands import (
    force_vote,
    match_record,
    record_unfinished_hand,
    resolve_vote,
    settle_vote,
    step,
)
from truco.table.queries import Facts
from truco.table.state import SeatSlot, Table

HOST_AWAY_MS = 30_000
"""A host gone this long (not a reload) hands the host role to someone who is here."""


def connect(t: Table, cmd: Connect, ctx: Ctx) -> bool:
    p = t.player(cmd.player)
    if p is None:
        raise TableError("there is no such player", "no_such_player")
    if p.connected:
        return False
    set_player(t, replace(p, connected=True, restart_grace=False))
    if p.seat is not None:
        drop_deadlines(t, "reconnect", seat=p.seat)
    if p.pid == t.host:
        drop_deadlines(t, "host_away")
    else:
        _watch_host(t, ctx)
    ctx.send(EVERYONE, Connected(p.pid, p.seat))
    if p.restart_grace:  # back after our restart: tell them why the deadlines moved
        ctx.send(to_seat(p.seat) if p.seat is not None else EVERYONE, ServerRestarted(deadline_infos(t)))
    return True


def hold_seat(t: Table, seat: int, ctx: Ctx) -> None:
    """The player in ``seat`` is away: their seat waits for them (not against bots only: ruling 19)."""
    if t.deadlines_on and not any(d.kind == "reconnect" and d.seat == seat for d in t.deadlines):
        d = add_deadline(t, "reconnect", t.settings.reconnect_seconds * 1000, ctx, seat)
        ctx.send(EVERYONE, SeatHeld(seat, d.at_ms))


def disconnect(t: Table, cmd: Disconnect, ctx: Ctx) -> bool:
    p = t.player(cmd.player)
    if p is None:
        raise TableError("there is no such player", "no_such_player")
    if not p.connected:
        return False
    set_player(t, replace(p, connected=False))
    ctx.send(EVERYONE, Disconnected(p.pid, p.seat))
    if p.pid == t.host:
        _watch_host(t, ctx)
    if t.phase == "playing" and p.seat is not None:
        hold_seat(t, p.seat, ctx)
        if t.vote is not None and p.seat in Facts(t).voters() and t.deadlines_on:
            _force_and_tell(t, p.seat, ctx)
            settle_vote(t, ctx)
    return True


def _force_and_tell(t: Table, seat: int, ctx: Ctx) -> None:
    force_vote(t, seat)
    v = t.vote
    assert v is not None
    vote = v.vote_of(seat)
    assert vote is not None
    ctx.send(to_team(v.team), VoteCast(seat, vote, forced=True))


def wake(t: Table, cmd: Wake, ctx: Ctx) -> bool:
    """Every deadline due now takes effect, soonest first (a stale one is already gone)."""
    fired = False
    while True:
        due = [d for d in t.deadlines
               if d.at_ms <= ctx.now and (t.phase == "playing" or d.kind == "host_away")]
        if not due:
            return fired
        d = min(due, key=lambda x: (x.at_ms, x.token))
        t.deadlines = tuple(x for x in t.deadlines if x.token != d.token)
        fired = True
        v = t.vote
        if d.kind == "host_away":
            _pass_host(t, ctx)
        elif d.kind == "turn":
            _turn_expired(t, d.seat, ctx)
        elif d.kind == "reconnect":
            _cancel_match(t, d.seat, ctx)
        elif v is None:
            continue  # a vote deadline outliving its vote: nothing to decide
        elif d.kind == "answer":
            for s in Facts(t).voters():
                if v.vote_of(s) is None:
                    _force_and_tell(t, s, ctx)
            settle_vote(t, ctx)
        else:
            facts = Facts(t)
            seats = facts.voters() or facts.answering_seats()
            ctx.send(EVERYONE, VoteExpired(v.team))
            resolve_vote(t, Action(seats[0], facts.decline(seats[0])), ctx)


def _turn_expired(t: Table, seat: int, ctx: Ctx) -> None:
    """The turn clock ran out: the table plays the seat's mildest action (its lowest card). Twice in a
    row and the player is treated as away: their seat is held like a dropped one's (ruling 18)."""
    g = t.game
    if g is None or g.hand_over or g.pending or g.turn != seat:
        return
    legal = Facts(t).engine_legal(seat)
    plays = [a for a in legal if a.do is Do.PLAY and a.card is not None]
    action = min(plays, key=lambda a: POWER[a.card or 0]) if plays else Action(seat, Do.MAZO)
    misses = dict(t.turn_misses).get(seat, 0) + 1
    t.turn_misses = (*((s, m) for s, m in t.turn_misses if s != seat), (seat, misses))
    ctx.send(EVERYONE, TurnExpired(seat, misses))
    p = t.seat_player(seat)
    if misses >= 2 and p is not None and p.connected:
        set_player(t, replace(p, connected=False))
        ctx.send(EVERYONE, Disconnected(p.pid, seat))
        hold_seat(t, seat, ctx)
    step(t, action, ctx)


def acted(t: Table, seat: int, ctx: Ctx) -> None:
    """A player acted themselves: the turn clock's count restarts, and one it had set away is back."""
    if any(s == seat for s, _ in t.turn_misses):
        t.turn_misses = tuple((s, m) for s, m in t.turn_misses if s != seat)
    p = t.seat_player(seat)
    if p is not None and not p.connected:  # only someone here can act
        set_player(t, replace(p, connected=True, restart_grace=False))
        drop_deadlines(t, "reconnect", seat=seat)
        ctx.send(EVERYONE, Connected(p.pid, seat))


def _watch_host(t: Table, ctx: Ctx) -> None:
    """The host is away while someone else is here: in ``HOST_AWAY_MS`` the role passes on (a reload
    is back long before)."""
    host = t.player(t.host)
    away = host is None or not host.connected
    others = any(q.connected and not q.left and q.pid != t.host for q in t.players)
    if away and others and not any(d.kind == "host_away" for d in t.deadlines):
        add_deadline(t, "host_away", HOST_AWAY_MS, ctx)


def _pass_host(t: Table, ctx: Ctx) -> None:
    """The host is still away: the host role goes to someone here, seated first (else it waits)."""
    host = t.player(t.host)
    if host is not None and host.connected:
        return
    here = sorted((q for q in t.players if q.connected and not q.left),
                  key=lambda q: (q.seat is None, q.pid))
    if here:
        t.host = here[0].pid
        ctx.send(EVERYONE, HostChanged(t.host))


def _cancel_match(t: Table, seat: int, ctx: Ctx) -> None:
    """Ruling 18: nobody returned in time. No points; everyone back to the lobby; the seat is freed."""
    p = t.seat_player(seat)
    name = p.name if p is not None else None
    set_result(t, MatchResult(-1, t.game.score if t.game else (0, 0), (0, 0), cancelled=True,
                              reason="disconnected", seat=seat, name=name))
    record_unfinished_hand(t, ctx)
    ctx.send(EVERYONE, MatchCancelled(seat, name, "disconnected"))
    ctx.records.append(match_record(t))
    if p is not None:
        set_player(t, replace(p, seat=None))
        set_slot(t, seat, SeatSlot())
    t.phase = "lobby"
    t.game = None
    t.vote = None
    drop_deadlines(t, "vote_window", "answer", "reconnect", "turn")
    t.senas = ()


def recovered(t: Table, cmd: Recovered, ctx: Ctx) -> bool:
    """After a restart nobody is connected; every deadline gets its full length again from now."""
    t.players = tuple(replace(p, connected=False, restart_grace=True) if p.connected else p
                      for p in t.players)
    t.deadlines = tuple(replace(d, at_ms=ctx.now + d.length_ms) for d in t.deadlines)
    if t.phase == "playing":
        for seat, slot in enumerate(t.seats):
            if slot.player is not None:
                hold_seat(t, seat, ctx)
    ctx.send(EVERYONE, ServerRestarted(deadline_infos(t)))
    return True


def abandon(t: Table, cmd: Abandon, ctx: Ctx) -> bool:
    """Nobody came back for hours: close the table (a match on is recorded as cancelled)."""
    if t.phase == "playing":
        record_unfinished_hand(t, ctx)
        set_result(t, MatchResult(-1, t.game.score if t.game else (0, 0), (0, 0), cancelled=True,
                                  reason="abandoned"))
        ctx.records.append(match_record(t))
    t.phase = "closed"
    t.game = None
    t.vote = None
    t.deadlines = ()
    ctx.send(EVERYONE, TableClosed("abandoned"))
    return True
