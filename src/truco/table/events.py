"""What a table tells its players, as typed records (the engine's own events are typed the same way).

Each event has a ``kind`` (its wire ``type``) and plain fields; ``event_dict`` is its one JSON form.
An ``Effect`` pairs an event with the audience that may receive it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from truco.engine import Do, Event, event_to_dict

# ------------------------------------------------------------------ results


@dataclass(frozen=True, slots=True)
class MatchResult:
    """How a match ended. ``reason``: ``target`` (someone won), ``disconnected`` (a seat did not come
    back in time: ``seat`` and ``name`` say who) or ``abandoned`` (nobody came back for hours)."""

    winner: int
    score: tuple[int, int]
    chicos: tuple[int, int]
    cancelled: bool
    reason: str
    seat: int | None = None
    name: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "score": list(self.score), "chicos": list(self.chicos),
                "cancelled": self.cancelled, "reason": self.reason, "seat": self.seat, "name": self.name}


@dataclass(frozen=True, slots=True)
class DeadlineInfo:
    """A deadline as players may see it: what, when (server clock) and whose seat (-1: none)."""

    kind: str
    at_ms: int
    seat: int


# ------------------------------------------------------------------ lobby


@dataclass(frozen=True, slots=True)
class TableCreated:
    kind: ClassVar[str] = "table_created"
    table_id: str
    host: int


@dataclass(frozen=True, slots=True)
class PlayerJoined:
    kind: ClassVar[str] = "player_joined"
    player: int
    name: str


@dataclass(frozen=True, slots=True)
class Seated:
    kind: ClassVar[str] = "seated"
    player: int
    seat: int


@dataclass(frozen=True, slots=True)
class TeamsShuffled:
    kind: ClassVar[str] = "teams_shuffled"


@dataclass(frozen=True, slots=True)
class BotAdded:
    kind: ClassVar[str] = "bot_added"
    seat: int
    level: str


@dataclass(frozen=True, slots=True)
class BotRemoved:
    kind: ClassVar[str] = "bot_removed"
    seat: int


@dataclass(frozen=True, slots=True)
class PlayerLeft:
    kind: ClassVar[str] = "player_left"
    player: int


@dataclass(frozen=True, slots=True)
class PlayerRemoved:
    """The host took ``player`` off the table (someone who left without saying)."""

    kind: ClassVar[str] = "player_removed"
    player: int


@dataclass(frozen=True, slots=True)
class HostChanged:
    kind: ClassVar[str] = "host_changed"
    host: int


@dataclass(frozen=True, slots=True)
class TableClosed:
    """``reason``: ``empty`` (the last player left) or ``abandoned`` (nobody came back for hours)."""

    kind: ClassVar[str] = "table_closed"
    reason: str


# ------------------------------------------------------------------ matches and hands


@dataclass(frozen=True, slots=True)
class MatchStarted:
    kind: ClassVar[str] = "match_started"
    match_no: int
    dealer: int


@dataclass(frozen=True, slots=True)
class MatchOver:
    kind: ClassVar[str] = "match_over"
    result: MatchResult


@dataclass(frozen=True, slots=True)
class MatchCancelled:
    """Ruling 18: ``seat`` (``name``) did not come back in time."""

    kind: ClassVar[str] = "match_cancelled"
    seat: int
    name: str | None
    reason: str


@dataclass(frozen=True, slots=True)
class HandEndedEarly:
    """Casual mode: the host ended the hand (a "no quiero" said aloud)."""

    kind: ClassVar[str] = "hand_ended_early"
    hand_no: int


@dataclass(frozen=True, slots=True)
class DealRevealed:
    """A hand is over: its secret, the seats' contributions (null: absent) and the deal's seed, so
    every phone can check the commitment and redo the shuffle (docs/fairness.md)."""

    kind: ClassVar[str] = "deal_revealed"
    match_no: int
    hand_no: int
    dealer: int
    commitment: str
    secret: str
    contributions: tuple[str | None, ...]
    seed: str


# ------------------------------------------------------------------ votes (ruling 16, 17)


@dataclass(frozen=True, slots=True)
class VoteOpened:
    kind: ClassVar[str] = "vote_opened"
    team: int
    call: Do


@dataclass(frozen=True, slots=True)
class VoteCast:
    """A voter's choice, seen by their team only. ``forced``: a "no quiero" the table cast for an
    absent voter or one who did not vote in time."""

    kind: ClassVar[str] = "vote_cast"
    seat: int
    vote: Do
    forced: bool = False


@dataclass(frozen=True, slots=True)
class VoteSplit:
    kind: ClassVar[str] = "vote_split"
    team: int
    window_ends_ms: int


@dataclass(frozen=True, slots=True)
class VoteDecided:
    kind: ClassVar[str] = "vote_decided"
    team: int
    answer: Do


@dataclass(frozen=True, slots=True)
class VoteExpired:
    kind: ClassVar[str] = "vote_expired"
    team: int


@dataclass(frozen=True, slots=True)
class BotHinted:
    """A bot partner's own preference, shown to its team only (ruling 17)."""

    kind: ClassVar[str] = "bot_hint"
    seat: int
    vote: Do


