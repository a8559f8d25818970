"""What a match has shown of each rival team: ``maestro``'s memory of this opponent.

``Memory`` keeps the latest view of every hand of the match a bot has seen; ``Profile`` is what those
hands say about one team: how many of its truco calls were bluffs (the caller's cards at the time of
the call, judged as the caller could judge them, ``judged_chance``), in the first round and after it,
how it answered our calls, and the tantos it sang after calling envido. ``maestro`` reads a rival's
calls with *these* rates instead of fixed ones, and prices its own bets by these answers.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Protocol

from truco.bots.base import ENVIDO_BETS
from truco.bots.card_reading import SPOTS, PlayRates, PlayRead, all_plays, was_sound
from truco.bots.evidence import judged_chance, results_key, two_types
from truco.bots.knowledge import envido_passes
from truco.bots.tables import ALL_HANDS, BY_TANTO, mask_of
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


class Profile:
    """What this match has shown of one rival team: its truco calls (bluffs and all, first round and
    later) and the tantos it held when it called envido."""

    def __init__(self) -> None:
        self.calls = [0, 0]
        self.bluffs = [0, 0]
        self.value_q: list[list[float]] = [[], [], []]
        """The chance behind each of its calls that was not a bluff (first round, later, raises)."""
        self.raises = 0
        """Its retrucos and vale cuatros seen well enough to judge …"""
        self.raise_bluffs = 0
        """… and of those, how many came from cards with little chance."""
        self.envido_tantos: list[int] = []
        self.envido_raise_tantos: list[int] = []
        """The same for its raises of an envido already called (a real or falta on an envido)."""
        self.first_call_tantos: dict[Do, list[int]] = {Do.ENVIDO: [], Do.REAL_ENVIDO: [], Do.FALTA_ENVIDO: []}
        """The tantos it held behind its envido openings, by the bet it opened with, as it sang them
        or its cards told them later (``_tanto_range``); bluffs (under ``envido_bluff_tanto``)
        count against the floor only (``maestro`` reads every opening by them)."""
        self.envido_shown = [0, 0]
        """Its envido calls whose tanto it sang, or its cards told later (envido or real envido,
        falta envido) …"""
        self.envido_bluffs = [0, 0]
        """… and of those, the ones on little tanto."""
        self.answered = [0, 0]
        """The other team's truco calls this team answered (first round, later) …"""
        self.folds = [0, 0]
        """… and of those, how many it declined."""
        self.envido_answered = [0, 0]
        """The other team's envido bets this team answered: bets that opened the envido or raised
        another bet of that team (0), and raises of a call of this team's own (1) …"""
        self.envido_folds = [0, 0]
        """… and of those, how many it declined. A team that called the envido holds a tanto, and
        takes a raise of it far more often than it takes a bet it did not ask for: ``dificil-1``
        declined 86 % of ``maestro``'s first envidos, and took 19 of 29 of its raises."""
        self.envido_raise_chances = [0, 0]
        """Its answers to the other team's envido bets that could have raised them (the last bet under
        the falta), and how many raised: how often it raises an envido whatever it holds
        (``envido_raise_any_rate``)."""
        self.truco_chances = [[0, 0] for _ in range(3)]
        """Its seats' chances to bet the truco, and how many it took (``truco_any_rate``), by phase:
        the hand's first truco in the first round (0) and after it (1), each chance a card played
        with no truco called yet or the call; a raise (2), each chance an answer to a truco or a
        retruco, a retruco or a vale cuatro taken (a decline of a truco of ours ends the hand
        before we see it: the answers seen are nearly all takes)."""
        self.envido_chances = [0, 0]
        """Its seats' chances to open the envido (a first turn, or a truco answered, with the envido
        open and not yet called), and how many of them they took: how often it calls, whatever it
        holds (``envido_any_rate``)."""
        self.passes = [0, 0]
        """Its seats' passes of the envido (a first card played, or a truco called, where it could
        have opened it) whose tanto it sang later or its cards told, and how many of them held
        two or more over ``pass_tanto`` …"""
        self.opened_high = 0
        """… and its openings of the envido on such a tanto, as the hand told it: of its tantos worth
        opening on, how often it kept one quiet (``pass_floor``)."""
        self.plays_read = [[0.0, 0.0] for _ in range(SPOTS)]
        """Its seats' readable cards (``card_reading``) in hands whose cards were seen, all or all but
        one (a share of a card for each card the unseen one could be), by spot (first round, later) …"""
        self.plays_sound = [[0.0, 0.0] for _ in range(SPOTS)]
        """… and of those, how many were ``sensible_card``'s choice (``play_rates``)."""

    def bluff_rate(self, late: bool, prior: tuple[float, float]) -> float:
        i = 1 if late else 0
        a, b = prior
        return (a + self.bluffs[i]) / (a + b + self.calls[i])

    def call_centre(self, phase: int, default: float, weight: float, gap: float) -> float:
        """Where a truco call of this team (``phase``: 0 first round, 1 later, 2 a raise) starts to
        be likely: the prior, moved by the chances behind the value calls it showed (their mean
        less ``gap``), each of them weighing 1 against the prior's ``weight``."""
        seen = self.value_q[phase]
        return (default * weight + sum(q - gap for q in seen)) / (weight + len(seen))

    def raise_bluff_rate(self, prior: tuple[float, float]) -> float:
        a, b = prior
        return (a + self.raise_bluffs) / (a + b + self.raises)

    def envido_floor(self, falta: bool, prior: tuple[float, float]) -> float:
        """How often an envido call (``falta``: a falta envido) of this team comes from any hand."""
        i = 1 if falta else 0
        a, b = prior
        return (a + self.envido_bluffs[i]) / (a + b + self.envido_shown[i])

    def pass_floor(self, prior: tuple[float, float]) -> float:
        """How often a seat of this team passes the envido with a tanto it could have opened on: of
        the tantos of two or more over ``pass_tanto`` it held at a chance to open, the share it passed.

        That share, not the share of high tantos among its passes, is how much a pass weighs against
        a world that gives the seat such a tanto: a team that never opens passes with every tanto
        (its passes hold a high tanto as often as any hand does, a sixth of the time), and a pass
        of its says nothing; one that opens every high tanto passes with none."""
        a, b = prior
        high = self.passes[1]
        return (a + high) / (a + b + high + self.opened_high)

    def envido_any_rate(self, honest: float) -> float:
        """How often this team opens the envido with a hand that does not hold the tanto (the
        ``floor`` of a call's likelihood), from how often it opened it.

        A caller that calls with the tanto, which ``honest`` of the hands hold, and with any other
        hand at rate ``b``, calls at ``honest + (1 - honest) * b``. The estimate is the mean of
        ``b`` under a prior that puts most of its weight on an honest caller (``b`` = 0) and the
        rest evenly on every rate: a caller at or under ``honest`` reads as 0 within a few chances,
        one who calls on most hands reads its rate within a match. The sung tantos
        (``envido_floor``) see only the calls that were taken, and a bluff that is folded to is
        never sung."""
        chances, calls = self.envido_chances
        return _any_rate(chances, calls, honest)

    def envido_raise_any_rate(self, honest: float) -> float:
        """How often this team raises the other team's envido bet whatever it holds, from how often
        it raised (``envido_any_rate``'s reading): a raise that is folded to is never sung, and one
        that is taken is sung only as the team's best tanto."""
        chances, raises = self.envido_raise_chances
        return _any_rate(chances, raises, honest)

    def truco_any_rate(self, honest: float, phase: int = 1) -> float:
        """How often this team bets the truco whatever it holds (``phase``: 0 a first truco in the
        first round, 1 after it, 2 a raise), from how often it bet (``envido_any_rate``'s reading):
        a truco that is folded to shows no card, so the bluffs the record can judge are few, where
        how often it bets is seen every hand."""
        chances, calls = self.truco_chances[phase]
        return _any_rate(chances, calls, honest)

    def passive(self, prior: float, rates: tuple[float, float, float], never: float) -> float:
        """The chance that this team never bets first: never opens the envido, never calls the hand's
        first truco (a player who lets the other side bet and takes it on), against one that bets on
        ``rates`` of its chances (to open the envido, to call a first-round truco, a later one).
        ``never`` is the first's rate, ``prior`` its chance before the match shows anything: each
        chance passed weighs a little for it, one bet of any kind heavily against it."""
        kinds = (self.envido_chances, *self.truco_chances[:2])
        return two_types(prior, [(chances, bets, never, rate)
                                 for (chances, bets), rate in zip(kinds, rates, strict=True)])

    def passive_share(self, prior: float, rates: tuple[float, float, float], never: float) -> float:
        """How far ``passive`` has moved from its prior toward 1 (0 at or under the prior): what a
        bot changes against this team, nothing before the match shows its habit."""
        moved = self.passive(prior, rates, never) - prior
        return moved / (1.0 - prior) if moved > 1e-12 else 0.0

    def opening_band(self, call: Do, default: float, spread: float, weight: float) -> tuple[float, float]:
        """The tanto behind an opening ``call`` and how far it strays from it (a standard deviation):
        the prior's ``default`` and ``spread``, worth ``weight`` tantos, moved by what it sang."""
        seen = self.first_call_tantos[call]
        mid = (default * weight + sum(seen)) / (weight + len(seen))
        var = (spread * spread * weight + sum((t - mid) ** 2 for t in seen)) / (weight + len(seen))
        return mid, math.sqrt(var)

    def play_rates(self, prior: PlayRates, weight: float) -> PlayRates:
        """How often this team plays the sound card in each spot: the prior, worth ``weight`` cards
        a spot, moved by the cards of it that were read (``plays_read``)."""
        rows = []
        for spot in range(SPOTS):
            row = []
            for later in (0, 1):
                p = prior[spot][later]
                if p <= 0.0:
                    row.append(p)  # a spot that is not read
                    continue
                seen = self.plays_read[spot][later]
                row.append((p * weight + self.plays_sound[spot][later]) / (weight + seen))
            rows.append((row[0], row[1]))
        return PlayRates(*rows)

    def envido_centre(self, default: float, raised: bool = False) -> float:
        """Where an envido call of this team speaks for: the prior, moved by what it sang after such
        calls (first calls and raises apart: a raise answers a call, and says more)."""
        seen = self.envido_raise_tantos if raised else self.envido_tantos
        return (default * 4 + sum(seen)) / (4 + len(seen))


