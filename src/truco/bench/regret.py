"""What each bet of a level is worth against given rivals: every choice against its alternatives.

At each betting decision of level A in the arena's duplicate pairs (the same deals and bot seeds as
``truco arena``), the hand is rolled out once per option — the option chosen and each other one — by
the same bots, each rollout from a copy of every bot (so their memories of the match are not
touched), and priced in match equity (``equity.match_equity``, no edge) at the hand's end. The
decisions:

- ``truco call``: A's turn with a truco call among its options: the call against the action it takes
  without it (a card, usually);
- ``truco answer``: A's team answers a truco: "quiero", "no quiero" and the raise, where legal;
- ``envido call``: A's turn with an envido among its options: the envido it calls (or, if it calls
  none, a plain envido) against the action it takes without any;
- ``envido answer``: "quiero" and "no quiero".

Each row of the report groups one kind of decision by round (the first or later) and by the option
chosen: how many, the mean equity of the choice less that of the best other option (negative: a
choice that cost), and how often another option would have paid more. Rollouts see the real cards,
so one decision's verdict is hindsight; over many it says where a level's bets lose against these
rivals, which the match win rate alone cannot. The best of the other options is a maximum over
single rollouts, so that mean leans below zero wherever there are two others; each row also sets the
choice against each other option alone (``against``: the mean of the choice less that option, over
the decisions where it was legal), which leans neither way.

    python -m truco.bench.regret --a maestro --b dificil-1 --players 4 --pairs 30 [--seed 7] [--json]
"""

from __future__ import annotations

import argparse
import copy
import json
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from truco.bots.arena import ArenaConfig, deal_seed, first_dealer
from truco.bots.base import Bot
from truco.bots.equity import match_equity
from truco.bots.roster import make_player
from truco.bots.seeds import bot_seed
from truco.bots.turns import next_action
from truco.engine import Action, Do, State, Team, apply, new_match, next_hand, view_for
from truco.engine.types import ENVIDO_CALLS, TRUCO_CALLS


@dataclass
class Report:
    """Per (decision, round, option chosen): [count, sum of chosen − best other, times another paid more]."""

    rows: dict[tuple[str, str, str], list[float]] = field(
        default_factory=lambda: defaultdict(lambda: [0.0, 0.0, 0.0]))
    against: dict[tuple[str, str, str], dict[str, list[float]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(lambda: [0.0, 0.0])))
    """Per row and other option: [decisions where it was legal, sum of chosen − that option]."""
    hands: int = 0

    def add(self, kind: str, late: bool, chosen: str, values: dict[str, float]) -> None:
        mine = values[chosen]
        best_other = max(v for k, v in values.items() if k != chosen)
        key = (kind, "later" if late else "first", chosen)
        row = self.rows[key]
        row[0] += 1
        row[1] += mine - best_other
        row[2] += best_other > mine + 1e-12
        for other, v in values.items():
            if other != chosen:
                pair = self.against[key][other]
                pair[0] += 1
                pair[1] += mine - v

    def summary(self) -> dict[str, Any]:
        out = []
        for (kind, rnd, chosen), (n, total, worse) in sorted(self.rows.items()):
            against = {other: {"count": int(m), "mean_gain": round(diff / m, 4)}
                       for other, (m, diff) in sorted(self.against[(kind, rnd, chosen)].items())}
            out.append({"decision": kind, "round": rnd, "chosen": chosen, "count": int(n),
                        "mean_gain": round(total / n, 4), "total_gain": round(total, 3),
                        "another_paid_more": round(worse / n, 3), "against": against})
        return {"hands": self.hands, "rows": out}


def _equity(st: State, team: Team) -> float:
    target = st.rules.target
    return match_equity(target - st.score[team], target - st.score[1 - team])


def rollout(st: State, first: Action, bots: Sequence[Bot], team: Team) -> float:
    """``team``'s match equity at the end of this hand, after ``first`` and the bots' play (copies)."""
    bots = copy.deepcopy(list(bots))
    st, _ = apply(st, first)
    while not st.hand_over:
        st, _ = apply(st, next_action(st, bots))
    return _equity(st, team)


