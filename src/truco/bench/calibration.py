"""How well ``dificil``'s beliefs about the hidden cards are calibrated (issue 13).

At every decision of one seat in real matches (``dificil`` against ``dificil-1``, duplicate-free
random deals), the decision's worlds (``dificil.Decision``: sampled consistently with everything
public, then weighted by how well they explain the calls and answers) give, for each rival or partner
and each card this seat has not seen, a believed chance that the seat holds it. The truth is the deal.

It reports the Brier score of those beliefs against two baselines, the uniform belief (every unseen
card equally likely in each hidden slot) and the worlds before the calls are read (the sampler alone:
sung tantos, señas and cards played, no likelihood of the calls), and a reliability table: believed
chance in tenths against how often it was true. Well calibrated means the two columns agree; better
than uniform means the bot has learnt something from the hand.

    python -m truco.bench.calibration --players 2 --matches 20 [--seed 1] [--level maestro] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
from dataclasses import dataclass, field, replace
from typing import Any

from truco.bots import make_bot
from truco.bots.base import mix
from truco.bots.dificil import Decision, Params
from truco.bots.frozen import Dificil1Bot
from truco.bots.knowledge import knowledge
from truco.bots.maestro import MaestroDecision
from truco.bots.maestro_params import MaestroParams
from truco.bots.profile import Profile
from truco.bots.sampling import Sampler
from truco.bots.turns import next_action
from truco.engine import Rules, SeatView, State, apply, new_match, next_hand, public_view, view_for


@dataclass
class Tally:
    """Believed chances and outcomes, three ways: the weighted worlds, the sampler alone, uniform."""

    bins: list[list[float]] = field(default_factory=lambda: [[0.0, 0.0, 0.0] for _ in range(10)])
    """Per tenth of believed chance: [count, sum of beliefs, times true]."""
    brier: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0])
    n: int = 0
    decisions: int = 0
    with_evidence: int = 0

    def add(self, believed: float, sampled: float, uniform: float, truth: bool) -> None:
        y = 1.0 if truth else 0.0
        b = self.bins[min(9, int(believed * 10))]
        b[0] += 1
        b[1] += believed
        b[2] += y
        for i, p in enumerate((believed, sampled, uniform)):
            self.brier[i] += (p - y) ** 2
        self.n += 1

    def summary(self) -> dict[str, Any]:
        n = max(1, self.n)
        return {
            "decisions": self.decisions, "decisions_with_calls_read": self.with_evidence,
            "beliefs": self.n,
            "brier": {"worlds": round(self.brier[0] / n, 5), "sampler_only": round(self.brier[1] / n, 5),
                      "uniform": round(self.brier[2] / n, 5)},
            "reliability": [{"believed": f"{i / 10:.1f}-{(i + 1) / 10:.1f}", "count": int(c),
                             "mean_believed": round(s / c, 3), "observed": round(t / c, 3)}
                            for i, (c, s, t) in enumerate(self.bins) if c],
        }


LEVELS = ("dificil", "maestro")
"""Whose beliefs: ``dificil``'s, or ``maestro``'s (the calls and answers read with its priors, and a
fresh memory of the match)."""


def _params(level: str, worlds: int) -> Params:
    base = Params() if level == "dificil" else MaestroParams()
    return replace(base, worlds=worlds, candidates=worlds * base.candidates // base.worlds)


def _decision(view: SeatView, rng: random.Random, params: Params) -> Decision:
    if isinstance(params, MaestroParams):
        return MaestroDecision(view, rng, params, [Profile(), Profile()])
    return Decision(view, rng, params)


def _measure_decision(st: State, seat: int, rng: random.Random, tally: Tally, params: Params) -> None:
    view = view_for(st, seat)
    if not view.legal or len(view.legal) == 1:
        return
    k = knowledge(view)
    dec = _decision(view, rng, params)
    plain = Sampler(k)
    sampled = [plain.world(rng) for _ in range(params.worlds)]
    tally.decisions += 1
    if dec.evidence():
        tally.with_evidence += 1
    unseen = set(k.unseen)
    hidden = {s: [c for c in st.dealt[s] if c in unseen] for s in range(st.n) if s != seat}
    for s in hidden:
        if not k.active(s):
            continue
        left = 3 - len(k.played[s])
        if left <= 0:
            continue
        for c in unseen:
            believed = sum(1 for w in dec.worlds if c in w.hands[s]) / len(dec.worlds)
            plain_p = sum(1 for w in sampled if c in w.hands[s]) / len(sampled)
            uniform = left / len(unseen)
            tally.add(believed, plain_p, uniform, c in hidden[s])


def measure(players: int = 2, matches: int = 20, seed: int = 1, every: int = 1,
            worlds: int = 400, level: str = "dificil") -> dict[str, Any]:
    """Play ``matches`` matches (``dificil`` in team 0, ``dificil-1`` in team 1) and measure the
    beliefs of seat 0 at every ``every``-th decision it makes, read from ``worlds`` worlds (the bot
    draws 80 when it plays: more here, so the score is the beliefs' and not the noise of a small draw).
    ``level`` says whose beliefs are read (``LEVELS``); the matches are the same for each."""
    rules = Rules(players=players)
    params = _params(level, worlds)
    tally = Tally()
    rng = random.Random(seed)
    for m in range(matches):
        bots = [make_bot("dificil", mix(seed, m, s)) if s % 2 == 0 else Dificil1Bot(mix(seed, m, s))
                for s in range(players)]
        st, _ = new_match(rules, dealer=rng.randrange(players), seed=rng.getrandbits(64))
        asked = 0
        while True:
            if st.hand_over:
                if st.match_over:
                    break
                st, _ = next_hand(st, seed=rng.getrandbits(64))
                continue
            if 0 in public_view(st).to_act:
                asked += 1
                if asked % every == 0:
                    _measure_decision(st, 0, random.Random(rng.getrandbits(32)), tally, params)
            st, _ = apply(st, next_action(st, bots))
    return {"players": players, "matches": matches, "seed": seed, "worlds": worlds, "level": level,
            **tally.summary()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m truco.bench.calibration",
                                     description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--players", type=int, default=2, choices=(2, 4, 6, 8))
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--every", type=int, default=1, help="measure one decision in this many")
    parser.add_argument("--worlds", type=int, default=400, help="worlds a belief is read from")
    parser.add_argument("--level", default="dificil", choices=LEVELS, help="whose beliefs are read")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    out = measure(args.players, args.matches, args.seed, args.every, args.worlds, args.level)
    if args.json:
        print(json.dumps(out))
        return 0
    b = out["brier"]
    print(f"{out['level']}: {out['players']} players, {out['matches']} matches, {out['decisions']} decisions "
          f"({out['decisions_with_calls_read']} with calls read), {out['beliefs']} beliefs")
    print(f"Brier: worlds {b['worlds']}, sampler only {b['sampler_only']}, uniform {b['uniform']}")
    print("believed   count   mean believed   observed")
    for r in out["reliability"]:
        print(f"{r['believed']}  {r['count']:7d}   {r['mean_believed']:13.3f}   {r['observed']:8.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
