"""Where a level answers a truco: the share of its worlds it wins against what the real cards give.

``truco.bench.calibration`` scores the beliefs card by card, and a small error there can still be a
large one where it is bet on. This bench scores them where they are bet on. At every answer of level
A (``dificil``, ``maestro`` or ``dificil-1``) to a truco, retruco or vale cuatro, in the arena's
duplicate pairs (the same deals and bot seeds as ``truco arena``), it asks the answering bot for the
decision it is about to make (``decision(view)``: the same worlds, drawn with the same dice) and
sets two numbers side by side:

- **believed**: the share of those worlds in which its team wins the hand playing on (its best card
  first, then the plain playout every seat's cards follow in its worlds, ``tricks.playout``);
- **on the real cards**: the same playout with the cards as they were dealt (0 or 1).

Well calibrated, the two agree bin by bin. They need not agree on the hand's real end, which
depends on the later play and bets; this compares the belief with the cards it is a belief about.
In 4 players every voter of A's team counts, each with its own worlds.

    python -m truco.bench.answers --a maestro --b dificil-1 --players 2 --pairs 30 [--seed 7] [--json]
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass, field
from typing import Any

from truco.bots.arena import ArenaConfig, deal_seed, first_dealer
from truco.bots.dificil import DificilBot
from truco.bots.roster import make_player
from truco.bots.seeds import bot_seed
from truco.bots.tricks import playout
from truco.bots.turns import next_action
from truco.engine import SeatView, State, apply, new_match, next_hand, public_view, view_for
from truco.engine.types import TRUCO_CALLS

BINS = 5


@dataclass
class Report:
    """Per (round, bet answered, fifth of believed share): [count, sum believed, times won on the cards]."""

    rows: dict[tuple[str, int, int], list[float]] = field(default_factory=dict)
    brier: float = 0.0
    answers: int = 0
    matches: int = 0
    hands: int = 0

    def add(self, late: bool, level: int, believed: float, real: bool) -> None:
        key = ("later" if late else "first", level, min(BINS - 1, int(believed * BINS)))
        row = self.rows.setdefault(key, [0.0, 0.0, 0.0])
        row[0] += 1
        row[1] += believed
        row[2] += real
        self.brier += (believed - real) ** 2
        self.answers += 1

    def as_json(self) -> dict[str, Any]:
        return {
            "answers": self.answers, "matches": self.matches, "hands": self.hands,
            "brier": round(self.brier / self.answers, 5) if self.answers else None,
            "rows": [{"round": r, "bet": lvl, "bin": b, "count": int(c), "believed": round(s / c, 3),
                      "on_the_cards": round(w / c, 3)}
                     for (r, lvl, b), (c, s, w) in sorted(self.rows.items())],
        }


def believed_and_real(st: State, view: SeatView, bot: DificilBot) -> tuple[float, bool]:
    """The share of the bot's worlds its team wins, and whether it wins on the real cards, both
    playing on from here with the card the bot would play first (none if not its turn)."""
    decision = bot.decision(view)
    card, won = decision.best_play()
    k = decision.k
    held = [[c for c in st.dealt[s] if c not in k.played[s]] for s in range(k.n)]
    real = playout(k.n, k.mano, k.folded, held, list(view.public.results), list(k.plays), view.public.turn,
                   card, decision.params.team_play) == view.team
    return sum(won) / len(won), real


def measure(a: str, b: str, players: int, pairs: int, seed: int, target: int = 30) -> Report:
    config = ArenaConfig(a=a, b=b, players=players, matches=2 * pairs, seed=seed, target=target)
    rules = config.rules()
    report = Report()
    for pair in range(pairs):
        dealer = first_dealer(seed, pair, players)
        for at in (0, 1):
            bots = [make_player(a if s & 1 == at else b, bot_seed(seed, pair, s, at)) for s in range(players)]
            st, _ = new_match(rules, dealer=dealer, seed=deal_seed(seed, pair, 1))
            report.hands += 1
            while not st.match_over:
                if st.hand_over:
                    st, _ = next_hand(st, seed=deal_seed(seed, pair, st.hand_no + 1))
                    report.hands += 1
                    continue
                pub = public_view(st)
                if pub.pending == "truco" and pub.answer_team == at and pub.pending_call in TRUCO_CALLS:
                    level = TRUCO_CALLS.index(pub.pending_call) + 1
                    for s in pub.to_act:
                        bot = bots[s]
                        if isinstance(bot, DificilBot):  # dificil, maestro, dificil-1
                            believed, real = believed_and_real(st, view_for(st, s, pub), bot)
                            report.add(bool(pub.results), level, believed, real)
                st, _ = apply(st, next_action(st, bots))
            report.matches += 1
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m truco.bench.answers", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", default="maestro", help="the level whose answers are read")
    parser.add_argument("--b", default="dificil-1")
    parser.add_argument("--players", type=int, default=2, choices=(2, 4, 6))
    parser.add_argument("--pairs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    report = measure(args.a, args.b, args.players, args.pairs, args.seed)
    data = report.as_json()
    if args.json:
        print(json.dumps(data))
        return 0
    print(f"{args.a} answering {args.b}'s trucos, {args.players} players, {report.matches} matches, "
          f"{report.answers} answers; Brier {data['brier']}")
    print(f"{'round':6} {'bet':>3} {'count':>6} {'believed':>9} {'on the cards':>13}")
    for r in data["rows"]:
        print(f"{r['round']:6} {r['bet']:>3} {r['count']:>6} {r['believed']:>9.3f} "
              f"{r['on_the_cards']:>13.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
