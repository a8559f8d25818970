"""``facil``: sensible cards, calls only on strong hands, answers by fixed thresholds.

Like a beginner who knows the cards: it sings flor, calls envido from 30, truco with a hand it
expects to win; it accepts an envido from 28 and a truco when it likes its cards. It wins the round
when it can (even over its partner's card) and never bluffs.
"""

from __future__ import annotations

from truco.bots.base import find, find_any, prefer
from truco.bots.estimate import hand_chance
from truco.bots.heuristic import HeuristicBot
from truco.bots.knowledge import Knowledge, best_on_table
from truco.bots.tricks import highest, lowest
from truco.engine import Action, Do
from truco.engine.cards import POWER, flor_value
from truco.engine.types import TRUCO_CALLS


class FacilBot(HeuristicBot):
    level = "facil"

    def answer_flor(self, k: Knowledge) -> Action:
        view = k.view
        legal = view.legal
        mine = flor_value(view.dealt) if view.my_flor else 0
        if view.public.pending_call is Do.FLOR:
            return prefer(legal, Do.CONTRA_FLOR if mine >= 32 else Do.CON_FLOR_ME_ACHICO)
        return prefer(legal, Do.QUIERO if mine >= 31 else Do.NO_QUIERO)

    def answer_envido(self, k: Knowledge) -> Action:
        return prefer(k.view.legal, Do.QUIERO if k.view.my_tanto >= 28 else Do.NO_QUIERO)

    def answer_truco(self, k: Knowledge) -> Action:
        view = k.view
        legal = view.legal
        chance = hand_chance(k)
        if view.my_tanto >= 31 and find(legal, Do.ENVIDO):
            return prefer(legal, Do.ENVIDO)
        if chance >= 0.85:
            raise_ = find_any(legal, TRUCO_CALLS)
            if raise_ is not None:
                return raise_
        return prefer(legal, Do.QUIERO if chance >= 0.5 else Do.NO_QUIERO)

    def act(self, k: Knowledge) -> Action:
        view = k.view
        legal = view.legal
        if view.my_tanto >= 30 and find(legal, Do.ENVIDO):
            return prefer(legal, Do.ENVIDO)
        call = find_any(legal, TRUCO_CALLS)
        if call is not None and hand_chance(k) >= 0.8:
            return call
        return _play(k)


def _play(k: Knowledge) -> Action:
    """Win the round with the lowest card that does, even over a partner; lead with the best card."""
    hand = k.view.cards
    plays = k.plays
    if not plays:
        card = highest(hand)
    else:
        best, _ = best_on_table(plays)
        winners = [c for c in hand if POWER[c] > best]
        card = lowest(winners) if winners else lowest(hand)
    return Action(k.me, Do.PLAY, card)
