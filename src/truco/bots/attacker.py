"""The attacker: a best response by search against one frozen bot whose policy it knows.

The exploitability test of a level. The attacker sees only its seat's view, like every bot, but it
owns a copy of the target level (same code, its own seed) and may ask it what it would do in any
hypothetical view. For each decision with more than one legal action it

1. draws ``Budget.candidates`` deals consistent with the public record (``sampling.Sampler``), and in
   each one replays the hand so far asking the target copy what each rival seat would have done; the
   deals where the target's copy does what the rivals really did are kept first
   (``Budget.worlds`` of them: the fewest mismatches, then the order drawn). This reading is most
   of its edge: against ``normal``, keeping 16 deals out of 16 drawn won about half the matches,
   out of 48 drawn most of them (docs/bots.md has the figures);
2. for every legal action, applies it in every kept deal and plays the rest of the hand out: the
   rival seats with the target's own ``choose`` (team answers by the table's voting rule), its own
   team with ``normal`` (the one-ply base policy);
3. values each end of hand in match equity (``equity.match_equity``, no edge: the points, weighed by
   what they are worth at this score) and leaves ``normal``'s choice only for an action whose gain
   over it, paired deal by deal, is above zero one standard error down (``Budget.caution``). Taking
   the best mean instead picks whichever action the few deals flatter most (the winner's curse),
   which cost it 8 points of match win rate against ``normal`` (docs/bots.md).

So the depth is the rest of the hand, one ply of choice for itself. It does not know the rivals'
seeds, so a target that samples (``dificil``) is predicted only as well as its own sampling repeats.

A target that remembers the match (``maestro``'s ``rivals.Memory``) is asked with the match as it
happened: before every search its copies are given back the attacker's own real view of each hand.
Without that, a copy's memory kept whichever sampled deal and hypothetical line a search had played
out last as the record of a finished hand, and read this opponent from hands that never happened.

``attack-as:<level>`` (``anchored``) starts from the target's own choice instead of ``normal``'s, and
plays its own team's playouts by the target too: a best response that can only gain on the policy it
answers, which in 4 players, where the search reads little, is the one that bounds anything.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, replace

from truco.bots.base import Bot, ViewBot, forced, mix
from truco.bots.equity import match_equity
from truco.bots.knowledge import knowledge
from truco.bots.registry import make_bot
from truco.bots.rivals import Memory
from truco.bots.sampling import Sampler, World
from truco.bots.turns import next_action
from truco.engine import Action, SeatView, State, Team, apply, new_match, view_for


@dataclass(frozen=True, slots=True)
class Budget:
    """What one decision may spend: worlds × actions playouts of the rest of the hand."""

    worlds: int = 16
    """Deals every legal action is played out in (the same deals for each action)."""
    candidates: int = 48
    """Deals drawn to pick them from, by how well the target's copy explains the rivals' actions."""
    caution: float = 1.0
    """Leave ``normal``'s choice only for an action whose gain over it, paired world by world, stays
    above zero this many standard errors down (0: the best mean)."""


BUDGETS: dict[str, Budget] = {}
"""Per-target budgets where the default does not fit (none now: measured, a smaller budget for
``dificil`` lost more to noise than it saved; see docs/bots.md)."""
MISSES_SEEN = 2
"""A deal the target's copy contradicts twice is ranked with every worse one: it stops asking."""
BASE = "normal"
"""The attacker's own policy in the playouts (and on ties); an anchored attacker's is the target."""


Deviation = Callable[[SeatView, Action, Action, float], None]
"""Told of each decision where the attacker leaves its base policy: the view, the base's action, the
action taken and the gain it estimated (match equity, ``Budget.caution`` standard errors down)."""


