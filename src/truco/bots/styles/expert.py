"""``expert`` (el baqueano): a strong, plain-spoken club player, written apart from the levels.

The six styles each play one habit; this one has none to exploit on purpose. It is the yardstick the
issue's "outside heuristic" stood for: a sound player who counts cards, reads the rivals' calls and
prices every bet by its odds, written here without any of the levels' code (no ``estimate``,
``sampling``, ``tricks``, ``knowledge`` or ``equity``), so that a level that beats it is not simply
beating its own family.

How it thinks, at each decision:

- **Worlds.** It deals the cards it has not seen (its own, every card played and shown are out) to the
  seats still in the hand, 48 times; a seat that sang its tanto gets only hands with that tanto.
- **Reading the rivals.** Each world is weighted by how well it explains what the rivals did this
  hand: a truco call speaks for two good cards, a retruco and a vale cuatro for better ones (a bluff
  stays possible: a floor of 0.15, 0.12, 0.09), a "quiero" to our truco for a decent hand, an envido
  call for 27 or more (a real envido 29, a falta 30; floor 0.06), a "quiero" to our envido for 25 or
  more and a "no quiero" for less than 27.
- **Its chance.** In every world the hand is played out by plain card play (take the round with the
  lowest card that does, else throw the lowest; leave a round the partner already takes), and its
  chance is the weighted share of worlds its team takes. It plays the card that takes the most worlds.
- **Bets by their odds.** It answers a truco when its chance beats the price ("quiero" risks the new
  value to save what a "no quiero" gives away) with a margin of 0.12, raises from 0.78 (to vale
  cuatro from 0.90), and calls truco from 0.70 (retruco 0.76, vale cuatro 0.90), keeping a very
  strong first hand quiet a third of the time; it bluffs a truco in 6 % of its weak spots in the
  first round and 20 % after it, and raises one truco in 25 it cannot hold. The envido is priced
  on the chance that its team's tanto is the best: it calls from 0.62, opens with real envido from
  0.80 and falta from 0.93, answers by the expected points, and bluffs one envido in twelve with a
  poor tanto.

It never goes to the mazo, does not remember one hand in the next, and does not make or read señas.
"""

from __future__ import annotations

import math
import random
from itertools import combinations

from truco.bots.base import find, find_any, mix, prefer, view_key
from truco.bots.styles.feel import best_played, current_round
from truco.bots.styles.play import plain_choice
from truco.bots.styles.player import StylePlayer
from truco.engine import PARDA, Action, Do, SeatView, Team, falta_points, hand_winner, tanto
from truco.engine.cards import POWER, Card
from truco.engine.types import ENVIDO_CALLS, TRUCO_CALLS

WORLDS = 48
"""Worlds dealt for each decision."""
TRIES = 16
"""Picks at most, among the hands that fit a sung tanto, for one that no other singer holds."""

TRUCO_CALL = (0.70, 0.76, 0.90)
"""Its chance from which it calls truco, retruco, vale cuatro."""
TRUCO_RAISE = (0.78, 0.9)
"""Its chance from which it answers a truco with a retruco, a retruco with a vale cuatro."""
TRUCO_MARGIN = 0.12
"""Added to the price of a "quiero": the caller may raise again, and a chance is never exact."""
BLUFF_TRUCO = (0.06, 0.20)
"""Share of weak spots (chance under 0.30, not nil: a sure loss is not bluffed) where it calls truco
anyway: first round, after it."""
SANDBAG = 0.35
"""Share of very strong first hands (chance 0.85 or more) where it keeps quiet for now."""
ENVIDO_CALL, REAL_ENVIDO_CALL, FALTA_CALL = 0.62, 0.80, 0.93
BLUFF_ENVIDO = 1 / 12


def _logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def strength(cards: list[Card] | tuple[Card, ...]) -> float:
    """Two best cards' power, 0 (two cuatros and worse) to 1 (both anchos)."""
    top = sorted((POWER[c] for c in cards), reverse=True)[:2]
    return (sum(top) - 2) / 25 if len(top) == 2 else (top[0] - 1) / 13 if top else 0.0


