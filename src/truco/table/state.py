"""The full state of a table: plain data, copied on every command, never sent to a client.

Like the engine's ``State``, a ``Table`` keeps only immutable values (ints, strings, tuples, frozen
records, engine states), so a shallow copy is a full copy and a rejected command leaves the original
untouched. Views for players are built from it field by field (``truco.table.view``).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Literal

from truco.engine import Do, State
from truco.engine.fairness import Reveal
from truco.table.events import MatchResult
from truco.table.settings import TableSettings

Phase = Literal["lobby", "playing", "over", "closed"]
DeadlineKind = Literal["vote_window", "answer", "reconnect", "host_away", "turn"]


@dataclass(frozen=True, slots=True)
class Player:
    """A person at the table (seated or not). ``pid`` is public; ``token`` never leaves the server."""

    pid: int
    name: str
    token: str
    seat: int | None = None
    connected: bool = False
    restart_grace: bool = False
    """Away because the server restarted: our downtime never forces their vote."""
    left: bool = False


@dataclass(frozen=True, slots=True)
class SeatSlot:
    """Who sits in a seat: a player, a bot of some level, or nobody."""

    player: int | None = None
    bot: str | None = None

    @property
    def empty(self) -> bool:
        return self.player is None and self.bot is None


@dataclass(frozen=True, slots=True)
class Deadline:
    """A moment when the table must act by itself. ``token`` tells a stale timer from a live one."""

    kind: DeadlineKind
    at_ms: int
    token: int
    length_ms: int
    """Its full length, given again after a restart (our downtime never decides a hand)."""
    seat: int = -1


@dataclass(frozen=True, slots=True)
class Vote:
    """A team answering a call (ruling 16): each voter's current choice and bots' hints."""

    team: int
    call: Do
    key: tuple[int, int]
    """(hand number, actions so far): tells one call from the next."""
    started_ms: int
    votes: tuple[tuple[int, Do], ...] = ()
    forced: tuple[int, ...] = ()
    """Seats whose "no quiero" was forced (disconnection, or no vote in time)."""
    hints: tuple[tuple[int, Do], ...] = ()

    def vote_of(self, seat: int) -> Do | None:
        for s, d in self.votes:
            if s == seat:
                return d
        return None


class Table:
    """A table session. Build with ``truco.table.create``; change only through ``truco.table.apply``."""

    table_id: str
    settings: TableSettings
    seed: int
    version: int
    """Number of accepted commands so far (the version of the last one)."""
    phase: Phase
    host: int
    players: tuple[Player, ...]
    seats: tuple[SeatSlot, ...]
    shuffles: int
    match_no: int
    hand_no: int
    game: State | None
    vote: Vote | None
    deadlines: tuple[Deadline, ...]
    next_token: int
    casual_score: tuple[int, int]
    awards: tuple[tuple[int, int], ...]
    senas: tuple[tuple[int, str], ...]
    """Señas of the current hand: (from seat, seña)."""
    hands: tuple[dict[str, Any], ...]
    """Records of the hands of the current match, for the match record."""
    hand_points: tuple[tuple[int, int, str], ...]
    """Points paid so far in the current hand: (team, points, the engine's reason)."""
    last_hand: dict[str, Any] | None
    """The summary of the hand just over (``truco.table.hands.last_hand``)."""
    result: MatchResult | None
    turn_misses: tuple[tuple[int, int], ...]
    """Turn clock: (seat, turns in a row the clock played for it)."""
    contributions: tuple[tuple[int, str], ...]
    """(player, hex) contributed to the next deal (``truco.table.fairness``)."""
    seal: Reveal | None
    """The hand on the table: its secret, contributions and seed. Never in a view until revealed."""
    revealed: Reveal | None
    """The last hand over: what everyone may now check."""
    result_players: tuple[int, ...]
    """Who was at the table when the last match ended: only they are shown its result in the lobby
    (a newcomer taking a freed seat gets a plain waiting room)."""

    def copy(self) -> Table:
        return copy.copy(self)

    def __repr__(self) -> str:
        return f"Table({self.table_id}, v{self.version}, {self.phase}, match {self.match_no})"

    # derived facts
    def player(self, pid: int) -> Player | None:
        if 0 <= pid < len(self.players) and not self.players[pid].left:
            return self.players[pid]
        return None

    def by_token(self, token: str) -> Player | None:
        for p in self.players:
            if p.token == token and not p.left:
                return p
        return None

    def seat_player(self, seat: int) -> Player | None:
        slot = self.seats[seat]
        return None if slot.player is None else self.players[slot.player]

    @property
    def deadlines_on(self) -> bool:
        """Ruling 19: against bots only (every human in one team) there are no deadlines at all."""
        teams = {s % 2 for s, slot in enumerate(self.seats) if slot.player is not None}
        return len(teams) == 2

    def next_deadline(self) -> Deadline | None:
        return min(self.deadlines, key=lambda d: d.at_ms, default=None)
