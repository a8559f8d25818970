"""What a call or an answer says about the hidden cards: a soft condition on the worlds.

Every bet of another seat is read as *evidence* (``Evidence``): a condition on one seat's tanto or
chance to win, or its team's best, that holds more or less sharply (``slope``) and is broken by a
share of bluffs and mistakes (``floor``). A sampled world is weighed by how well it explains them
all (``likelihood``). ``dificil`` reads every bet with fixed centres (``read_calls``); ``maestro``
moves them by what each rival has shown in the match; it judges a truco call as its caller could,
seeing the round on the table (``judged_chance``), and so does its memory of the past calls."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import NamedTuple

from truco.bots.base import ENVIDO_BETS
from truco.bots.knowledge import Knowledge, this_deal
from truco.bots.sampling import World
from truco.bots.tables import STRENGTH_OF, TANTO_OF
from truco.engine import PARDA, Do, PublicView, Team
from truco.engine.cards import POWER, Card
from truco.engine.types import FLOR_CALLS, TRUCO_CALLS

# The chance a team wins the hand from the start of a round, by players and the rounds so far from
# its side (W won, L lost, P parda): sig((x - centre) / scale), x its best seat's strength
# (``tables.STRENGTH_OF``) in the cards it still has to play. Fitted on playouts of random deals per
# table size with sound card play (``truco.bench.chance_fit``; see docs/bots.md).
CHANCE_FIT: dict[int, dict[str, tuple[float, float]]] = {
    2: {"": (13.0, 2.6), "L": (13.6, 2.3), "W": (9.4, 1.7), "P": (11.5, 2.0), "LW": (8.8, 1.7),
        "WL": (8.2, 1.4)},
    4: {"": (15.2, 2.3), "L": (15.8, 2.0), "W": (10.8, 1.7), "P": (13.3, 1.9), "LW": (9.6, 1.4),
        "WL": (9.0, 1.4)},
    6: {"": (16.4, 2.0), "L": (16.6, 1.7), "W": (11.8, 1.7), "P": (14.2, 1.7), "LW": (10.2, 1.1),
        "WL": (10.0, 1.1)},
    # python -m truco.bench.chance_fit --players 8 --deals 200000 (which gives back 6's row within 0.2)
    8: {"": (17.2, 1.7), "L": (17.2, 1.6), "W": (12.8, 1.4), "P": (15.2, 3.3), "LW": (10.7, 0.8),
        "WL": (10.3, 1.0)},
}


def chance(players: int, key: str, x: float) -> float:
    """A team's chance to win the hand judged from its own cards only (how a rival sees it)."""
    centre, scale = CHANCE_FIT[players].get(key) or CHANCE_FIT[players]["LW"]
    return sig((x - centre) / scale)


def _decided(key: str) -> float | None:
    """The hand's outcome for a team whose rounds read ``key`` (W, L, P), if those rounds settle it
    (a parda at one end goes to the other end's winner; three pardas: half, as the mano is unknown)."""
    if key.count("W") >= 2:
        return 1.0
    if key.count("L") >= 2:
        return 0.0
    if len(key) >= 2 and "P" in key[:2] and key[:2] != "PP":
        return 1.0 if "W" in key[:2] else 0.0
    if len(key) == 3:
        return 1.0 if key[2] == "W" else 0.0 if key[2] == "L" else 0.5
    return None


def judged_chance(n: int, key: str, held: int, seat: int, table: tuple[tuple[int, Card], ...],
                  rivals: int, mates: int) -> float:
    """A truco caller's chance as it could judge it at the call: its cards still in play (``held``,
    a mask that includes a card it has put on the table this round), the rounds so far (``key``)
    and, once all ``rivals`` seats have played this round, the round it takes, ties or loses with
    the card it plays (the lowest that wins, else the lowest). While one of its ``mates`` partners
    may still play, or a rival has not played, it is judged on its cards alone, as ``dificil`` does."""
    team = seat & 1
    best_r = best_m = own = -1
    rivals_seen = mates_seen = 0
    for s, c in table:
        if s & 1 != team:
            rivals_seen += 1
            best_r = max(best_r, POWER[c])
        elif s == seat:
            own = c
        else:
            mates_seen += 1
            best_m = max(best_m, POWER[c])
    if rivals_seen < rivals or not table:
        return chance(n, key, STRENGTH_OF[held])
    if own >= 0:
        card = own
    else:
        low = win = tie = -1  # its lowest card, lowest winning card, a tying card
        m = held
        while m:
            bit = m & -m
            c = bit.bit_length() - 1
            m ^= bit
            pw = POWER[c]
            if low < 0 or pw < POWER[low]:
                low = c
            if pw > best_r:
                if win < 0 or pw < POWER[win]:
                    win = c
            elif pw == best_r and tie < 0:
                tie = c
        if low < 0:
            return chance(n, key, STRENGTH_OF[held])
        card = low if best_m > best_r or (win < 0 and tie < 0) else win if win >= 0 else tie
    best = max(best_m, POWER[card])
    if best <= best_r and mates_seen < mates:
        return chance(n, key, STRENGTH_OF[held])  # a partner still to play may take the round
    after = key + ("W" if best > best_r else "P" if best == best_r else "L")
    settled = _decided(after)
    if settled is not None:
        return settled
    return chance(n, after, STRENGTH_OF[held & ~(1 << card)])


