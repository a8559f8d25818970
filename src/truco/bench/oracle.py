"""What knowing hidden cards would be worth to ``maestro``: the value of information, by decision.

``maestro`` decides from sampled worlds: deals that fit everything public and, weighed, the calls it
has heard. This bench plays the arena's duplicate pairs (the same deals and bot seeds as ``truco
arena``) with ``maestro``'s worlds pinned to the real cards of some seats at some of its decisions,
and reports its match win rate and net points per hand against the same pairs played honestly. The
gap is what better beliefs could at most be worth there; a small one says that no reading of the
calls will move the match from those decisions.

- ``--know all | rivals | partners | caller | caller-partner | none``: whose cards it sees
  (``caller``: the seat of the rivals' last bet — an envido bet when an envido is to be answered,
  a truco call otherwise —, ``caller-partner``: that seat's partners; nobody's before a bet;
  ``none``: the honest ``maestro``, the same matches as ``truco arena``);
- ``--at any | turn | truco | envido | flor``: at which of its decisions (``turn``: its own turn,
  its card and calls; ``truco`` or ``envido``: answering one; ``flor``: a flor to answer);
- ``--part all | card | calls | envido-call | truco-call``: at its own turn, which part of the
  decision the pinned worlds make (``card``: the card it plays, its calls from the honest worlds;
  ``calls``: whether to call, and what; ``envido-call``: only whether to open the envido;
  ``truco-call``: only the truco); the rest is the honest decision's.

Cards are pinned only in the decisions of the bench's ``maestro``; its rivals and the table are the
arena's. Nothing here is a level: no table can seat it.

    python -m truco.bench.oracle --b dificil-1 --players 4 --pairs 100 --seed 1 --know all --at truco
    python -m truco.bench.oracle --b dificil-1 --players 4 --pairs 100 --seed 1 --know rivals --at turn \
        --part envido-call
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from truco.bots.arena import ArenaConfig, deal_seed, first_dealer
from truco.bots.base import ENVIDO_BETS, Bot, forced
from truco.bots.maestro import MaestroBot, MaestroDecision
from truco.bots.maestro_params import MaestroParams, for_table
from truco.bots.profile import Profile
from truco.bots.roster import make_player
from truco.bots.sampling import Sampler
from truco.bots.seeds import bot_seed
from truco.bots.stats import ratio_ci, wilson
from truco.bots.turns import next_action
from truco.engine import Action, Do, SeatView, apply, new_match, next_hand
from truco.engine.cards import Card
from truco.engine.types import TRUCO_CALLS, PointsAwarded

KNOW = ("none", "all", "rivals", "partners", "caller", "caller-partner")
AT = ("any", "turn", "truco", "envido", "flor")
PARTS = ("all", "card", "calls", "envido-call", "truco-call")


def pinned_seats(view: SeatView, know: str, at: str) -> list[int]:
    """The seats whose real cards this decision sees."""
    p = view.public
    if know == "none" or (at != "any" and (p.pending or "turn") != at):
        return []
    me, n = view.seat, p.rules.players
    team = me & 1
    if know == "all":
        return [s for s in range(n) if s != me]
    if know == "rivals":
        return [s for s in range(n) if s & 1 != team]
    if know == "partners":
        return [s for s in range(n) if s != me and s & 1 == team]
    bets = ENVIDO_BETS if p.pending == "envido" else TRUCO_CALLS
    callers = [a.seat for a in p.history if a.do in bets and a.seat & 1 != team]
    if not callers:
        return []
    caller = callers[-1]
    if know == "caller":
        return [caller]
    return [s for s in range(n) if s & 1 == caller & 1 and s != caller]


class _Turn(MaestroDecision):
    """A decision whose own turn can leave the envido out (``--part``)."""

    skip_envido = False

    def envido_call(self) -> Action | None:
        return None if self.skip_envido else super().envido_call()

    def envido_only(self) -> Action | None:
        """The envido this turn opens, if any: the turn's first question alone."""
        return self.within(self.envido_call)

    def without_envido(self) -> Action:
        self.skip_envido = True
        return self.run()


class _PinnedDecision(_Turn):
    def __init__(self, pins: dict[int, tuple[Card, ...]], view: SeatView, bot: MaestroBot,
                 params: MaestroParams, profiles: list[Profile]) -> None:
        self.pins = pins
        super().__init__(view, bot.rng(view), params, profiles)

    def sampler(self) -> Sampler:
        sampler = super().sampler()
        for seat, hand in self.pins.items():
            sampler.pin(seat, hand)
        return sampler


