"""What one seat knows about a hand, read from its view alone: cards seen, tantos sung, seats.

Everything here is derived from a ``SeatView``; nothing can reach the hidden cards of another seat.
"""

from __future__ import annotations

from dataclasses import dataclass

from truco.bots.senas import SenaRule, rule_of
from truco.engine import Action, Do, PublicView, Seat, SeatView, Team
from truco.engine.cards import POWER, Card
from truco.engine.types import ENVIDO_CALLS, FLOR_CALLS, TRUCO_CALLS

NO_LIMIT = 99


@dataclass(slots=True)
class Knowledge:
    view: SeatView
    n: int
    me: Seat
    team: Team
    mano: Seat
    played: list[list[Card]]
    """Cards each seat has played this hand, in order."""
    unseen: list[Card]
    """Cards this seat has not seen: in another seat's hand or never dealt."""
    tanto_exact: list[int | None]
    tanto_max: list[int]
    """Upper bound from a "son buenas" (tanto ≤ the best sung before it)."""
    flor_exact: list[int | None]
    has_flor: list[bool]
    """Seats known to hold a flor (they sang it or answered one)."""
    no_flor: list[bool]
    """Seats known to hold no flor: they opened an envido at a flor table (closed to a flor holder),
    or let a rival's flor go uncontested while they could still have answered it."""
    folded: int
    """Bit mask of seats in the mazo."""
    sena_rules: list[SenaRule | None]
    """What each partner's señas this hand say of their cards (``None``: nothing)."""
    shown: list[tuple[Card, ...] | None]
    """Seats whose three cards the table showed (rule 13; in a pica-pica, at the end of a duel)."""

    @property
    def round_no(self) -> int:
        return len(self.view.public.results)

    @property
    def plays(self) -> tuple[tuple[Seat, Card], ...]:
        """The current round's cards so far."""
        rounds = self.view.public.rounds
        if rounds and len(rounds) > len(self.view.public.results):
            return rounds[-1]
        return ()

    def active(self, seat: Seat) -> bool:
        return not (self.folded >> seat) & 1

    def opponents(self) -> list[Seat]:
        return [s for s in range(1 - self.team, self.n, 2) if self.active(s)]

    def partners(self) -> list[Seat]:
        return [s for s in range(self.team, self.n, 2) if s != self.me and self.active(s)]

    def order_from_mano(self) -> list[Seat]:
        return [(self.mano + i) % self.n for i in range(self.n)]

    def pie(self, team: Team) -> Seat:
        """The team's last seat in the order of play from the mano: it sees most before deciding."""
        return [s for s in self.order_from_mano() if s & 1 == team][-1]


