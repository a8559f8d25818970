"""What a match has shown of each rival team: ``maestro``'s memory of this opponent.

``Memory`` keeps the latest view of every hand of the match a bot has seen, and reads them into one
``profile.Profile`` per team: how many of its truco calls were bluffs (the caller's cards at the time of
the call, judged as the caller could judge them, ``judged_chance``), in the first round and after it,
how it answered our calls, and the tantos it sang after calling envido. ``maestro`` reads a rival's
calls with *these* rates instead of fixed ones, and prices its own bets by these answers.
"""

from __future__ import annotations

from typing import Protocol

from truco.bots.base import ENVIDO_BETS
from truco.bots.card_reading import PlayRead, all_plays, was_sound
from truco.bots.evidence import judged_chance, results_key
from truco.bots.knowledge import envido_passes
from truco.bots.profile import Profile
from truco.bots.tables import mask_of
from truco.engine import Do, PublicView, SeatView, Team
from truco.engine.cards import Card, tanto
from truco.engine.types import FLOR_CALLS, TRUCO_CALLS


class Judging(Protocol):
    """What reading a hand needs of the bot's parameters (``MaestroParams`` has them)."""

    @property
    def bluff_chance(self) -> float: ...

    @property
    def envido_bluff_tanto(self) -> int: ...

    @property
    def pass_tanto(self) -> float: ...


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

    def restore(self, other: Memory) -> None:
        """Remember exactly what ``other`` remembers (and drop every profile read before)."""
        self.hands = dict(other.hands)
        self._profiles.clear()

    def all_profiles(self, params: Judging) -> list[Profile]:
        """One profile per team, from every hand seen."""
        out = [Profile(), Profile()]
        for k in sorted(self.hands):
            _read_hand(self.hands[k], out, params)
        return out

    def profiles(self, view: SeatView, params: Judging) -> list[Profile]:
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


def _read_hand(view: SeatView, out: list[Profile], params: Judging) -> None:
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
    table: list[tuple[int, Card]] = []
    sides = [sum(1 for s in range(t, n, 2) if s not in p.folded) for t in (0, 1)]
    last: tuple[Do, int] | None = None  # the last bet and the round it was made in
    envido_teams: set[int] = set()  # the teams that made an envido bet this hand
    envido_shut = False  # a truco taken or a flor sung: no envido any more this hand
    truco_open = True  # no truco called yet this hand
    for seat in envido_passes(p):  # what did each pass hold?
        _read_pass(view, seat, dealt, out[seat & 1], params)
    unseen: list[Card] | None = None
    for r in all_plays(p):  # how soundly did each seat play, where its cards are known?
        if r.seat == view.seat:
            continue
        if unseen is None:
            unseen = _unseen(view, dealt)
        _read_play(r, dealt.get(r.seat, set()), unseen, p, out[r.seat & 1])
    for a in p.history:
        truco_answer = a.do in (Do.QUIERO, Do.NO_QUIERO) and last is not None and last[0] in TRUCO_CALLS
        truco_raise = a.do in TRUCO_CALLS and last is not None and last[0] in TRUCO_CALLS  # answers it too
        envido_answer = last is not None and last[0] in ENVIDO_BETS and last[0] is not Do.FALTA_ENVIDO and (
            a.do in ENVIDO_BETS or a.do in (Do.QUIERO, Do.NO_QUIERO))  # an answer that could have raised
        # a chance to open the envido: a seat's first card, a call or a truco answered, envido open
        if not rounds_done and not envido_teams and not envido_shut and a.seat not in played:
            bet = a.do in ENVIDO_BETS
            if bet or truco_answer or a.do is Do.PLAY:
                out[a.seat & 1].envido_chances[0] += 1
                out[a.seat & 1].envido_chances[1] += bet
        if envido_answer:
            out[a.seat & 1].envido_raise_chances[0] += 1
            out[a.seat & 1].envido_raise_chances[1] += a.do in ENVIDO_BETS
        if truco_open and (a.do is Do.PLAY or a.do is Do.TRUCO):
            chance = out[a.seat & 1].truco_chances[1 if rounds_done else 0]
            chance[0] += 1
            chance[1] += a.do is Do.TRUCO
        if (truco_answer or truco_raise) and last is not None and last[0] is not Do.VALE_CUATRO:
            chance = out[a.seat & 1].truco_chances[2]  # an answer that could have raised
            chance[0] += 1
            chance[1] += truco_raise
        if a.do is Do.TRUCO:
            truco_open = False
        taken_on = (truco_answer and a.do is Do.QUIERO) or (a.do in TRUCO_CALLS and a.do is not Do.TRUCO)
        if taken_on or a.do in FLOR_CALLS:
            envido_shut = True  # a truco taken on (a quiero or a raise), or a flor: no envido now
        if a.do in (Do.QUIERO, Do.NO_QUIERO) and last is not None:
            answerer = out[a.seat & 1]
            folded = a.do is Do.NO_QUIERO
            if last[0] in TRUCO_CALLS:
                answerer.answered[last[1]] += 1
                answerer.folds[last[1]] += folded
            elif last[0] in ENVIDO_BETS:
                raised = 1 if a.seat & 1 in envido_teams else 0
                answerer.envido_answered[raised] += 1
                answerer.envido_folds[raised] += folded
            last = None
        elif a.do in TRUCO_CALLS or a.do in ENVIDO_BETS:
            if truco_raise and last is not None:
                out[a.seat & 1].answered[last[1]] += 1  # a raise: the call was taken on
            last = (a.do, 1 if rounds_done else 0)
        if a.do is Do.PLAY and a.card is not None:
            played.setdefault(a.seat, set()).add(a.card)
            table.append((a.seat, a.card))
            plays += 1
            while rounds_done < len(ends) and plays >= ends[rounds_done]:
                rounds_done += 1
                table = []
        elif a.do in TRUCO_CALLS:
            known = dealt.get(a.seat, set())
            before = played.get(a.seat, set())
            held = known - before
            missing = 3 - len(before) - len(held)
            if missing > 1:
                continue  # too little seen to tell a bluff
            team: Team = a.seat & 1
            key = results_key(p.results[:rounds_done], team)
            here = tuple(table)
            mine = {c for x, c in here if x == a.seat}  # its card of this round, still in play
            base = mask_of(held | mine)
            rivals, mates = sides[1 - team], sides[team] - 1
            if missing == 0:
                q = judged_chance(n, key, base, a.seat, here, rivals, mates)
            else:
                others = _unseen(view, dealt)
                q = sum(judged_chance(n, key, base | 1 << c, a.seat, here, rivals, mates)
                        for c in others) / len(others)
            bluff = q < params.bluff_chance
            if a.do is Do.TRUCO:
                late = 1 if rounds_done else 0
                out[team].calls[late] += 1
                out[team].bluffs[late] += bluff
            else:
                late = 2
                out[team].raises += 1
                out[team].raise_bluffs += bluff
            if not bluff:
                out[team].value_q[late].append(q)
        elif a.do in ENVIDO_BETS:
            prof = out[a.seat & 1]
            i = 1 if a.do is Do.FALTA_ENVIDO else 0
            sung = _sung_tanto(p, a.seat)
            if sung is not None:
                (prof.envido_raise_tantos if envido_teams else prof.envido_tantos).append(sung)
                span: tuple[int, int] | None = (sung, sung)
            else:  # declined, never sung: the caller's cards seen later may tell its tanto
                span = _tanto_range(dealt.get(a.seat, set()), _unseen(view, dealt))
            if span is not None:
                low, high = span
                bluff_tanto = params.envido_bluff_tanto
                if high < bluff_tanto or low >= bluff_tanto:  # a bluff or not, settled
                    prof.envido_shown[i] += 1
                    prof.envido_bluffs[i] += high < bluff_tanto
                if not envido_teams:  # an opening
                    if bluff_tanto <= low == high:
                        prof.first_call_tantos[a.do].append(low)
                    prof.opened_high += low >= _worth_opening(params)
            envido_teams.add(a.seat & 1)


