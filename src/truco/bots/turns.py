"""Who acts next at a table of bots, and how a team's vote is settled: what the arena and the
attacker both need (kept apart from the arena so the attacker does not import it)."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from truco.bots.base import Bot
from truco.bots.guard import Guarded
from truco.engine import Action, Do, Seat, State, public_view, view_for
from truco.engine.view import partners_senas


class BotError(RuntimeError):
    """A bot answered with an action its view did not offer."""


def agreed(votes: Mapping[Seat, Action], first: Seat) -> Action | None:
    """``first``'s vote when every voter voted the same (the table's and the arena's team answer)."""
    mine = votes[first]
    return mine if all((v.do, v.card) == (mine.do, mine.card) for v in votes.values()) else None


def decline(legal: Sequence[Action]) -> Action:
    """What a team that cannot agree answers: "no quiero" (or, to a flor, "con flor me achico")."""
    for do in (Do.NO_QUIERO, Do.CON_FLOR_ME_ACHICO):
        for a in legal:
            if a.do is do:
                return a
    raise ValueError("no way to decline here")


Timer = Callable[[Seat, float], None]


def _checked(action: Action, legal: Sequence[Action], seat: Seat) -> Action:
    if action not in legal:
        raise BotError(f"the bot at seat {seat} chose {action}, which its view did not offer")
    return action


Bots = Sequence[Bot] | Mapping[Seat, Bot]


def next_action(st: State, bots: Bots, timer: Timer | None = None,
                senas: Sequence[tuple[Seat, str]] = ()) -> Action:
    """Ask the bots for the next action: the seat in turn, or the answering team's vote.

    ``bots`` needs only the seats that act now (a table with people passes its bot seats).
    ``senas`` are the señas made this hand: each seat's view gets its partners' ones.
    """
    pub = public_view(st)
    clock = time.thread_time  # CPU time: what the decision costs, whatever else the machine runs

    def ask(seat: Seat, votes: dict[Seat, Action] | None = None) -> Action:
        view = view_for(st, seat, pub)
        if senas:
            view = replace(view, senas=partners_senas(senas, seat))
        bot = bots[seat]
        t0 = clock()
        action = bot.choose(view) if votes is None else bot.reconsider(view, votes)
        if timer is not None:
            # a guarded bot runs on its own thread: the CPU time is measured there
            timer(seat, bot.last_ms if isinstance(bot, Guarded) else (clock() - t0) * 1000.0)
        return _checked(action, view.legal, seat)

    if pub.pending is None:
        return ask(pub.turn)
    voters = pub.to_act
    votes = {s: ask(s) for s in voters}
    answer = agreed(votes, voters[0])
    if answer is None:
        answer = agreed({s: ask(s, votes) for s in voters}, voters[0])
    return answer if answer is not None else decline(view_for(st, voters[0], pub).legal)
