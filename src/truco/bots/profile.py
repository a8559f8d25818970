"""What a match has shown of one rival team (``Profile``): the rates ``maestro`` reads its calls with.

``rivals.Memory`` reads every hand of the match into one ``Profile`` per team: how many of its truco
calls were bluffs, in the first round and after it, how it answered our calls, the tantos it sang
after calling envido, how it played its cards. This module holds the profile and what it derives
from those counts (the floors and bands the calls are read with), and nothing of how a hand is read.
"""

from __future__ import annotations

import math
from functools import cache

from truco.bots.card_reading import SPOTS, PlayRates
from truco.bots.evidence import two_types
from truco.bots.tables import ALL_HANDS, BY_TANTO
from truco.engine import Do


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
        or its cards told them later (``rivals._tanto_range``); bluffs (under ``envido_bluff_tanto``)
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
