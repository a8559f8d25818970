"""``dificil``: counts cards, reads the calls, samples the unseen cards and prices every bet.

Each decision draws *worlds*: deals consistent with everything public (cards played, tantos and
flores sung, "son buenas", flor calls). When the other seats have called or answered something, many
candidate worlds are drawn and a few kept in proportion to how well they explain those calls (who
calls envido tends to have tanto; who raises the truco tends to have cards). In every kept world the
rest of the hand is played out with sound card play, which gives the chance to win the hand after
each card it could play, and who wins the envido.

Bets are priced in match equity (``equity``), not raw points, so the same hand bets differently at
27–28 than at 3–2, and a falta envido is valued at what it pays at this score. The rivals' answers to
its own bets are modelled per world from their cards there. A measured share of weak spots is
bluffed. In 4 and 6 players the worlds deal its partners' cards too, so it leaves a round its partner
already wins, keeps its top card when a partner still to play can cover, and leaves the first truco
to the pie of the team, who sees the whole round before deciding. Answering with partners, it votes as
one voter of its team (``vote_weights``): the team takes a bet when any voter does.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from truco.bots.base import ENVIDO_BETS, ViewBot, find, find_any, forced, prefer
from truco.bots.equity import equity, falta_points
from truco.bots.estimate import envido_chance
from truco.bots.evidence import Evidence, chance, likelihood, read_calls, results_key, sig
from truco.bots.knowledge import Knowledge, knowledge
from truco.bots.normal import envido_values
from truco.bots.sampling import Sampler, World, resample
from truco.bots.tables import STRENGTH_OF, TANTO_OF, mask_of
from truco.bots.tricks import playout
from truco.engine import Action, Do, SeatView, Team
from truco.engine.cards import POWER, Card, flor_value
from truco.engine.types import TRUCO_CALLS

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Params:
    worlds: int = 80
    """Worlds played out per decision."""
    candidates: int = 240
    """Worlds drawn to choose them from, when the calls so far say something about the hands."""
    bluff_rate: float = 0.12
    """Share of weak spots (truco still to call, little chance to win) where it calls anyway."""
    call_chance: float = 0.6
    """The chance to win that a rival's truco call shows, as it judges its own cards (a raise: more)."""
    call_floor: float = 0.03
    """How often a truco call comes from any hand at all (bluffs)."""
    edge: float = 0.1
    """The share of hands' points it expects over half against these rivals (see ``equity``)."""
    wait_margin: float = 0.01
    """Equity a first-round truco must gain over waiting (waiting keeps the option to call later)."""
    team_play: bool = False
    """In its playouts, a first-round seat followed by a rival and then a partner leaves the round to
    the partner (``tricks.playout``'s ``team_play``)."""
    team_vote: bool = True
    """Vote as one of several voters (``vote_weights``); off, it votes as if it answered alone."""
    partner_truco_shift: float = 0.05
    """How much more than the rational threshold (25 % for a truco) a partner's own cards must promise
    before it is taken to accept: see ``vote_weights``."""
    partner_base: float = 0.1
    """The share of a partner's votes taken on other grounds than its own cards."""
    partner_envido_tanto: float = 25.5
    """The tanto from which a partner is taken to accept an envido (a real or falta: two more)."""
    pivotal_floor: float = 0.05
    """Every world keeps this much weight when the vote is weighed by the partners' declining."""
    envido_senas: bool = False
    """Whether a partner's señas are read for its tanto too ("tengo envido", "nada"), or for its cards
    only (``knowledge``). Read for the tanto, a partner without one bet the envido on the sign ("27 or
    more"), and the envido lost what the sign should have won: at a table with señas, against
    ``dificil-1``, 4 players, seed 1, 1,000 matches, the same deals, ``maestro`` won 61.8 % (+0.199 net
    points a hand) reading the tanto and 64.2 % (+0.223) the cards only (64.1 %, +0.237 without señas);
    ``dificil`` 55.0 % (+0.057) and 56.0 % (+0.099). docs/bots.md, "Señas" (item 26)."""


