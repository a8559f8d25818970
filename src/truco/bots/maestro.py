"""``maestro``: ``dificil``'s search, with what an outside opponent found in it fixed, and a memory.

It decides like ``dificil`` (worlds consistent with the view, weighed by how well they explain the
calls, played out, every bet priced in match equity) and changes what issue 13 measured against it:

- **It remembers this opponent** (``Memory``): every hand of the match it has seen, and for each
  rival team how many of its truco calls were bluffs — the caller's cards at the time of the call,
  once they were all played or shown — in the first round and after it, and the tantos it sang
  after calling envido. A rival's call is read with *that* rate of bluffs (a Beta prior that the
  observations move), so a team that bluffs often in the second round is not believed there.
- **It believes late trucos less** even before it has seen any: the prior share of bluffs after the
  first round is 18 % (``dificil``: 3 %), which is what made it fold 83 % of round-2 trucos.
- **No falta envido on 27–28**: it calls or raises to the falta only with 31 or more, or when the
  falta pays no more than a real envido would; a falta caller is read as holding about 30.
- **Calls that do not tell**: with a weak hand it bluffs a little in the first round too, and after
  the first round it calls with medium hands half the time, not only with garbage and the nuts.
- **It prices its bets by how these rivals have answered**: the rational model of their answers is
  scaled to the rate at which they have accepted its trucos (first round, later) and envidos in
  this match, so it bluffs a team that folds and stops bluffing one that calls.
- **Raises only with the cards**: a retruco or vale cuatro needs half the worlds won.
- **The lowest card when the round is lost or already ours and it plays last** (4 and 6 players).
- **More worlds when the stakes are high**: 80 worlds (of 240 drawn) on an ordinary decision, 160
  (of 480) when a retruco or more, a real or falta envido is on the table, or a team is within six
  points of the end. Decision time stays well under the 50 ms budget (measured by the arena).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace

from truco.bots.base import ENVIDO_BETS, find, find_any, forced
from truco.bots.dificil import Decision, DificilBot, Evidence, Params, chance, results_key
from truco.bots.equity import falta_points
from truco.bots.sampling import World
from truco.bots.tables import STRENGTH_OF, mask_of
from truco.bots.tricks import lowest
from truco.engine import Action, Do, PublicView, SeatView, Team
from truco.engine.cards import POWER, Card
from truco.engine.types import TRUCO_CALLS


@dataclass(frozen=True, slots=True)
class MaestroParams(Params):
    worlds: int = 80
    candidates: int = 240
    high_worlds: int = 160
    """Worlds when the stakes are high (``high_stakes``)."""
    high_candidates: int = 480
    record_weight: float = 2.0
    """How many answers of a rival team weigh as much as the rational model of its answers."""
    early_bluff_prior: tuple[float, float] = (0.5, 9.5)
    """Beta prior (bluffs, value calls) of a rival's first-round truco calls."""
    late_bluff_prior: tuple[float, float] = (1.8, 8.2)
    """The same after the first round: people bluff there far more."""
    bluff_chance: float = 0.4
    """A call from cards with less than this chance to win the hand counts as a bluff."""
    slow_play: float = 0.0
    """Share of very strong first-round hands where it waits instead of calling truco (off: measured
    against ``dificil-1`` it gave away more than it hid)."""
    early_bluff: float = 0.06
    """Share of weak first-round spots where it calls truco anyway."""
    medium_call: float = 0.5
    """Share of medium hands (40–65 % to win) after the first round where it calls truco."""
    raise_min: float = 0.5
    """Share of the worlds won that a retruco or vale cuatro needs."""
    falta_min_tanto: int = 31
    falta_caller: float = 30.0
    """The tanto a falta envido caller is read to hold (``dificil``: 28)."""


class Profile:
    """What this match has shown of one rival team: its truco calls (bluffs and all, first round and
    later) and the tantos it held when it called envido."""

    def __init__(self) -> None:
        self.calls = [0, 0]
        self.bluffs = [0, 0]
        self.envido_tantos: list[int] = []
        self.answered = [0, 0]
        """The other team's truco calls this team answered (first round, later) …"""
        self.folds = [0, 0]
        """… and of those, how many it declined."""
        self.envido_answered = 0
        self.envido_folds = 0

    def bluff_rate(self, late: bool, prior: tuple[float, float]) -> float:
        i = 1 if late else 0
        a, b = prior
        return (a + self.bluffs[i]) / (a + b + self.calls[i])

    def envido_centre(self, default: float) -> float:
        """Where an envido call of this team speaks for: the prior, moved by what it sang."""
        seen = self.envido_tantos
        return (default * 4 + sum(seen)) / (4 + len(seen))