class OracleMaestro(MaestroBot):
    """``maestro`` whose worlds hold the real cards of the seats ``pinned_seats`` names."""

    def __init__(self, seed: int, know: str, at: str, part: str = "all") -> None:
        super().__init__(seed)
        self.know, self.at, self.part = know, at, part
        self.deal: list[tuple[Card, ...]] = []
        """The hand's real cards, set by the bench before every decision."""

    def decision(self, view: SeatView) -> MaestroDecision:
        self.memory.see(view)
        params = for_table(self.maestro, view)
        pins = {s: self.deal[s] for s in pinned_seats(view, self.know, self.at)}
        return _PinnedDecision(pins, view, self, params, self.memory.profiles(view, params))

    def decide(self, view: SeatView) -> Action:
        if self.part == "all" or (view.public.pending or "turn") != "turn":
            return super().decide(view)
        self.memory.see(view)
        sure = forced(view.legal)
        if sure is not None:
            return sure
        params = for_table(self.maestro, view)
        profiles = self.memory.profiles(view, params)
        pins = {s: self.deal[s] for s in pinned_seats(view, self.know, self.at)}

        def honest() -> _Turn:
            return _Turn(view, self.rng(view), params, profiles)

        def pinned() -> _Turn:
            return _PinnedDecision(pins, view, self, params, profiles)

        if self.part == "card" or self.part == "calls":
            action = (honest() if self.part == "card" else pinned()).run()
        else:
            envido = (pinned() if self.part == "envido-call" else honest()).envido_only()
            if envido is not None:
                return envido
            action = (honest() if self.part == "envido-call" else pinned()).without_envido()
        if action.do is Do.PLAY and self.part != "envido-call":  # the card from the other worlds
            card, _ = (pinned() if self.part == "card" else honest()).best_play()
            return Action(view.seat, Do.PLAY, card)
        return action


def measure(b: str, players: int, pairs: int, seed: int, know: str, at: str,
            flor: bool = False, target: int = 30, part: str = "all") -> dict[str, Any]:
    rules = ArenaConfig(a="maestro", b=b, players=players, matches=2, seed=seed, flor=flor,
                        target=target).rules()
    wins = 0
    nets: list[float] = []  # per duplicate pair: the deal played from both sides is one unit
    hands: list[float] = []
    for pair in range(pairs):
        dealer = first_dealer(seed, pair, players)
        nets.append(0.0)
        hands.append(0.0)
        for a_team in (0, 1):
            oracles: list[OracleMaestro] = []
            bots: list[Bot] = []
            for s in range(players):
                if s & 1 == a_team:
                    bot = OracleMaestro(bot_seed(seed, pair, s, a_team), know, at, part)
                    oracles.append(bot)
                    bots.append(bot)
                else:
                    bots.append(make_player(b, bot_seed(seed, pair, s, a_team)))
            st, _ = new_match(rules, dealer=dealer, seed=deal_seed(seed, pair, 1))
            while True:
                for bot in oracles:
                    bot.deal = [tuple(h) for h in st.dealt]
                if st.hand_over:
                    hands[-1] += 1
                    if st.match_over:
                        wins += st.winner == a_team
                        break
                    st, _ = next_hand(st, seed=deal_seed(seed, pair, st.hand_no + 1))
                    continue
                st, events = apply(st, next_action(st, bots))
                nets[-1] += sum(e.points if e.team == a_team else -e.points
                                for e in events if isinstance(e, PointsAwarded))
    matches = 2 * pairs
    low, high = wilson(wins, matches)
    per_hand, net_low, net_high = ratio_ci(nets, hands)
    return {"know": know, "at": at, "part": part, "b": b, "players": players, "seed": seed, "wins": wins,
            "matches": matches, "win_rate": round(wins / matches, 4),
            "win_ci": [round(low, 4), round(high, 4)],
            "hands": int(sum(hands)), "net_per_hand": round(per_hand, 4),
            "net_ci": [round(net_low, 4), round(net_high, 4)]}


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m truco.bench.oracle", description=__doc__.split("\n")[0])
    ap.add_argument("--b", default="dificil-1")
    ap.add_argument("--players", type=int, default=4, choices=(2, 4, 6, 8))
    ap.add_argument("--pairs", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--know", default="all", choices=KNOW)
    ap.add_argument("--at", default="any", choices=AT)
    ap.add_argument("--part", default="all", choices=PARTS)
    ap.add_argument("--flor", action="store_true")
    ap.add_argument("--target", type=int, default=30, choices=(15, 30))
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    out = measure(args.b, args.players, args.pairs, args.seed, args.know, args.at, args.flor, args.target,
                  args.part)
    if args.json:
        print(json.dumps(out))
        return
    part = "" if args.part == "all" else f" ({args.part})"
    print(f"maestro knowing {args.know} at {args.at}{part} against {args.b}, {args.players} players, "
          f"{out['matches']} matches, {out['hands']} hands: {100 * out['win_rate']:.1f} % "
          f"({100 * out['win_ci'][0]:.1f}–{100 * out['win_ci'][1]:.1f}), "
          f"{out['net_per_hand']:+.3f} net points per hand "
          f"({out['net_ci'][0]:+.3f} – {out['net_ci'][1]:+.3f})")


if __name__ == "__main__":
    main()
