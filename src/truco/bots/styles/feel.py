"""How a table player sizes up a hand at a glance: what each card beats, and the chance to take the hand.

Written for the styles alone, apart from the levels' estimates: a person knows the order of the
cards, not which ones are still unseen, so a card is worth the share of the whole deck it beats. The
styles differ in what they *do* with this feel, not in how they feel a hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from truco.engine import SeatView, Team, hand_winner
from truco.engine.cards import POWER, Card

BEATS: tuple[float, ...] = tuple(
    (sum(POWER[d] < POWER[c] for d in range(40)) + 0.5 * (sum(POWER[d] == POWER[c] for d in range(40)) - 1))
    / 39 for c in range(40))
"""Share of the other 39 cards that each card beats, a tie counting half."""

BRAVA = 11
"""The four *bravas* (ancho de espada, ancho de basto, siete de espada, siete de oro) have power 11+."""


def rivals_and_partners(view: SeatView) -> tuple[int, int]:
    """Active rivals and active partners of the seat, as the table shows them."""
    folded = set(view.public.folded)
    n = view.public.rules.players
    rivals = sum(1 for s in range(1 - view.team, n, 2) if s not in folded)
    partners = sum(1 for s in range(view.team, n, 2) if s != view.seat and s not in folded)
    return max(1, rivals), partners


def current_round(view: SeatView) -> tuple[tuple[int, Card], ...]:
    """The cards on the table in the round being played (empty when a round is about to start)."""
    p = view.public
    if p.rounds and len(p.rounds) > len(p.results):
        return p.rounds[-1]
    return ()


def best_played(plays: Sequence[tuple[int, Card]]) -> tuple[int, int]:
    """(highest power on the table, bit mask of the teams that played it)."""
    best, teams = -1, 0
    for s, c in plays:
        if POWER[c] > best:
            best, teams = POWER[c], 1 << (s & 1)
        elif POWER[c] == best:
            teams |= 1 << (s & 1)
    return best, teams


def round_chance(card: Card, rivals: int, partners: int) -> float:
    """A card's chance to take a round that has not started: it beats every rival, or a partner does."""
    own = BEATS[card] ** rivals
    helper = 1.0 / (rivals + 1)
    return 1.0 - (1.0 - own) * (1.0 - helper) ** partners


def feel(view: SeatView, alone: bool = False) -> float:
    """The chance this seat's team takes the hand from here, as a player judges it at the table.

    ``alone``: counting on its own cards only, as if the partners held nothing (how a player decides
    that *its* hand is bad, partners or not).
    """
    p = view.public
    rivals, partners = rivals_and_partners(view)
    if alone:
        partners = 0
    cards = sorted(view.cards, key=POWER.__getitem__, reverse=True)
    chances: list[float] = []
    plays = current_round(view)
    if plays:
        best, teams = best_played(plays)
        mine = teams == 1 << view.team
        played = {s for s, _ in plays}
        if view.seat in played:
            chances.append(0.75 if mine else 0.5 if teams == 3 else 0.2)
        elif mine:
            chances.append(0.8)
            if cards:
                cards.pop()
        else:
            winners = [c for c in cards if POWER[c] > best]
            folded = set(p.folded)
            rivals_left = sum(1 for s in range(1 - view.team, p.rules.players, 2)
                              if s not in folded and s not in played)
            if winners:
                card = winners[-1]
                chances.append(BEATS[card] ** rivals_left)
                cards.remove(card)
            else:
                chances.append(0.15 if partners else 0.0)
                if cards:
                    cards.pop()
    chances.extend(round_chance(c, rivals, partners) for c in cards)
    need = 3 - len(p.results)
    chances = chances[:need] + [0.5] * max(0, need - len(chances))
    return _take(p.results, tuple(round(c, 2) for c in chances), view.team, p.mano & 1)


@cache
def _take(results: tuple[Team, ...], chances: tuple[float, ...], team: Team, mano_team: Team) -> float:
    """P(the hand goes to ``team``) when each round still to play is won with its own chance."""
    w = hand_winner(results, mano_team)
    if w != -1:
        return 1.0 if w == team else 0.0
    if not chances:
        return 0.5
    c, rest = chances[0], chances[1:]
    return c * _take((*results, team), rest, team, mano_team) + (1 - c) * _take(
        (*results, 1 - team), rest, team, mano_team)


def bravas(cards: tuple[Card, ...]) -> int:
    """How many of the four bravas the cards hold."""
    return sum(POWER[c] >= BRAVA for c in cards)