# ------------------------------------------------------------------ señas, casual scoring


@dataclass(frozen=True, slots=True)
class SenaSent:
    kind: ClassVar[str] = "sena"
    seat: int
    sena: str


@dataclass(frozen=True, slots=True)
class Awarded:
    kind: ClassVar[str] = "awarded"
    team: int
    points: int
    score: tuple[int, int]


@dataclass(frozen=True, slots=True)
class AwardUndone:
    kind: ClassVar[str] = "award_undone"
    team: int
    points: int
    score: tuple[int, int]


# ------------------------------------------------------------------ presence and time (ruling 18)


@dataclass(frozen=True, slots=True)
class Connected:
    kind: ClassVar[str] = "connected"
    player: int
    seat: int | None


@dataclass(frozen=True, slots=True)
class Disconnected:
    kind: ClassVar[str] = "disconnected"
    player: int
    seat: int | None


@dataclass(frozen=True, slots=True)
class TurnExpired:
    """The turn clock ran out for ``seat``: the table played its mildest action for it."""

    kind: ClassVar[str] = "turn_expired"
    seat: int
    misses: int
    """Turns in a row the clock has played for this seat (at 2 it is treated as away)."""


@dataclass(frozen=True, slots=True)
class SeatHeld:
    kind: ClassVar[str] = "seat_held"
    seat: int
    until_ms: int


@dataclass(frozen=True, slots=True)
class ServerRestarted:
    """Our restart gave every deadline its full length again; these are the new ones."""

    kind: ClassVar[str] = "server_restarted"
    deadlines: tuple[DeadlineInfo, ...]


TableEvent = (TableCreated | PlayerJoined | Seated | TeamsShuffled | BotAdded | BotRemoved | PlayerLeft
              | PlayerRemoved | HostChanged | TableClosed | MatchStarted | MatchOver | MatchCancelled
              | HandEndedEarly | DealRevealed | VoteOpened | VoteCast | VoteSplit | VoteDecided | VoteExpired
              | BotHinted | SenaSent | Awarded | AwardUndone | Connected | Disconnected | TurnExpired
              | SeatHeld | ServerRestarted)
AnyEvent = TableEvent | Event
"""What an effect carries: a table event or one of the engine's."""


def _plain(value: Any) -> Any:
    if isinstance(value, Do):
        return str(value)
    if isinstance(value, MatchResult):
        return value.to_dict()
    if isinstance(value, DeadlineInfo):
        return {"kind": value.kind, "at_ms": value.at_ms, "seat": value.seat}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def event_dict(event: AnyEvent) -> dict[str, Any]:
    """The JSON form of any event (a match result is flattened into ``match_over``)."""
    if isinstance(event, tuple):  # the engine's events are named tuples
        return event_to_dict(event)
    if isinstance(event, MatchOver):
        return {"type": event.kind, **event.result.to_dict()}
    d: dict[str, Any] = {"type": event.kind}
    for f in fields(event):
        d[f.name] = _plain(getattr(event, f.name))
    return d
