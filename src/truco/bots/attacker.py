"""The attacker: a best response by search against one frozen bot whose policy it knows.

The exploitability test of a level. The attacker sees only its seat's view, like every bot, but it
owns a copy of the target level (same code, its own seed) and may ask it what it would do in any
hypothetical view. For each decision with more than one legal action it

1. draws ``Budget.candidates`` deals consistent with the public record (``sampling.Sampler``), and in
   each one replays the hand so far asking the target copy what each rival seat would have done; the
   deals where the target's copy does what the rivals really did are kept first
   (``Budget.worlds`` of them: the fewest mismatches, then the order drawn);
2. for every legal action, applies it in every kept deal and plays the rest of the hand out: the
   rival seats with the target's own ``choose`` (team answers by the table's voting rule), its own
   team with ``normal`` (the one-ply base policy);
3. takes the action with the best mean match equity at the end of the hand (``equity.match_equity``,
   no edge: the points, weighed by what they are worth at this score), ties to ``normal``'s choice.

So the depth is the rest of the hand, one ply of choice for itself. It does not know the rivals'
seeds, so a target that samples (``dificil``) is predicted only as well as its own sampling repeats.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from truco.bots.arena import next_action
from truco.bots.base import Bot, ViewBot, find, mix
from truco.bots.equity import match_equity
from truco.bots.knowledge import knowledge
from truco.bots.registry import make_bot
from truco.bots.sampling import Sampler, World
from truco.engine import Action, Do, SeatView, State, Team, apply, new_match, view_for


@dataclass(frozen=True, slots=True)
class Budget:
    """What one decision may spend: worlds × actions playouts of the rest of the hand."""

    worlds: int = 16
    """Deals every legal action is played out in (the same deals for each action)."""
    candidates: int = 48
    """Deals drawn to pick them from, by how well the target's copy explains the rivals' actions."""


BUDGETS: dict[str, Budget] = {"dificil": Budget(worlds=8, candidates=12)}
"""A target that samples costs about 2 ms a decision, so its attacker plays out fewer worlds."""
BASE = "normal"
"""The attacker's own policy in the playouts (and on ties)."""


class Attacker(ViewBot):
    """One-ply search over the legal actions against the target's real policy, in sampled deals."""

    def __init__(self, target: str, seed: int = 0, budget: Budget | None = None) -> None:
        super().__init__(seed)
        self.level = f"attack:{target}"
        self.target = target
        self.budget = budget or BUDGETS.get(target, Budget())
        self.model: Bot = make_bot(target, mix(seed, 0x7A26E7))
        self.base: Bot = make_bot(BASE, seed)

    def decide(self, view: SeatView) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        flor = find(legal, Do.FLOR)
        if flor is not None:
            return flor  # sung before anything else, or lost
        base = self.base.choose(view)
        worlds = self.worlds(view, self.rng(view))
        ordered = [base, *(a for a in legal if a != base)]
        best, best_value = base, -1.0
        for action in ordered:
            value = sum(self.playout(st, action, view.team) for st in worlds) / len(worlds)
            if value > best_value + 1e-9:
                best, best_value = action, value
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
                          chicos=p.start_chicos, hand_no=p.hand_no)
        misses = 0
        for a in p.history:
            if a.seat & 1 != view.team:
                seen = view_for(st, a.seat)
                if len(seen.legal) > 1 and self.model.choose(seen) != a:
                    misses += 1
            st, _ = apply(st, a)
        return st, misses

    def playout(self, st: State, action: Action, team: Team) -> float:
        """Match equity for ``team`` after ``action`` and the rest of the hand under both policies."""
        st, _ = apply(st, action)
        seats = [self.base if s & 1 == team else self.model for s in range(st.n)]
        while not st.hand_over:
            st, _ = apply(st, next_action(st, seats))
        return value(st, team)


def value(st: State, team: Team) -> float:
    """What the score at the end of a hand is worth to ``team``: its chance to win the match from it."""
    if st.match_over:
        return 1.0 if st.winner == team else 0.0
    target = st.rules.target
    return match_equity(target - st.score[team], target - st.score[1 - team])