def _worth_opening(params: Judging) -> float:
    """The tanto from which a pass counts as a tanto kept quiet (``Profile.pass_floor``): two over
    the line a pass is read under."""
    return params.pass_tanto + 2


def _read_pass(view: SeatView, seat: int, dealt: dict[int, set[Card]], prof: Profile,
               params: Judging) -> None:
    """A pass of the envido whose tanto the hand told (sung, or the cards seen settle it)."""
    p = view.public
    sung = _sung_tanto(p, seat)
    span = (sung, sung) if sung is not None else _tanto_range(dealt.get(seat, set()), _unseen(view, dealt))
    if span is None:
        return
    high = _worth_opening(params)
    if span[1] < high or span[0] >= high:  # settled either way
        prof.passes[0] += 1
        prof.passes[1] += span[0] >= high


def _read_play(r: PlayRead, known: set[Card], unseen: list[Card], p: PublicView, prof: Profile) -> None:
    """Count one readable card as sound or not, on the seat's hand: all three cards seen, one
    card; two seen, a share of a card for each card in ``unseen`` that could have been the third
    (its sung tanto, if any, agrees), judged on that hand.

    With the hands seen but for one card, a team's rates learn from about two and a half times the cards
    a match (a hand is mostly left with a card unplayed: won in two rounds, or folded)."""
    if len(known) == 3:
        hands = [tuple(known)]
    elif len(known) == 2:
        hands = [(*known, c) for c in unseen]
        sung = _sung_tanto(p, r.seat)
        if sung is not None:
            hands = [h for h in hands if tanto(list(h)) == sung]
    else:
        return
    judged = [j for j in (was_sound(r, h) for h in hands) if j is not None]
    if not judged:
        return
    later = 1 if r.results else 0
    share = 1.0 / len(judged)
    for spot, sound in judged:
        prof.plays_read[spot][later] += share
        if sound:
            prof.plays_sound[spot][later] += share


def _sung_tanto(p: PublicView, seat: int) -> int | None:
    """The tanto ``seat`` sang this hand (not a flor), if it sang one."""
    return next((t for s, t, is_flor in p.sung if s == seat and t >= 0 and not is_flor), None)


def _unseen(view: SeatView, dealt: dict[int, set[Card]]) -> list[Card]:
    """The cards this seat has not seen in the hand: neither its own nor played or shown by another."""
    seen = set(view.dealt).union(*dealt.values())
    return [c for c in range(40) if c not in seen]


def _tanto_range(known: set[Card], unseen: list[Card]) -> tuple[int, int] | None:
    """The least and the most a seat's tanto can be, as its cards seen in the hand tell it: all
    three give it; two, with each card in ``unseen`` as the third. ``None`` with fewer seen.

    An envido call that was declined is never sung; without its cards a rival who bluffs only
    where we fold would look honest for the whole match, and its openings' band would learn
    nothing from the hands it was not taken in."""
    cards = sorted(known)
    if len(cards) == 3:
        t = tanto(cards)
        return t, t
    if len(cards) != 2 or not unseen:
        return None
    tantos = [tanto([*cards, c]) for c in unseen]
    return min(tantos), max(tantos)
