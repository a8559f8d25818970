"""The arena: two bot levels play duplicate matches and the result comes with its uncertainty.

Duplicate deals: pair ``i`` fixes a first dealer and a seed for every hand number. The pair's two
matches use those same deals, once with level A on the even seats (team 0) and once on the odd seats
(team 1), so the cards one level held in a match the other holds in its twin and luck of the deal
largely cancels. The pair is the independent unit of every interval.

Each match runs with the table's rules for a team answer (ruling 16): every active voter of the
answering team votes; equal votes apply at once; otherwise each voter sees the votes and may change
(``Bot.reconsider``); still no agreement means the decline ("no quiero").
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from truco.bots.base import Bot, mix
from truco.bots.guard import guard
from truco.bots.roster import check_name, make_player
from truco.bots.seeds import bot_seed
from truco.bots.stats import mean_ci, percentile, ratio_ci, wilson
from truco.bots.turns import BotError as BotError  # re-exported: the arena's public names
from truco.bots.turns import Bots as Bots
from truco.bots.turns import Timer as Timer
from truco.bots.turns import decline as decline
from truco.bots.turns import next_action as next_action
from truco.engine import (
    Rules,
    Seat,
    State,
    Team,
    apply,
    new_match,
    next_hand,
    view_for,
)
from truco.engine.types import Event, PointsAwarded

MAX_HANDS = 1000  # a match that long means a bug, not bad luck


@dataclass(frozen=True, slots=True)
class ArenaConfig:
    a: str
    b: str
    players: int = 4
    matches: int = 1000
    seed: int = 1
    flor: bool = False
    target: int = 30
    jobs: int = 1
    pica_pica: bool = False
    senas: bool = False
    """Partners sign their cards at the start of each hand (4 players and up), as at a table."""

    def __post_init__(self) -> None:
        for name in (self.a, self.b):
            check_name(name)
        if self.matches < 1:
            raise ValueError("matches must be at least 1")
        if self.jobs < 1:
            raise ValueError("jobs must be at least 1")
        self.rules()  # validates players and target

    @property
    def pairs(self) -> int:
        """Matches come in duplicate pairs: an odd count is rounded up."""
        return (self.matches + 1) // 2

    def rules(self) -> Rules:
        return Rules(players=self.players, target=self.target, flor=self.flor, pica_pica=self.pica_pica)


@dataclass(slots=True)
class MatchResult:
    pair: int
    a_team: Team
    a_won: bool
    a_points: int
    b_points: int
    hands: int
    a_ms: list[float] = field(default_factory=list)
    b_ms: list[float] = field(default_factory=list)


def deal_seed(seed: int, pair: int, hand_no: int) -> int:
    return mix(seed, pair, hand_no, 0xD3A1)


def first_dealer(seed: int, pair: int, players: int) -> Seat:
    return mix(seed, pair, 0xDEA1E2) % players


def hand_senas(st: State, bots: Sequence[Bot]) -> tuple[tuple[Seat, str], ...]:
    """The señas every bot that makes them signs at the start of a hand (none in a pica-pica)."""
    if st.n < 4 or st.pica:
        return ()
    out: list[tuple[Seat, str]] = []
    for s, bot in enumerate(bots):
        sign = getattr(bot, "senas", None)
        if sign is not None:
            out += [(s, x) for x in sign(view_for(st, s))]
    return tuple(out)


def play_match(rules: Rules, bots: Sequence[Bot], dealer: Seat, seeds: Callable[[int], int],
               timer: Timer | None = None, senas: bool = False,
               observe: Callable[[State, list[Event]], None] | None = None,
               ) -> tuple[State, tuple[int, int], int]:
    """One match; returns the final state, the points each team scored and the hands played.
    With ``senas`` partners sign their cards at the start of each hand, as at a table; ``observe``
    sees the state after every action and its events (a bench's hook)."""
    st, _ = new_match(rules, dealer=dealer, seed=seeds(1))
    points = [0, 0]
    hands = 1
    signs = hand_senas(st, bots) if senas else ()
    while True:
        if st.hand_over:
            if st.match_over:
                return st, (points[0], points[1]), hands
            if hands >= MAX_HANDS:
                raise RuntimeError("the match does not end")
            st, _ = next_hand(st, seed=seeds(st.hand_no + 1))
            signs = hand_senas(st, bots) if senas else ()
            hands += 1
            continue
        st, events = apply(st, next_action(st, bots, timer, signs))
        if observe is not None:
            observe(st, events)
        for e in events:
            if isinstance(e, PointsAwarded):
                points[e.team] += e.points


def play_pair(config: ArenaConfig, pair: int,
              observe: Callable[[Team, State, list[Event]], None] | None = None,
              make: Callable[[str, int], Bot] | None = None) -> list[MatchResult]:
    """The two matches of one duplicate pair: A as team 0, then A as team 1, on the same deals.
    ``observe`` (a bench's hook) sees A's team, then every action's state and events; ``make``
    (a bench's too) builds each seat's bot from its name and seed (``make_player``)."""
    build = make or make_player
    rules = config.rules()
    n = rules.players
    dealer = first_dealer(config.seed, pair, n)
    out = []
    for a_team in (0, 1):
        names = [config.a if s & 1 == a_team else config.b for s in range(n)]
        bots = [guard(build(name, bot_seed(config.seed, pair, s, a_team))) for s, name in enumerate(names)]
        result = MatchResult(pair=pair, a_team=a_team, a_won=False, a_points=0, b_points=0, hands=0)

        def timer(seat: Seat, ms: float, result: MatchResult = result, a_team: Team = a_team) -> None:
            (result.a_ms if seat & 1 == a_team else result.b_ms).append(ms)

        st, points, hands = play_match(rules, bots, dealer,
                                       lambda h: deal_seed(config.seed, pair, h), timer, config.senas,
                                       None if observe is None else partial(observe, a_team))
        result.a_won = st.winner == a_team
        result.a_points = points[a_team]
        result.b_points = points[1 - a_team]
        result.hands = hands
        out.append(result)
    return out


def _play_pairs(config: ArenaConfig, pairs: Sequence[int]) -> list[MatchResult]:
    return [r for p in pairs for r in play_pair(config, p)]


@dataclass(slots=True)
class ArenaResult:
    config: ArenaConfig
    results: list[MatchResult]

    @property
    def matches(self) -> int:
        return len(self.results)

    @property
    def hands(self) -> int:
        return sum(r.hands for r in self.results)

    def pairs(self) -> list[tuple[MatchResult, MatchResult]]:
        ordered = sorted(self.results, key=lambda r: (r.pair, r.a_team))
        return [(ordered[i], ordered[i + 1]) for i in range(0, len(ordered), 2)]

    def summary(self) -> dict[str, Any]:
        return summarize(self.config, self.pairs())


def summarize(config: ArenaConfig, pairs: Sequence[tuple[MatchResult, MatchResult]]) -> dict[str, Any]:
    """Win rate and points per hand with 95 % intervals over the duplicate pairs, plus timings.

    The win-rate interval is mean ± 1.96·s/√pairs of the pair scores (0, ½ or 1); when every pair
    scored the same that spread is zero, and the Wilson interval over the matches is given instead.
    """
    matches = [m for pair in pairs for m in pair]
    wins = sum(m.a_won for m in matches)
    pair_scores = [(x.a_won + y.a_won) / 2 for x, y in pairs]
    rate, low, high = mean_ci(pair_scores, 0.0, 1.0)
    if len(set(pair_scores)) == 1:
        low, high = wilson(wins, len(matches))
    pts = [float(x.a_points + y.a_points) for x, y in pairs]
    net = [float(x.a_points + y.a_points - x.b_points - y.b_points) for x, y in pairs]
    hands = [float(x.hands + y.hands) for x, y in pairs]
    pph, pph_low, pph_high = ratio_ci(pts, hands)
    npph, npph_low, npph_high = ratio_ci(net, hands)
    a_ms = [t for m in matches for t in m.a_ms]
    b_ms = [t for m in matches for t in m.b_ms]

    def timing(ms: list[float]) -> dict[str, float | int]:
        return {"p50": round(percentile(ms, 50), 3), "p99": round(percentile(ms, 99), 3),
                "max": round(max(ms, default=0.0), 3), "decisions": len(ms)}

    def r(x: float) -> float | None:
        return None if math.isinf(x) else round(x, 4)

    return {
        "a": config.a, "b": config.b, "players": config.players, "flor": config.flor,
        "target": config.target, "seed": config.seed, "pica_pica": config.pica_pica, "senas": config.senas,
        "matches": len(matches), "pairs": len(pairs), "hands": int(sum(hands)),
        "a_wins": wins,
        "a_match_win_rate": round(rate, 4), "ci95": [round(low, 4), round(high, 4)],
        "a_points_per_hand": r(pph), "a_points_per_hand_ci95": [r(pph_low), r(pph_high)],
        "a_net_points_per_hand": r(npph), "a_net_points_per_hand_ci95": [r(npph_low), r(npph_high)],
        "decision_ms_p50": {"a": timing(a_ms)["p50"], "b": timing(b_ms)["p50"]},
        "decision_ms_p99": {"a": timing(a_ms)["p99"], "b": timing(b_ms)["p99"]},
        "decision_ms": {"a": timing(a_ms), "b": timing(b_ms)},
    }


def _chunks(pairs: int, size: int) -> Iterator[list[int]]:
    for start in range(0, pairs, size):
        yield list(range(start, min(pairs, start + size)))


def run_arena(config: ArenaConfig, progress: Callable[[int, int], None] | None = None) -> ArenaResult:
    """Play every pair (over ``config.jobs`` processes); the outcome does not depend on ``jobs``."""
    total = config.pairs * 2
    results: list[MatchResult] = []
    if config.jobs == 1:
        for p in range(config.pairs):
            results.extend(play_pair(config, p))
            if progress is not None:
                progress(len(results), total)
    else:
        size = max(1, min(10, config.pairs // (config.jobs * 8) or 1))
        with ProcessPoolExecutor(max_workers=config.jobs) as pool:
            futures = [pool.submit(_play_pairs, config, chunk) for chunk in _chunks(config.pairs, size)]
            for fut in as_completed(futures):
                results.extend(fut.result())
                if progress is not None:
                    progress(len(results), total)
    results.sort(key=lambda r: (r.pair, r.a_team))
    return ArenaResult(config, results)
