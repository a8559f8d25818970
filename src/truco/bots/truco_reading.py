"""How ``maestro`` reads a rival's truco call: the chance to win the caller likely saw.

A first-round truco, a later one and a raise are each read with this team's rate of bluffs (the
record of its calls once their cards were seen) and with how often the team bets there whatever it
holds; the chance it starts to be likely at moves to the chances behind the team's
value calls. ``maestro`` judges each call as the caller could, seeing the round on the table
(``call_tables``, ``evidence.judged_chance``). ``dificil`` reads every call from one fixed centre."""

from __future__ import annotations

from typing import Protocol

from truco.bots.evidence import Evidence
from truco.bots.profile import Profile
from truco.engine import Do, PublicView, Seat
from truco.engine.cards import Card
from truco.engine.types import TRUCO_CALLS


class TrucoPriors(Protocol):
    """The priors of the reading (``MaestroParams`` documents each)."""

    @property
    def call_chance(self) -> float: ...
    @property
    def raise_bluff_prior(self) -> tuple[float, float]: ...
    @property
    def raise_centre_extra(self) -> float: ...
    @property
    def early_bluff_prior(self) -> tuple[float, float]: ...
    @property
    def late_bluff_prior(self) -> tuple[float, float]: ...
    @property
    def late_call_honest(self) -> float: ...
    @property
    def early_call_honest(self) -> float: ...
    @property
    def raise_honest(self) -> float: ...
    @property
    def early_call_centre(self) -> float: ...
    @property
    def centre_weight(self) -> float: ...
    @property
    def centre_gap(self) -> float: ...
    @property
    def call_slope(self) -> float: ...


def truco_floor(prof: Profile, m: TrucoPriors, phase: int) -> float:
    """How often this team's truco call (``phase``: 0 a first-round truco, 1 a later one, 2 a raise)
    comes from any hand: the larger of the bluff rate its shown cards give and the rate its betting
    gives (``Profile.truco_any_rate``)."""
    if phase == 2:
        return max(prof.raise_bluff_rate(m.raise_bluff_prior), prof.truco_any_rate(m.raise_honest, 2))
    late = phase == 1
    honest = m.late_call_honest if late else m.early_call_honest
    return max(prof.bluff_rate(late, m.late_bluff_prior if late else m.early_bluff_prior),
               prof.truco_any_rate(honest, phase))


def read_call(e: Evidence, prof: Profile, m: TrucoPriors) -> Evidence:
    """A truco call (``e.kind`` 2, as ``evidence.read_calls`` gives it) as this team's calls read."""
    default = e.centre
    if e.centre > m.call_chance + 0.04:  # a retruco or vale cuatro
        phase = 2
        default += m.raise_centre_extra
    else:
        phase = int(bool(e.key))
        if not phase:
            default = m.early_call_centre
    floor = truco_floor(prof, m, phase)
    centre = prof.call_centre(phase, default, m.centre_weight, m.centre_gap)
    return e._replace(floor=floor, centre=centre, slope=m.call_slope)


def call_tables(pub: PublicView, me: Seat) -> list[tuple[tuple[int, Card], ...]]:
    """The cards of the round on the table at each truco call of another seat, in order."""
    ends = []
    total = 0
    for rnd in pub.rounds[:len(pub.results)]:
        total += len(rnd)
        ends.append(total)
    out = []
    table: list[tuple[int, Card]] = []
    plays = 0
    for a in pub.history:
        if a.do is Do.PLAY and a.card is not None:
            table.append((a.seat, a.card))
            plays += 1
            if plays in ends:
                table = []
        elif a.do in TRUCO_CALLS and a.seat != me:
            out.append(tuple(table))
    return out
