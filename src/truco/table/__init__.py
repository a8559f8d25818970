"""A table session: seats, host, team votes, presence, deadlines, casual mode, señas. Pure.

``create(Create(...), now_ms)`` makes a table; ``apply(table, Envelope(command, player), now_ms)``
returns the new table and an ``Outcome`` (typed events with audiences, match records) or raises
``TableError`` and changes nothing. ``Facts(table)`` answers what may happen next, and
``table_view(facts, player)`` builds what one person may see.
"""

from truco.table.commands import (
    SENAS,
    Abandon,
    Act,
    AddBot,
    Award,
    BotAct,
    BotHint,
    BotSena,
    Command,
    CommandError,
    Connect,
    Contribute,
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
    RemovePlayer,
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
from truco.table.edits import TableError, clean_name
from truco.table.effects import EVERYONE, Audience, Effect, Outcome, to_seat, to_team
from truco.table.events import AnyEvent, MatchResult, TableEvent, event_dict
from truco.table.queries import Facts
from truco.table.reducer import apply, create, replay_log
from truco.table.settings import SettingsError, TableSettings
from truco.table.state import Deadline, Player, SeatSlot, Table, Vote
from truco.table.view import (
    SeatInfo,
    TableView,
    VoteView,
    bot_recall,
    bot_view,
    table_summary,
    table_view,
    table_views,
)

__all__ = [
    "EVERYONE", "SENAS", "Abandon", "Act", "AddBot", "AnyEvent", "Audience", "Award", "BotAct", "BotHint",
    "BotSena",
    "Command", "CommandError", "Connect", "Contribute", "Create", "Deadline", "Disconnect", "Effect",
    "EndHand",
    "Envelope", "Facts", "Join", "Leave", "MatchResult", "Outcome", "Place", "Player", "PlayerCommand",
    "Recovered", "Rematch", "RemoveBot", "RemovePlayer", "SeatInfo", "SeatSlot", "Sena", "SettingsError",
    "ShuffleTeams", "Sit", "Start", "Table", "TableError", "TableEvent", "TableSettings", "TableView",
    "UndoAward", "Vote", "VoteView", "Wake", "apply", "bot_recall", "bot_view", "clean_name",
    "command_from_dict", "command_to_dict", "create", "event_dict", "parse_command", "replay_log",
    "table_summary", "table_view", "table_views", "to_seat", "to_team",
]
