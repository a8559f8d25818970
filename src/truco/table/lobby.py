"""Before and between matches: joining, seats and teams, bots, leaving, and starting a match."""

from __future__ import annotations

import re
from dataclasses import replace

from truco.table.commands import (
    AddBot,
    Join,
    Leave,
    Place,
    Rematch,
    RemoveBot,
    RemovePlayer,
    ShuffleTeams,
    Sit,
    Start,
)
from truco.table.edits import (
    Ctx,
    TableError,
    check_seat,
    clean_name,
    derived_seed,
    drop_deadlines,
    require_host,
    require_phase,
    set_player,
    set_slot,
    unseat,
)
from truco.table.effects import EVERYONE
from truco.table.events import (
    BotAdded,
    BotRemoved,
    HostChanged,
    MatchStarted,
    PlayerJoined,
    PlayerLeft,
    PlayerRemoved,
    Seated,
    TableClosed,
    TeamsShuffled,
)
from truco.table.hands import deal
from truco.table.presence import hold_seat
from truco.table.state import Player, SeatSlot, Table

MAX_PLAYERS = 32
"""People at one table, seated or not: the seats plus friends waiting for the next match."""
_LEVEL_RE = re.compile(r"^[a-z0-9_]{1,24}$")


def join(t: Table, cmd: Join, ctx: Ctx) -> bool:
    name = clean_name(cmd.name)
    if any(p.token == cmd.token for p in t.players):
        raise TableError("that token is taken", "token_taken")
    if sum(1 for p in t.players if not p.left) >= MAX_PLAYERS:
        raise TableError("the table is full", "table_full")
    pid = len(t.players)
    t.players = (*t.players, Player(pid, name, cmd.token))
    ctx.send(EVERYONE, PlayerJoined(pid, name))
    return True


def sit(t: Table, p: Player, cmd: Sit, ctx: Ctx) -> None:
    require_phase(t, "lobby", "seats are chosen")
    check_seat(t, cmd.seat)
    if not t.seats[cmd.seat].empty:
        raise TableError("that seat is taken", "seat_taken")
    if p.seat is not None:
        set_slot(t, p.seat, SeatSlot())
    set_slot(t, cmd.seat, SeatSlot(player=p.pid))
    set_player(t, replace(p, seat=cmd.seat))
    ctx.send(EVERYONE, Seated(p.pid, cmd.seat))


def place(t: Table, p: Player, cmd: Place, ctx: Ctx) -> None:
    """Host: put a player in a seat, swapping with whoever sits there."""
    require_host(t, p)
    require_phase(t, "lobby", "seats are chosen")
    check_seat(t, cmd.seat)
    who = t.player(cmd.player)
    if who is None:
        raise TableError("there is no such player", "no_such_player")
    old = who.seat
    target = t.seats[cmd.seat]
    if old == cmd.seat:
        raise TableError("that player already sits there", "already_there")
    if old is not None:
        set_slot(t, old, target)
        if target.player is not None:
            set_player(t, replace(t.players[target.player], seat=old))
    elif target.player is not None:
        set_player(t, replace(t.players[target.player], seat=None))
    set_slot(t, cmd.seat, SeatSlot(player=who.pid))
    set_player(t, replace(t.players[who.pid], seat=cmd.seat))
    ctx.send(EVERYONE, Seated(who.pid, cmd.seat))


def shuffle(t: Table, p: Player, cmd: ShuffleTeams, ctx: Ctx) -> None:
    require_host(t, p)
    require_phase(t, "lobby", "teams are shuffled")
    t.shuffles += 1
    slots = list(t.seats)
    for i in range(len(slots) - 1, 0, -1):  # Fisher-Yates from the table's seed
        j = derived_seed(t, "shuffle", t.shuffles, i) % (i + 1)
        slots[i], slots[j] = slots[j], slots[i]
    t.seats = tuple(slots)
    for seat, slot in enumerate(slots):
        if slot.player is not None:
            set_player(t, replace(t.players[slot.player], seat=seat))
    ctx.send(EVERYONE, TeamsShuffled())