def knowledge(view: SeatView, envido_senas: bool = True) -> Knowledge:
    """Everything public about the hand, from ``view``; the partners' señas as rules on their cards
    (``envido_senas`` False: what they say of the cards only, ``senas.rule_of``)."""
    p = view.public
    n = p.rules.players
    played: list[list[Card]] = [[] for _ in range(n)]
    for _, _, _, duel_rounds, _ in p.duels:  # pica-pica: the duels already played this hand
        for rnd in duel_rounds:
            for s, c in rnd:
                played[s].append(c)
    for rnd in p.rounds:
        for s, c in rnd:
            played[s].append(c)
    seen = set(view.dealt)
    for cards in played:
        seen.update(cards)
    for _, shown in p.shown:
        seen.update(shown)
    tanto_exact: list[int | None] = [None] * n
    tanto_max = [NO_LIMIT] * n
    flor_exact: list[int | None] = [None] * n
    best = -1
    for s, t, is_flor in p.sung:
        if is_flor:
            flor_exact[s] = t
        elif t < 0:
            tanto_max[s] = min(tanto_max[s], best)  # "son buenas": not better than the best so far
        else:
            tanto_exact[s] = t
            best = t
    has_flor = [False] * n
    no_flor = [False] * n
    envido_opened = False
    played_round1 = 0
    duel = -1
    for i, a in enumerate(p.history):
        if p.pica and duel_of(p, a.seat) != duel:  # a pica-pica's next duel: a deal of its own
            duel = duel_of(p, a.seat)
            envido_opened = False
            played_round1 = 0
        if a.do is Do.PLAY:
            played_round1 |= 1 << a.seat
        elif a.do in FLOR_CALLS:
            has_flor[a.seat] = True
            if a.do is Do.FLOR and not _contested(p, i):
                # an uncontested flor: no rival able to answer it then held one (in a pica-pica
                # duel the one rival is the seat facing the singer)
                rivals = [(a.seat + 3) % 6] if p.pica else [s for s in range(1 - (a.seat & 1), n, 2)
                                                             if s not in p.folded]
                for s in rivals:
                    if not (played_round1 >> s) & 1:
                        no_flor[s] = True
        elif a.do in ENVIDO_CALLS:
            if not envido_opened and p.rules.flor:
                no_flor[a.seat] = True  # opening an envido is closed to a flor holder
            envido_opened = True
    for s in range(n):
        if flor_exact[s] is not None:
            has_flor[s] = True
    folded = 0
    for s in p.folded:
        folded |= 1 << s
    unseen = [c for c in range(40) if c not in seen]
    sena_rules: list[SenaRule | None] = [None] * n
    for s in range(view.team, n, 2):
        if s != view.seat:
            sena_rules[s] = rule_of([x for seat, x in view.senas if seat == s], envido_senas)
    return Knowledge(view=view, n=n, me=view.seat, team=view.team, mano=p.mano, played=played,
                     unseen=unseen, tanto_exact=tanto_exact, tanto_max=tanto_max, flor_exact=flor_exact,
                     has_flor=has_flor, no_flor=no_flor, folded=folded, sena_rules=sena_rules,
                     shown=[dict(p.shown).get(s) for s in range(n)])


def duel_of(p: PublicView, seat: Seat) -> int:
    """Pica-pica: the duel ``seat`` plays this hand (each seat plays one; ``engine.deal.duel_pair``)."""
    return (seat - p.dealer - 1) % 3


def this_deal(p: PublicView) -> tuple[Action, ...]:
    """The actions of the hand being played: in a pica-pica, of the current duel only."""
    if p.duel < 0:
        return p.history
    return tuple(a for a in p.history if duel_of(p, a.seat) == p.duel)


def envido_passes(p: PublicView) -> list[Seat]:
    """The seats that passed the envido this hand, in order: each played its first card, or called
    the first truco, while the envido was open (the first round, none called, no truco taken on or
    raised, no flor). None in a pica-pica (each duel's first round is short and its seats few)."""
    if p.pica:
        return []
    first_round = len(p.rounds[0]) if p.results else 99
    out: list[Seat] = []
    plays = 0
    open_ = True
    truco_pending = False
    for a in p.history:
        do = a.do
        if do is Do.PLAY:
            if open_:
                out.append(a.seat)
            plays += 1
            if plays >= first_round:
                break
        elif do is Do.TRUCO:
            if open_:
                out.append(a.seat)
            truco_pending = True
        elif do in TRUCO_CALLS or do in ENVIDO_CALLS or do in FLOR_CALLS:
            open_ = False  # a raise takes the truco on (rule 7); an envido or a flor closes it
        elif do is Do.QUIERO or do is Do.NO_QUIERO:
            if truco_pending and do is Do.QUIERO:
                open_ = False
            truco_pending = False
    return out


def _contested(p: PublicView, i: int) -> bool:
    """Whether the flor sung at ``p.history[i]`` waited for an answer from a rival flor."""
    if i + 1 < len(p.history):
        nxt = p.history[i + 1]
        return nxt.do in FLOR_CALLS and nxt.seat & 1 != p.history[i].seat & 1
    return p.pending == "flor"


def best_on_table(plays: tuple[tuple[Seat, Card], ...] | list[tuple[Seat, Card]]) -> tuple[int, int]:
    """(highest power played this round, bit mask of the teams holding it)."""
    best, teams = -1, 0
    for s, c in plays:
        pw = POWER[c]
        if pw > best:
            best, teams = pw, 1 << (s & 1)
        elif pw == best:
            teams |= 1 << (s & 1)
    return best, teams
