"""``neural``: a policy network distilled from the search's self-play, served with numpy alone.

A seat's view is written as a fixed vector of numbers (``features``): the table size and score, the
seat's cards by truco power and its tanto, the round and who took the rounds before, the cards on
the table, what is bet (truco level, envido chain, what waits for an answer), the tantos sung, and
which of the top cards this seat has seen. A small network (two hidden layers, ReLU) scores the
sixteen kinds of action (``ACTIONS``: a card by its rank in the hand, each call, each answer, the
mazo); the legal one with the highest score is played. The network is trained by ``truco train``
(``truco.bots.training``) to predict what a teacher level chose in matches against itself, and its
weights ship with the package (``weights/neural.npz``, 82 KB).

Deciding takes no search: a forward pass through about 21,000 weights (``truco.bench.neural`` measures
it). It is a pure function of the view, as every level is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np
import numpy.typing as npt

from truco.bots.base import ViewBot, forced
from truco.bots.equity import equity, falta_points
from truco.bots.knowledge import Knowledge, best_on_table, knowledge
from truco.bots.tricks import partner_covers
from truco.engine import Action, Do, SeatView
from truco.engine.cards import NAME, POWER, Card, has_flor, tanto
from truco.engine.types import ENVIDO_CALLS, TRUCO_CALLS

Vector = npt.NDArray[np.float32]

ACTIONS: tuple[Do, ...] = (
    Do.PLAY, Do.PLAY, Do.PLAY,  # the hand's strongest card, the next, the weakest
    Do.ENVIDO, Do.REAL_ENVIDO, Do.FALTA_ENVIDO, Do.TRUCO, Do.RETRUCO, Do.VALE_CUATRO,
    Do.QUIERO, Do.NO_QUIERO, Do.MAZO,
    Do.FLOR, Do.CONTRA_FLOR, Do.CONTRA_FLOR_AL_RESTO, Do.CON_FLOR_ME_ACHICO,
)
"""The network's outputs: index 0–2 plays the card of that rank in the hand (strongest first)."""
_INDEX = {do: i for i, do in enumerate(ACTIONS) if do is not Do.PLAY}
_PENDING = (Do.ENVIDO, Do.REAL_ENVIDO, Do.FALTA_ENVIDO, Do.TRUCO, Do.RETRUCO, Do.VALE_CUATRO,
            Do.FLOR, Do.CONTRA_FLOR, Do.CONTRA_FLOR_AL_RESTO)
_TOP = tuple(c for c in range(40) if POWER[c] >= 11)  # the four matas: 1e, 1b, 7e, 7o
_THREES_TWOS_ACES = tuple(tuple(c for c in range(40) if POWER[c] == pw) for pw in (10, 9, 8))
_SIZES = (2, 4, 6, 8)
_TRUCO_LEVELS = (None, Do.TRUCO, Do.RETRUCO, Do.VALE_CUATRO)


def ranked(cards: tuple[Card, ...]) -> list[Card]:
    """A hand by truco power, strongest first (equal powers by card number, so the order is fixed)."""
    return sorted(cards, key=_RANK_KEY.__getitem__)


_RANK_KEY = tuple(-POWER[c] * 40 + c for c in range(40))
"""``ranked``'s order as one number a card: the stronger first, then the lower card number."""