def _hand_key(p: PublicView) -> tuple[int, int, int, int, int]:
    return (p.hand_no, *p.start_score, *p.start_chicos)


class Memory:
    """Every hand of this match the bot has seen (its latest view of each), and what they tell."""

    def __init__(self) -> None:
        self.hands: dict[tuple[int, int, int, int, int], SeatView] = {}
        self._profiles: dict[tuple[int, tuple[int, int, int, int, int]], list[Profile]] = {}

    def see(self, view: SeatView) -> None:
        p = view.public
        key = _hand_key(p)
        if self.hands and p.hand_no < max(k[0] for k in self.hands):
            self.hands.clear()  # a new match
            self._profiles.clear()
        self.hands[key] = view

    def all_profiles(self, params: MaestroParams) -> list[Profile]:
        """One profile per team, from every hand seen."""
        out = [Profile(), Profile()]
        for k in sorted(self.hands):
            _read_hand(self.hands[k], out, params)
        return out

    def profiles(self, view: SeatView, params: MaestroParams) -> list[Profile]:
        """One profile per team, from every hand but the one being played."""
        current = _hand_key(view.public)
        past = sorted(k for k in self.hands if k != current)
        cache_key = (len(past), past[-1] if past else current)
        cached = self._profiles.get(cache_key)
        if cached is not None:
            return cached
        out = [Profile(), Profile()]
        for k in past:
            _read_hand(self.hands[k], out, params)
        self._profiles[cache_key] = out
        return out


def _read_hand(view: SeatView, out: list[Profile], params: MaestroParams) -> None:
    """Add what one finished (or last seen) hand says about each team's calls.

    A truco call is judged on the caller's cards at the time, when at most one of them was never
    seen (played or shown): that one is averaged over the cards this seat never saw."""
    p = view.public
    n = p.rules.players
    dealt: dict[int, set[Card]] = {}
    for rnd in p.rounds:
        for s, c in rnd:
            dealt.setdefault(s, set()).add(c)
    for s, shown in p.shown:
        dealt.setdefault(s, set()).update(shown)
    ends = []
    total = 0
    for rnd in p.rounds[:len(p.results)]:
        total += len(rnd)
        ends.append(total)
    played: dict[int, set[Card]] = {}
    plays = 0
    rounds_done = 0
    last: tuple[Do, int] | None = None  # the last bet and the round it was made in
    for a in p.history:
        if a.do in (Do.QUIERO, Do.NO_QUIERO) and last is not None:
            answerer = out[a.seat & 1]
            folded = a.do is Do.NO_QUIERO
            if last[0] in TRUCO_CALLS:
                answerer.answered[last[1]] += 1
                answerer.folds[last[1]] += folded
            elif last[0] in ENVIDO_BETS:
                answerer.envido_answered += 1
                answerer.envido_folds += folded
            last = None
        elif a.do in TRUCO_CALLS or a.do in ENVIDO_BETS:
            if last is not None and last[0] in TRUCO_CALLS and a.do in TRUCO_CALLS:
                out[a.seat & 1].answered[last[1]] += 1  # a raise: the call was taken on
            last = (a.do, 1 if rounds_done else 0)
        if a.do is Do.PLAY and a.card is not None:
            played.setdefault(a.seat, set()).add(a.card)
            plays += 1
            while rounds_done < len(ends) and plays >= ends[rounds_done]:
                rounds_done += 1
        elif a.do in TRUCO_CALLS:
            known = dealt.get(a.seat, set())
            before = played.get(a.seat, set())
            held = known - before
            missing = 3 - len(before) - len(held)
            if missing > 1:
                continue  # too little seen to tell a bluff
            team: Team = a.seat & 1
            key = results_key(p.results[:rounds_done], team)
            if missing == 0:
                q = chance(n, key, STRENGTH_OF[mask_of(held)])
            else:
                seen = set(view.dealt).union(*dealt.values())
                others = [c for c in range(40) if c not in seen]
                base = mask_of(held)
                q = sum(chance(n, key, STRENGTH_OF[base | 1 << c]) for c in others) / len(others)
            late = 1 if rounds_done else 0
            out[team].calls[late] += 1
            if q < params.bluff_chance:
                out[team].bluffs[late] += 1
        elif a.do in ENVIDO_BETS:
            for s, t, is_flor in p.sung:
                if s == a.seat and t >= 0 and not is_flor:
                    out[a.seat & 1].envido_tantos.append(t)
                    break