class Expert(StylePlayer):
    level = "expert"

    # ---------------------------------------------------------------- the decision

    def worlds(self, view: SeatView) -> Worlds:
        return Worlds(view, random.Random(mix(self.seed, view_key(view), 11)))

    def answer_envido(self, view: SeatView) -> Action:
        return self.answer_envido_odds(view, self.worlds(view))

    def answer_truco(self, view: SeatView) -> Action:
        return self.answer_truco_odds(view, self.worlds(view))

    def my_turn(self, view: SeatView) -> Action:
        return self.turn(view, self.worlds(view))

    def turn(self, view: SeatView, worlds: Worlds) -> Action:
        legal = view.legal
        first_round = not view.public.results
        if find(legal, Do.ENVIDO) is not None:
            call = self.open_envido(view, worlds)
            if call is not None:
                return call
        scored = [(worlds.chance(a.card), -POWER[a.card], a) for a in legal if a.card is not None]
        best = max(scored, key=lambda t: (t[0], t[1]), default=None)
        best_chance = best[0] if best else worlds.chance(None)
        call = find_any(legal, TRUCO_CALLS)
        if call is not None:
            level = TRUCO_CALLS.index(call.do)
            if best_chance >= 0.99:
                return call
            if best_chance >= TRUCO_CALL[level]:
                if not (first_round and best_chance >= 0.85 and self.draw(view, 12) < SANDBAG):
                    return call
            elif 0 < best_chance < 0.30 and self.draw(view, 13) < BLUFF_TRUCO[0 if first_round else 1]:
                return call
        if best:
            return best[2]
        return super().my_turn(view)  # no card to play: whatever the plain skeleton does

    # ---------------------------------------------------------------- envido

    def open_envido(self, view: SeatView, worlds: Worlds) -> Action | None:
        legal = view.legal
        p = worlds.envido_chance()
        falta = find(legal, Do.FALTA_ENVIDO)
        if falta is not None and p >= FALTA_CALL:
            return falta
        real = find(legal, Do.REAL_ENVIDO)
        if real is not None and p >= REAL_ENVIDO_CALL:
            return real
        if p >= ENVIDO_CALL or (p < 0.35 and self.draw(view, 14) < BLUFF_ENVIDO):
            return find(legal, Do.ENVIDO)
        return None

    def answer_envido_odds(self, view: SeatView, worlds: Worlds) -> Action:
        legal = view.legal
        p = view.public
        win = worlds.envido_chance()
        stake = p.envido_stake or (2, 1)
        accepted, declined = stake
        falta_mine = falta_points(p.rules, p.score, view.team)
        if accepted is None:
            gain, loss = falta_mine, falta_points(p.rules, p.score, 1 - view.team)
        else:
            gain = loss = accepted
        if win >= 0.93:
            falta = find(legal, Do.FALTA_ENVIDO)
            if falta is not None and falta_mine > (accepted or 0):
                return falta
        if win >= 0.82:
            real = find(legal, Do.REAL_ENVIDO)
            if real is not None:
                return real
        take = win * gain - (1 - win) * loss >= -declined
        return prefer(legal, Do.QUIERO if take else Do.NO_QUIERO)

    # ---------------------------------------------------------------- truco

    def answer_truco_odds(self, view: SeatView, worlds: Worlds) -> Action:
        legal = view.legal
        if find(legal, Do.ENVIDO) is not None:
            envido = self.open_envido(view, worlds)
            if envido is not None:
                return envido  # el envido está primero
        p = view.public
        called = p.pending_call
        new = (TRUCO_CALLS.index(called) + 2) if called in TRUCO_CALLS else p.truco_value + 1
        chance = worlds.chance(None)
        raise_ = find_any(legal, TRUCO_CALLS)
        if raise_ is not None:
            level = TRUCO_CALLS.index(raise_.do) - 1
            if chance >= TRUCO_RAISE[min(level, 1)] or (chance < 0.2 and self.draw(view, 15) < 0.04):
                return raise_
        price = 1 / (2 * new)
        return prefer(legal, Do.QUIERO if chance >= price + TRUCO_MARGIN else Do.NO_QUIERO)