class DificilBot(ViewBot):
    level = "dificil"
    makes_senas = True

    def __init__(self, seed: int = 0, params: Params | None = None) -> None:
        super().__init__(seed)
        self.params = params or Params()

    def decide(self, view: SeatView) -> Action:
        legal = view.legal
        sure = forced(legal)
        if sure is not None:
            return sure
        return self.decision(view).run()

    def decision(self, view: SeatView) -> Decision:
        """The decision this bot would make from ``view``: the same worlds it plays from (its dice are
        a function of the view), for a bench to read what it believed."""
        return Decision(view, self.rng(view), self.params)


class Decision:
    """Everything one decision computes, once."""

    def __init__(self, view: SeatView, rng: random.Random, params: Params) -> None:
        self.view = view
        self.rng = rng
        self.params = params
        self.k: Knowledge = knowledge(view, params.envido_senas)
        self.pub = view.public
        self.team = view.team
        k = self.k
        self.played = [frozenset(p) for p in k.played]
        sampler = self.sampler()
        evidence = self.evidence()
        if evidence or self.weighs_anyway():
            pool = [sampler.world(rng) for _ in range(params.candidates)]
            weights = [self.likelihood(w, evidence) for w in pool]
            self.worlds = resample(pool, weights, params.worlds, rng)
        else:
            self.worlds = [sampler.world(rng) for _ in range(params.worlds)]
        self._vote_w: list[float] | None = None
        self._wins: dict[Card | None, list[bool]] = {}
        self._env_q: list[float] | None = None
        self._done_masks: list[int] | None = None

    def sampler(self) -> Sampler:
        """What draws this decision's worlds: everything public about each hand."""
        return Sampler(self.k)

    def weighs_anyway(self) -> bool:
        """Whether the worlds are weighed (``likelihood``) even with no call or answer to read."""
        return False

    def run(self) -> Action:
        return self.within(self.act)

    def within(self, f: Callable[[], T]) -> T:
        """``f`` with the team's vote weighed in, as this decision's own move is computed."""
        self._vote_w = self.vote_weights()
        try:
            return f()
        finally:
            self._vote_w = None

    def act(self) -> Action:
        pending = self.pub.pending
        if pending == "flor":
            return self.answer_flor()
        if pending == "envido":
            return self.answer_envido()
        if pending == "truco":
            return self.answer_truco()
        return self.my_turn()

    # ---------------------------------------------------------------- a team's vote

    def mean(self, f: Callable[[int], float]) -> float:
        """The mean over the worlds; when partners vote too, weighed by ``vote_weights``."""
        w = self._vote_w
        if w is None:
            return sum(f(i) for i in range(len(self.worlds))) / len(self.worlds)
        return sum(w[i] * f(i) for i in range(len(w))) / sum(w)

    def vote_weights(self) -> list[float] | None:
        """When partners vote on the same answer, the team takes the bet if any of them does (the
        mildest vote that takes it on, ruling 16): this vote decides only where they all decline.
        Per world, the chance that they do, judged from their own cards: a truco taken when their
        cards alone promise the rational threshold and a little more, an envido from 25.5 of tanto
        (27.5 for more than an envido), each with a tenth of votes taken on other grounds. Without
        this each partner took a bet on the chance that the other held the cards, and the team
        took it whenever one did: in 4 players ``maestro``, before it voted so, accepted a raise of
        its own envido with 2–6 of tanto two times in three. ``None`` when no partner votes."""
        me = self.k.me
        partners = [s for s in self.pub.to_act if s != me]
        if not partners or not self.params.team_vote:
            return None
        n = self.k.n
        base = self.params.partner_base
        accept: Callable[[World, int], float]
        if self.pub.pending == "truco":
            call = self.pub.pending_call
            level = TRUCO_CALLS.index(call) + 1 if call in TRUCO_CALLS else 1
            threshold = 0.5 - level / (2 * (level + 1)) + self.params.partner_truco_shift
            key = results_key(self.pub.results, self.team)
            on_table = {s: 1 << c for s, c in self.k.plays}
            done = {s: mask_of(self.k.played[s]) & ~on_table.get(s, 0) for s in partners}

            def accept(w: World, s: int) -> float:
                q = chance(n, key, STRENGTH_OF[w.masks[s] & ~done[s]])
                return base + (1.0 - base) * sig((q - threshold) / 0.08)
        elif self.pub.pending == "envido":
            accept = self.partner_takes_envido()
        else:
            return None
        floor = self.params.pivotal_floor
        out = []
        for w in self.worlds:
            x = 1.0
            for s in partners:
                x *= 1.0 - accept(w, s)
            out.append(floor + (1.0 - floor) * x)
        return out

    def partner_takes_envido(self) -> Callable[[World, int], float]:
        """Per world, the chance that a partner votes to take the envido on the table, from its
        tanto there (``vote_weights``)."""
        plain = self.pub.envido_chain == (Do.ENVIDO,)
        centre = self.params.partner_envido_tanto + (0.0 if plain else 2.0)
        base = self.params.partner_base
        return lambda w, s: base + (1.0 - base) * sig((TANTO_OF[w.masks[s]] - centre) / 0.8)

    # ---------------------------------------------------------------- reading the calls

    def evidence(self) -> list[Evidence]:
        """What the other seats' calls and answers say about their hands, in order."""
        return read_calls(self.k, self.pub, self.params.call_chance, self.params.call_floor)

    def likelihood(self, w: World, evidence: list[Evidence]) -> float:
        """How well this world explains the calls and answers the other seats made this hand."""
        return likelihood(w, evidence, self.k.n)

    # ---------------------------------------------------------------- playing the worlds out

    def held(self, w: World) -> list[list[Card]]:
        k = self.k
        out = []
        for s in range(k.n):
            if s == k.me:
                out.append(list(self.view.cards))
            else:
                played = self.played[s]
                out.append([c for c in w.hands[s] if c not in played] if played else list(w.hands[s]))
        return out

    def wins(self, first: Card | None) -> list[bool]:
        """Per world: does our team win the hand if play goes on (this seat playing ``first``)?"""
        cached = self._wins.get(first)
        if cached is not None:
            return cached
        k = self.k
        pub = self.pub
        team_play = self.params.team_play
        out = [playout(k.n, k.mano, k.folded, self.held(w), list(pub.results), list(k.plays), pub.turn,
                       first, team_play) == self.team for w in self.worlds]
        self._wins[first] = out
        return out

    def best_play(self) -> tuple[Card | None, list[bool]]:
        """The card with the best chance (ties to the lowest), or the plain playout when not our turn."""
        if self.pub.turn != self.k.me:
            return None, self.wins(None)
        best_card: Card | None = None
        best_n = -1
        best_w: list[bool] = []
        for c in sorted(self.view.cards, key=POWER.__getitem__):
            w = self.wins(c)
            won = sum(w)
            if won > best_n:
                best_card, best_n, best_w = c, won, w
        return best_card, best_w

    def u(self, delta: int) -> float:
        """Match equity after our team gains ``delta`` points (the rivals ``-delta`` if negative)."""
        edge = self.params.edge
        if delta >= 0:
            return equity(self.pub, self.team, delta, 0, edge)
        return equity(self.pub, self.team, 0, -delta, edge)

    # ---------------------------------------------------------------- how the rivals answer

    def rival_chance(self, w: World) -> float:
        """The rivals' chance as they judge it: their best cards still in play, the rounds so far."""
        k = self.k
        if self._done_masks is None:
            on_table = {s: 1 << c for s, c in k.plays}
            self._done_masks = [mask_of(k.played[s]) & ~on_table.get(s, 0) for s in range(k.n)]
        best = 0.0
        for s in k.opponents():
            best = max(best, STRENGTH_OF[w.masks[s] & ~self._done_masks[s]])
        return chance(k.n, results_key(self.pub.results, 1 - self.team), best)

    def accepts_truco(self, w: World, level: int) -> float:
        """Chance the rivals accept bet ``level``: a plain rational team judging by its own cards.

        They accept when accepting loses less than declining: q > ½ − level / (2·(level + 1)).
        """
        threshold = 0.5 - level / (2 * (level + 1))
        return sig((self.rival_chance(w) - threshold) / 0.08)

    def accepts_envido(self, w: World, chain: tuple[Do, ...]) -> float:
        """Chance the rivals accept the envido ``chain``, judged the same way by their best tanto."""
        if self._env_q is None:
            k = self.k
            order = k.order_from_mano()
            ours = [s for s in range(self.team, k.n, 2) if k.active(s)]
            first_rival = min((order.index(s) for s in k.opponents()), default=99)
            mano_side = first_rival < min(order.index(s) for s in ours)
            self._env_q = [envido_chance(t, len(ours), mano_side) for t in range(34)]
        t = max(TANTO_OF[w.masks[s]] for s in self.k.opponents())
        accepted, declined = self.envido_values(chain, 1 - self.team)
        threshold = 0.5 - declined / (2 * accepted)
        return sig((self._env_q[t] - threshold) / 0.06)

    # ---------------------------------------------------------------- envido

    def envido_wins(self) -> list[bool]:
        """Per world: does our team win the envido (best tanto, ties to the seat nearer the mano)?"""
        k = self.k
        order = [s for s in k.order_from_mano() if k.active(s)]
        out = []
        for w in self.worlds:
            best_seat, best = -1, -1
            for s in order:
                t = TANTO_OF[w.masks[s]]
                if t > best:
                    best_seat, best = s, t
            out.append(best_seat & 1 == self.team)
        return out

    def envido_values(self, chain: tuple[Do, ...], winner: Team) -> tuple[int, int]:
        """(points the chain pays if accepted and won by ``winner``, points its caller gets if declined)."""
        return envido_values(chain, falta_points(self.pub, winner))

    def ev_envido_accept(self, chain: tuple[Do, ...], won: list[bool]) -> float:
        ours, _ = self.envido_values(chain, self.team)
        theirs, _ = self.envido_values(chain, 1 - self.team)
        win_u, lose_u = self.u(ours), self.u(-theirs)
        return self.mean(lambda i: win_u if won[i] else lose_u)

    def ev_envido_bet(self, chain: tuple[Do, ...], won: list[bool]) -> float:
        """Equity of making the bet ``chain`` (its last call ours): the rivals accept or decline."""
        ours, declined = self.envido_values(chain, self.team)
        theirs, _ = self.envido_values(chain, 1 - self.team)
        win_u, lose_u, fold_u = self.u(ours), self.u(-theirs), self.u(declined)

        def f(i: int) -> float:
            acc = self.accepts_envido(self.worlds[i], chain)
            return acc * (win_u if won[i] else lose_u) + (1 - acc) * fold_u

        return self.mean(f)

    def answer_envido(self) -> Action:
        legal = self.view.legal
        chain = self.pub.envido_chain
        won = self.envido_wins()
        _, declined = self.envido_values(chain, 1 - self.team)
        accept = self.ev_envido_accept(chain, won) - self.quiero_cost(chain, won)
        options: list[tuple[float, Action]] = [(self.u(-declined), prefer(legal, Do.NO_QUIERO)),
                                               (accept, prefer(legal, Do.QUIERO))]
        for do in ENVIDO_BETS:
            a = find(legal, do)
            if a is not None:
                options.append((self.ev_envido_bet((*chain, do), won), a))
        return max(options, key=lambda o: o[0])[1]

    def quiero_cost(self, chain: tuple[Do, ...], won: list[bool]) -> float:
        """What a "quiero" vote costs the team beyond its own worlds' equity: none here (``maestro``
        counts the partners' raises it would cap)."""
        return 0.0

    def envido_call(self) -> Action | None:
        """The envido worth calling now, if any (or a bluff, at half the measured rate)."""
        legal = self.view.legal
        calls = [a for a in legal if a.do in ENVIDO_BETS]
        if not calls:
            return None
        won = self.envido_wins()
        best: tuple[float, Action | None] = (self.u(0), None)
        for a in calls:
            ev = self.ev_envido_bet((a.do,), won)
            if ev > best[0]:
                best = (ev, a)
        if best[1] is None and self.rng.random() < self.params.bluff_rate / 2 and sum(won) < 0.3 * len(won):
            return find(legal, Do.ENVIDO)
        return best[1]

    # ---------------------------------------------------------------- truco

    def ev_truco_bet(self, level: int, won: list[bool]) -> float:
        """Equity of calling bet ``level`` (1 truco … 3 vale cuatro): declined pays ``level``."""
        win_u, lose_u, fold_u = self.u(level + 1), self.u(-(level + 1)), self.u(level)

        def f(i: int) -> float:
            acc = self.accepts_truco(self.worlds[i], level)
            return acc * (win_u if won[i] else lose_u) + (1 - acc) * fold_u

        return self.mean(f)

    def answer_truco(self) -> Action:
        legal = self.view.legal
        if any(a.do in ENVIDO_BETS for a in legal):
            envido = self.envido_call()  # "el envido está primero"
            if envido is not None:
                return envido
        call = self.pub.pending_call
        level = TRUCO_CALLS.index(call) + 1 if call in TRUCO_CALLS else 1
        _, won = self.best_play()
        win_u, lose_u = self.u(level + 1), self.u(-(level + 1))
        options: list[tuple[float, Action]] = [
            (self.u(-level), prefer(legal, Do.NO_QUIERO)),
            (self.mean(lambda i: win_u if won[i] else lose_u), prefer(legal, Do.QUIERO)),
        ]
        raise_ = find_any(legal, TRUCO_CALLS)
        if raise_ is not None:
            options.append((self.ev_truco_bet(level + 1, won), raise_))
        return max(options, key=lambda o: o[0])[1]

    def my_turn(self) -> Action:
        legal = self.view.legal
        envido = self.envido_call()
        if envido is not None:
            return envido
        card, won = self.best_play()
        call = find_any(legal, TRUCO_CALLS)
        if call is not None:
            level = TRUCO_CALLS.index(call.do) + 1
            current = self.pub.truco_value
            win_u, lose_u = self.u(current), self.u(-current)
            wait = self.mean(lambda i: win_u if won[i] else lose_u)
            margin = self.params.wait_margin if not self.pub.results else 0.0
            if self.leave_to_pie():
                margin += 0.02
            if self.ev_truco_bet(level, won) > wait + margin:
                return call
            if level == 1 and self.bluff_spot(won) and self.rng.random() < self.params.bluff_rate:
                return call
        assert card is not None
        return Action(self.k.me, Do.PLAY, card)

    def bluff_spot(self, won: list[bool]) -> bool:
        """A weak hand after the first round, with no rival card of this round on the table yet: the
        rivals cannot tell a bluff from a good card there."""
        if not self.pub.results or sum(won) >= 0.35 * len(won):
            return False
        return all(s & 1 == self.team for s, _ in self.k.plays)

    def leave_to_pie(self) -> bool:
        """In a team game's first round, the pie (its team's last to play) calls the first truco."""
        k = self.k
        if k.n == 2 or self.pub.results or self.pub.truco_level is not None:
            return False
        return k.pie(self.team) != k.me

    # ---------------------------------------------------------------- flor

    def answer_flor(self) -> Action:
        legal = self.view.legal
        k = self.k
        mine = flor_value(self.view.dealt) if self.view.my_flor else 0
        order = k.order_from_mano()
        rivals = [s for s in k.opponents() if k.has_flor[s]]
        ahead = not rivals or order.index(k.me) < min(order.index(s) for s in rivals)
        won = []
        for w in self.worlds:
            best = max((flor_value(w.hands[s]) for s in rivals), default=0)
            won.append(mine > best or (mine == best and ahead))
        p = sum(won) / len(won)
        call = self.pub.pending_call
        if call is Do.FLOR:
            if p >= 0.65 and find(legal, Do.CONTRA_FLOR):
                return prefer(legal, Do.CONTRA_FLOR)
            return prefer(legal, Do.CON_FLOR_ME_ACHICO)
        target = self.pub.rules.target
        al_resto = call is Do.CONTRA_FLOR_AL_RESTO
        ours = target - self.pub.score[self.team] if al_resto else 6
        theirs = target - self.pub.score[1 - self.team] if al_resto else 6
        ev_q = p * self.u(ours) + (1 - p) * self.u(-theirs)
        return prefer(legal, Do.QUIERO if ev_q > self.u(-4) else Do.NO_QUIERO)