def share_as_rate(share: float, held: float) -> float:
    """The rate at which a hand without the tanto makes a call, from the ``share`` of the calls that
    came from such hands, when ``held`` of all hands hold it: ``rate·(1 − held) / (rate·(1 − held)
    + held) = share``, taking every hand that holds it to call."""
    return share * held / ((1.0 - share) * (1.0 - held))


@cache
def tanto_share(at_least: int) -> float:
    """The share of three-card hands whose tanto is at least ``at_least``."""
    return sum(len(hands) for t, hands in BY_TANTO.items() if t >= at_least) / len(ALL_HANDS)


_RATES = tuple(i / 20 for i in range(20))
"""The rates ``b`` weighed: 0 to 0.95."""
_HONEST_PRIOR = 0.8
"""The prior's weight on an honest caller (``b`` = 0); the rest is spread evenly over 0.05–0.95."""


def _any_rate(chances: int, calls: int, honest: float) -> float:
    """The posterior mean of ``b`` after ``calls`` calls in ``chances`` (``envido_any_rate``); 0 for
    a caller who called no more often than an honest one."""
    if calls <= honest * chances:
        return 0.0
    logs = []
    for b in _RATES:
        q = honest + (1.0 - honest) * b
        prior = _HONEST_PRIOR if b == 0 else (1.0 - _HONEST_PRIOR) / (len(_RATES) - 1)
        miss = (chances - calls) * math.log(1.0 - q) if chances > calls else 0.0
        logs.append(math.log(prior) + calls * math.log(q) + miss)
    top = max(logs)
    weights = [math.exp(x - top) for x in logs]
    return sum(b * w for b, w in zip(_RATES, weights, strict=True)) / sum(weights)


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
