"""``normal``: bets by tanto and hand strength, answers by expected points, plays for the team.

It prices every answer: accepting a bet at value V wins or loses V with its estimated chance, while
declining loses what the bet was worth before. Its chances come from its own cards and the cards on
the table (``estimate``), with one fixed allowance for a rival's call (an envido caller is taken to
hold 25 or more, a truco caller knocks a little off its chance). It does not sample, weigh the
score, or bluff.
"""

from __future__ import annotations

from truco.bots.base import find, find_any, prefer
from truco.bots.estimate import envido_chance, hand_chance
from truco.bots.heuristic import HeuristicBot
from truco.bots.knowledge import Knowledge
from truco.bots.tricks import sensible_card
from truco.engine import Action, Do
from truco.engine.cards import flor_value
from truco.engine.game import ENVIDO_POINTS
from truco.engine.types import TRUCO_CALLS

CALLER_RESPECT = 0.12
"""A rival who bets the truco usually has cards: knocked off the chance to win when answering."""


def envido_values(chain: tuple[Do, ...], falta: int) -> tuple[int, int]:
    """(points if the chain is accepted, points its caller gets if declined)."""
    accepted = falta if Do.FALTA_ENVIDO in chain else sum(ENVIDO_POINTS[c] for c in chain)
    declined = max(1, sum(ENVIDO_POINTS.get(c, 0) for c in chain[:-1]))
    return accepted, declined


def team_envido_chance(k: Knowledge, called: bool = False) -> float:
    """Chance that our team's best tanto wins, counting each partner as a random hand.

    ``called``: answering the rivals' envido, whose caller is taken to have a good tanto.
    """
    rivals = len(k.opponents())
    order = k.order_from_mano()
    first_rival = min(order.index(s) for s in k.opponents()) if rivals else 99
    mine = envido_chance(k.view.my_tanto, rivals, order.index(k.me) < first_rival, called)
    partner = 1.0 / (rivals + 1)
    return 1.0 - (1.0 - mine) * (1.0 - partner) ** len(k.partners())


class NormalBot(HeuristicBot):
    makes_senas = True
    level = "normal"

    def act(self, k: Knowledge) -> Action:
        view = k.view
        legal = view.legal
        envido = find(legal, Do.ENVIDO)
        if envido is not None:
            p = team_envido_chance(k)
            if p >= 0.85 and find(legal, Do.REAL_ENVIDO):
                return prefer(legal, Do.REAL_ENVIDO)
            if p >= 0.62:
                return envido
        call = find_any(legal, TRUCO_CALLS)
        if call is not None:
            chance = hand_chance(k)
            level = TRUCO_CALLS.index(call.do)
            if chance >= (0.68, 0.78, 0.88)[level]:
                return call
        card = sensible_card(view.cards, k.me, k.plays, view.public.results)
        return Action(k.me, Do.PLAY, card)

    def answer_envido(self, k: Knowledge) -> Action:
        view = k.view
        legal = view.legal
        p = team_envido_chance(k, called=True)
        score = view.public.score
        falta = view.public.rules.target - max(score)
        accepted, declined = envido_values(view.public.envido_chain, falta)
        if p >= 0.8:
            for do in (Do.REAL_ENVIDO, Do.ENVIDO):
                raise_ = find(legal, do)
                if raise_ is not None:
                    return raise_
        ev_quiero = (2 * p - 1) * accepted
        return prefer(legal, Do.QUIERO if ev_quiero > -declined else Do.NO_QUIERO)

    def answer_truco(self, k: Knowledge) -> Action:
        view = k.view
        legal = view.legal
        if find(legal, Do.ENVIDO) and team_envido_chance(k) >= 0.7:
            return prefer(legal, Do.ENVIDO)
        p = hand_chance(k) - CALLER_RESPECT
        call = view.public.pending_call
        level = TRUCO_CALLS.index(call) + 1 if call in TRUCO_CALLS else 1
        raise_ = find_any(legal, TRUCO_CALLS)
        if raise_ is not None and p >= 0.8:
            return raise_
        ev_quiero = (2 * p - 1) * (level + 1)
        return prefer(legal, Do.QUIERO if ev_quiero > -level else Do.NO_QUIERO)

    def answer_flor(self, k: Knowledge) -> Action:
        view = k.view
        legal = view.legal
        mine = flor_value(view.dealt) if view.my_flor else 0
        if view.public.pending_call is Do.FLOR:
            if mine >= 35 and find(legal, Do.CONTRA_FLOR):
                return prefer(legal, Do.CONTRA_FLOR)
            return prefer(legal, Do.CON_FLOR_ME_ACHICO)
        return prefer(legal, Do.QUIERO if mine >= 33 else Do.NO_QUIERO)