# -------------------------------------------------------------------- worlds


class Worlds:
    """The expert's guesses at the hidden cards, each with a weight for how well it explains the calls."""

    def __init__(self, view: SeatView, rng: random.Random) -> None:
        self.view = view
        p = view.public
        n = p.rules.players
        self.n = n
        folded = set(p.folded)
        self.active = [s for s in range(n) if s not in folded]
        self.played: dict[int, list[Card]] = {s: [] for s in range(n)}
        seen = set(view.dealt)
        for rnd in p.rounds:
            for s, c in rnd:
                self.played[s].append(c)
                seen.add(c)
        for duel in p.duels:
            for rnd in duel[3]:
                seen.update(c for _, c in rnd)
        for _, cards in p.shown:
            seen.update(cards)
        unseen = [c for c in range(40) if c not in seen]
        others = [s for s in self.active if s != view.seat and p.cards_left[s] > 0]
        sung = {s: t for s, t, is_flor in p.sung if t >= 0 and not is_flor and s != view.seat}
        self.readings = _readings(view)
        self.hands: list[dict[int, list[Card]]] = []
        self.weights: list[float] = []
        singers = [s for s in others if s in sung]
        plain = [s for s in others if s not in sung]
        fitting = {s: [list(h) for h in combinations(unseen, p.cards_left[s])
                       if tanto(self.played[s] + list(h)) == sung[s]] for s in singers}
        for _ in range(WORLDS):
            pool = list(unseen)
            rng.shuffle(pool)
            hands: dict[int, list[Card]] = {view.seat: list(view.cards)}
            taken: set[Card] = set()
            for s in singers:
                k = p.cards_left[s]
                hand = [c for c in pool if c not in taken][:k]
                for _try in range(TRIES if fitting[s] else 0):
                    pick = rng.choice(fitting[s])
                    if not taken.intersection(pick):
                        hand = pick
                        break
                hands[s] = hand
                taken.update(hand)
            pool = [c for c in pool if c not in taken]
            k = 0
            for s in plain:
                hands[s] = pool[k:k + p.cards_left[s]]
                k += p.cards_left[s]
            self.hands.append(hands)
            self.weights.append(self._weight(hands))

    def _weight(self, hands: dict[int, list[Card]]) -> float:
        w = 1.0
        for seat, kind, floor, mid in self.readings:
            dealt = self.played[seat] + hands.get(seat, [])
            if kind == "cards":
                x = (strength(dealt) - mid) / 0.06
            elif kind == "tanto":
                x = (tanto(dealt) - mid) / 1.5
            else:  # "low tanto": a no quiero to an envido
                x = (mid - tanto(dealt)) / 1.5
            w *= floor + (1 - floor) * _logistic(x)
        return w

    # ---------------------------------------------------------------- chances

    def chance(self, card: Card | None) -> float:
        """Weighted share of worlds its team takes, playing ``card`` now (None: from where it stands)."""
        won = total = 0.0
        me = self.view.team
        for hands, w in zip(self.hands, self.weights, strict=True):
            total += w
            if self.play_out(hands, card) == me:
                won += w
        return won / total if total else 0.5

    def envido_chance(self) -> float:
        """Weighted share of worlds where its team's tanto is the best at the table (mano wins ties)."""
        p = self.view.public
        me = self.view.team
        order = [(p.mano + i) % self.n for i in range(self.n)]
        rank = {s: i for i, s in enumerate(order)}
        won = total = 0.0
        for hands, w in zip(self.hands, self.weights, strict=True):
            best, best_seat = -1, -1
            for s in sorted(hands, key=rank.__getitem__):
                t = self.view.my_tanto if s == self.view.seat else tanto(self.played[s] + hands[s])
                if t > best:
                    best, best_seat = t, s
            total += w
            if best_seat & 1 == me:
                won += w
        return won / total if total else 0.5

    def play_out(self, hands: dict[int, list[Card]], first: Card | None) -> Team:
        """The team that takes the hand when everyone plays plain cards from here (the pardas table)."""
        p = self.view.public
        held = {s: sorted(hands.get(s, ()), key=POWER.__getitem__) for s in self.active}
        results = list(p.results)
        plays = list(current_round(self.view))
        active = self.active
        lead = plays[0][0] if plays else p.turn
        turn = p.turn
        mano_team = p.mano & 1
        pending_first = first
        for _ in range(4 * len(active)):
            w = hand_winner(tuple(results), mano_team)
            if w != -1:
                return w
            if len(plays) >= len(active) or not held.get(turn):
                if not plays:
                    return mano_team  # nobody holds a card: should not happen
                result, winner_seat = _round_result(plays)
                results.append(result)
                lead = lead if result == PARDA else winner_seat
                turn, plays = lead, []
                continue
            cards = held[turn]
            if pending_first is not None and turn == self.view.seat:
                card, pending_first = pending_first, None
            else:
                card = plain_choice(cards, plays, turn & 1, len(results), tie=True)
            cards.remove(card)
            plays.append((turn, card))
            turn = _next(turn, active, self.n)
        w = hand_winner(tuple(results), mano_team)
        return w if w != -1 else mano_team


