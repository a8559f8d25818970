"""The rivals' decisions read through a model of a sensible player: the ``neural`` policy.

Every other reading ``maestro`` has is a likelihood written by hand for one kind of record (a call,
an answer, a card after a round, a pass of the envido). This one reads them all at once: in each kept
world, the hand so far is replayed, and at every decision a rival had (more than one legal action),
the ``neural`` network, ``maestro``'s self-play learnt, says how likely that rival was to do what it
did with the cards this world gives it. A world is weighed by the product, over those decisions, of
``eps / L + (1 - eps) * p`` (``p`` the softmax probability at ``temperature``, ``L`` the legal actions:
the floor keeps a world alive when the rival did what the model would not), and the worlds are drawn
again by those weights. A kind of bet the rival team is known to make on any hand at rate ``f`` (its
record's floor, above ``eps``) is read as ``f * top + (1 - f) * p``, ``top`` the model's probability of
that bet with the likeliest of the hands read there: a hand without the cards then makes it ``f`` times
as often as the hand that most wants to, as the hand-written readings weigh such a bet.

Only the seat's own cards differ between worlds; the rest of each decision's view is public. So the
hand is replayed once (in any kept world: they all agree with the record), each decision's features
are built once, and only the own-hand numbers are written per distinct hand (``features_for_hands``),
and every row goes through the network in one batch. With flor what a seat may do depends on its
hand too (a flor holder may sing flor and may not call the envido): the legal actions are taken once
for the worlds that give the seat a flor and once for those that do not (``dealt_to``). Pica-pica
splits the hand in duels of two, which the network was not taught: it is not read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt

from truco.bots.evidence import two_types
from truco.bots.neural import features_for_hands, legal_mask, output_index, shipped
from truco.bots.sampling import World
from truco.engine import Do, SeatView, apply, new_match, view_for
from truco.engine.cards import Card, has_flor
from truco.engine.state import State
from truco.engine.types import IllegalAction


def policy_weights(view: SeatView, worlds: list[World], eps: float, temperature: float,
                   floors: Mapping[tuple[int, Do], float] | None = None,
                   skip: frozenset[Do] = frozenset()) -> list[float] | None:
    """One weight per world in ``worlds`` (repeats included): how well the rivals' decisions this hand
    fit the cards it gives them. ``floors``: a higher ``eps`` for a (team, kind of action) that team
    is known to take on any hand (its bluffs), which the model of a sensible player would misread.
    ``skip``: the kinds of decision not read (``maestro`` leaves the truco calls to ``read_call``).
    ``None`` when nothing is read (pica-pica, no rival decision with a choice)."""
    p = view.public
    if p.pica or not worlds:
        return None
    team = view.team
    index: dict[int, int] = {}
    uniq: list[World] = []
    for w in worlds:
        if id(w) not in index:
            index[id(w)] = len(uniq)
            uniq.append(w)
    st, _ = new_match(p.rules, dealer=p.dealer, hands=uniq[0].hands, score=p.start_score,
                      chicos=p.start_chicos, hand_no=p.hand_no, pica=p.pica)
    blocks: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    taken: list[int] = []
    floor: list[float] = []
    starts: list[int] = []
    owners: list[list[int]] = []
    for a in p.history:
        s = a.seat
        if s & 1 != team:
            sv = view_for(st, s)
            if len(sv.legal) > 1 and a in sv.legal and a.do not in skip:
                by_hand: dict[tuple[Card, ...], list[int]] = {}
                for i, w in enumerate(uniq):
                    by_hand.setdefault(w.hands[s], []).append(i)
                hands = list(by_hand)
                x, still = features_for_hands(sv, hands)
                blocks.append(x)
                starts.append(len(taken))
                by_flor: dict[bool, npt.NDArray[np.bool_]] = {}  # its legal actions, with a flor or not
                at = max(eps, floors.get((s & 1, a.do), eps)) if floors else eps
                for h, held in zip(hands, still, strict=True):
                    flor = p.rules.flor and has_flor(h)
                    mask = by_flor.get(flor)
                    if mask is None:
                        mask = by_flor[flor] = legal_mask(view_for(dealt_to(st, s, h, held), s)
                                                          if p.rules.flor else sv)
                    masks.append(mask)
                    floor.append(at)
                    taken.append(output_index(held, a) if a.card is None or a.card in held else -1)
                    owners.append(by_hand[h])
        try:
            st, _ = apply(st, a)
        except IllegalAction:
            break
    if not blocks:
        return None
    scores = shipped().scores(np.concatenate(blocks)) / temperature
    m = np.stack(masks)
    scores = np.where(m, scores, -np.inf)
    scores -= scores.max(axis=1, keepdims=True)
    e = np.exp(scores)
    t = np.asarray(taken)
    ok = t >= 0
    prob = np.where(ok, e[np.arange(len(t)), np.maximum(t, 0)] / e.sum(axis=1), 0.0)
    f = np.asarray(floor)
    top = np.repeat(np.maximum.reduceat(prob, starts), np.diff([*starts, len(prob)]))
    const = np.where(f > eps, np.maximum(top, 1e-12), 1.0 / m.sum(axis=1))
    like = f * const + (1.0 - f) * prob
    logw = np.zeros(len(uniq))
    logs = np.log(like)
    for row, who in enumerate(owners):
        logw[who] += logs[row]
    logw -= logw.max()
    w_uniq = np.exp(logw)
    return [float(w_uniq[index[id(w)]]) for w in worlds]


def dealt_to(st: State, seat: int, dealt: tuple[Card, ...], held: tuple[Card, ...]) -> State:
    """``st`` with ``seat`` dealt ``dealt`` and holding ``held`` of it (the cards it has played kept)."""
    alt = st.copy()
    alt.dealt = (*st.dealt[:seat], dealt, *st.dealt[seat + 1:])
    alt.held = (*st.held[:seat], held, *st.held[seat + 1:])
    return alt


def bettor_share(seen: Sequence[tuple[int, int, float]], prior: float, rate: float) -> float:
    """How often a team makes a kind of bet on any hand, for the policy's floors: the chance that it
    is a team that bets at ``rate`` whatever it holds rather than one that bets when its cards are
    worth it, times ``rate``. ``seen``: for each kind of chance, (chances, bets, the honest rate: the
    share of hands worth that bet). ``prior``: that chance before the match shows anything.

    Two types, not a spread of rates (``rivals._any_rate``): a team that bets the envido at every
    chance reads as one after two or three of them, where a spread needs twice as many, and a match
    against such a team lasts only a few hands; one pass reads a team that opens a third of its
    chances, as ``dificil-1`` does, as honest."""
    return rate * two_types(prior, [(chances, bets, honest + (1.0 - honest) * rate, honest)
                                    for chances, bets, honest in seen])
