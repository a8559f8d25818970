"""The arena: duplicate pairing, team answers, the interval arithmetic, and results whatever --jobs."""

from __future__ import annotations

import math

import pytest

from truco.bots import make_bot
from truco.bots.arena import (
    ArenaConfig,
    MatchResult,
    deal_seed,
    decline,
    first_dealer,
    next_action,
    run_arena,
    summarize,
)
from truco.bots.stats import mean_ci, percentile, ratio_ci, wilson
from truco.engine import Action, Do, Rules, new_match

# ---------------------------------------------------------------- interval arithmetic


def test_mean_ci_with_known_values():
    # mean 0.5, sample sd sqrt(1/3), n 4: half width 1.96 * sqrt(1/12)
    m, lo, hi = mean_ci([0.0, 1.0, 0.5, 0.5])
    half = 1.96 * math.sqrt((0.25 + 0.25) / 3 / 4)
    assert m == pytest.approx(0.5)
    assert lo == pytest.approx(0.5 - half)
    assert hi == pytest.approx(0.5 + half)


def test_mean_ci_is_clipped_and_needs_two_values_for_a_spread():
    m, lo, hi = mean_ci([1.0, 1.0, 0.5], 0.0, 1.0)
    assert hi == 1.0 and lo < m
    assert mean_ci([0.7], 0.0, 1.0) == (0.7, 0.0, 1.0)
    with pytest.raises(ValueError):
        mean_ci([])


def test_wilson_with_known_values():
    # the textbook example: 8 successes out of 10
    lo, hi = wilson(8, 10)
    assert lo == pytest.approx(0.4902, abs=1e-4)
    assert hi == pytest.approx(0.9433, abs=1e-4)
    lo, hi = wilson(10, 10)
    assert hi == 1.0 and lo == pytest.approx(0.7225, abs=1e-4)


def test_ratio_ci_with_known_values():
    nums, dens = [10.0, 20.0, 30.0], [10.0, 10.0, 10.0]
    r, lo, hi = ratio_ci(nums, dens)
    # residuals -10, 0, 10: se = sqrt(200 / 6) / 10
    se = math.sqrt(200 / 6) / 10
    assert r == pytest.approx(2.0)
    assert lo == pytest.approx(2.0 - 1.96 * se)
    assert hi == pytest.approx(2.0 + 1.96 * se)


def test_percentile_is_nearest_rank():
    values = list(range(1, 101))
    assert percentile(values, 50) == 50
    assert percentile(values, 99) == 99
    assert percentile([5.0], 99) == 5.0
    assert percentile([], 50) == 0.0


def _match(pair: int, a_team: int, won: bool, a_pts: int, b_pts: int, hands: int) -> MatchResult:
    return MatchResult(pair=pair, a_team=a_team, a_won=won, a_points=a_pts, b_points=b_pts, hands=hands,
                       a_ms=[1.0], b_ms=[2.0])


def test_summary_counts_pairs_as_the_independent_unit():
    cfg = ArenaConfig(a="normal", b="facil", players=2, matches=6)
    pairs = [
        (_match(0, 0, True, 30, 10, 10), _match(0, 1, True, 30, 20, 10)),   # pair score 1
        (_match(1, 0, True, 30, 25, 12), _match(1, 1, False, 20, 30, 8)),   # pair score 1/2
        (_match(2, 0, False, 5, 30, 10), _match(2, 1, False, 15, 30, 10)),  # pair score 0
    ]
    s = summarize(cfg, pairs)
    assert s["matches"] == 6 and s["pairs"] == 3 and s["hands"] == 60
    assert s["a_wins"] == 3
    assert s["a_match_win_rate"] == pytest.approx(0.5)
    half = 1.96 * math.sqrt(((0.5) ** 2 + 0 + 0.5 ** 2) / 2 / 3)
    assert s["ci95"] == [pytest.approx(max(0.0, 0.5 - half), abs=1e-4), pytest.approx(min(1.0, 0.5 + half),
                                                                                      abs=1e-4)]
    # points per hand: (60 + 50 + 20) / 60 for A
    assert s["a_points_per_hand"] == pytest.approx(130 / 60, abs=1e-4)
    assert s["a_net_points_per_hand"] == pytest.approx((130 - 145) / 60, abs=1e-4)
    assert s["decision_ms_p99"] == {"a": 1.0, "b": 2.0}


def test_a_clean_sweep_still_gets_an_interval():
    cfg = ArenaConfig(a="facil", b="random", players=2, matches=4)
    pairs = [(_match(i, 0, True, 30, 0, 5), _match(i, 1, True, 30, 0, 5)) for i in range(2)]
    s = summarize(cfg, pairs)
    assert s["a_match_win_rate"] == 1.0
    lo, hi = s["ci95"]
    assert hi == 1.0 and lo < 0.7  # Wilson for 4 of 4


