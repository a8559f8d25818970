"""``truco train``: the ``neural`` level's network, learnt from a teacher's self-play.

1. **Self-play**: the teacher level (``maestro`` by default) plays whole matches against itself on
   the arena's deals (every seat a copy with its own seed), mano a mano and in 4 players, to 30
   and to 15, with and without flor. Every decision with more than one legal action is kept:
   the seat's view as ``neural.features``, the legal actions and the one the teacher chose.
2. **Training**: the network learns to put the teacher's choice first among the legal actions
   (softmax over the legal ones, cross-entropy), by minibatch Adam, written here in numpy: the
   network is small (two hidden layers), the data fits in memory, and numpy does it in minutes on
   one core with nothing more to install. A tenth of the matches is held out to measure how often
   the network agrees with the teacher on decisions it never saw.
3. **DAgger** (``TrainConfig.rounds`` − 1 rounds, one by default): the network plays itself, the
   teacher in each seat labels every spot the network's play reached, and the network is trained
   again, from the same initial weights, on all the decisions so far.

Every random choice comes from ``seed``: the deals and bots' seeds of the self-play, the split, the
initial weights and the batches, so the same command writes the same weights on the same machine.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from truco.bots.arena import deal_seed, first_dealer, play_match
from truco.bots.base import Bot, mix
from truco.bots.neural import ACTIONS, N_FEATURES, Net, NeuralBot, action_index, features, legal_mask
from truco.bots.registry import make_bot
from truco.bots.seeds import bot_seed
from truco.engine import Action, Rules, Seat, SeatView

F32 = npt.NDArray[np.float32]

TABLES: tuple[Rules, ...] = (
    Rules(players=2), Rules(players=4), Rules(players=2, target=15), Rules(players=4, flor=True),
    Rules(players=2, flor=True), Rules(players=4, target=15),
)
"""The tables self-play cycles through, match by match."""


@dataclass
class Samples:
    x: list[F32] = field(default_factory=list)
    mask: list[npt.NDArray[np.bool_]] = field(default_factory=list)
    y: list[int] = field(default_factory=list)
    match: list[int] = field(default_factory=list)

    def add(self, view: SeatView, action: Action, match: int) -> None:
        if len(view.legal) < 2:
            return
        self.x.append(features(view))
        self.mask.append(legal_mask(view))
        self.y.append(action_index(view, action))
        self.match.append(match)

    def extend(self, other: Samples) -> None:
        self.x += other.x
        self.mask += other.mask
        self.y += other.y
        self.match += other.match

    def arrays(self) -> tuple[F32, npt.NDArray[np.bool_], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        return (np.stack(self.x), np.stack(self.mask), np.asarray(self.y, dtype=np.int64),
                np.asarray(self.match, dtype=np.int64))


class Recorder:
    """A seat whose teacher's choice at every decision is kept in ``samples``. Without a
    ``student`` the teacher plays it; with one, the student plays and the teacher, in the same seat
    and seeing the same views, only says what it would have done (DAgger: the student learns the
    teacher's answer in the spots its own play leads to)."""

    def __init__(self, teacher: Bot, samples: Samples, match: int, student: Bot | None = None) -> None:
        self.teacher = teacher
        self.player = student or teacher
        self.level = self.player.level
        self.samples = samples
        self.match = match
        self.senas = getattr(self.player, "senas", None)

    def choose(self, view: SeatView) -> Action:
        label = self.teacher.choose(view)
        self.samples.add(view, label, self.match)
        return label if self.player is self.teacher else self.player.choose(view)

    def hint(self, view: SeatView) -> Action:
        return self.player.hint(view)

    def reconsider(self, view: SeatView, votes: Mapping[Seat, Action]) -> Action:
        return self.player.reconsider(view, votes)


def _play(teacher: str, seed: int, first: int, last: int, student: Net | None = None,
          progress: Callable[[int], None] | None = None) -> Samples:
    samples = Samples()
    for m in range(first, last):
        rules = TABLES[m % len(TABLES)]
        bots: list[Bot] = []
        for s in range(rules.players):
            tutor = make_bot(teacher, bot_seed(seed, m, s, 0x7EAC))
            bots.append(Recorder(tutor, samples, m, None if student is None else NeuralBot(0, student)))

        def deals(h: int, m: int = m) -> int:
            return deal_seed(seed, m, h)

        play_match(rules, bots, first_dealer(seed, m, rules.players), deals)
        if progress is not None:
            progress(1)
    return samples


def self_play(teacher: str, matches: int, seed: int, jobs: int = 1,
              progress: Callable[[int, int], None] | None = None, student: Net | None = None,
              first: int = 0) -> Samples:
    """The teacher's decisions over ``matches`` matches against itself, on ``TABLES`` in turn (or,
    with ``student``, the teacher's answers in the student's self-play), numbered from ``first``.
    Match ``m`` is the same whatever ``jobs`` plays it, and the samples come back in match order."""
    done = 0

    def tick(k: int) -> None:
        nonlocal done
        done += k
        if progress is not None:
            progress(done, matches)

    if jobs <= 1:
        return _play(teacher, seed, first, first + matches, student, tick)
    step = 10
    out = Samples()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        end = first + matches
        chunks = [(a, min(a + step, end)) for a in range(first, end, step)]
        futures = [pool.submit(_play, teacher, seed, a, b, student) for a, b in chunks]
        for (a, b), fut in zip(chunks, futures, strict=True):  # in order: match m lands in one place
            out.extend(fut.result())
            tick(b - a)
    return out


@dataclass(frozen=True)
class TrainConfig:
    hidden: tuple[int, ...] = (128, 64)
    epochs: int = 30
    batch: int = 256
    rate: float = 1e-3
    decay: float = 1e-5
    """L2 weight decay, per step."""
    held_out: float = 0.1
    rounds: int = 2
    """Self-play of the teacher, then ``rounds - 1`` rounds of DAgger (``run``)."""


def _logsoftmax(z: F32, mask: npt.NDArray[np.bool_]) -> F32:
    z = np.where(mask, z, -1e9).astype(np.float32)
    z = z - z.max(axis=1, keepdims=True)
    out: F32 = (z - np.log(np.exp(z).sum(axis=1, keepdims=True))).astype(np.float32)
    return out


def agreement(net: Net, x: F32, mask: npt.NDArray[np.bool_], y: npt.NDArray[np.int64]) -> float:
    """The share of decisions where the network's top legal action is the teacher's."""
    if len(y) == 0:
        return math.nan
    z = np.where(mask, net.scores(x), -np.inf)
    return float((z.argmax(axis=1) == y).mean())


def train(x: F32, mask: npt.NDArray[np.bool_], y: npt.NDArray[np.int64], seed: int,
          config: TrainConfig = TrainConfig(),
          log: Callable[[int, float], None] | None = None) -> Net:
    """A network that ranks the teacher's choice first: minibatch Adam on the cross-entropy."""
    rng = np.random.default_rng(seed)
    sizes = (N_FEATURES, *config.hidden, len(ACTIONS))
    ws = [(rng.standard_normal((a, b)) * math.sqrt(2.0 / a)).astype(np.float32)
          for a, b in itertools.pairwise(sizes)]
    bs = [np.zeros(b, dtype=np.float32) for b in sizes[1:]]
    params = [*ws, *bs]
    m1 = [np.zeros_like(p) for p in params]
    m2 = [np.zeros_like(p) for p in params]
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    step = 0
    n = len(y)
    layers = len(ws)
    for epoch in range(config.epochs):
        order = rng.permutation(n)
        total = 0.0
        for start in range(0, n, config.batch):
            idx = order[start:start + config.batch]
            xb, mb, yb = x[idx], mask[idx], y[idx]
            # forward
            acts = [xb]
            h = xb
            for i in range(layers):
                h = h @ ws[i] + bs[i]
                if i < layers - 1:
                    h = np.maximum(h, 0.0)
                acts.append(h)
            logp = _logsoftmax(h, mb)
            rows = np.arange(len(yb))
            total += float(-logp[rows, yb].sum())
            # backward
            grad = np.exp(logp)
            grad[rows, yb] -= 1.0
            grad = np.where(mb, grad, 0.0).astype(np.float32) / len(yb)
            gws: list[F32] = [np.empty(0, dtype=np.float32)] * layers
            gbs: list[F32] = [np.empty(0, dtype=np.float32)] * layers
            for i in range(layers - 1, -1, -1):
                gws[i] = acts[i].T @ grad + config.decay * ws[i]
                gbs[i] = grad.sum(axis=0)
                if i > 0:
                    grad = (grad @ ws[i].T) * (acts[i] > 0)
            step += 1
            for j, (p, g) in enumerate(zip(params, [*gws, *gbs], strict=True)):
                m1[j] = beta1 * m1[j] + (1 - beta1) * g
                m2[j] = beta2 * m2[j] + (1 - beta2) * g * g
                mhat = m1[j] / (1 - beta1 ** step)
                vhat = m2[j] / (1 - beta2 ** step)
                p -= (config.rate * mhat / (np.sqrt(vhat) + eps)).astype(np.float32)
        if log is not None:
            log(epoch + 1, total / max(n, 1))
    return Net(tuple(ws), tuple(bs))


@dataclass(frozen=True)
class Report:
    samples: int
    train_agreement: float
    held_out_agreement: float
    held_out_by_kind: dict[str, tuple[int, float]]
    """For each kind of decision (a card, an envido answer, …): decisions held out, agreement."""
    seconds_self_play: float
    seconds_training: float


def _kind(y: int) -> str:
    do = ACTIONS[y]
    return "card" if y < 3 else str(do)


def run(teacher: str, matches: int, seed: int, config: TrainConfig = TrainConfig(), jobs: int = 1,
        progress: Callable[[int, int], None] | None = None,
        log: Callable[[int, float], None] | None = None) -> tuple[Net, Report]:
    """Self-play, training, then ``config.rounds - 1`` rounds of DAgger: the network plays itself,
    the teacher labels every spot, and the network is trained again on everything so far."""
    t0 = time.perf_counter()
    total = matches * config.rounds
    played = 0

    def tick(done: int, _: int) -> None:
        if progress is not None:
            progress(played + done, total)

    epochs = 0

    def logged(epoch: int, loss: float) -> None:
        if log is not None:
            log(epochs + epoch, loss)

    samples = self_play(teacher, matches, seed, jobs, tick)
    seconds_play = time.perf_counter() - t0
    seconds_train = 0.0
    net: Net | None = None
    for r in range(config.rounds):
        if net is not None:
            played = r * matches
            t = time.perf_counter()
            more = self_play(teacher, matches, seed, jobs, tick, student=net, first=r * matches)
            seconds_play += time.perf_counter() - t
            samples.extend(more)
        x, mask, y, match = samples.arrays()
        held = np.asarray([mix(seed, int(m), 0x5E1D) % 1000 < config.held_out * 1000 for m in match])
        t = time.perf_counter()
        net = train(x[~held], mask[~held], y[~held], seed, config, logged)
        seconds_train += time.perf_counter() - t
        epochs += config.epochs
    assert net is not None
    xh, mh, yh = x[held], mask[held], y[held]
    by_kind: dict[str, tuple[int, float]] = {}
    kinds = np.asarray([_kind(int(v)) for v in yh])
    for kind in sorted(set(kinds.tolist())):
        sel = kinds == kind
        by_kind[kind] = (int(sel.sum()), agreement(net, xh[sel], mh[sel], yh[sel]))
    report = Report(samples=len(y), train_agreement=agreement(net, x[~held], mask[~held], y[~held]),
                    held_out_agreement=agreement(net, xh, mh, yh), held_out_by_kind=by_kind,
                    seconds_self_play=seconds_play, seconds_training=seconds_train)
    return net, report


def describe(teacher: str, matches: int, seed: int, config: TrainConfig) -> dict[str, str]:
    return {"teacher": teacher, "matches": str(matches), "seed": str(seed),
            "hidden": ",".join(map(str, config.hidden)), "epochs": str(config.epochs),
            "rounds": str(config.rounds),
            "features": str(N_FEATURES)}


def tables_text(tables: Sequence[Rules] = TABLES) -> str:
    return ", ".join(f"{r.players}p to {r.target}{' flor' if r.flor else ''}" for r in tables)
