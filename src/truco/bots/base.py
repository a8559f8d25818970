"""What a bot is: a player that sees only its seat's view and answers with one legal action."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Protocol

from truco.bots.senas import truthful_senas
from truco.engine import Action, Do, Seat, SeatView

_MASK = (1 << 64) - 1


class Bot(Protocol):
    """A player. It receives a ``SeatView`` (never the full state) and returns one of ``view.legal``.

    When the view shows a call waiting for the bot's team, the returned answer is the bot's vote;
    ``hint`` gives the same preference without acting, for a human partner who decides for the team.
    """

    level: str

    def choose(self, view: SeatView) -> Action: ...

    def hint(self, view: SeatView) -> Action: ...

    def reconsider(self, view: SeatView, votes: Mapping[Seat, Action]) -> Action:
        """The team's votes differ: seeing them all (``votes``, own included), vote again."""
        ...


def mix(*values: int) -> int:
    """A 64-bit splitmix hash of some ints: stable across processes (unlike ``hash`` of strings)."""
    h = 0x6A09E667F3BCC909
    for v in values:
        h = (h ^ (v & _MASK)) & _MASK
        h = (h + 0x9E3779B97F4A7C15) & _MASK
        h = ((h ^ (h >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        h = ((h ^ (h >> 27)) * 0x94D049BB133111EB) & _MASK
        h ^= h >> 31
    return h


def view_key(view: SeatView) -> int:
    """A number that changes with every decision point of a match, from the view alone."""
    p = view.public
    return mix(view.seat, p.hand_no, p.dealer, p.start_score[0], p.start_score[1], p.start_chicos[0],
               p.start_chicos[1], len(p.history), *view.dealt)


def check_view(view: object) -> SeatView:
    """Refuse anything but a seat view at run time too: a bot must never be handed the full state."""
    if type(view) is not SeatView:
        raise TypeError(f"a bot receives a SeatView, not {type(view).__name__}")
    if not view.legal:
        raise ValueError("the bot has nothing to do in this view")
    return view


class ViewBot:
    """Base for the levels: a decision is a pure function of (seed, view), so ``hint`` equals ``choose``.

    Purity keeps arena runs reproducible whatever the process split, and lets the table ask a bot
    for a hint at any time without changing what it will do later.
    """

    level = "base"
    makes_senas = False
    """Whether this level signs its cards to its partners at a table with señas (``senas``)."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def senas(self, view: SeatView) -> tuple[str, ...]:
        """The señas to make to the partners at the start of a hand: every one its cards allow (a
        seña reaches the own team only, so there is nothing to gain by lying), or none."""
        return truthful_senas(view.dealt) if self.makes_senas else ()

    def rng(self, view: SeatView) -> random.Random:
        return random.Random(mix(self.seed, view_key(view)))

    def choose(self, view: SeatView) -> Action:
        return self.decide(check_view(view))

    def hint(self, view: SeatView) -> Action:
        return self.decide(check_view(view))

    def reconsider(self, view: SeatView, votes: Mapping[Seat, Action]) -> Action:
        """Team convention: everyone moves to the mildest vote that still takes the bet on.

        A partner who accepts has seen cards we have not, so a "no quiero" yields to them, and a raise
        yields to a plain "quiero". Every bot applies the same rule to the same votes, so one round
        of reconsidering brings a team of bots to agreement.
        """
        view = check_view(view)
        mine = votes.get(view.seat) or self.decide(view)
        ranked = sorted(votes.items(), key=lambda sv: (_vote_rank(sv[1].do), sv[0]))
        for _, vote in ranked:
            if _vote_rank(vote.do) == 0:
                continue
            same = find(view.legal, vote.do)
            if same is not None:
                return same
        return mine

    def decide(self, view: SeatView) -> Action:
        raise NotImplementedError


_DECLINES = (Do.NO_QUIERO, Do.CON_FLOR_ME_ACHICO)


def _vote_rank(do: Do) -> int:
    if do in _DECLINES:
        return 0
    if do is Do.QUIERO:
        return 1
    return 2


ENVIDO_BETS = (Do.ENVIDO, Do.REAL_ENVIDO, Do.FALTA_ENVIDO)
"""The envido calls, in order (the engine's ``ENVIDO_CALLS`` is a set)."""


def find(legal: tuple[Action, ...], do: Do) -> Action | None:
    """The legal action of kind ``do`` (not for ``play``), if any."""
    for a in legal:
        if a.do is do:
            return a
    return None


def forced(legal: tuple[Action, ...]) -> Action | None:
    """The move that needs no thought: the only legal action, or flor, which is sung before anything
    else (or lost)."""
    if len(legal) == 1:
        return legal[0]
    return find(legal, Do.FLOR)


def find_any(legal: tuple[Action, ...], kinds: tuple[Do, ...]) -> Action | None:
    """The first legal action of one of ``kinds``: the one truco call or raise open now, say."""
    for a in legal:
        if a.do in kinds:
            return a
    return None


def prefer(legal: tuple[Action, ...], do: Do) -> Action:
    """The legal action ``do``; if it is not allowed, the first legal answer (quiero, no quiero,
    con flor me achico), else the first legal action."""
    for kind in (do, Do.QUIERO, Do.NO_QUIERO, Do.CON_FLOR_ME_ACHICO):
        a = find(legal, kind)
        if a is not None:
            return a
    return legal[0]


class RandomBot(ViewBot):
    """Uniform over the legal actions; for tests and as the weakest arena opponent."""

    level = "random"

    def decide(self, view: SeatView) -> Action:
        return self.rng(view).choice(view.legal)
