"""The bets' counterfactual report (truco.bench.regret): the rollouts leave the match untouched."""

from __future__ import annotations

from truco.bench.regret import Report, measure
from truco.bots.arena import ArenaConfig, play_pair


def test_rolling_out_the_alternatives_leaves_the_match_as_the_arena_plays_it():
    """Every rollout runs on copies of the bots, so ``maestro``'s memory of the match, and with it
    every later decision, is what it is in the arena: the same pair lasts as many hands."""
    report = measure("maestro", "dificil-1", players=2, pairs=1, seed=3, target=15)
    arena = play_pair(ArenaConfig(a="maestro", b="dificil-1", players=2, matches=2, seed=3, target=15), 0)
    assert report.hands == sum(m.hands for m in arena)
    rows = report.summary()["rows"]
    kinds = {r["decision"] for r in rows}
    assert {"truco call", "truco answer", "envido call"} <= kinds
    for r in rows:
        assert r["count"] >= 1 and 0.0 <= r["another_paid_more"] <= 1.0


def test_a_choice_is_scored_against_the_best_other_option():
    report = Report()
    report.add("truco answer", True, "quiero", {"quiero": 0.40, "no_quiero": 0.45, "retruco": 0.30})
    report.add("truco answer", True, "quiero", {"quiero": 0.60, "no_quiero": 0.50, "retruco": 0.55})
    (row,) = report.summary()["rows"]
    assert row["count"] == 2
    assert abs(row["mean_gain"] - ((0.40 - 0.45) + (0.60 - 0.55)) / 2) < 1e-9
    assert row["another_paid_more"] == 0.5


def test_a_choice_is_also_set_against_each_other_option_alone_where_it_was_legal():
    """The best of two others is a maximum over single rollouts and leans below zero; the choice against
    each option alone does not. Here the choice beats "no quiero" on average and loses to the retruco."""
    report = Report()
    report.add("truco answer", True, "quiero", {"quiero": 0.40, "no_quiero": 0.45, "retruco": 0.30})
    report.add("truco answer", True, "quiero", {"quiero": 0.60, "no_quiero": 0.50, "retruco": 0.55})
    report.add("truco answer", True, "quiero", {"quiero": 0.50, "no_quiero": 0.44})  # no retruco legal
    (row,) = report.summary()["rows"]
    assert row["against"]["no_quiero"]["count"] == 3
    assert abs(row["against"]["no_quiero"]["mean_gain"] - (-0.05 + 0.10 + 0.06) / 3) < 1e-4
    assert row["against"]["retruco"] == {"count": 2, "mean_gain": round((0.10 + 0.05) / 2, 4)}
    assert row["mean_gain"] < min(x["mean_gain"] for x in row["against"].values())
