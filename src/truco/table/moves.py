"""What a seat does during a hand: a card, a call, a vote on its team's answer, a seña to partners;
and the same for a bot seat, which the runtime plays through ``BotAct`` and ``BotHint``."""

from __future__ import annotations

from dataclasses import replace

from truco.engine import Action
from truco.table.commands import SENAS, Act, BotAct, BotHint, BotSena, Sena
from truco.table.edits import Ctx, TableError, check_seat, require_phase
from truco.table.effects import to_team
from truco.table.events import BotHinted, SenaSent, VoteCast
from truco.table.hands import resolve_vote, settle_vote, step
from truco.table.presence import acted
from truco.table.queries import CASUAL_DO, Facts
from truco.table.state import Player, Table


def act(t: Table, p: Player, cmd: Act, ctx: Ctx) -> None:
    require_phase(t, "playing", "cards are played")
    if p.seat is None:
        raise TableError("you have no seat in this match", "no_seat")
    if t.settings.mode == "casual" and cmd.do not in CASUAL_DO:
        raise TableError("in casual mode the calls are made aloud", "casual_calls_aloud")
    acted(t, p.seat, ctx)
    action = Action(p.seat, cmd.do, cmd.card)
    if t.vote is not None and p.seat % 2 == t.vote.team:
        _cast_vote(t, p.seat, action, ctx)
        return
    step(t, action, ctx)


def _cast_vote(t: Table, seat: int, action: Action, ctx: Ctx) -> None:
    v = t.vote
    assert v is not None
    facts = Facts(t)
    if seat not in facts.voters():
        raise TableError("you cannot answer this call", "not_a_voter")
    if action not in facts.engine_legal(seat):
        raise TableError(f"you cannot answer {v.call.value.replace('_', ' ')} with "
                         f"{action.do.value.replace('_', ' ')}", "not_an_answer")
    if v.vote_of(seat) is action.do and seat not in v.forced:
        raise TableError("you already voted that", "already_voted")
    t.vote = replace(v, votes=(*((s, d) for s, d in v.votes if s != seat), (seat, action.do)),
                     forced=tuple(s for s in v.forced if s != seat))
    ctx.send(to_team(v.team), VoteCast(seat, action.do))
    settle_vote(t, ctx)


def bot_act(t: Table, cmd: BotAct, ctx: Ctx) -> bool:
    if t.phase != "playing" or t.game is None:
        raise TableError("no match is on", "no_match")
    check_seat(t, cmd.seat)
    if t.seats[cmd.seat].bot is None:
        raise TableError("that seat is not a bot", "not_a_bot")
    facts = Facts(t)
    if cmd.seat not in facts.bots_to_act():
        raise TableError("the table is not waiting for that bot", "not_waiting_for_bot")
    action = Action(cmd.seat, cmd.do, cmd.card)
    if t.settings.mode == "casual" and cmd.do not in CASUAL_DO:
        raise TableError("in casual mode the calls are made aloud", "casual_calls_aloud")
    if t.vote is not None:
        if action not in facts.engine_legal(cmd.seat):
            raise TableError("that answer is not legal", "not_an_answer")
        resolve_vote(t, action, ctx)
    else:
        step(t, action, ctx)
    return True


def bot_hint(t: Table, cmd: BotHint, ctx: Ctx) -> bool:
    check_seat(t, cmd.seat)
    v = t.vote
    facts = Facts(t)
    if v is None or cmd.seat not in facts.hints_wanted():
        raise TableError("no hint is wanted from that seat", "no_hint_wanted")
    if Action(cmd.seat, cmd.do) not in facts.engine_legal(cmd.seat):
        raise TableError("that answer is not legal", "not_an_answer")
    t.vote = replace(v, hints=(*v.hints, (cmd.seat, cmd.do)))
    ctx.send(to_team(v.team), BotHinted(cmd.seat, cmd.do))
    return True


def sena(t: Table, p: Player, cmd: Sena, ctx: Ctx) -> None:
    require_phase(t, "playing", "señas are made")
    if not t.settings.senas_allowed:
        raise TableError("this table plays without señas", "no_senas")
    if p.seat is None:
        raise TableError("you have no seat in this match", "no_seat")
    if t.game is not None and t.game.pica:
        raise TableError("no señas in a pica-pica hand: each duel is one against one", "no_senas_in_pica")
    if cmd.sena not in SENAS:
        raise TableError("unknown seña", "unknown_sena")
    t.senas = (*t.senas, (p.seat, cmd.sena))
    ctx.send(to_team(p.seat % 2), SenaSent(p.seat, cmd.sena))


def bot_sena(t: Table, cmd: BotSena, ctx: Ctx) -> bool:
    """A bot signs to its partners, once a hand, before its first card (``Facts.bot_senas_due``)."""
    check_seat(t, cmd.seat)
    if t.seats[cmd.seat].bot is None:
        raise TableError("that seat is not a bot", "not_a_bot")
    if cmd.seat not in Facts(t).bot_senas_due():
        raise TableError("that bot makes no seña now", "no_senas")
    if cmd.sena not in SENAS:
        raise TableError("unknown seña", "unknown_sena")
    t.senas = (*t.senas, (cmd.seat, cmd.sena))
    ctx.send(to_team(cmd.seat % 2), SenaSent(cmd.seat, cmd.sena))
    return True