def features(view: SeatView, k: Knowledge | None = None) -> Vector:
    """The view as ``N_FEATURES`` numbers, each about 0 to 1 (``k``: the view's ``knowledge``, when the
    caller has it)."""
    p = view.public
    if k is None:
        k = knowledge(view)
    n = k.n
    team = view.team
    target = p.rules.target
    f: list[float] = [float(n == s) for s in _SIZES]
    f += [float(p.rules.flor), float(p.rules.pica_pica), float(target == 15)]
    f += [((view.seat - p.mano) % n) / (n - 1), float(p.mano & 1 == team)]
    mine, theirs = p.score[team], p.score[1 - team]
    half = target // 2
    f += [mine / target, theirs / target, float(mine >= half), float(theirs >= half),
          equity(p, team, 0, 0), falta_points(p, team) / target, falta_points(p, 1 - team) / target]
    # the round and the rounds before
    round_no = len(p.results)
    f += [float(round_no == r) for r in range(3)]
    for r in range(2):
        res = p.results[r] if r < len(p.results) else None
        f += [float(res == team), float(res == 1 - team), float(res is not None and res not in (0, 1))]
    # my cards
    assert len(f) == OWN_AT
    f += own_cards(view.cards, view.dealt, view.my_tanto, view.my_flor)
    # the round on the table
    plays = k.plays
    rival = [POWER[c] for s, c in plays if s & 1 != team]
    partner = [POWER[c] for s, c in plays if s & 1 == team]
    f += [float(bool(rival)), max(rival, default=0) / 14, float(bool(partner)), max(partner, default=0) / 14]
    winning = False
    if plays:
        _, teams = best_on_table(plays)
        winning = teams == 1 << team
    busy = k.folded
    for s, _ in plays:
        busy |= 1 << s
    waiting = [s for s in range(n) if not (busy >> s) & 1 and s != view.seat]
    f += [float(winning), float(not plays), len(waiting) / (n - 1)]
    f += [float(any(s & 1 == team for s in waiting)), float(any(s & 1 != team for s in waiting)),
          float(partner_covers(n, view.seat, busy))]
    # what rivals and partners played before, and what is left to them
    seen_rival = [POWER[c] for s in range(n) if s & 1 != team for c in k.played[s]]
    seen_partner = [POWER[c] for s in k.partners() for c in k.played[s][:round_no]]
    f += [max(seen_partner, default=0) / 14]
    f += [max(seen_rival, default=0) / 14, sum(3 - len(k.played[s]) for s in k.opponents()) / (1.5 * n)]
    f += [sum(3 - len(k.played[s]) for s in k.partners()) / (1.5 * n), bin(k.folded).count("1") / n]
    assert len(f) == SEEN_AT
    f += top_seen(set(range(40)).difference(k.unseen))
    # the bets
    f += [float(p.truco_level == lv) for lv in _TRUCO_LEVELS]
    f += [p.truco_value / 4, float(p.truco_level is not None and p.truco_owner == team)]
    f += [float(p.pending == kind) for kind in ("truco", "envido", "flor")]
    f += [float(p.pending_call is do) for do in _PENDING]
    f += [float(p.pending is not None and p.answer_team == team)]
    chain = p.envido_chain
    f += [chain.count(Do.ENVIDO) / 2, float(Do.REAL_ENVIDO in chain), float(Do.FALTA_ENVIDO in chain)]
    stake = p.envido_stake
    f += [float(stake is not None and stake[0] is None),
          (stake[0] / 15 if stake is not None and stake[0] is not None else 0.0),
          (stake[1] / 15 if stake is not None else 0.0), float(p.envido_open), float(bool(p.flor_chain))]
    called = {t: [False, False] for t in (0, 1)}
    for a in p.history:
        if a.do in ENVIDO_CALLS:
            called[a.seat & 1][0] = True
        elif a.do in TRUCO_CALLS:
            called[a.seat & 1][1] = True
    f += [float(called[team][0]), float(called[1 - team][0]), float(called[team][1]),
          float(called[1 - team][1])]
    sung_mine = [t for s, t, fl in p.sung if s & 1 == team and not fl and t >= 0]
    sung_theirs = [t for s, t, fl in p.sung if s & 1 != team and not fl and t >= 0]
    f += [float(bool(sung_mine)), max(sung_mine, default=0) / 33, float(bool(sung_theirs)),
          max(sung_theirs, default=0) / 33]
    return np.asarray(f, dtype=np.float32)


N_FEATURES = 94
"""The length of ``features``' vector (a test checks it against a real view)."""
OWN_AT = 25
"""Where ``own_cards`` sits in the vector (twelve numbers)."""
SEEN_AT = 52
"""Where ``top_seen`` sits in the vector (seven numbers)."""


def own_cards(cards: tuple[Card, ...], dealt: tuple[Card, ...], my_tanto: int, my_flor: bool) -> list[float]:
    """The part of ``features`` that is the seat's own hand: what it holds and was dealt, by power."""
    hand = ranked(cards)
    f: list[float] = []
    for i in range(3):
        f += [float(i < len(hand)), POWER[hand[i]] / 14 if i < len(hand) else 0.0]
    by_power = ranked(dealt)
    f += [POWER[by_power[i]] / 14 if i < len(by_power) else 0.0 for i in range(3)]
    f += [my_tanto / 33, float(my_tanto >= 27), float(my_flor)]
    return f


def top_seen(seen: set[Card]) -> list[float]:
    """Which of the matas, and how many threes, twos and aces, the seat has seen (held, played or shown)."""
    f = [float(c in seen) for c in _TOP]
    f += [sum(1 for c in cards if c in seen) / 4 for cards in _THREES_TWOS_ACES]
    return f