# ---------------------------------------------------------------- duplicate deals


def test_both_matches_of_a_pair_are_dealt_the_same_cards():
    rules = Rules(players=4)
    seed, pair = 9, 3
    dealer = first_dealer(seed, pair, 4)
    a, _ = new_match(rules, dealer=dealer, seed=deal_seed(seed, pair, 1))
    b, _ = new_match(rules, dealer=dealer, seed=deal_seed(seed, pair, 1))
    assert a.dealt == b.dealt
    other, _ = new_match(rules, dealer=dealer, seed=deal_seed(seed, pair + 1, 1))
    assert other.dealt != a.dealt
    assert deal_seed(seed, pair, 2) != deal_seed(seed, pair, 1)


def test_a_pair_swaps_the_teams_on_the_same_deals(monkeypatch):
    import truco.bots.arena as arena

    dealt: list[tuple[int, tuple]] = []
    real = arena.new_match

    def spy(rules, *, dealer, seed):
        st, ev = real(rules, dealer=dealer, seed=seed)
        dealt.append((seed, st.dealt))
        return st, ev

    built: list[tuple[str, int]] = []
    real_make = arena.make_player

    def make(level, seed):
        built.append((level, seed))
        return real_make(level, seed)

    monkeypatch.setattr(arena, "new_match", spy)
    monkeypatch.setattr(arena, "make_player", make)
    results = arena.play_pair(ArenaConfig(a="normal", b="random", players=4, matches=2, target=15), 0)
    assert [r.a_team for r in results] == [0, 1]
    assert dealt[0] == dealt[1]
    # A sits on the even seats in the first match and on the odd seats in the second
    assert [lv for lv, _ in built[:4]] == ["normal", "random", "normal", "random"]
    assert [lv for lv, _ in built[4:]] == ["random", "normal", "random", "normal"]


def test_odd_match_counts_round_up_to_whole_pairs():
    assert ArenaConfig(a="random", b="random", matches=7).pairs == 4


def test_config_refuses_unknown_levels_and_settings():
    with pytest.raises(ValueError, match="level"):
        ArenaConfig(a="genio", b="random")
    with pytest.raises(ValueError):
        ArenaConfig(a="random", b="random", players=3)


# ---------------------------------------------------------------- team answers (ruling 16)


class Fixed:
    level = "fixed"

    def __init__(self, do: Do, reconsider_to: Do | None = None) -> None:
        self.do = do
        self.reconsider_to = reconsider_to

    def choose(self, view):
        return next(a for a in view.legal if a.do is self.do)

    hint = choose

    def reconsider(self, view, votes):
        do = self.reconsider_to or self.do
        return next(a for a in view.legal if a.do is do)


def _truco_called():
    from truco.engine import apply

    st, _ = new_match(Rules(players=4), dealer=3, seed=5)  # seat 0 is mano
    st, _ = apply(st, Action(0, Do.TRUCO))
    return st


def test_a_team_that_agrees_answers_at_once():
    st = _truco_called()
    bots = [Fixed(Do.PLAY), Fixed(Do.QUIERO), Fixed(Do.PLAY), Fixed(Do.QUIERO)]
    assert next_action(st, bots).do is Do.QUIERO


def test_a_team_that_cannot_agree_declines():
    st = _truco_called()
    bots = [Fixed(Do.PLAY), Fixed(Do.QUIERO), Fixed(Do.PLAY), Fixed(Do.RETRUCO)]
    assert next_action(st, bots).do is Do.NO_QUIERO


def test_a_team_may_agree_after_seeing_the_votes():
    st = _truco_called()
    bots = [Fixed(Do.PLAY), Fixed(Do.QUIERO), Fixed(Do.PLAY), Fixed(Do.NO_QUIERO, Do.QUIERO)]
    assert next_action(st, bots).do is Do.QUIERO


def test_the_bots_convention_settles_on_the_mildest_acceptance():
    st = _truco_called()
    from truco.engine import public_view, view_for

    pub = public_view(st)
    votes = {1: Action(1, Do.NO_QUIERO), 3: Action(3, Do.RETRUCO)}
    for seat in (1, 3):
        assert make_bot("normal", seat).reconsider(view_for(st, seat, pub), votes).do is Do.RETRUCO
    votes = {1: Action(1, Do.QUIERO), 3: Action(3, Do.RETRUCO)}
    for seat in (1, 3):
        assert make_bot("dificil", seat).reconsider(view_for(st, seat, pub), votes).do is Do.QUIERO


def test_decline_is_no_quiero_or_achicarse():
    assert decline([Action(1, Do.QUIERO), Action(1, Do.NO_QUIERO)]).do is Do.NO_QUIERO
    assert decline([Action(1, Do.CONTRA_FLOR), Action(1, Do.CON_FLOR_ME_ACHICO)]).do is Do.CON_FLOR_ME_ACHICO


