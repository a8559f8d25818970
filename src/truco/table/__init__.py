"""A table session: seats, host, team votes, presence, deadlines, casual mode, señas. Pure.

``create(Create(...), now_ms)`` makes a table; ``apply(table, Envelope(command, player), now_ms)``
returns the new table and an ``Outcome`` (effects with audiences, match records) or raises
``TableError`` and changes nothing. ``table_view(table, player)`` builds what one player may see.
"""

from truco.table.commands import (
    SENAS,
    Abandon,
    Act,
    AddBot,
    Award,
    BotAct,
    BotHint,
    Command,
    CommandError,
    Connect,
    Create,
    Disconnect,
    EndHand,
    Envelope,
    Join,
    Leave,
    Place,
    PlayerCommand,
    Recovered,
    Rematch,
    RemoveBot,
    Sena,
    ShuffleTeams,
    Sit,
    Start,
    UndoAward,
    Wake,
    command_from_dict,
    command_to_dict,
    parse_command,
)
from truco.table.effects import EVERYONE, Audience, Effect, Outcome, to_seat, to_team
from truco.table.session import (
    TableError,
    apply,
    bot_view,
    bots_to_act,
    commands_open,
    create,
    hints_wanted,
    replay_log,
    seat_legal,
    voters,
)
from truco.table.settings import SettingsError, TableSettings
from truco.table.state import Deadline, Player, SeatSlot, Table, Vote
from truco.table.view import SeatInfo, TableView, VoteView, table_view, table_views

__all__ = [
    "EVERYONE", "SENAS", "Abandon", "Act", "AddBot", "Audience", "Award", "BotAct", "BotHint", "Command",
    "CommandError", "Connect", "Create", "Deadline", "Disconnect", "Effect", "EndHand", "Envelope", "Join",
    "Leave", "Outcome", "Place", "Player", "PlayerCommand", "Recovered", "Rematch", "RemoveBot",
    "SeatInfo", "SeatSlot", "Sena", "SettingsError", "ShuffleTeams", "Sit", "Start", "Table",
    "TableError", "TableSettings", "TableView", "UndoAward", "Vote", "VoteView", "Wake", "apply",
    "bot_view", "bots_to_act", "command_from_dict", "command_to_dict", "commands_open", "create",
    "hints_wanted", "parse_command", "replay_log", "seat_legal", "table_view", "table_views", "to_seat",
    "to_team", "voters",
]