def features_for_hands(view: SeatView, hands: Sequence[tuple[Card, ...]]
                       ) -> tuple[Vector, list[tuple[Card, ...]]]:
    """``features`` of ``view`` as it would read with each of ``hands`` dealt to the seat instead, one row
    per hand, and each hand's cards still held. Everything but the seat's own cards is public, so the
    public part is built once. Each hand must hold the cards the seat has played; the seat's legal
    actions are the same whatever it holds only without flor (``legal_mask``)."""
    k = knowledge(view)
    base = features(view, k)
    held = set(view.cards)
    played = set(view.dealt).difference(held)
    public_seen = set(range(40)).difference(k.unseen).difference(held)
    base[SEEN_AT:SEEN_AT + 7] = top_seen(public_seen)
    flor = view.public.rules.flor
    x = np.repeat(base[None, :], len(hands), axis=0)
    still: list[tuple[Card, ...]] = []
    for i, dealt in enumerate(hands):
        cards = tuple(c for c in dealt if c not in played)
        still.append(cards)
        x[i, OWN_AT:OWN_AT + 12] = own_cards(cards, dealt, tanto(dealt), flor and has_flor(dealt))
        for c in dealt:
            if _SEEN_STEP[c] and c not in public_seen:
                x[i, _SEEN_SLOT[c]] += _SEEN_STEP[c]
    return x, still


def _seen_slots() -> tuple[list[int], list[float]]:
    """For each card, where seeing it shows in the row (``top_seen``) and by how much."""
    slot, step = [0] * 40, [0.0] * 40
    for i, c in enumerate(_TOP):
        slot[c], step[c] = SEEN_AT + i, 1.0
    for j, cards in enumerate(_THREES_TWOS_ACES):
        for c in cards:
            slot[c], step[c] = SEEN_AT + len(_TOP) + j, 0.25
    return slot, step


_SEEN_SLOT, _SEEN_STEP = _seen_slots()


def action_index(view: SeatView, action: Action) -> int:
    """Where ``action`` sits among the network's outputs."""
    return output_index(view.cards, action)


def output_index(cards: tuple[Card, ...], action: Action) -> int:
    """Where ``action`` sits among the network's outputs, for a seat holding ``cards``."""
    if action.do is Do.PLAY:
        assert action.card is not None
        return ranked(cards).index(action.card)
    return _INDEX[action.do]


def legal_mask(view: SeatView) -> npt.NDArray[np.bool_]:
    mask = np.zeros(len(ACTIONS), dtype=np.bool_)
    for a in view.legal:
        mask[action_index(view, a)] = True
    return mask


@dataclass(frozen=True)
class Net:
    """A multilayer perceptron: ReLU between the layers, raw scores out."""

    weights: tuple[npt.NDArray[np.float32], ...]
    biases: tuple[npt.NDArray[np.float32], ...]

    def scores(self, x: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """Scores for one feature vector or a batch of them (one per row)."""
        h = x
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            h = h @ w + b
            if i < last:
                h = np.maximum(h, 0.0)
        return h

    def save(self, path: Path, meta: dict[str, str]) -> None:
        arrays: dict[str, npt.NDArray[np.float32] | npt.NDArray[np.str_]] = {}
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            arrays[f"w{i}"] = w.astype(np.float32)
            arrays[f"b{i}"] = b.astype(np.float32)
        arrays["meta"] = np.asarray([f"{k}={v}" for k, v in sorted(meta.items())])
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as fh:
            np.savez_compressed(fh, **arrays)  # type: ignore[arg-type]

    @staticmethod
    def load(path: Path) -> Net:
        with np.load(path) as data:
            layers = sum(1 for k in data.files if k.startswith("w"))
            ws = tuple(np.asarray(data[f"w{i}"], dtype=np.float32) for i in range(layers))
            bs = tuple(np.asarray(data[f"b{i}"], dtype=np.float32) for i in range(layers))
        if not ws or ws[0].shape[0] != N_FEATURES or ws[-1].shape[1] != len(ACTIONS):
            raise ValueError(f"{path}: not a network for {N_FEATURES} features and {len(ACTIONS)} actions")
        return Net(ws, bs)


def shipped_path() -> Path:
    return Path(str(resources.files("truco.bots").joinpath("weights/neural.npz")))


@cache
def shipped() -> Net:
    """The weights that ship with the package."""
    return Net.load(shipped_path())


def pick(net: Net, view: SeatView) -> Action:
    """The legal action the network scores highest."""
    scores = net.scores(features(view))
    mask = legal_mask(view)
    best = int(np.argmax(np.where(mask, scores, -np.inf)))
    if best < 3:
        card = ranked(view.cards)[best]
        for a in view.legal:
            if a.do is Do.PLAY and a.card == card:
                return a
        raise AssertionError(f"{NAME[card]} is not playable")
    for a in view.legal:
        if a.do is ACTIONS[best]:
            return a
    raise AssertionError(f"{ACTIONS[best]} is not legal")


class NeuralBot(ViewBot):
    """Plays what the shipped network scores highest among the legal actions; no search, no dice."""

    level = "neural"

    def __init__(self, seed: int = 0, net: Net | None = None) -> None:
        super().__init__(seed)
        self.net = net

    def decide(self, view: SeatView) -> Action:
        only = forced(view.legal)
        if only is not None:
            return only
        return pick(self.net or shipped(), view)
