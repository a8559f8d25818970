"""Casual mode (seed 004): the app deals and decides each trick; calls are made aloud and the host
scores with a tap (+1…+4), may undo the last award, and ends a hand that a "no quiero" settled."""

from __future__ import annotations

from truco.table.commands import Award, EndHand, UndoAward
from truco.table.edits import Ctx, TableError, require_host, require_phase
from truco.table.effects import EVERYONE
from truco.table.events import Awarded, AwardUndone, HandEndedEarly, MatchResult
from truco.table.hands import deal, end_match, last_hand, record_unfinished_hand
from truco.table.state import Player, Table


def _require_casual_host(t: Table, p: Player) -> None:
    if t.settings.mode != "casual":
        raise TableError("points are added by hand only in casual mode", "casual_only")
    require_host(t, p)
    require_phase(t, "playing", "points are added")


def award(t: Table, p: Player, cmd: Award, ctx: Ctx) -> None:
    _require_casual_host(t, p)
    if cmd.team not in (0, 1):
        raise TableError("team is 0 or 1", "bad_team")
    if not 1 <= cmd.points <= 4:
        raise TableError("an award is +1, +2, +3 or +4", "bad_points")
    t.awards = (*t.awards, (cmd.team, cmd.points))
    t.casual_score = _score(t)
    ctx.send(EVERYONE, Awarded(cmd.team, cmd.points, t.casual_score))
    if t.casual_score[cmd.team] >= t.settings.target:
        record_unfinished_hand(t, ctx)
        end_match(t, MatchResult(cmd.team, t.casual_score, (0, 0), cancelled=False, reason="target"), ctx)


def undo_award(t: Table, p: Player, cmd: UndoAward, ctx: Ctx) -> None:
    _require_casual_host(t, p)
    if not t.awards:
        raise TableError("there is no award to undo", "nothing_to_undo")
    team, points = t.awards[-1]
    t.awards = t.awards[:-1]
    t.casual_score = _score(t)
    ctx.send(EVERYONE, AwardUndone(team, points, t.casual_score))


def _score(t: Table) -> tuple[int, int]:
    """The casual score: every award so far, each team's total capped at the target."""
    sc = [0, 0]
    for team, pts in t.awards:
        sc[team] = min(t.settings.target, sc[team] + pts)
    return sc[0], sc[1]


def end_hand(t: Table, p: Player, cmd: EndHand, ctx: Ctx) -> None:
    _require_casual_host(t, p)
    g = t.game
    assert g is not None
    ctx.send(EVERYONE, HandEndedEarly(t.hand_no))
    record_unfinished_hand(t, ctx)
    t.last_hand = last_hand(t, g, -1) | {"ended_early": True}
    deal(t, (g.dealer + 1) % len(t.seats), ctx)
