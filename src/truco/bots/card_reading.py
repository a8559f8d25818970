"""What a rival's card says about the cards it kept: card play read as evidence.

A rival following a round puts down, most of the time, what a plain, sound player would
(``tricks.sensible_card``): the lowest card that takes the round, its lowest when it cannot take
it or its partner already holds it. A rival that throws a low card on a round it could have taken
is telling that it could not; one that takes it with a high card when a lower one would do is
telling that it had no lower one. ``maestro`` weighs each world by how likely the rivals' cards
this hand were from the hands the world gives them: the card ``sensible_card`` picks from that
hand is played with the rate of its kind of spot (``PlayRates``), any other card shares the rest.

The rates start from how often ``dificil-1``'s seats played ``sensible_card``'s choice on their
real hands in 4 players (seed 9, 20 duplicate pairs, a one-off count over the arena's loop; see
docs/bots.md, "Reading the card play"), and move to this rival team's own (``profile.Profile.
play_rates``): every hand counts each readable card of the team as one more sound card or not,
where the seat's whole hand was seen, or shared over what its unseen card could have been where
all but one were (``rivals._read_play``): about 13 cards a rival team in a match of 4 players
against ``dificil-1`` (5 from the hands seen whole alone), spread over the spots, against ten a
spot for the prior. A first-round lead says nothing here (any card is sound there),
and a seat's last card is forced.
"""

from __future__ import annotations

from typing import NamedTuple

from truco.bots.knowledge import best_on_table
from truco.bots.sampling import World
from truco.bots.tricks import partner_covers, sensible_card
from truco.engine import PublicView, Seat, Team
from truco.engine.cards import POWER, Card

LEAD, PARTNER, WIN, WIN_COVERED, CANNOT = range(5)
"""Kinds of spot for the seat about to play, judged on the hand a world gives it."""


class PlayRates(NamedTuple):
    """How often a seat plays ``sensible_card``'s choice, by spot: (first round, later rounds)."""

    lead: tuple[float, float] = (0.0, 0.77)
    """0: no reading (any card leads a first round)."""
    partner: tuple[float, float] = (0.55, 0.77)
    win: tuple[float, float] = (0.75, 0.80)
    win_covered: tuple[float, float] = (0.62, 0.80)
    cannot: tuple[float, float] = (0.79, 0.97)

    def rate(self, spot: int, later: bool) -> float:
        return self[spot][later]


DIFICIL_1_RATES = PlayRates()
SPOTS = 5


class PlayRead(NamedTuple):
    """One card a rival played, with the round as it stood before it."""

    seat: Seat
    card: Card
    before: tuple[Card, ...]
    """Cards the seat had played in earlier rounds."""
    plays: tuple[tuple[Seat, Card], ...]
    results: tuple[Team, ...]
    covered: bool
    """A rival and then a partner of the seat still played after it (``tricks.partner_covers``)."""


def read_plays(pub: PublicView, me: Seat) -> list[PlayRead]:
    """The rivals' cards this hand that can be read: not a first-round lead, not a last card.
    None in a pica-pica (its duels are short, and the rates were counted on full hands)."""
    return [r for r in all_plays(pub) if r.seat & 1 != me & 1]


def all_plays(pub: PublicView) -> list[PlayRead]:
    """Every seat's cards this hand that can be read (``read_plays``)."""
    if pub.pica:
        return []
    n = pub.rules.players
    folded = 0
    for s in pub.folded:
        folded |= 1 << s
    played: dict[Seat, list[Card]] = {}
    out: list[PlayRead] = []
    for r, rnd in enumerate(pub.rounds):
        results = pub.results[:r]
        busy = 0
        for i, (s, c) in enumerate(rnd):
            before = played.setdefault(s, [])
            if r < 2 and (i > 0 or r > 0):
                out.append(PlayRead(s, c, tuple(before), rnd[:i], results,
                                    partner_covers(n, s, busy | folded)))
            before.append(c)
            busy |= 1 << s
    return out


def spot_of(hand: list[Card], r: PlayRead) -> int:
    if not r.plays:
        return LEAD
    best, teams = best_on_table(r.plays)
    if teams == 1 << (r.seat & 1):
        return PARTNER
    if any(POWER[c] > best for c in hand):
        return WIN_COVERED if r.covered and not r.results else WIN
    return CANNOT


def was_sound(r: PlayRead, dealt: tuple[Card, ...] | list[Card]) -> tuple[int, bool] | None:
    """The spot of a read card and whether it was ``sensible_card``'s, from the seat's real hand."""
    hand = [c for c in dealt if c not in r.before]
    if len(hand) < 2 or r.card not in hand:
        return None
    return spot_of(hand, r), sensible_card(hand, r.seat, r.plays, r.results) == r.card


def play_likelihood(w: World, reads: list[PlayRead], rates: tuple[PlayRates, PlayRates]) -> float:
    """How likely the rivals' read cards were from the hands world ``w`` gives them (``rates`` by
    team)."""
    x = 1.0
    for r in reads:
        hand = [c for c in w.hands[r.seat] if c not in r.before]
        if len(hand) < 2:
            continue
        a = rates[r.seat & 1].rate(spot_of(hand, r), bool(r.results))
        if a <= 0.0:
            continue
        if sensible_card(hand, r.seat, r.plays, r.results) == r.card:
            x *= a
        else:
            x *= (1.0 - a) / (len(hand) - 1)
    return x