def results_key(results: tuple[Team, ...], team: Team) -> str:
    return "".join("P" if r == PARDA else "W" if r == team else "L" for r in results)


def two_types(prior: float, seen: Iterable[tuple[int, int, float, float]]) -> float:
    """The chance that a team is of the first of two types, ``prior`` before the match shows anything,
    after ``seen``: for each kind of chance, (chances, bets, the first type's rate, the second's)."""
    log_odds = math.log(prior / (1.0 - prior))
    for chances, bets, first, second in seen:
        passed = chances - bets
        log_odds += bets * math.log(first / second) + passed * math.log((1.0 - first) / (1.0 - second))
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(log_odds, 50.0))))


def sig(x: float) -> float:
    """The logistic function: a soft threshold at 0, from 0 to 1."""
    if x < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


class Evidence(NamedTuple):
    """One call or answer of another seat, as a soft condition on the hidden cards."""

    kind: int
    """0: a seat's own tanto, 1: a team's best tanto, 2: a seat's chance, 3: a team's chance."""
    who: int
    """The seat (kinds 0 and 2) or the team (kinds 1 and 3)."""
    centre: float
    slope: float
    """Negative when the action speaks for a weak hand (a "no quiero")."""
    floor: float
    """The chance the action is made whatever the hand (bluffs, mistakes)."""
    done: tuple[int, ...] = ()
    """Cards each seat had played in finished rounds by then (masks): a truco is judged on the cards
    still in play, and on the rounds so far (``key``), as it was judged at the table."""
    key: str = ""
    upper: float = math.inf
    """A tanto above which the call grows unlikely again (``maestro``: a caller holding more would
    have called more), on the same slope; none by default."""


def read_calls(k: Knowledge, pub: PublicView, call_chance: float, call_floor: float) -> list[Evidence]:
    """What the other seats' calls and answers this hand say about their hands, in order, as
    ``dificil`` reads them: an envido bet from 25 of tanto (28 for more), a truco call from
    ``call_chance`` to win (a raise: more), ``call_floor`` of them from any hand; an answer
    from the rational threshold of its bet."""
    out: list[Evidence] = []
    envido_called = False
    last_call: Do | None = None
    ends = []  # how many cards had been played when each finished round ended
    total = 0
    for rnd in pub.rounds[:len(pub.results)]:
        total += len(rnd)
        ends.append(total)
    done = [0] * k.n  # cards played in finished rounds
    this_round: list[tuple[int, Card]] = []
    plays_seen = 0
    rounds_done = 0
    for a in this_deal(pub):  # in a pica-pica, the current duel's
        s, do = a.seat, a.do
        if do is Do.PLAY and a.card is not None:
            this_round.append((s, a.card))
            plays_seen += 1
            if rounds_done < len(ends) and plays_seen == ends[rounds_done]:
                for x, card in this_round:
                    done[x] |= 1 << card
                this_round = []
                rounds_done += 1
            continue
        mine = s == k.me
        if do in ENVIDO_BETS:
            if not mine:
                c = 25.0 if do is Do.ENVIDO else 28.0
                if envido_called:
                    out.append(Evidence(1, s & 1, c, 2.0, 0.1))
                else:
                    out.append(Evidence(0, s, c, 2.0, 0.1))
            envido_called = True
            last_call = do
        elif do in TRUCO_CALLS:
            if not mine:
                key = results_key(pub.results[:rounds_done], s & 1)
                q0 = call_chance + 0.08 * TRUCO_CALLS.index(do)
                out.append(Evidence(2, s, q0, 0.1, call_floor, tuple(done), key))
            last_call = do
        elif do in FLOR_CALLS:
            last_call = do
        elif do is Do.QUIERO or do is Do.NO_QUIERO:
            if not mine:
                sign = 1.0 if do is Do.QUIERO else -1.0
                if last_call in ENVIDO_BETS:
                    out.append(Evidence(1, s & 1, 24.0, 2.0 * sign, 0.15))
                elif last_call in TRUCO_CALLS:
                    level = TRUCO_CALLS.index(last_call) + 1
                    key = results_key(pub.results[:rounds_done], s & 1)
                    q0 = 0.5 - level / (2 * (level + 1))
                    out.append(Evidence(3, s & 1, q0, 0.1 * sign, 0.15, tuple(done), key))
            last_call = None
    return out


def likelihood(w: World, evidence: list[Evidence], n: int) -> float:
    """How well world ``w`` explains the calls and answers the other seats made this hand."""
    x = 1.0
    masks = w.masks
    for e in evidence:
        if e.kind == 0:
            v: float = TANTO_OF[masks[e.who]]
        elif e.kind == 1:
            v = max(TANTO_OF[masks[s]] for s in range(e.who, n, 2))
        elif e.kind == 2:
            v = chance(n, e.key, STRENGTH_OF[masks[e.who] & ~e.done[e.who]])
        else:
            v = chance(n, e.key, max(STRENGTH_OF[masks[s] & ~e.done[s]] for s in range(e.who, n, 2)))
        x *= e.floor + (1.0 - e.floor) * sig((v - e.centre) / e.slope)
    return x
