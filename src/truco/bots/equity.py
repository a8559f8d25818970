"""The score in mind: how much a point is worth at a given score, and what a falta envido pays.

``match_equity(a, b)`` is the chance that a team needing ``a`` points beats one needing ``b``, under
a plain model of a hand (either team scores, 1 to 6 points). Points past the target are worth
nothing, and a point that takes the rival out of the malas or to the brink weighs more than one at
0–0, which is what lets a bot bet differently at 27–28 than at 3–2.
"""

from __future__ import annotations

from functools import cache

from truco.engine import PublicView, Team
from truco.engine import falta_points as engine_falta_points

_HAND_POINTS = ((1, 0.30), (2, 0.32), (3, 0.18), (4, 0.10), (5, 0.05), (6, 0.05))


@cache
def match_equity(a: int, b: int, edge: float = 0.0) -> float:
    """``edge``: how much more often than half the team needing ``a`` wins a hand's points.

    A player who expects to outplay the rivals should not stake the match on a coin toss; with an
    edge the equity at an even score is above one half, and a gamble has to beat that.
    """
    if a <= 0:
        return 1.0
    if b <= 0:
        return 0.0
    total = 0.0
    win = 0.5 + edge
    for pts, q in _HAND_POINTS:
        total += q * (win * match_equity(a - pts, b, edge) + (1 - win) * match_equity(a, b - pts, edge))
    return total


def equity(public: PublicView, team: Team, gain: int, loss: int, edge: float = 0.0) -> float:
    """Match equity of ``team`` after it scores ``gain`` and the other team ``loss`` now."""
    target = public.rules.target
    mine, theirs = public.score[team], public.score[1 - team]
    return match_equity(target - mine - gain, target - theirs - loss, edge)


def falta_points(public: PublicView, winner: Team) -> int:
    """What a falta envido won by ``winner`` pays now (rule 12, both variants)."""
    return engine_falta_points(public.rules, public.score, winner)
