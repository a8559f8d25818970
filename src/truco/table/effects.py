"""What applying a command produces: events with an audience, and records to keep."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from truco.table.events import AnyEvent

AudienceKind = Literal["everyone", "seat", "team"]


@dataclass(frozen=True, slots=True)
class Audience:
    """Who may receive an event: everyone at the table, one seat, or one team (its seats)."""

    kind: AudienceKind
    value: int = -1

    def reaches(self, seat: int | None) -> bool:
        """Whether a player at ``seat`` (``None``: not seated) may receive the event."""
        if self.kind == "everyone":
            return True
        if seat is None:
            return False
        if self.kind == "seat":
            return seat == self.value
        return seat % 2 == self.value


EVERYONE = Audience("everyone")


def to_seat(seat: int) -> Audience:
    return Audience("seat", seat)


def to_team(team: int) -> Audience:
    return Audience("team", team)


@dataclass(frozen=True, slots=True)
class Effect:
    """One event for an audience (its JSON form: ``truco.table.events.event_dict``)."""

    audience: Audience
    event: AnyEvent


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of an accepted command."""

    effects: tuple[Effect, ...] = ()
    records: tuple[dict[str, Any], ...] = field(default=())
    """Finished (or cancelled) match records for storage."""
    changed: bool = True
    """False when the command was accepted but changed nothing (a ``Wake`` with nothing due)."""