class Attacker(ViewBot):
    """One-ply search over the legal actions against the target's real policy, in sampled deals."""

    def __init__(self, target: str, seed: int = 0, budget: Budget | None = None,
                 on_deviation: Deviation | None = None, anchored: bool = False) -> None:
        super().__init__(seed)
        self.anchored = anchored
        self.level = f"attack-as:{target}" if anchored else f"attack:{target}"
        self.target = target
        self.budget = budget or BUDGETS.get(target, Budget())
        self.model: Bot = make_bot(target, mix(seed, 0x7A26E7))
        """The rival seats' policy, asked in sampled deals and hypothetical lines."""
        self.base: Bot = make_bot(target, mix(seed, 0xA7C4)) if anchored else make_bot(BASE, seed)
        """The choice it starts from. Anchored, a copy of the target that sees only this seat's real
        views, so it chooses as the target would in this seat."""
        self.own: Bot = make_bot(target, mix(seed, 0x0E7)) if anchored else self.base
        """Its own team in the playouts."""
        self.seen = Memory()
        """Its latest real view of each hand of the match: what its own team's copy is told happened."""
        self.seen_across = Memory()
        """The same hands from the next seat's side (``across``): what the rivals' copy is told."""
        self.on_deviation = on_deviation
        """A bench's hook (``truco.bench.exploits``); a table's attacker has none."""

    def decide(self, view: SeatView) -> Action:
        legal = view.legal
        self.seen.see(view)
        self.seen_across.see(across(view))
        sure = forced(legal)
        if sure is not None:
            if self.anchored:
                self.base.choose(view)  # the anchor sees every view the target in this seat would
            return sure
        base = self.base.choose(view)
        recall(self.model, self.seen_across)
        if self.anchored:
            recall(self.own, self.seen)
        worlds = self.worlds(view, self.rng(view))
        base_values = [self.playout(st, base, view.team) for st in worlds]
        best, best_gain = base, 0.0
        for action in legal:
            if action == base:
                continue
            gains = [self.playout(st, action, view.team) - b
                     for st, b in zip(worlds, base_values, strict=True)]
            gain = _lower_bound(gains, self.budget.caution)
            if gain > best_gain + 1e-9:
                best, best_gain = action, gain
        if best != base and self.on_deviation is not None:
            self.on_deviation(view, base, best, best_gain)
        return best

    def worlds(self, view: SeatView, rng: random.Random) -> list[State]:
        """The kept deals as engine states at this decision, best explained first."""
        sampler = Sampler(knowledge(view))
        scored = []
        for i in range(self.budget.candidates):
            st, misses = self.replay(view, sampler.world(rng))
            scored.append((misses, i, st))
        scored.sort(key=lambda x: (x[0], x[1]))
        return [st for _, _, st in scored[: self.budget.worlds]]

    def replay(self, view: SeatView, world: World) -> tuple[State, int]:
        """The hand so far in this deal, and how many rival decisions the target's copy would not
        have made."""
        p = view.public
        st, _ = new_match(p.rules, dealer=p.dealer, hands=world.hands, score=p.start_score,
                          chicos=p.start_chicos, hand_no=p.hand_no, pica=p.pica)
        misses = 0
        for a in p.history:
            if a.seat & 1 != view.team and misses < MISSES_SEEN:
                seen = view_for(st, a.seat)
                if len(seen.legal) > 1 and self.model.choose(seen) != a:
                    misses += 1
            st, _ = apply(st, a)
        return st, misses

    def playout(self, st: State, action: Action, team: Team) -> float:
        """Match equity for ``team`` after ``action`` and the rest of the hand under both policies."""
        st, _ = apply(st, action)
        seats = [self.own if s & 1 == team else self.model for s in range(st.n)]
        while not st.hand_over:
            st, _ = apply(st, next_action(st, seats))
        return value(st, team)


def across(view: SeatView) -> SeatView:
    """The view's public record as the next seat (a rival) reads it: its own cards those it has
    played or shown, no decision to make. A memory reads a hand from the seat whose view it is (it
    skips that seat's own card play), so the rivals' copy must read the attacker's plays, as they do."""
    p = view.public
    rival = (view.seat + 1) % p.rules.players
    known = dict(p.shown).get(rival) or tuple(c for rnd in p.rounds for s, c in rnd if s == rival)
    return replace(view, seat=rival, team=rival & 1, cards=(), dealt=known, my_tanto=0,
                   my_flor=False, legal=(), senas=())


def recall(bot: Bot, seen: Memory) -> None:
    """Give a bot that remembers the match (``rivals.Memory``) the record as it happened, replacing
    whatever a search's sampled deals and hypothetical lines left in it; other bots keep nothing."""
    memory = getattr(bot, "memory", None)
    if isinstance(memory, Memory):
        memory.restore(seen)


def _lower_bound(gains: list[float], z: float) -> float:
    """The mean gain, less ``z`` standard errors."""
    n = len(gains)
    mean = sum(gains) / n
    if z <= 0 or n < 2:
        return mean
    var = sum((g - mean) ** 2 for g in gains) / (n - 1)
    return mean - z * math.sqrt(var / n)


def value(st: State, team: Team) -> float:
    """What the score at the end of a hand is worth to ``team``: its chance to win the match from it."""
    if st.match_over:
        return 1.0 if st.winner == team else 0.0
    target = st.rules.target
    return match_equity(target - st.score[team], target - st.score[1 - team])
