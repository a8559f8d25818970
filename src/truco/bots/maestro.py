"""``maestro``: ``dificil``'s search, with what an outside opponent found in it fixed, and a memory.

It decides like ``dificil`` (worlds consistent with the view, weighed by how well they explain the
calls, played out, every bet priced in match equity) and changes what issue 13 measured against it:

- **It remembers this opponent** (``rivals.Memory``): every hand of the match it has seen, and for each
  rival team how many of its truco calls were bluffs — the caller's cards at the time of the call,
  once they were all played or shown — in the first round and after it, and the tantos it sang
  after calling envido. A rival's call is read with *that* rate of bluffs (a Beta prior that the
  observations move), so a team that bluffs often in the second round is not believed there.
- **It believes late trucos less** even before it has seen any: the prior share of bluffs after the
  first round is 18 % (``dificil``: 3 %), which is what made it fold 83 % of round-2 trucos.
- **It believes by the stakes**: a first-round truco, a retruco or vale cuatro and a falta envido are
  read as cards (higher centres, a sharper slope, a bluff floor of 3 % for the raises and the falta),
  each moved by what this team showed.
- **It judges a call as the caller could** (``judged_chance``): seeing the round on the table, a
  caller knows which of its cards takes, ties or loses it.
- **It votes as one voter of its team** (``vote_weights``, now ``dificil``'s too): the team takes a
  bet when any voter does, so its vote counts only in the worlds where its partners decline, and it
  weighs them so. A "quiero" to an envido also counts the partner's raise it would cap
  (``quiero_cost``): the team answers with the mildest vote that takes the bet on.
- **The rivals' cards say something too** (``card_reading``): a card that followed a round or led
  a later one weighs each world by how likely a sound player was to put it down from the hand the
  world gives, at rates learnt per rival team (``Profile.play_rates``).
- **A pass says something too**: a seat that played its first card (or called truco) while it could
  have opened the envido is read as holding less than 26, floored by how often its team has kept
  a tanto quiet (``read_passes``, ``Profile.pass_floor``).
- **No falta envido on 27–28**: it calls or raises to the falta only with 31 or more, or when the
  falta pays no more than a real envido would; a falta caller is read as holding about 30.
- **Calls that do not tell**: with a weak hand it bluffs a little in the first round too, and after
  the first round it calls with medium hands half the time, not only with garbage and the nuts.
- **It prices its bets by how these rivals have answered**: the rational model of their answers is
  scaled to the rate at which they have accepted its trucos (first round, later) and envidos in
  this match, so it bluffs a team that folds and stops bluffing one that calls. A raise of the
  rivals' own envido is priced by how they took such raises, apart: a team that called holds a tanto.
  A team that raises our envido more often than the tanto allows raises it, in that price, to
  the falta on any hand (``ev_envido_bet``).
- **A rival who never bets first is read so** (``Profile.passive``): from the chances to open the
  envido and to call the first truco that a team let pass, every hand. Against such a team (it lets
  the other side bet and takes it on) it calls the truco as ``dificil`` does, and reads nothing
  into its passes of the envido.
- **Its rivals read its calls too** (``rational_truco``): the model of their answers asks their
  chance for 0.25 more than the rational threshold after the first round, as they take our
  call for cards.
- **Raises only with the cards**: a retruco or vale cuatro needs half the worlds won.
- **The lowest card when the round is lost or already ours and it plays last** (4 and 6 players).
- **Team card play in its playouts** (``team_play``, 4 players and up): a first-round seat followed
  by a rival and then its partner leaves the round to the partner instead of spending a winner.
- **A partner's señas for its cards only** (``envido_senas`` off): the cards it signs shape the
  worlds, "tengo envido" does not; read as the partner's tanto it made the partner without one bet
  the envido on the sign, and lost it.
- **The rivals' decisions read through a model of a sensible player** (``policy_reading``, 4 players,
  at an answer; with flor too since item 29): each kept world is weighed again by how likely the
  ``neural`` policy finds every decision the rivals took this hand but their truco calls and raises
  (``policy_skip``: those ``read_call`` reads by the team's own bluffing record), with the cards that
  world gives them; a team that bets the envido on anything is told from its first chances
  (``bettor_share``). Stronger against ``dificil-1``, ``dificil`` and the expert, with señas and to 15;
  reading the truco calls too was much weaker against the bluffer (item 27).
- **More worlds when the stakes are high**: 80 worlds (of 240 drawn) on an ordinary decision, 160
  (of 480) when a retruco or more, a real or falta envido is on the table, or a team is within six
  points of the end. Decision time stays well under the 50 ms budget (measured by the arena).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import replace

from truco.bots.base import ENVIDO_BETS, find, find_any, forced
from truco.bots.card_reading import PlayRead, play_likelihood, read_plays
from truco.bots.dificil import Decision, DificilBot
from truco.bots.envido_reading import EnvidoReading, read_passes
from truco.bots.equity import falta_points
from truco.bots.evidence import Evidence, chance, judged_chance, sig
from truco.bots.maestro_params import MaestroParams, for_table
from truco.bots.policy_reading import bettor_share, policy_weights
from truco.bots.profile import Profile, tanto_share
from truco.bots.rivals import Memory
from truco.bots.sampling import World, resample
from truco.bots.tables import STRENGTH_OF, TANTO_OF
from truco.bots.tricks import lowest
from truco.bots.truco_reading import call_tables, read_call, truco_floor
from truco.engine import Action, Do, SeatView
from truco.engine.cards import POWER, Card
from truco.engine.types import TRUCO_CALLS


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
        sure = forced(view.legal)
        if sure is not None:
            return sure
        decision = self.decision(view)
        action = decision.run()
        if action.do in TRUCO_CALLS:
            self.last_won_share = decision.won_share
        return action

    def recall(self, view: SeatView) -> None:
        """A view of a hand of this match it did not decide in (made anew mid-match): remembered as
        if it had (``truco.table.bot_recall``)."""
        self.memory.see(view)

    def decision(self, view: SeatView) -> MaestroDecision:
        self.memory.see(view)  # a view it has seen adds nothing
        params = for_table(self.maestro, view)
        return MaestroDecision(view, self.rng(view), params, self.memory.profiles(view, params))


class MaestroDecision(Decision):
    def __init__(self, view: SeatView, rng: random.Random, params: MaestroParams,
                 profiles: list[Profile]) -> None:
        self.m = params
        self.profiles = profiles
        self.won_share = 0.0
        self._model_means: dict[object, float] = {}
        self._tables: dict[int, tuple[tuple[int, Card], ...]] = {}
        """The round on the table at each truco call of the evidence, by its place in the list."""
        self._sides = [0, 0]
        """Active seats of each team."""
        self._reads: list[PlayRead] = []
        self._rates = (params.play_rates, params.play_rates)
        self._passive = [f.passive_share(params.passive_prior, params.passive_rates, params.passive_never)
                         for f in profiles]
        """How surely each team never bets first, beyond the prior (``Profile.passive_share``)."""
        self.active = 1.0 - self._passive[1 - (view.seat & 1)]
        """How much of its own way of calling the truco it keeps against these rivals: all of it
        against a team that bets first, none against one that never does."""
        super().__init__(view, rng, params)
        if (params.policy_reading and self.k.n in params.policy_players
                and any(a.do is Do.QUIERO for a in view.legal)):
            weights = policy_weights(view, self.worlds, params.policy_eps, params.policy_temperature,
                                     self.bet_floors(), params.policy_skip)
            if weights is not None:
                self.worlds = resample(self.worlds, weights, len(self.worlds), rng)
        self._raises_theirs = any(x.do in ENVIDO_BETS and x.seat & 1 != self.team for x in self.pub.history)
        """The rivals have called envido this hand: a bet of ours now raises their own call."""

    def bet_floors(self) -> dict[tuple[int, Do], float]:
        """For each rival team and kind of bet, how often its record says it bets on any hand: the
        floors its calls are read with (``read_call``, ``EnvidoReading``), for ``policy_weights``; for
        the envido, also how surely it bets the envido on any hand (``bettor_share``)."""
        m = self.m
        out: dict[tuple[int, Do], float] = {}
        team = 1 - self.team
        prof = self.profiles[team]
        truco = max(truco_floor(prof, m, 0), truco_floor(prof, m, 1))
        raised = truco_floor(prof, m, 2)
        honest = tanto_share(m.envido_bluff_tanto)
        (open_chances, opened), (raise_chances, raised_ours) = prof.envido_chances, prof.envido_raise_chances
        seen = ((open_chances, opened, honest), (raise_chances, raised_ours, m.envido_raise_honest))
        envido = max(prof.envido_floor(False, m.envido_bluff_prior),
                     prof.envido_floor(True, m.falta_bluff_prior),
                     prof.envido_any_rate(honest),
                     prof.envido_raise_any_rate(m.envido_raise_honest),
                     bettor_share(seen, m.policy_bettor_prior, m.policy_bettor_rate))
        out[team, Do.TRUCO] = truco
        out[team, Do.RETRUCO] = out[team, Do.VALE_CUATRO] = raised
        for do in ENVIDO_BETS:
            out[team, do] = envido
        return out

    # ---------------------------------------------------------------- reading the calls, per rival

    def likelihood(self, w: World, evidence: list[Evidence]) -> float:
        """``dificil``'s, but a truco call is judged as its caller could judge it, seeing the round on
        the table (``judged_chance``)."""
        x = 1.0
        n = self.k.n
        masks = w.masks
        tables = self._tables
        for i, e in enumerate(evidence):
            if e.kind == 0:
                v: float = TANTO_OF[masks[e.who]]
                if e.upper != math.inf:  # an opening: a band of tantos
                    band = sig((v - e.centre) / e.slope) * sig((e.upper - v) / e.slope)
                    x *= e.floor + (1.0 - e.floor) * band
                    continue
            elif e.kind == 1:
                v = max(TANTO_OF[masks[s]] for s in range(e.who, n, 2))
            elif e.kind == 2:
                t = tables.get(i)
                held = masks[e.who] & ~e.done[e.who]
                if t is None:
                    v = chance(n, e.key, STRENGTH_OF[held])
                else:
                    v = judged_chance(n, e.key, held, e.who, t, self._sides[1 - (e.who & 1)],
                                      self._sides[e.who & 1] - 1)
            else:
                v = chance(n, e.key, max(STRENGTH_OF[masks[s] & ~e.done[s]] for s in range(e.who, n, 2)))
            x *= e.floor + (1.0 - e.floor) * sig((v - e.centre) / e.slope)
        if self._reads:
            x *= play_likelihood(w, self._reads, self._rates)
        return x

    def weighs_anyway(self) -> bool:
        return bool(self._reads)

    def evidence(self) -> list[Evidence]:
        self._reads = read_plays(self.pub, self.k.me) if self.m.read_plays else []
        if self._reads:
            rates, weight = self.m.play_rates, self.m.play_weight
            team0, team1 = (p.play_rates(rates, weight) for p in self.profiles)
            self._rates = (team0, team1)
        self._tables = {}
        self._sides = [sum(1 for s in range(t, self.k.n, 2) if self.k.active(s)) for t in (0, 1)]
        tables = call_tables(self.pub, self.k.me)
        n_calls = 0
        out: list[Evidence] = []
        envido = EnvidoReading(self.pub, self.k.me, self.m)
        for e in super().evidence():
            if e.kind == 2:  # a truco call: read with this team's rate of bluffs
                if n_calls < len(tables) and tables[n_calls]:
                    self._tables[len(out)] = tables[n_calls]
                n_calls += 1
                e = read_call(e, self.profiles[e.who & 1], self.m)
            elif e.kind in (0, 1) and e.slope > 0:
                e = envido.read(e, self.profiles[e.who & 1 if e.kind == 0 else e.who])
            out.append(e)
        if self.m.read_passes:
            prior = self.m.pass_prior
            # a team that never bets first passes with any tanto: its pass says nothing
            f0, f1 = (1.0 - (1.0 - f.pass_floor(prior)) * (1.0 - passive)
                      for f, passive in zip(self.profiles, self._passive, strict=True))
            floors = (f0, f1)
            out.extend(read_passes(self.pub, self.k.me, self.m.pass_tanto, self.m.pass_slope, floors))
        return out

    # ---------------------------------------------------------------- how these rivals answer

    def accepts_truco(self, w: World, level: int) -> float:
        """The rational team's answer, scaled so that on average it answers as often as this team
        has answered ours in this match (first round or later): the more it has shown, the more
        its record counts."""
        base = self.rational_truco(w, level)
        prof = self.profiles[1 - self.team]
        late = 1 if self.pub.results else 0
        return self._as_seen(base, ("truco", level), prof.answered[late], prof.folds[late],
                             lambda x: self.rational_truco(x, level))

    def rational_truco(self, w: World, level: int) -> float:
        """``dificil``'s rational answer, less the credit a rival gives our call: it reads the call
        as cards and needs ``answer_shift`` more than the rational threshold to take it."""
        shift = (self.m.answer_shift if self.pub.results else self.m.early_answer_shift) * self.active
        threshold = 0.5 - level / (2 * (level + 1)) + shift
        return sig((self.rival_chance(w) - threshold) / 0.08)

    def accepts_envido(self, w: World, chain: tuple[Do, ...]) -> float:
        base = super().accepts_envido(w, chain)
        prof = self.profiles[1 - self.team]
        # a raise of their own call is answered by a team that holds a tanto: its own record
        raised = 1 if self._raises_theirs else 0
        return self._as_seen(base, ("envido", chain), prof.envido_answered[raised], prof.envido_folds[raised],
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

    def ev_envido_bet(self, chain: tuple[Do, ...], won: list[bool]) -> float:
        """``dificil``'s price, where a team that raises our envido whatever it holds (``Profile.
        envido_raise_any_rate``) raises it to the falta at that rate, and we answer the raise the
        one way that pays best over the worlds."""
        base = super().ev_envido_bet(chain, won)
        rate = self.profiles[1 - self.team].envido_raise_any_rate(self.m.envido_raise_honest)
        if rate <= 0.0 or Do.FALTA_ENVIDO in chain:
            return base
        raised = (*chain, Do.FALTA_ENVIDO)
        _, given = self.envido_values(raised, self.team)
        answer = max(self.ev_envido_accept(raised, won), self.u(-given))
        return rate * answer + (1.0 - rate) * base

    def quiero_cost(self, chain: tuple[Do, ...], won: list[bool]) -> float:
        """A team's answer is the mildest vote that takes the bet on (``reconsider``), so a "quiero"
        caps a partner's raise. Per world: the chance that the partners' votes are all raises or
        declines, at least one a raise (a partner takes the envido from its tanto as
        ``vote_weights`` has it, and raises it from ``partner_raise_tanto``), times what the mildest
        raise pays over the plain acceptance (negative where the raise would lose more). Without
        it, with señas telling a partner's 27 or more, the weaker partner took the rivals' envido
        and the team raised 8 of the 37 envidos it won with 30 or more, against 42 of 52 without
        the signs."""
        me = self.k.me
        partners = [s for s in self.pub.to_act if s != me]
        weights = self._vote_w
        mildest = next((do for do in ENVIDO_BETS if find(self.view.legal, do) is not None), None)
        if not partners or weights is None or mildest is None:
            return 0.0
        bet = (*chain, mildest)
        ours, declined = self.envido_values(bet, self.team)
        theirs, _ = self.envido_values(bet, 1 - self.team)
        win_r, lose_r, fold_r = self.u(ours), self.u(-theirs), self.u(declined)
        ours_q, _ = self.envido_values(chain, self.team)
        theirs_q, _ = self.envido_values(chain, 1 - self.team)
        win_q, lose_q = self.u(ours_q), self.u(-theirs_q)
        centre = self.m.partner_raise_tanto + (0.0 if chain == (Do.ENVIDO,) else 1.0)
        takes = self.partner_takes_envido()
        total = 0.0
        for i, w in enumerate(self.worlds):
            no_take, no_plain = 1.0, 1.0
            for s in partners:
                take = takes(w, s)
                raises = take * sig((TANTO_OF[w.masks[s]] - centre) / 1.0)
                no_take *= 1.0 - take
                no_plain *= 1.0 - take + raises
            capped = no_plain - no_take
            if capped > 1e-3:
                acc = self.accepts_envido(w, bet)
                u_raise = acc * (win_r if won[i] else lose_r) + (1.0 - acc) * fold_r
                total += capped * (u_raise - (win_q if won[i] else lose_q))
        return total / sum(weights)

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
            if self.won_share < self.m.raise_min * self.active:
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
            return call if value and p >= self.m.raise_min * self.active else play
        if first_round:
            if value:
                return play if p >= 0.8 and r < self.m.slow_play else call
            if p < 0.3 and unseen and not self.leave_to_pie() and r < self.m.early_bluff * self.active:
                return call
            return play
        if value:
            return call
        if 0.4 <= p < 0.65 and r < self.m.medium_call * self.active:
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
