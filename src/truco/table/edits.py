"""What every command handler shares: the refusal it raises, the effects it collects, and the small
edits it makes to the table copy it works on (fields are replaced, never mutated in place)."""

from __future__ import annotations

import hashlib
import unicodedata
from dataclasses import replace
from typing import Any

from truco.engine import Event
from truco.table.effects import EVERYONE, Audience, Effect
from truco.table.events import DeadlineInfo, MatchResult, TableEvent
from truco.table.state import Deadline, DeadlineKind, Player, SeatSlot, Table

MAX_NAME = 24
_UNSHOWABLE = frozenset({"Cc", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Control characters, lone surrogates, private-use and unassigned code points, line breaks."""
_BIDI_CONTROLS = frozenset("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Direction overrides turn a name around on other people's screens."""


class TableError(ValueError):
    """A command the table refuses now. The message is meant for the player who sent it; ``reason``
    is a short code (``seat_taken``, ``not_your_turn``…) a client words in the player's language."""

    def __init__(self, message: str, reason: str = "refused") -> None:
        super().__init__(message)
        self.reason = reason


class Ctx:
    """Effects and records collected while one command is applied, and the time it is applied at."""

    __slots__ = ("effects", "now", "records")

    def __init__(self, now: int) -> None:
        self.now = now
        self.effects: list[Effect] = []
        self.records: list[dict[str, Any]] = []

    def send(self, audience: Audience, event: TableEvent) -> None:
        self.effects.append(Effect(audience, event))

    def engine_events(self, events: list[Event]) -> None:
        self.effects.extend(Effect(EVERYONE, e) for e in events)


def clean_name(raw: object) -> str:
    """A display name: 1–24 characters, inner spaces collapsed. What people type is kept, emoji joined
    with U+200D included; only what cannot be shown (control characters, line breaks, unassigned code
    points, direction overrides) is refused, never stripped: a name that is not what its owner typed
    would surprise them."""
    if not isinstance(raw, str):
        raise TableError(f"a name has 1 to {MAX_NAME} characters", "name_length")
    if any((unicodedata.category(ch) in _UNSHOWABLE and not ch.isspace()) or ch in _BIDI_CONTROLS
           for ch in raw):
        raise TableError("a name cannot hold control characters", "name_unshowable")
    name = " ".join(raw.split())
    if not 1 <= len(name) <= MAX_NAME:
        raise TableError(f"a name has 1 to {MAX_NAME} characters", "name_length")
    return name


def set_player(t: Table, p: Player) -> None:
    t.players = (*t.players[:p.pid], p, *t.players[p.pid + 1:])


def set_slot(t: Table, seat: int, slot: SeatSlot) -> None:
    t.seats = (*t.seats[:seat], slot, *t.seats[seat + 1:])


def check_seat(t: Table, seat: int) -> None:
    if not 0 <= seat < len(t.seats):
        raise TableError(f"seats go from 0 to {len(t.seats) - 1}", "no_such_seat")


def require_host(t: Table, p: Player) -> None:
    if p.pid != t.host:
        raise TableError("only the host may do that", "host_only")


def require_phase(t: Table, phase: str, what: str) -> None:
    if t.phase != phase:
        raise TableError(f"{what} only {'in the lobby' if phase == 'lobby' else 'during a match'}",
                         "only_in_lobby" if phase == "lobby" else "only_during_match")


def add_deadline(t: Table, kind: DeadlineKind, length_ms: int, ctx: Ctx, seat: int = -1) -> Deadline:
    d = Deadline(kind, ctx.now + length_ms, t.next_token, length_ms, seat)
    t.next_token += 1
    t.deadlines = (*t.deadlines, d)
    return d


def drop_deadlines(t: Table, *kinds: str, seat: int | None = None) -> None:
    t.deadlines = tuple(d for d in t.deadlines
                        if not (d.kind in kinds and (seat is None or d.seat == seat)))


def deadline_infos(t: Table) -> tuple[DeadlineInfo, ...]:
    """The table's deadlines as players see them, soonest first."""
    return tuple(DeadlineInfo(d.kind, d.at_ms, d.seat) for d in sorted(t.deadlines, key=lambda d: d.at_ms))


def derived_seed(t: Table, *parts: object) -> int:
    """A number derived from the table's secret seed: every shuffle and lot is reproducible from it."""
    text = ":".join(str(x) for x in (t.seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def set_result(t: Table, result: MatchResult) -> None:
    """The match ended: its result, for those at the table now."""
    t.result = result
    t.result_players = tuple(p.pid for p in t.players if not p.left)


def unseat(t: Table, p: Player, **changes: Any) -> None:
    """Free ``p``'s seat (if any) and apply ``changes`` to them."""
    if p.seat is not None:
        set_slot(t, p.seat, SeatSlot())
    set_player(t, replace(p, seat=None, **changes))
