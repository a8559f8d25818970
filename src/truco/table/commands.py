"""Commands a table accepts, and their JSON form (strictly decoded).

Two families. *Player commands* come from a person through the server; they never name who sends
them: the runtime knows the sender from the token bound at connect and wraps the command in an
``Envelope``. *System commands* come from the runtime itself (create, join, presence, timers, bots).
Every accepted command is stored in the table's log, so each has a lossless ``to_dict``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from truco.engine import Do
from truco.engine.cards import NAME, Card, parse_card
from truco.engine.types import SENAS as SENAS  # the classic señas: the table only carries them
from truco.table.settings import TableSettings

BOT_LEVELS_HINT = "random"
"""The level used when the host does not name one."""


class CommandError(ValueError):
    """A message that is not a valid command; the message is meant for the sender."""


# ------------------------------------------------------------------ player commands


@dataclass(frozen=True, slots=True)
class Sit:
    """Take an empty seat (or move to one) while the table is in the lobby."""

    kind: ClassVar[str] = "sit"
    seat: int


@dataclass(frozen=True, slots=True)
class Place:
    """Host: put a player in a seat, swapping with whoever sits there (setting teams by hand)."""

    kind: ClassVar[str] = "place"
    player: int
    seat: int


@dataclass(frozen=True, slots=True)
class ShuffleTeams:
    """Host: seat everyone at random (from the table's seed)."""

    kind: ClassVar[str] = "shuffle_teams"


@dataclass(frozen=True, slots=True)
class AddBot:
    """Host: put a bot of ``level`` in an empty seat."""

    kind: ClassVar[str] = "add_bot"
    seat: int
    level: str = BOT_LEVELS_HINT


@dataclass(frozen=True, slots=True)
class RemoveBot:
    kind: ClassVar[str] = "remove_bot"
    seat: int


@dataclass(frozen=True, slots=True)
class RemovePlayer:
    """Host, lobby or after the match: take a person off the table (one who left without saying)."""

    kind: ClassVar[str] = "remove_player"
    player: int


@dataclass(frozen=True, slots=True)
class Start:
    """Host: start the match once every seat is taken."""

    kind: ClassVar[str] = "start"


@dataclass(frozen=True, slots=True)
class Leave:
    """Leave the table (only in the lobby or after the match; in a match, just disconnect)."""

    kind: ClassVar[str] = "leave"


@dataclass(frozen=True, slots=True)
class Act:
    """A game action by the sender's seat: play a card, call, go to the mazo, or vote an answer."""

    kind: ClassVar[str] = "act"
    do: Do
    card: Card | None = None


@dataclass(frozen=True, slots=True)
class Sena:
    """A seña to one's partners (4 and 6 players)."""

    kind: ClassVar[str] = "sena"
    sena: str


@dataclass(frozen=True, slots=True)
class Award:
    """Casual mode, host: give ``points`` (1–4) to ``team``."""

    kind: ClassVar[str] = "award"
    team: int
    points: int


@dataclass(frozen=True, slots=True)
class UndoAward:
    """Casual mode, host: take back the last award."""

    kind: ClassVar[str] = "undo_award"


@dataclass(frozen=True, slots=True)
class EndHand:
    """Casual mode, host: end the hand now (a "no quiero" said aloud) and deal the next one."""

    kind: ClassVar[str] = "end_hand"


@dataclass(frozen=True, slots=True)
class Contribute:
    """A seat's random bytes (32 hex digits) for the deal of hand ``hand_no`` of match ``match_no``
    (docs/fairness.md): sent after that hand's commitment is shown, before it is dealt."""

    kind: ClassVar[str] = "contribute"
    match_no: int
    hand_no: int
    value: str


@dataclass(frozen=True, slots=True)
class Rematch:
    """Host, after the match: play again with the same seats."""

    kind: ClassVar[str] = "rematch"


PlayerCommand = (Sit | Place | ShuffleTeams | AddBot | RemoveBot | RemovePlayer | Start | Leave | Act | Sena
                 | Award | UndoAward | EndHand | Rematch | Contribute)


# ------------------------------------------------------------------ system commands (runtime only)


@dataclass(frozen=True, slots=True)
class Create:
    """The first command of every table. ``seed`` drives every shuffle; it never leaves the server."""

    kind: ClassVar[str] = "create"
    table_id: str
    settings: TableSettings
    host_name: str
    host_token: str
    seed: int


@dataclass(frozen=True, slots=True)
class Join:
    kind: ClassVar[str] = "join"
    name: str
    token: str


@dataclass(frozen=True, slots=True)
class Connect:
    kind: ClassVar[str] = "connect"
    player: int


@dataclass(frozen=True, slots=True)
class Disconnect:
    kind: ClassVar[str] = "disconnect"
    player: int


@dataclass(frozen=True, slots=True)
class Wake:
    """A timer fired: every deadline due at ``now`` takes effect (one whose token is stale does nothing)."""

    kind: ClassVar[str] = "wake"


@dataclass(frozen=True, slots=True)
class Recovered:
    """The server restarted: deadlines get their full length again and presence is reset."""

    kind: ClassVar[str] = "recovered"


@dataclass(frozen=True, slots=True)
class Abandon:
    """Nobody has been connected for a long time: close the table (a match on is kept, cancelled)."""

    kind: ClassVar[str] = "abandon"


@dataclass(frozen=True, slots=True)
class BotAct:
    """A bot's move (or its vote when its team has no human to decide)."""

    kind: ClassVar[str] = "bot_act"
    seat: int
    do: Do
    card: Card | None = None


@dataclass(frozen=True, slots=True)
class BotHint:
    """A bot's own preference in a vote, shown to its human partners only (ruling 17)."""

    kind: ClassVar[str] = "bot_hint"
    seat: int
    do: Do


@dataclass(frozen=True, slots=True)
class BotSena:
    """A bot's seña to its partners, made at the start of a hand (issue 13: team play)."""

    kind: ClassVar[str] = "bot_sena"
    seat: int
    sena: str


SystemCommand = Create | Join | Connect | Disconnect | Wake | Recovered | Abandon | BotAct | BotHint | BotSena
Command = PlayerCommand | SystemCommand

PLAYER_COMMANDS: dict[str, type[Any]] = {c.kind: c for c in (
    Sit, Place, ShuffleTeams, AddBot, RemoveBot, RemovePlayer, Start, Leave, Act, Sena, Award, UndoAward,
    EndHand, Rematch, Contribute)}
SYSTEM_COMMANDS: dict[str, type[Any]] = {c.kind: c for c in (
    Create, Join, Connect, Disconnect, Wake, Recovered, Abandon, BotAct, BotHint, BotSena)}


@dataclass(frozen=True, slots=True)
class Envelope:
    """A command as the table receives it: who sent it (a player id, or ``None`` for the runtime)."""

    command: Command
    player: int | None = None


# ------------------------------------------------------------------ JSON


def command_to_dict(cmd: Command) -> dict[str, Any]:
    """Lossless JSON form (cards by name). System commands too: this is what the log stores."""
    d: dict[str, Any] = {"type": cmd.kind}
    for key in _field_names(type(cmd)):
        value = getattr(cmd, key)
        if key == "card":
            if value is not None:
                d[key] = NAME[value]
        elif isinstance(value, TableSettings):
            d[key] = value.to_dict()
        elif isinstance(value, Do):
            d[key] = str(value)
        else:
            d[key] = value
    return d


def _field_names(cls: type[Any]) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))