def _decisions(st: State, act: Action, bots: Sequence[Bot]) -> list[tuple[str, dict[str, Action]]]:
    """The bets ``act`` decides, each as its kind and its options by name (the chosen one among them)."""
    view = view_for(st, act.seat)
    p = view.public
    legal = view.legal
    if p.pending in ("truco", "envido"):
        opts = {str(a.do): a for a in legal
                if a.do in (Do.QUIERO, Do.NO_QUIERO) or (p.pending == "truco" and a.do in TRUCO_CALLS)}
        return [(f"{p.pending} answer", opts)] if act in opts.values() and len(opts) > 1 else []
    if p.pending is not None or p.turn != act.seat:
        return []
    out = []
    for kind, calls in (("envido", ENVIDO_CALLS), ("truco", frozenset(TRUCO_CALLS))):
        offered = [a for a in legal if a.do in calls]
        if not offered or not (act.do in calls or act.do is Do.PLAY):
            continue  # an envido call is not judged as a truco decision, nor the other way round
        if act.do in calls:
            narrowed = replace(view, legal=tuple(a for a in legal if a.do not in calls))
            without = copy.deepcopy(bots[act.seat]).choose(narrowed)
            out.append((f"{kind} call", {"call": act, "no call": without}))
        else:
            call = next((a for a in offered if a.do in (Do.ENVIDO, Do.TRUCO)), offered[0])
            out.append((f"{kind} call", {"call": call, "no call": act}))
    return out


def measure(a: str, b: str, players: int, pairs: int, seed: int = 7, flor: bool = False,
            target: int = 30) -> Report:
    rules = ArenaConfig(a=a, b=b, players=players, matches=2, seed=seed, flor=flor, target=target).rules()
    report = Report()
    for pair in range(pairs):
        dealer = first_dealer(seed, pair, players)
        for a_team in (0, 1):
            bots = [make_player(a if s & 1 == a_team else b, bot_seed(seed, pair, s, a_team))
                    for s in range(players)]
            st, _ = new_match(rules, dealer=dealer, seed=deal_seed(seed, pair, 1))
            while True:
                if st.hand_over:
                    report.hands += 1
                    if st.match_over:
                        break
                    st, _ = next_hand(st, seed=deal_seed(seed, pair, st.hand_no + 1))
                    continue
                act = next_action(st, bots)
                for kind, opts in _decisions(st, act, bots) if act.seat & 1 == a_team else []:
                    chosen = next(k for k, o in opts.items() if o == act)
                    values = {k: rollout(st, o, bots, a_team) for k, o in opts.items()}
                    report.add(kind, bool(st.results), chosen, values)
                st, _ = apply(st, act)
    return report


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m truco.bench.regret", description=__doc__.split("\n")[0])
    ap.add_argument("--a", default="maestro")
    ap.add_argument("--b", default="dificil-1")
    ap.add_argument("--players", type=int, default=4, choices=(2, 4, 6, 8))
    ap.add_argument("--pairs", type=int, default=30)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--flor", action="store_true")
    ap.add_argument("--target", type=int, default=30, choices=(15, 30))
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    summary = measure(args.a, args.b, args.players, args.pairs, args.seed, args.flor, args.target).summary()
    if args.json:
        print(json.dumps(summary))
        return
    print(f"{args.a} against {args.b}, {args.players} players, {args.pairs} pairs, "
          f"{summary['hands']} hands; equity of the choice less the best other option")
    print(f"{'decision':15} {'round':6} {'chosen':12} {'count':>6} {'mean':>8} {'total':>8} {'worse':>6}  "
          "against each other option: mean (decisions)")
    for r in summary["rows"]:
        each = ", ".join(f"{o} {x['mean_gain']:+.4f} ({x['count']})" for o, x in r["against"].items())
        print(f"{r['decision']:15} {r['round']:6} {r['chosen']:12} {r['count']:6d} {r['mean_gain']:+8.4f} "
              f"{r['total_gain']:+8.3f} {r['another_paid_more']:6.2f}  {each}")


if __name__ == "__main__":
    main()
