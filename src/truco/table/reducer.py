"""The table session: ``create`` and ``apply(table, envelope, now_ms) -> (table, outcome)``. Pure.

Rule numbers refer to ../shared/design/rulings.md (16 votes, 17 bot partners, 18 disconnection,
19 no deadlines against bots). A rejected command raises ``TableError`` and changes nothing: every
handler works on a shallow copy whose fields are only ever replaced, never mutated in place. The
handlers live in one module per idea: ``lobby``, ``moves``, ``hands``, ``presence``, ``casual``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from truco.table import casual, fairness, lobby, moves, presence
from truco.table.commands import (
    Abandon,
    Act,
    AddBot,
    Award,
    BotAct,
    BotHint,
    BotSena,
    Connect,
    Contribute,
    Create,
    Disconnect,
    EndHand,
    Envelope,
    Join,
    Leave,
    Place,
    Recovered,
    Rematch,
    RemoveBot,
    RemovePlayer,
    Sena,
    ShuffleTeams,
    Sit,
    Start,
    UndoAward,
    Wake,
)
from truco.table.edits import Ctx, TableError, clean_name
from truco.table.effects import EVERYONE, Outcome
from truco.table.events import TableCreated
from truco.table.state import Player, SeatSlot, Table

_PLAYER: dict[type[Any], Callable[[Table, Player, Any, Ctx], None]] = {
    Sit: lobby.sit, Place: lobby.place, ShuffleTeams: lobby.shuffle, AddBot: lobby.add_bot,
    RemoveBot: lobby.remove_bot, RemovePlayer: lobby.remove_player, Start: lobby.start, Leave: lobby.leave,
    Rematch: lobby.rematch, Contribute: fairness.contribute,
    Act: moves.act, Sena: moves.sena,
    Award: casual.award, UndoAward: casual.undo_award, EndHand: casual.end_hand,
}
"""Commands a player sends; the handler gets the sender."""

_SYSTEM: dict[type[Any], Callable[[Table, Any, Ctx], bool]] = {
    Join: lobby.join, BotAct: moves.bot_act, BotHint: moves.bot_hint, BotSena: moves.bot_sena,
    Connect: presence.connect, Disconnect: presence.disconnect, Wake: presence.wake,
    Recovered: presence.recovered, Abandon: presence.abandon,
}
"""Commands only the runtime sends; the handler says whether anything changed."""


def create(cmd: Create, now_ms: int) -> tuple[Table, Outcome]:
    """A new table in the lobby, with its host seated at seat 0."""
    name = clean_name(cmd.host_name)
    t = Table.__new__(Table)
    t.table_id = cmd.table_id
    t.settings = cmd.settings
    t.seed = cmd.seed
    t.version = 1
    t.phase = "lobby"
    t.host = 0
    t.players = (Player(0, name, cmd.host_token, seat=0),)
    t.seats = (SeatSlot(player=0), *tuple(SeatSlot() for _ in range(cmd.settings.players - 1)))
    t.shuffles = 0
    t.match_no = 0
    t.hand_no = 0
    t.game = None
    t.vote = None
    t.deadlines = ()
    t.next_token = 1
    t.casual_score = (0, 0)
    t.awards = ()
    t.senas = ()
    t.hands = ()
    t.hand_points = ()
    t.last_hand = None
    t.result = None
    t.result_players = ()
    t.turn_misses = ()
    t.contributions = ()
    t.seal = None
    t.revealed = None
    ctx = Ctx(now_ms)
    ctx.send(EVERYONE, TableCreated(cmd.table_id, 0))
    return t, Outcome(tuple(ctx.effects))


def apply(table: Table, envelope: Envelope, now_ms: int) -> tuple[Table, Outcome]:
    """Apply one command at ``now_ms``. Raises ``TableError`` (and changes nothing) when refused."""
    cmd = envelope.command
    if isinstance(cmd, Create):
        raise TableError("the table already exists", "table_exists")
    if table.phase == "closed":
        raise TableError("the table is closed", "table_closed")
    t = table.copy()
    ctx = Ctx(now_ms)
    system = _SYSTEM.get(type(cmd))
    if system is not None:
        if envelope.player is not None:
            raise TableError("players cannot send that command", "system_only")
        changed = system(t, cmd, ctx)
    else:
        player = table.player(envelope.player) if envelope.player is not None else None
        if player is None:
            raise TableError("you are not at this table", "not_at_table")
        handler = _PLAYER.get(type(cmd))
        if handler is None:
            raise TableError("unknown command", "unknown_command")
        handler(t, player, cmd, ctx)
        changed = True
    if not changed:
        return table, Outcome(changed=False)
    t.version = table.version + 1
    return t, Outcome(tuple(ctx.effects), tuple(ctx.records))


def replay_log(commands: list[tuple[Envelope, int]]) -> Table:
    """Rebuild a table from its log: the ``Create`` then every accepted command with its ``now``."""
    (first, now0), rest = commands[0], commands[1:]
    if not isinstance(first.command, Create):
        raise TableError("a table log starts with create", "bad_log")
    t, _ = create(first.command, now0)
    for env, now in rest:
        t, _ = apply(t, env, now)
    return t
