"""What a client may send on its socket: one typed record per message, one schema each, one decoder.

Every frame is one JSON object with a ``type``. Client messages never name a seat: the seat is bound
to the socket at connect. The schemas (msgspec) refuse unknown types, unknown fields, wrong types
(``true`` is not a number), out-of-range values and missing fields, with the path of the field at
fault; the decoder never evaluates anything else a client sends.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

import msgspec
import orjson

from truco.engine import Do
from truco.engine.cards import NAME, parse_card
from truco.protocol.errors import CloseCode, ErrorCode, PolicyViolation, ProtocolError
from truco.protocol.limits import MAX_FRAME_BYTES
from truco.table import (
    SENAS,
    Act,
    AddBot,
    Award,
    Contribute,
    EndHand,
    Leave,
    Place,
    PlayerCommand,
    Rematch,
    RemoveBot,
    RemovePlayer,
    Sena,
    ShuffleTeams,
    Sit,
    Start,
    UndoAward,
    command_to_dict,
)

CommandId = Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z0-9_.:-]{1,40}$",
                                        description="1-40 letters, digits or _.:-")]
SeatNo = Annotated[int, msgspec.Meta(ge=0, le=7)]
PlayerNo = Annotated[int, msgspec.Meta(ge=0, le=63)]
Level = Annotated[str, msgspec.Meta(pattern=r"^[a-z0-9_]{1,24}$")]
"""A bot level's name; which levels exist is the bots' business (the runtime checks it)."""
MAX_VERSION = 2**53
"""Versions are JSON-safe integers; anything larger is a bad message."""

VOTE_ANSWERS = frozenset({Do.QUIERO, Do.NO_QUIERO, Do.RETRUCO, Do.VALE_CUATRO, Do.ENVIDO, Do.REAL_ENVIDO,
                          Do.FALTA_ENVIDO, Do.CONTRA_FLOR, Do.CONTRA_FLOR_AL_RESTO, Do.CON_FLOR_ME_ACHICO,
                          Do.FLOR})
"""Answers a team may vote for; which of them is legal now is the table's business."""