def add_bot(t: Table, p: Player, cmd: AddBot, ctx: Ctx) -> None:
    require_host(t, p)
    require_phase(t, "lobby", "bots are added")
    check_seat(t, cmd.seat)
    if not _LEVEL_RE.match(cmd.level):
        raise TableError("unknown bot level", "unknown_bot_level")
    if not t.seats[cmd.seat].empty:
        raise TableError("that seat is taken", "seat_taken")
    set_slot(t, cmd.seat, SeatSlot(bot=cmd.level))
    ctx.send(EVERYONE, BotAdded(cmd.seat, cmd.level))


def remove_bot(t: Table, p: Player, cmd: RemoveBot, ctx: Ctx) -> None:
    require_host(t, p)
    require_phase(t, "lobby", "bots are removed")
    check_seat(t, cmd.seat)
    if t.seats[cmd.seat].bot is None:
        raise TableError("there is no bot in that seat", "no_bot_there")
    set_slot(t, cmd.seat, SeatSlot())
    ctx.send(EVERYONE, BotRemoved(cmd.seat))


def leave(t: Table, p: Player, cmd: Leave, ctx: Ctx) -> None:
    if t.phase == "playing" and p.seat is not None:
        raise TableError("you are in a match: your seat waits for you if you just close the app",
                         "leave_during_match")
    unseat(t, p, left=True, connected=False)
    ctx.send(EVERYONE, PlayerLeft(p.pid))
    if p.pid == t.host:
        others = [q for q in t.players if not q.left]
        if not others:
            t.phase = "closed"
            ctx.send(EVERYONE, TableClosed("empty"))
            return
        t.host = next((q.pid for q in others if q.connected), others[0].pid)
        ctx.send(EVERYONE, HostChanged(t.host))


def remove_player(t: Table, p: Player, cmd: RemovePlayer, ctx: Ctx) -> None:
    """Host, outside a match: take someone off the table (a guest who closed the page, say). Their
    token stops working; their seat is free again."""
    require_host(t, p)
    if t.phase == "playing":
        raise TableError("players are removed only outside a match", "only_in_lobby")
    who = t.player(cmd.player)
    if who is None:
        raise TableError("there is no such player", "no_such_player")
    if who.pid == p.pid:
        raise TableError("to go, leave the table", "remove_yourself")
    unseat(t, who, left=True, connected=False)
    ctx.send(EVERYONE, PlayerRemoved(who.pid))


def start(t: Table, p: Player, cmd: Start, ctx: Ctx) -> None:
    require_host(t, p)
    require_phase(t, "lobby", "a match starts")
    if any(s.empty for s in t.seats):
        raise TableError("every seat must be taken to start", "seats_empty")
    _start_match(t, ctx)


def rematch(t: Table, p: Player, cmd: Rematch, ctx: Ctx) -> None:
    require_host(t, p)
    if t.phase != "over":
        raise TableError("a rematch comes after the match", "rematch_after_match")
    if any(s.empty for s in t.seats):
        raise TableError("every seat must be taken to start", "seats_empty")
    _start_match(t, ctx)


def _start_match(t: Table, ctx: Ctx) -> None:
    t.phase = "playing"
    t.match_no += 1
    t.hand_no = 0
    t.result = None
    t.casual_score = (0, 0)
    t.awards = ()
    t.hands = ()
    t.last_hand = None
    drop_deadlines(t, "vote_window", "answer", "reconnect", "turn")
    dealer = derived_seed(t, "dealer", t.match_no) % len(t.seats)  # the first dealer by lot (ruling 2)
    ctx.send(EVERYONE, MatchStarted(t.match_no, dealer))
    deal(t, dealer, ctx)
    # seats already away when the match starts are held from now (ruling 18)
    for seat, slot in enumerate(t.seats):
        if slot.player is not None and not t.players[slot.player].connected:
            hold_seat(t, seat, ctx)
