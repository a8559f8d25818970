"""Deals that could be the real one: the unseen cards placed consistently with everything public.

A sampled *world* gives every seat three dealt cards: this seat's own, and for the others the cards
they have played plus hidden ones drawn from the unseen cards, so that every tanto or flor the table
sang, every "son buenas" and every flor called holds in it. ``rebuild`` turns a world into an engine
state by replaying the public history, which is how the tests prove the worlds consistent.
"""

from __future__ import annotations

import functools
import random
from typing import NamedTuple

from truco.bots.knowledge import Knowledge
from truco.bots.senas import SenaRule
from truco.bots.tables import BY_FLOR, BY_TANTO, EVERY_HAND, FLOR_HANDS, FLOR_MASKS, TANTO_OF, mask_of
from truco.engine import SeatView, State, apply, new_match
from truco.engine.cards import Card, has_flor


class World(NamedTuple):
    """Every seat's three dealt cards, and the same as bit masks."""

    hands: list[tuple[Card, ...]]
    masks: list[int]


@functools.lru_cache(maxsize=256)
def fitting(rule: SenaRule) -> list[tuple[int, tuple[Card, ...]]]:
    """Every three-card hand a partner's señas allow (the same few rules come back all match)."""
    return [x for x in EVERY_HAND if rule.holds(x[0], TANTO_OF[x[0]])]


class Sampler:
    """Draws worlds for one decision. Candidate hands for seats with a known tanto are filtered once."""

    def __init__(self, k: Knowledge) -> None:
        self.k = k
        self.unseen_mask = mask_of(k.unseen)
        self.played_mask = [mask_of(p) for p in k.played]
        self.my_mask = mask_of(k.view.dealt)
        self.fixed: list[tuple[int, list[tuple[int, tuple[Card, ...]]]]] = []
        self.free: list[int] = []
        for s in range(k.n):
            if s == k.me:
                continue
            cands: list[tuple[int, tuple[Card, ...]]] | None = None
            shown = k.shown[s]
            shown_mask = mask_of(shown) if shown is not None else 0
            if shown is not None:  # the table showed this seat's cards: its hand is known
                cands = [(shown_mask, shown)]
            elif k.flor_exact[s] is not None:
                cands = BY_FLOR.get(k.flor_exact[s] or 0, [])
            elif k.tanto_exact[s] is not None:
                cands = BY_TANTO.get(k.tanto_exact[s] or 0, [])
            elif k.has_flor[s]:
                cands = FLOR_HANDS
            rule = k.sena_rules[s]
            if rule is not None and shown is None:  # a partner's señas: only the hands they fit
                cands = (fitting(rule) if cands is None
                         else [x for x in cands if rule.holds(x[0], TANTO_OF[x[0]])])
            if cands is None:
                self.free.append(s)
                continue
            pm = self.played_mask[s]
            allowed = self.unseen_mask | pm | shown_mask
            ok = [(m & ~pm, h) for m, h in cands if m & pm == pm and m & ~allowed == 0
                  and not (k.no_flor[s] and has_flor(h) and shown is None)]
            if ok:
                self.fixed.append((s, ok))
            else:  # cannot happen with a true view; sample the seat freely rather than fail
                self.free.append(s)
        self.fixed.sort(key=lambda x: len(x[1]))
        flor_table = k.view.public.rules.flor
        self.free_info = [(s, tuple(k.played[s]), self.played_mask[s], k.tanto_max[s],
                           flor_table and k.no_flor[s]) for s in self.free]

    def pin(self, seat: int, hand: tuple[Card, ...]) -> None:
        """Deal ``seat`` exactly ``hand`` in every world. Only a bench that knows the deal does this
        (``truco.bench.oracle``, what knowing a seat's cards would be worth); a bot never can."""
        pm = self.played_mask[seat]
        self.fixed = [(seat, [(mask_of(hand) & ~pm, hand)])] + [x for x in self.fixed if x[0] != seat]
        self.free_info = [x for x in self.free_info if x[0] != seat]

    def world(self, rng: random.Random, tries: int = 30) -> World:
        """One consistent world (``tries``: fresh starts when seats with a known tanto collide)."""
        k = self.k
        hands: list[tuple[Card, ...]] = [()] * k.n
        masks = [0] * k.n
        hands[k.me] = k.view.dealt
        masks[k.me] = self.my_mask
        rand = rng.random
        for _ in range(tries + 1):
            used = 0
            good = True
            for s, cands in self.fixed:
                pick = None
                for _ in range(8):
                    m, h = cands[int(rand() * len(cands))]
                    if m & used == 0:
                        pick = (m, h)
                        break
                if pick is None:
                    free = [x for x in cands if x[0] & used == 0]
                    if not free:
                        good = False
                        break
                    pick = free[int(rand() * len(free))]
                used |= pick[0]
                hands[s] = pick[1]
                masks[s] = pick[0] | self.played_mask[s]
            if not good:
                continue
            # a partial Fisher-Yates shuffle of the cards left, seat by seat; a seat whose hand breaks
            # its bounds (son buenas, no flor) draws again from the same cards
            pool = [c for c in k.unseen if not (used >> c) & 1] if used else list(k.unseen)
            size = len(pool)
            i = 0
            for s, played, pmask, limit, forbid_flor in self.free_info:
                start = i
                for _ in range(50):
                    i = start
                    hand = list(played)
                    m = pmask
                    while len(hand) < 3:
                        j = i + int(rand() * (size - i))
                        c = pool[j]
                        pool[j] = pool[i]
                        pool[i] = c
                        i += 1
                        hand.append(c)
                        m |= 1 << c
                    if TANTO_OF[m] <= limit and not (forbid_flor and m in FLOR_MASKS):
                        break
                hands[s] = tuple(hand)
                masks[s] = m
            return World(list(hands), list(masks))
        raise ValueError("no deal is consistent with this view")


def rebuild(view: SeatView, world: World) -> State:
    """The engine state this world and the public history lead to (raises if they disagree)."""
    p = view.public
    st, _ = new_match(p.rules, dealer=p.dealer, hands=world.hands, score=p.start_score, chicos=p.start_chicos,
                      hand_no=p.hand_no, pica=p.pica)
    for a in p.history:
        st, _ = apply(st, a)
    return st


def resample(pool: list[World], weights: list[float], count: int, rng: random.Random) -> list[World]:
    """Systematic resampling: ``count`` worlds drawn in proportion to their weights."""
    total = sum(weights)
    if total <= 0:
        return pool[:count]
    step = total / count
    u = rng.random() * step
    out: list[World] = []
    acc = 0.0
    i = -1
    for j in range(count):
        target = u + j * step
        while acc <= target and i < len(pool) - 1:
            i += 1
            acc += weights[i]
        out.append(pool[i])
    return out
