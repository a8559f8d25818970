"""Which card a style puts down: the plain play of a club player, with or without an eye on the partner.

Leading the first round it plays the middle card ("la del medio"), keeping the best for later and
not wasting the worst; leading later it plays its best. Following, it takes the round with its
lowest card that does, and otherwise throws its lowest. A partner-aware player leaves a round its
partner already takes; a player who plays alone takes it anyway.
"""

from __future__ import annotations

from collections.abc import Sequence

from truco.bots.styles.feel import best_played, current_round
from truco.engine import Action, Do, SeatView
from truco.engine.cards import POWER, Card


def plain_card(view: SeatView, partner_aware: bool = True) -> Card:
    """The card this seat plays now (it must be its turn with cards in hand)."""
    cards = sorted(view.cards, key=POWER.__getitem__)  # lowest first
    return plain_choice(cards, current_round(view), view.team, len(view.public.results), partner_aware)


def plain_choice(cards: list[Card], plays: Sequence[tuple[int, Card]], team: int, round_no: int,
                 partner_aware: bool = True, tie: bool = False) -> Card:
    """The plain card among ``cards`` (lowest first) with ``plays`` on the table this round.
    ``tie``: with no card that takes the round, one that ties it before the lowest (a parda beats a
    lost round)."""
    if len(cards) == 1:
        return cards[0]
    if not plays:
        if round_no == 0 and len(cards) == 3:
            return cards[1]
        return cards[-1]
    best, teams = best_played(plays)
    if partner_aware and teams == 1 << team:
        return cards[0]
    winners = [c for c in cards if POWER[c] > best]
    if winners:
        return winners[0]
    if tie:
        for c in cards:
            if POWER[c] == best:
                return c
    return cards[0]


def play_action(view: SeatView, partner_aware: bool = True) -> Action:
    return Action(view.seat, Do.PLAY, plain_card(view, partner_aware))