def _int(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise CommandError(f"{key} must be an integer")
    return value


def _str(data: dict[str, Any], key: str, limit: int = 64) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise CommandError(f"{key} must be a string")
    if len(value) > limit:
        raise CommandError(f"{key} is too long")
    return value


def _do(data: dict[str, Any]) -> Do:
    try:
        return Do(str(data.get("do")))
    except ValueError:
        raise CommandError(f"unknown action {data.get('do')!r}") from None


def _card(data: dict[str, Any], do: Do) -> Card | None:
    if do is Do.PLAY:
        if "card" not in data:
            raise CommandError("play needs a card")
        try:
            return parse_card(data["card"])
        except ValueError as e:
            raise CommandError(str(e)) from None
    if data.get("card") is not None:
        raise CommandError(f"{do.value} takes no card")
    return None


def _decode(data: Any, table: dict[str, type[Any]]) -> Command:
    if not isinstance(data, dict):
        raise CommandError("a command is an object with a \"type\"")
    kind = data.get("type")
    cls = table.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise CommandError(f"unknown command {kind!r}")
    names = _field_names(cls)
    unknown = set(data) - set(names) - {"type"}
    if unknown:
        raise CommandError(f"unknown key(s) for {kind}: {', '.join(sorted(unknown))}")
    if cls in (Act, BotAct):
        do = _do(data)
        card = _card(data, do)
        if cls is BotAct:
            return BotAct(_int(data, "seat"), do, card)
        return Act(do, card)
    if cls is BotHint:
        return BotHint(_int(data, "seat"), _do(data))
    if cls is Create:
        try:
            settings = TableSettings.from_dict(data.get("settings"))
        except ValueError as e:
            raise CommandError(str(e)) from None
        return Create(_str(data, "table_id"), settings, _str(data, "host_name"),
                      _str(data, "host_token"), _int(data, "seed"))
    kwargs: dict[str, Any] = {}
    for key in names:
        if key not in data:
            if key == "level" and cls is AddBot:
                continue
            raise CommandError(f"{kind} needs {key}")
        text = key in ("name", "token", "sena", "level", "value")
        kwargs[key] = _str(data, key) if text else _int(data, key)
    return cls(**kwargs)  # type: ignore[no-any-return]


def parse_command(data: Any) -> PlayerCommand:
    """Decode a player's command (a JSON object). Raises ``CommandError`` with a readable reason."""
    return _decode(data, PLAYER_COMMANDS)  # type: ignore[return-value]


def command_from_dict(data: Any) -> Command:
    """Decode any command, system ones included (for the log)."""
    kind = data.get("type") if isinstance(data, dict) else None
    if isinstance(kind, str) and kind in SYSTEM_COMMANDS:
        return _decode(data, SYSTEM_COMMANDS)
    return _decode(data, PLAYER_COMMANDS)