# ---------------------------------------------------------------- reproducible whatever --jobs


def test_results_do_not_depend_on_jobs():
    base = dict(a="facil", b="normal", players=2, matches=6, seed=4, target=15)
    one = run_arena(ArenaConfig(**base, jobs=1)).summary()
    two = run_arena(ArenaConfig(**base, jobs=2)).summary()
    keys = ["a_match_win_rate", "ci95", "a_points_per_hand", "a_net_points_per_hand", "matches", "hands",
            "a_wins"]
    assert {k: one[k] for k in keys} == {k: two[k] for k in keys}
    assert one["matches"] == 6 and one["hands"] > 0


def test_progress_reports_every_match():
    seen = []
    run_arena(ArenaConfig(a="random", b="random", players=2, matches=4, target=15),
              lambda done, total: seen.append((done, total)))
    assert seen[-1] == (4, 4)


# ---------------------------------------------------------------- the command


def test_truco_arena_json(capsys):
    import json

    from truco.cli.main import main

    rc = main(["arena", "--a", "facil", "--b", "random", "--players", "2", "--matches", "4", "--seed", "3",
               "--target", "15", "--json"])
    assert rc == 0
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    for key in ("a_match_win_rate", "ci95", "a_points_per_hand", "matches", "decision_ms_p99"):
        assert key in result
    assert result["matches"] == 4
    low, high = result["ci95"]
    assert 0.0 <= low <= result["a_match_win_rate"] <= high <= 1.0
    assert set(result["decision_ms_p99"]) == {"a", "b"}


def test_truco_arena_table_and_bad_input(capsys):
    from truco.cli.main import main

    assert main(["arena", "--a", "normal", "--b", "facil", "--players", "4", "--matches", "2",
                 "--target", "15", "--flor"]) == 0
    out = capsys.readouterr().out
    assert "A's match win rate" in out and "decision time normal (A)" in out
    assert main(["arena", "--a", "normal", "--b", "facil", "--matches", "0"]) == 2
    assert "matches must be at least 1" in capsys.readouterr().err


def test_truco_arena_against_a_style_and_an_attacker(capsys):
    import json

    from truco.cli.main import main

    for a, b in (("dificil", "bluffer"), ("attack:random", "random")):
        assert main(["arena", "--a", a, "--b", b, "--players", "2", "--matches", "2", "--target", "15",
                     "--json"]) == 0
        result = json.loads(capsys.readouterr().out)
        assert (result["a"], result["b"], result["matches"]) == (a, b, 2)


def test_a_level_plays_the_same_through_the_roster():
    """Adding the styles and attackers changed nothing for the levels: same seed, same figures."""
    from truco.bots import make_bot
    from truco.bots.roster import make_player

    for level in ("facil", "normal", "dificil"):
        assert type(make_player(level, 5)) is type(make_bot(level, 5))
    base = dict(a="normal", b="facil", players=2, matches=4, seed=3, target=15)
    one = run_arena(ArenaConfig(**base)).summary()
    assert (one["a_wins"], one["hands"]) == (3, 60)  # as measured at d30ddce, before the roster existed


def test_truco_arena_pool_runs_every_level_against_every_style_on_a_tiny_count(capsys):
    import json

    from truco.bots import LEVELS
    from truco.bots.styles import STYLES
    from truco.cli.main import main

    assert main(["arena", "--pool", "--levels", "random,facil", "--players", "2", "4", "--matches", "2",
                 "--target", "15", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["pool"]["styles"] == list(STYLES) and report["pool"]["matches_per_cell"] == 2
    cells = {(c["a"], c["b"], c["players"]) for c in report["cells"]}
    assert cells == {(lv, st, n) for lv in ("random", "facil") for st in STYLES for n in (2, 4)}
    for c in report["cells"]:
        low, high = c["ci95"]
        assert c["matches"] == 2 and 0.0 <= low <= c["a_match_win_rate"] <= high <= 1.0
    assert set(LEVELS) >= set(report["pool"]["levels"])


def test_truco_arena_pool_prints_a_table_per_table_size_and_refuses_a_and_b(capsys):
    from truco.cli.main import main

    assert main(["arena", "--pool", "--levels", "facil", "--styles", "bluffer,loner", "--players", "2",
                 "--matches", "2", "--target", "15"]) == 0
    out = capsys.readouterr().out
    assert "2 players" in out and "bluffer" in out and "loner" in out and "facil" in out
    assert main(["arena", "--pool", "--a", "normal", "--matches", "2"]) == 2
    assert "leave out --a and --b" in capsys.readouterr().err
    assert main(["arena", "--pool", "--styles", "genio", "--matches", "2"]) == 2
    assert main(["arena", "--a", "normal", "--b", "facil", "--players", "2", "4"]) == 2
    assert main(["arena", "--a", "normal"]) == 2