class _Msg(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class _Command(_Msg, frozen=True):
    id: CommandId

    def command(self) -> PlayerCommand:
        raise NotImplementedError


class PingIn(_Msg, frozen=True, tag="ping"):
    """Keep-alive; answered with a pong carrying the server's clock."""


class ResyncIn(_Msg, frozen=True, tag="resync"):
    """The client saw versions up to ``since`` and wants the current view."""

    since: Annotated[int, msgspec.Meta(ge=0, le=MAX_VERSION)]


class SitIn(_Command, frozen=True, tag="sit"):
    seat: SeatNo

    def command(self) -> PlayerCommand:
        return Sit(self.seat)


class PlaceIn(_Command, frozen=True, tag="place"):
    player: PlayerNo
    seat: SeatNo

    def command(self) -> PlayerCommand:
        return Place(self.player, self.seat)


class ShuffleTeamsIn(_Command, frozen=True, tag="shuffle_teams"):
    def command(self) -> PlayerCommand:
        return ShuffleTeams()


class AddBotIn(_Command, frozen=True, tag="add_bot"):
    seat: SeatNo
    level: Level = "random"

    def command(self) -> PlayerCommand:
        return AddBot(self.seat, self.level)


class RemoveBotIn(_Command, frozen=True, tag="remove_bot"):
    seat: SeatNo

    def command(self) -> PlayerCommand:
        return RemoveBot(self.seat)


class RemovePlayerIn(_Command, frozen=True, tag="remove_player"):
    """Host, outside a match: take someone off the table."""

    player: PlayerNo

    def command(self) -> PlayerCommand:
        return RemovePlayer(self.player)


class StartIn(_Command, frozen=True, tag="start"):
    def command(self) -> PlayerCommand:
        return Start()


class LeaveIn(_Command, frozen=True, tag="leave"):
    def command(self) -> PlayerCommand:
        return Leave()


class RematchIn(_Command, frozen=True, tag="rematch"):
    def command(self) -> PlayerCommand:
        return Rematch()


class ActIn(_Command, frozen=True, tag="act"):
    """A card, a call, the mazo, or an answer (a vote while one's team answers)."""

    do: Do
    card: str | None = None

    def __post_init__(self) -> None:
        if self.do is Do.PLAY:
            if self.card is None:
                raise ValueError("play needs a card - at `$.card`")
            if self.card not in NAME:
                raise ValueError(f"unknown card {self.card[:8]!r} (write it like '1e', '12c') - at `$.card`")
        elif self.card is not None:
            raise ValueError(f"{self.do.value} takes no card - at `$.card`")

    def command(self) -> PlayerCommand:
        return Act(self.do, None if self.card is None else parse_card(self.card))


class VoteIn(_Command, frozen=True, tag="vote"):
    """A team's answer to a call, spelled as an answer (the same as ``act`` with that answer)."""

    answer: Do

    def __post_init__(self) -> None:
        if self.answer not in VOTE_ANSWERS:
            raise ValueError(f"{self.answer.value} is not an answer to a call - at `$.answer`")

    def command(self) -> PlayerCommand:
        return Act(self.answer)


class SenaIn(_Command, frozen=True, tag="sena"):
    sena: Annotated[str, msgspec.Meta(max_length=32)]

    def __post_init__(self) -> None:
        if self.sena not in SENAS:
            raise ValueError(f"unknown seña (one of {', '.join(SENAS)}) - at `$.sena`")

    def command(self) -> PlayerCommand:
        return Sena(self.sena)


class AwardIn(_Command, frozen=True, tag="award"):
    """Casual mode, host: +1…+4 to a team."""

    team: Literal[0, 1]
    points: Annotated[int, msgspec.Meta(ge=1, le=4)]

    def command(self) -> PlayerCommand:
        return Award(self.team, self.points)


class UndoAwardIn(_Command, frozen=True, tag="undo_award"):
    def command(self) -> PlayerCommand:
        return UndoAward()


class EndHandIn(_Command, frozen=True, tag="end_hand"):
    def command(self) -> PlayerCommand:
        return EndHand()


class ContributeIn(_Command, frozen=True, tag="contribute"):
    """A seat's 16 random bytes for the deal of a hand whose commitment it has seen (docs/fairness.md)."""

    match_no: Annotated[int, msgspec.Meta(ge=1, le=MAX_VERSION)]
    hand_no: Annotated[int, msgspec.Meta(ge=1, le=MAX_VERSION)]
    value: Annotated[str, msgspec.Meta(pattern=r"^[0-9a-f]{32}$")]

    def command(self) -> PlayerCommand:
        return Contribute(self.match_no, self.hand_no, self.value)


_Inbound = (PingIn | ResyncIn | SitIn | PlaceIn | ShuffleTeamsIn | AddBotIn | RemoveBotIn | RemovePlayerIn
            | StartIn | LeaveIn | RematchIn | ActIn | VoteIn | SenaIn | AwardIn | UndoAwardIn | EndHandIn
            | ContributeIn)
_DECODER = msgspec.json.Decoder(_Inbound)


# ------------------------------------------------------------------ what the socket acts on


@dataclass(frozen=True, slots=True)
class CommandMsg:
    """A table command from this socket's seat, with the client's command id.

    The same id sent twice (a resend, a double tap) is applied once; the table never sees the id.
    """

    id: str
    command: PlayerCommand


@dataclass(frozen=True, slots=True)
class ResyncMsg:
    since: int


@dataclass(frozen=True, slots=True)
class PingMsg:
    pass


ClientMessage = CommandMsg | ResyncMsg | PingMsg


def _check_size(frame: str | bytes | None) -> str:
    if frame is None or isinstance(frame, bytes):
        raise PolicyViolation(CloseCode.POLICY, "binary frames are not part of the protocol")
    # a str's length bounds its UTF-8 size from below; encode only when it could matter
    if len(frame) > MAX_FRAME_BYTES or (len(frame) * 4 > MAX_FRAME_BYTES
                                        and len(frame.encode("utf-8", "surrogatepass")) > MAX_FRAME_BYTES):
        raise PolicyViolation(CloseCode.TOO_BIG, f"frames are limited to {MAX_FRAME_BYTES} bytes")
    return frame


def _refusal(frame: str, error: msgspec.ValidationError) -> ProtocolError:
    """Why a well-formed JSON frame is no message, naming its command id when it has a valid one."""
    try:
        obj: Any = orjson.loads(frame)
    except orjson.JSONDecodeError:
        raise PolicyViolation(CloseCode.POLICY, "frames must be JSON") from None
    if not isinstance(obj, dict):
        raise PolicyViolation(CloseCode.POLICY, "a message is a JSON object")
    raw_id = obj.get("id")
    cid = raw_id if isinstance(raw_id, str) and 1 <= len(raw_id) <= 40 and raw_id.isascii() else None
    text = str(error)
    kind = obj.get("type")
    if "`$.type`" in text or "missing required field `type`" in text:
        shown = kind if isinstance(kind, str) and len(kind) <= 24 else "?"
        text = f"unknown message type {shown!r}" if "type" in obj else "a message needs a 'type'"
    elif "`$.id`" in text or "field `id`" in text:
        text = "every command needs an 'id': 1-40 letters, digits or _.:-"
        cid = None
    return ProtocolError(ErrorCode.BAD_MESSAGE, text[:200], cid)


def decode(frame: str | bytes | None) -> ClientMessage:
    """Decode one client frame.

    Raises ``PolicyViolation`` for garbage (close the socket) and ``ProtocolError`` for a well-formed
    frame that is not a valid message (answer with an error, change nothing).
    """
    text = _check_size(frame)
    try:
        msg = _DECODER.decode(text)
    except msgspec.ValidationError as e:
        raise _refusal(text, e) from None
    except msgspec.DecodeError:
        raise PolicyViolation(CloseCode.POLICY, "frames must be JSON") from None
    if isinstance(msg, PingIn):
        return PingMsg()
    if isinstance(msg, ResyncIn):
        return ResyncMsg(msg.since)
    return CommandMsg(msg.id, msg.command())


def command_frame(command_id: str, command: PlayerCommand) -> str:
    """The frame a client sends for ``command`` (used by the test clients and the load benchmark)."""
    d = command_to_dict(command)
    d["id"] = command_id
    return orjson.dumps(d).decode()