def _next(seat: int, active: list[int], n: int) -> int:
    for i in range(1, n + 1):
        s = (seat + i) % n
        if s in active:
            return s
    return seat


def _round_result(plays: list[tuple[int, Card]]) -> tuple[Team, int]:
    """(who takes the round, the seat whose card takes it), or (``PARDA``, -1)."""
    best, teams = best_played(plays)
    if teams == 3:
        return PARDA, -1
    first = next(s for s, c in plays if POWER[c] == best)
    return first & 1, first


def _readings(view: SeatView) -> list[tuple[int, str, float, float]]:
    """What the rivals' calls and answers this hand say: (seat, what it speaks for, floor, midpoint)."""
    rivals = 1 - view.team
    out: list[tuple[int, str, float, float]] = []
    stack: list[str] = []
    for a in view.public.history:
        if a.do in TRUCO_CALLS:
            if a.seat & 1 == rivals:
                level = TRUCO_CALLS.index(a.do)
                out.append((a.seat, "cards", 0.15 - 0.03 * level, 0.6 + 0.1 * level))
            if stack and stack[-1] == "truco":
                stack.pop()
            stack.append("truco")
        elif a.do in ENVIDO_CALLS:
            if a.seat & 1 == rivals:
                mid = {Do.ENVIDO: 27.0, Do.REAL_ENVIDO: 29.0, Do.FALTA_ENVIDO: 30.0}[a.do]
                out.append((a.seat, "tanto", 0.06, mid))
            if not stack or stack[-1] != "envido":
                stack.append("envido")
        elif a.do in (Do.FLOR, Do.CONTRA_FLOR, Do.CONTRA_FLOR_AL_RESTO):
            if stack and stack[-1] == "envido":
                stack.pop()  # a flor puts the envido away
            if a.do is Do.FLOR:
                continue
            if not stack or stack[-1] != "flor":
                stack.append("flor")
        elif a.do in (Do.QUIERO, Do.NO_QUIERO, Do.CON_FLOR_ME_ACHICO):
            kind = stack.pop() if stack else ""
            if a.seat & 1 != rivals:
                continue
            if kind == "truco" and a.do is Do.QUIERO:
                out.append((a.seat, "cards", 0.4, 0.45))
            elif kind == "envido":
                if a.do is Do.QUIERO:
                    out.append((a.seat, "tanto", 0.15, 25.0))
                else:
                    out.append((a.seat, "low tanto", 0.3, 27.0))
    return out
