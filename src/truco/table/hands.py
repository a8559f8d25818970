"""A hand from deal to end: the engine's steps, a call answered by a team's vote (ruling 16), the
hand's summary and the match's end. Opening, settling and resolving a vote live here because they
and the engine step call each other: an answer moves the engine, which may open the next call."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from truco.engine import (
    Action,
    Do,
    Event,
    IllegalAction,
    State,
    hand_record,
    new_match,
    next_hand,
    public_view,
)
from truco.engine import apply as engine_apply
from truco.engine.cards import NAME
from truco.engine.deal import duel_pair
from truco.engine.types import PointsAwarded
from truco.engine.view import duels_to_dict
from truco.table.edits import Ctx, TableError, add_deadline, drop_deadlines, set_result
from truco.table.effects import EVERYONE, to_team
from truco.table.events import MatchOver, MatchResult, VoteDecided, VoteOpened, VoteSplit
from truco.table.fairness import reveal_deal, seal_deal
from truco.table.queries import Facts
from truco.table.state import Table, Vote


def deal(t: Table, dealer: int, ctx: Ctx) -> None:
    """Deal a hand: the next one of the engine match (full), or a fresh one (casual: no engine score)."""
    t.hand_no += 1
    t.senas = ()
    t.hand_points = ()
    seed = seal_deal(t, dealer)
    if t.game is None or t.settings.mode == "casual" or t.hand_no == 1:
        game, events = new_match(t.settings.rules(), dealer=dealer, seed=seed, hand_no=t.hand_no)
    else:
        game, events = next_hand(t.game, seed=seed)
    t.game = game
    _engine_events(t, events, ctx)
    _after_engine(t, ctx)


def step(t: Table, action: Action, ctx: Ctx) -> None:
    """Apply one action to the hand, then keep the table in step (votes, the hand's end)."""
    assert t.game is not None
    try:
        t.game, events = engine_apply(t.game, action)
    except IllegalAction as e:
        raise TableError(str(e), e.reason) from None
    _engine_events(t, events, ctx)
    _after_engine(t, ctx)


def _engine_events(t: Table, events: list[Event], ctx: Ctx) -> None:
    """Everyone hears the engine's events; the points are kept for the hand's summary."""
    ctx.engine_events(events)
    points = tuple((e.team, e.points, e.reason) for e in events if isinstance(e, PointsAwarded))
    if points:
        t.hand_points = (*t.hand_points, *points)


def _after_engine(t: Table, ctx: Ctx) -> None:
    g = t.game
    assert g is not None
    drop_deadlines(t, "turn")
    if g.hand_over:
        _finish_hand(t, ctx)
        return
    _arm_turn_clock(t, ctx)
    if g.pending:
        key = (g.hand_no, len(g.history))
        if t.vote is None or t.vote.key != key:
            _open_vote(t, key, ctx)
    elif t.vote is not None:
        t.vote = None
        drop_deadlines(t, "vote_window", "answer")


def _arm_turn_clock(t: Table, ctx: Ctx) -> None:
    """With the turn clock on, a human the table waits on alone (no call pending) has
    ``turn_seconds`` to act; against bots only there are no deadlines (ruling 19)."""
    g = t.game
    assert g is not None
    seconds = t.settings.turn_seconds
    if seconds is None or g.pending or not t.deadlines_on or t.seats[g.turn].player is None:
        return
    add_deadline(t, "turn", seconds * 1000, ctx, g.turn)


# ------------------------------------------------------------------ a team's answer


def _open_vote(t: Table, key: tuple[int, int], ctx: Ctx) -> None:
    g = t.game
    assert g is not None
    call = public_view(g).pending_call
    assert call is not None
    drop_deadlines(t, "vote_window", "answer")
    t.vote = Vote(g.answer_team, call, key, ctx.now)
    humans = Facts(t).voters()
    if humans and t.deadlines_on:
        add_deadline(t, "answer", t.settings.answer_seconds * 1000, ctx)
    if humans:
        ctx.send(EVERYONE, VoteOpened(g.answer_team, call))
    forced = [s for s in humans if away(t, s)]
    for s in forced:
        force_vote(t, s)
    if forced:
        settle_vote(t, ctx)


def away(t: Table, seat: int) -> bool:
    """Away in a way that forces their vote: not after our restart, not at a table without deadlines."""
    p = t.seat_player(seat)
    return p is not None and not p.connected and not p.restart_grace and t.deadlines_on


def force_vote(t: Table, seat: int) -> None:
    """Cast "no quiero" for ``seat`` (away, or silent past the answer deadline)."""
    v = t.vote
    assert v is not None
    decline = Facts(t).decline(seat)
    t.vote = replace(v, votes=(*((s, d) for s, d in v.votes if s != seat), (seat, decline)),
                     forced=(*v.forced, seat) if seat not in v.forced else v.forced)


def settle_vote(t: Table, ctx: Ctx) -> None:
    """Unanimous → the answer applies at once; split → the window opens (ruling 16)."""
    v = t.vote
    assert v is not None
    humans = Facts(t).voters()
    votes = dict(v.votes)
    if not humans or any(s not in votes for s in humans):
        return
    choices = {votes[s] for s in humans}
    if len(choices) == 1:
        do = choices.pop()
        seat = next(s for s in humans if votes[s] is do)
        resolve_vote(t, Action(seat, do), ctx)
        return
    if t.deadlines_on and not any(d.kind == "vote_window" for d in t.deadlines):
        d = add_deadline(t, "vote_window", t.settings.vote_seconds * 1000, ctx)
        ctx.send(to_team(v.team), VoteSplit(v.team, d.at_ms))  # the callers never learn of a split


def resolve_vote(t: Table, action: Action, ctx: Ctx) -> None:
    """The team's answer is ``action``: close the vote and play it."""
    assert t.vote is not None
    ctx.send(EVERYONE, VoteDecided(t.vote.team, action.do))
    t.vote = None
    drop_deadlines(t, "vote_window", "answer")
    step(t, action, ctx)


# ------------------------------------------------------------------ the end of a hand, of a match


def _finish_hand(t: Table, ctx: Ctx) -> None:
    g = t.game
    assert g is not None
    t.vote = None
    drop_deadlines(t, "vote_window", "answer")
    keep_hand(t, g, ctx)
    t.last_hand = last_hand(t, g, g.hand_winner)
    if t.settings.mode == "full" and g.match_over:
        end_match(t, MatchResult(g.winner, g.score, g.chicos, cancelled=False, reason="target"), ctx)
        return
    deal(t, (g.dealer + 1) % len(t.seats), ctx)


def last_hand(t: Table, g: State, winner: int) -> dict[str, Any]:
    """The hand just over, as everyone may see it: one summary record for every screen. Its rounds
    and who took each, the tantos sung, the cards shown (rule 13), each point with the reason it was
    paid (the engine's: ``truco``, ``truco_no_querido``, ``envido``, ``mazo``, …), the score."""
    rounds = (*g.rounds, g.plays) if g.plays else g.rounds
    return {
        "hand_no": t.hand_no, "winner": winner, "mano": g.mano, "dealer": g.dealer,
        "score": list(t.casual_score if t.settings.mode == "casual" else g.score),
        "rounds": [[{"seat": s, "card": NAME[c]} for s, c in r] for r in rounds],
        "results": list(g.results),
        "points": [] if t.settings.mode == "casual"  # the host scores by hand; the engine's tally is not it
        else [{"team": tm, "points": pts, "reason": why} for tm, pts, why in t.hand_points],
        "sung": [{"seat": s, "tanto": tanto, "flor": flor} for s, tanto, flor in g.sung],
        "mazo": sorted({a.seat for a in g.history if a.do is Do.MAZO}),  # in every duel of a pica-pica
        "pica": g.pica,
        "duels": _duels(g),
        "shown": [{"seat": s, "cards": [NAME[c] for c in cs]} for s, cs in g.shown],
        "ended_early": False,
    }


def _duels(g: State) -> list[dict[str, Any]]:
    """A pica-pica hand's duels, the one cut short by the match's end included."""
    if not g.pica:
        return []
    duels = list(g.duels)
    if len(duels) <= g.duel:
        a, b = duel_pair(g.dealer, g.duel)
        duels.append((a, b, -1, (*g.rounds, g.plays) if g.plays else g.rounds, g.results))
    return duels_to_dict(duels)


def keep_hand(t: Table, g: State, ctx: Ctx) -> None:
    """The hand is over: into the match record, with its deal revealed to everyone."""
    fair = reveal_deal(t, ctx)
    t.hands = (*t.hands, {**hand_record(g), "fairness": fair} if fair is not None else hand_record(g))


def record_unfinished_hand(t: Table, ctx: Ctx) -> None:
    """A match that ends mid-hand keeps that hand in its record too (and reveals its deal)."""
    g = t.game
    if g is not None and not g.hand_over:
        keep_hand(t, g, ctx)


def end_match(t: Table, result: MatchResult, ctx: Ctx) -> None:
    set_result(t, result)
    t.contributions = ()  # given for a hand that will not be dealt
    t.vote = None
    drop_deadlines(t, "vote_window", "answer", "reconnect", "turn")
    t.phase = "over"
    ctx.send(EVERYONE, MatchOver(result))
    ctx.records.append(match_record(t))


def match_record(t: Table) -> dict[str, Any]:
    """What storage keeps of a finished (or cancelled) match: its seats, result and every hand."""
    return {
        "table_id": t.table_id, "match_no": t.match_no, "settings": t.settings.to_dict(),
        "seats": [{"name": t.players[s.player].name} if s.player is not None else {"bot": s.bot}
                  for s in t.seats],
        "result": t.result.to_dict() if t.result is not None else None,
        "casual": {"score": list(t.casual_score), "awards": [list(a) for a in t.awards]}
        if t.settings.mode == "casual" else None,
        "hands": list(t.hands),
    }
