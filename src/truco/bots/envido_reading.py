"""How ``maestro`` reads a rival's envido bet: what the tanto behind it likely is.

An opening envido or real envido is a band of tantos (a caller holding more would have opened with
more), an opening falta a tanto from about 30 up, a raise a tanto from a centre; each moved by what
this team sang or showed in the match (``profile.Profile``) and floored by how often it bets with
no tanto at all. ``dificil`` reads every envido bet the same way, from fixed centres."""

from __future__ import annotations

import math
from typing import Protocol

from truco.bots.base import ENVIDO_BETS
from truco.bots.equity import falta_points
from truco.bots.evidence import Evidence
from truco.bots.knowledge import envido_passes, this_deal
from truco.bots.profile import Profile, share_as_rate, tanto_share
from truco.engine import Do, PublicView, Seat


class EnvidoPriors(Protocol):
    """The priors of the reading (``MaestroParams`` documents each)."""

    @property
    def envido_bluff_tanto(self) -> int: ...
    @property
    def envido_bluff_prior(self) -> tuple[float, float]: ...
    @property
    def falta_bluff_prior(self) -> tuple[float, float]: ...
    @property
    def envido_raise_honest(self) -> float: ...
    @property
    def falta_caller(self) -> float: ...
    @property
    def opening_prior(self) -> tuple[float, float, float, float]: ...
    @property
    def opening_slope(self) -> float: ...
    @property
    def falta_prior(self) -> tuple[float, float, float]: ...
    @property
    def opening_bluff_prior(self) -> tuple[float, float]: ...
    @property
    def cheap_falta(self) -> int: ...


class EnvidoReading:
    """The reading of one decision's envido evidence (one per decision: the bets of this hand)."""

    def __init__(self, pub: PublicView, me: Seat, priors: EnvidoPriors) -> None:
        self.pub = pub
        self.m = priors
        self.falta_callers = {a.seat for a in pub.history if a.seat != me and a.do is Do.FALTA_ENVIDO}

    def read(self, e: Evidence, prof: Profile) -> Evidence:
        """A tanto condition (``e.kind`` 0: a seat's, 1: a team's best) as this team's bets read;
        an answer (a floor of 0.15 or more) is left as ``dificil`` reads it."""
        n = self.pub.rules.players
        seats = {e.who} if e.kind == 0 else set(range(e.who, n, 2))
        # how often this team bets with any hand, from how often it has bet: a first call by its
        # openings, a raise by its raises (0 for one that bets no more often than an honest one)
        if e.kind == 0:
            any_hand = prof.envido_any_rate(tanto_share(self.m.envido_bluff_tanto))
        else:
            any_hand = prof.envido_raise_any_rate(self.m.envido_raise_honest)
        if e.centre >= 28.0 and seats & self.falta_callers and not self._cheap_falta():
            if e.kind == 0:
                return self._falta_opening(e, prof, any_hand)
            return e._replace(centre=self.m.falta_caller,
                              floor=max(any_hand, prof.envido_floor(True, self.m.falta_bluff_prior)))
        if e.floor >= 0.15:  # an answer, not a call
            return e
        opening = self._opening(e.who) if e.kind == 0 else None
        if opening is not None:
            return self._band(e, opening, prof, any_hand)
        floor = prof.envido_floor(False, self.m.envido_bluff_prior)
        return e._replace(centre=prof.envido_centre(e.centre, e.kind == 1), floor=max(any_hand, floor))

    def _band(self, e: Evidence, opening: Do, prof: Profile, any_hand: float) -> Evidence:
        """An opening envido or real envido as a band of tantos (item 16), its floor a rate: how
        often a hand without the tanto opens, where the record gives the share of openings that
        held none."""
        env, real, spread, weight = self.m.opening_prior
        mid, band = prof.opening_band(opening, env if opening is Do.ENVIDO else real, spread, weight)
        band = max(1.0, band)
        share = prof.envido_floor(False, self.m.opening_bluff_prior)
        rate = share_as_rate(share, tanto_share(self.m.envido_bluff_tanto))
        return e._replace(centre=mid - band, upper=mid + band, slope=self.m.opening_slope,
                          floor=max(any_hand, rate))

    def _falta_opening(self, e: Evidence, prof: Profile, any_hand: float) -> Evidence:
        """An opening falta envido: likely from a standard deviation under the tanto the team has
        shown behind its faltas (no upper edge: there is no bigger bet), its floor the rate at
        which a hand under that opens, from the share of its faltas that held no tanto."""
        mid, spread, weight = self.m.falta_prior
        mid, band = prof.opening_band(Do.FALTA_ENVIDO, mid, spread, weight)
        centre = mid - max(1.0, band)
        share = prof.envido_floor(True, self.m.falta_bluff_prior)
        rate = share_as_rate(share, tanto_share(math.ceil(centre)))
        return e._replace(centre=centre, slope=self.m.opening_slope, floor=max(any_hand, rate))

    def _opening(self, seat: Seat) -> Do | None:
        """The bet ``seat`` opened this hand's envido with, when it was an envido or a real envido
        (an opening falta has its own reading, ``_falta_opening``; one that pays no more than a
        real envido is read as a raise would be, ``_cheap_falta``)."""
        first = next((a for a in this_deal(self.pub) if a.do in ENVIDO_BETS), None)
        if first is None or first.seat != seat or first.do is Do.FALTA_ENVIDO:
            return None
        return first.do

    def _cheap_falta(self) -> bool:
        """A falta envido that pays no more than an envido and a real envido (5 points) to either
        team stakes no more than they do, and says no more about its caller's tanto: it is read as
        a real envido, not as the 30 of a falta that puts the match at stake."""
        return max(falta_points(self.pub, 0), falta_points(self.pub, 1)) <= self.m.cheap_falta


def read_passes(pub: PublicView, me: Seat, centre: float, slope: float,
                floors: tuple[float, float]) -> list[Evidence]:
    """Each other seat that passed the envido (``knowledge.envido_passes``) is read as holding less
    than ``centre`` (a tanto condition with a negative slope), and ``floors[team]`` of the hands
    above it pass anyway (slow play, a partner left to call)."""
    return [Evidence(0, s, centre, -slope, floors[s & 1]) for s in envido_passes(pub) if s != me]
