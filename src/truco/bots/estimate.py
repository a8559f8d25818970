"""Quick estimates from one's own cards, without simulation: tanto odds and the chance to win a hand.

They assume the other seats hold random unseen cards, so they ignore what the calls reveal; the
``dificil`` level replaces them with sampling.
"""

from __future__ import annotations

from functools import lru_cache

from truco.bots.knowledge import Knowledge, best_on_table
from truco.bots.tables import TANTO_OF
from truco.engine import Team, hand_winner
from truco.engine.cards import POWER, Card

_TANTO_COUNT = [0] * 34
for _t in TANTO_OF.values():
    _TANTO_COUNT[_t] += 1
_TOTAL = len(TANTO_OF)
TANTO_AT_MOST = [sum(_TANTO_COUNT[: t + 1]) / _TOTAL for t in range(34)]
CALLER_TANTO = 25
"""A rival who calls envido is taken to hold at least this much."""
_CALLER_TOTAL = sum(_TANTO_COUNT[CALLER_TANTO:])
CALLER_AT_MOST = [sum(_TANTO_COUNT[CALLER_TANTO: t + 1]) / _CALLER_TOTAL for t in range(34)]


def envido_chance(my_tanto: int, rivals: int, mano_side: bool, called: bool = False) -> float:
    """Chance that ``my_tanto`` beats ``rivals`` random hands (ties go to the side closer to the mano).

    ``called``: the rivals called the envido, so one of them is taken to hold ``CALLER_TANTO`` or more.
    """
    t = max(0, min(33, my_tanto))
    table = CALLER_AT_MOST if called else TANTO_AT_MOST
    beat_one = table[t] if mano_side else (table[t - 1] if t > 0 else 0.0)
    if called:
        return float(beat_one * TANTO_AT_MOST[t] ** max(0, rivals - 1))
    return float(beat_one ** max(1, rivals))


def beat_fraction(card: Card, unseen: list[Card]) -> float:
    """Share of the unseen cards this card beats (a tie counts half)."""
    if not unseen:
        return 1.0
    p = POWER[card]
    score = 0.0
    for c in unseen:
        q = POWER[c]
        if q < p:
            score += 1.0
        elif q == p:
            score += 0.5
    return score / len(unseen)


@lru_cache(maxsize=4096)
def _combine(results: tuple[Team, ...], chances: tuple[float, ...], team: Team, mano_team: Team) -> float:
    """P(hand won) when each remaining round is won with its own chance, lost otherwise."""
    w = hand_winner(results, mano_team)
    if w >= 0:
        return 1.0 if w == team else 0.0
    if not chances:
        return 0.5
    c = chances[0]
    won = _combine((*results, team), chances[1:], team, mano_team) if c > 0 else 0.0
    lost = _combine((*results, 1 - team), chances[1:], team, mano_team) if c < 1 else 0.0
    return c * won + (1.0 - c) * lost


def hand_chance(k: Knowledge) -> float:
    """Rough chance that this seat's team wins the hand from here, playing its cards sensibly."""
    view = k.view
    hand = sorted(view.cards, key=POWER.__getitem__, reverse=True)
    rivals = max(1, len(k.opponents()))
    partners = len(k.partners())
    partner_round = 1.0 / (rivals + 1)  # a partner's unknown card wins a round about this often
    left = view.public.cards_left
    chances: list[float] = []
    plays = k.plays
    if plays:
        best, teams = best_on_table(plays)
        done = {s for s, _ in plays}
        opp_left = [s for s in k.opponents() if s not in done]
        partner_left = any(s not in done for s in k.partners())
        if k.me in done or not hand:
            ch = _hold(best, k.unseen, opp_left, left) if teams == 1 << k.team else 0.0
        elif teams == 1 << k.team:
            ch = _hold(best, k.unseen, opp_left, left)
            hand.pop()
        else:
            winners = [c for c in hand if POWER[c] > best]
            if winners:
                card = winners[-1]
                ch = _hold(POWER[card], k.unseen, opp_left, left)
                hand.remove(card)
            else:
                ch = 0.0
                hand.pop()
            if partner_left:
                ch = 1.0 - (1.0 - ch) * (1.0 - partner_round)
        chances.append(ch)
    for card in hand:
        f = beat_fraction(card, k.unseen) ** rivals
        chances.append(1.0 - (1.0 - f) * (1.0 - partner_round) ** partners)
    needed = 3 - len(view.public.results)
    chances = chances[:needed] + [partner_round] * max(0, needed - len(chances))
    return _combine(view.public.results, tuple(round(c, 2) for c in chances), k.team, k.mano & 1)


def _hold(best_power: int, unseen: list[Card], rivals_left: list[int], cards_left: tuple[int, ...]) -> float:
    """Chance that no rival still to play holds a card above ``best_power``."""
    if not rivals_left or not unseen:
        return 1.0
    below = sum(1 for c in unseen if POWER[c] <= best_power) / len(unseen)
    return float(below ** sum(max(1, cards_left[s]) for s in rivals_left))