def high_stakes(view: SeatView) -> bool:
    p = view.public
    if p.truco_value >= 3 or (p.pending == "truco" and p.pending_call is not Do.TRUCO):
        return True
    if any(c is not Do.ENVIDO for c in p.envido_chain):
        return True
    target = p.rules.target
    return max(p.score) >= target - 6


class MaestroBot(DificilBot):
    level = "maestro"

    def __init__(self, seed: int = 0, params: MaestroParams | None = None) -> None:
        self.maestro = params or MaestroParams()
        super().__init__(seed, self.maestro)
        self.memory = Memory()
        self.last_won_share = 0.0
        """The share of the worlds won behind its last truco call or raise (for the tests)."""

    def decide(self, view: SeatView) -> Action:
        self.memory.see(view)
        legal = view.legal
        sure = forced(legal)
        if sure is not None:
            return sure
        params = self.maestro
        if high_stakes(view):
            params = replace(params, worlds=params.high_worlds, candidates=params.high_candidates)
        profiles = self.memory.profiles(view, params)
        decision = MaestroDecision(view, self.rng(view), params, profiles)
        action = decision.run()
        if action.do in TRUCO_CALLS:
            self.last_won_share = decision.won_share
        return action


class MaestroDecision(Decision):
    def __init__(self, view: SeatView, rng: random.Random, params: MaestroParams,
                 profiles: list[Profile]) -> None:
        self.m = params
        self.profiles = profiles
        self.won_share = 0.0
        self._model_means: dict[object, float] = {}
        super().__init__(view, rng, params)

    # ---------------------------------------------------------------- reading the calls, per rival

    def evidence(self) -> list[Evidence]:
        out = []
        history = self.pub.history
        calls = [a for a in history if a.seat != self.k.me]
        falta_callers = {a.seat for a in calls if a.do is Do.FALTA_ENVIDO}
        for e in super().evidence():
            if e.kind == 2:  # a truco call: read with this team's rate of bluffs
                team = e.who & 1
                late = bool(e.key)
                prior = self.m.late_bluff_prior if late else self.m.early_bluff_prior
                e = e._replace(floor=self.profiles[team].bluff_rate(late, prior))
            elif e.kind in (0, 1) and e.slope > 0:
                team = e.who & 1 if e.kind == 0 else e.who
                seats = {e.who} if e.kind == 0 else set(range(e.who, self.k.n, 2))
                if e.centre >= 28.0 and seats & falta_callers:
                    e = e._replace(centre=self.m.falta_caller)
                elif e.floor < 0.15:  # a call, not an answer
                    e = e._replace(centre=self.profiles[team].envido_centre(e.centre))
            out.append(e)
        return out

    # ---------------------------------------------------------------- how these rivals answer

    def accepts_truco(self, w: World, level: int) -> float:
        """The rational team's answer, scaled so that on average it answers as often as this team
        has answered ours in this match (first round or later): the more it has shown, the more
        its record counts."""
        base = super().accepts_truco(w, level)
        prof = self.profiles[1 - self.team]
        late = 1 if self.pub.results else 0
        return self._as_seen(base, ("truco", level), prof.answered[late], prof.folds[late],
                             lambda x: super(MaestroDecision, self).accepts_truco(x, level))

    def accepts_envido(self, w: World, chain: tuple[Do, ...]) -> float:
        base = super().accepts_envido(w, chain)
        prof = self.profiles[1 - self.team]
        return self._as_seen(base, ("envido", chain), prof.envido_answered, prof.envido_folds,
                             lambda x: super(MaestroDecision, self).accepts_envido(x, chain))

    def _as_seen(self, base: float, key: object, answered: int, folds: int,
                 model: Callable[[World], float]) -> float:
        if answered == 0:
            return base
        mean = self._model_means.get(key)
        if mean is None:
            mean = self._model_means[key] = sum(model(x) for x in self.worlds) / len(self.worlds)
        seen = 1.0 - (folds + 0.5) / (answered + 1.0)
        scaled = min(1.0, base * seen / max(mean, 1e-3))
        weight = answered / (answered + self.m.record_weight)
        return (1.0 - weight) * base + weight * scaled

    # ---------------------------------------------------------------- envido: no falta on 27–28

    def _falta_ok(self) -> bool:
        if self.view.my_tanto >= self.m.falta_min_tanto:
            return True
        return falta_points(self.pub, self.team) <= 3 and falta_points(self.pub, 1 - self.team) <= 3

    def _without_falta(self) -> SeatView | None:
        legal = self.view.legal
        if self._falta_ok() or not any(a.do is Do.FALTA_ENVIDO for a in legal):
            return None
        return replace(self.view, legal=tuple(a for a in legal if a.do is not Do.FALTA_ENVIDO))

    def envido_call(self) -> Action | None:
        narrowed = self._without_falta()
        if narrowed is None:
            return super().envido_call()
        view, self.view = self.view, narrowed
        try:
            return super().envido_call()
        finally:
            self.view = view

    def answer_envido(self) -> Action:
        narrowed = self._without_falta()
        if narrowed is None:
            return super().answer_envido()
        view, self.view = self.view, narrowed
        try:
            return super().answer_envido()
        finally:
            self.view = view

    # ---------------------------------------------------------------- truco

    def answer_truco(self) -> Action:
        action = super().answer_truco()
        if action.do in TRUCO_CALLS:
            _, won = self.best_play()
            self.won_share = sum(won) / len(won)
            if self.won_share < self.m.raise_min:
                legal = self.view.legal
                accept = find(legal, Do.QUIERO)
                decline = find(legal, Do.NO_QUIERO)
                assert accept is not None and decline is not None
                call = self.pub.pending_call
                level = TRUCO_CALLS.index(call) + 1 if call in TRUCO_CALLS else 1
                win_u, lose_u = self.u(level + 1), self.u(-(level + 1))
                ev_accept = self.mean(lambda i: win_u if won[i] else lose_u)
                return accept if ev_accept > self.u(-level) else decline
        return action

    def my_turn(self) -> Action:
        legal = self.view.legal
        envido = self.envido_call()
        if envido is not None:
            return envido
        card, won = self.best_play()
        assert card is not None
        play = Action(self.k.me, Do.PLAY, card)
        call = find_any(legal, TRUCO_CALLS)
        if call is None:
            return play
        level = TRUCO_CALLS.index(call.do) + 1
        current = self.pub.truco_value
        win_u, lose_u = self.u(current), self.u(-current)
        wait = self.mean(lambda i: win_u if won[i] else lose_u)
        first_round = not self.pub.results
        margin = self.params.wait_margin if first_round else 0.0
        if self.leave_to_pie():
            margin += 0.02
        p = self.won_share = sum(won) / len(won)
        value = self.ev_truco_bet(level, won) > wait + margin
        unseen = all(s & 1 == self.team for s, _ in self.k.plays)  # no rival card of this round yet
        r = self.rng.random()
        if level > 1:
            return call if value and p >= self.m.raise_min else play
        if first_round:
            if value:
                return play if p >= 0.8 and r < self.m.slow_play else call
            if p < 0.3 and unseen and not self.leave_to_pie() and r < self.m.early_bluff:
                return call
            return play
        if value:
            return call
        if 0.4 <= p < 0.65 and r < self.m.medium_call:
            return call
        if self.bluff_spot(won) and r < self.params.bluff_rate:
            return call
        return play

    def best_play(self) -> tuple[Card | None, list[bool]]:
        """``dificil``'s card, but the lowest when it plays last in the round and the round is lost
        whatever it plays, or already its partner's."""
        card, won = super().best_play()
        if card is None or self.pub.turn != self.k.me:
            return card, won
        plays = self.k.plays
        active = sum(1 for s in range(self.k.n) if self.k.active(s))
        if not plays or len(plays) != active - 1:
            return card, won
        best = max(POWER[c] for _, c in plays)
        ours = any(s & 1 == self.team and POWER[c] == best for s, c in plays)
        theirs = any(s & 1 != self.team and POWER[c] == best for s, c in plays)
        mine = list(self.view.cards)
        partner_wins = ours and not theirs
        cannot = all(POWER[c] < best for c in mine)
        if partner_wins or cannot:
            low = lowest(mine)
            return low, self.wins(low)
        return card, won
