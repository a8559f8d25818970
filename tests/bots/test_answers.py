"""Where a level answers a truco (truco.bench.answers): what it believed against the real cards."""

from __future__ import annotations

from truco.bench.answers import Report, measure
from truco.bots.arena import ArenaConfig, play_pair


def test_reading_what_a_bot_believed_leaves_the_match_as_the_arena_plays_it():
    """The bench asks the answering bot for the decision it is about to make; its dice are a
    function of the view and its memory has seen that view anyway, so the pair lasts exactly as
    many hands as in the arena, and every answer of ``maestro``'s team is read."""
    report = measure("maestro", "dificil-1", players=2, pairs=2, seed=3, target=15)
    arena = [m for pair in range(2)
             for m in play_pair(ArenaConfig(a="maestro", b="dificil-1", players=2, matches=4, seed=3,
                                            target=15), pair)]
    assert report.hands == sum(m.hands for m in arena)
    data = report.as_json()
    assert data["answers"] >= 10 and 0.0 <= data["brier"] <= 1.0
    for row in data["rows"]:
        assert row["count"] >= 1
        assert 0.0 <= row["believed"] <= 1.0 and 0.0 <= row["on_the_cards"] <= 1.0
        assert row["bin"] == min(4, int(row["believed"] * 5))


def test_an_answer_is_binned_by_round_bet_and_believed_share_and_scored_against_the_cards():
    report = Report()
    report.add(False, 1, 0.45, False)
    report.add(False, 1, 0.55, True)
    report.add(True, 2, 0.95, True)
    report.add(True, 2, 1.0, True)
    rows = {(r["round"], r["bet"], r["bin"]): r for r in report.as_json()["rows"]}
    assert set(rows) == {("first", 1, 2), ("later", 2, 4)}
    assert rows[("first", 1, 2)]["count"] == 2 and rows[("first", 1, 2)]["on_the_cards"] == 0.5
    assert rows[("first", 1, 2)]["believed"] == 0.5
    assert rows[("later", 2, 4)]["on_the_cards"] == 1.0
    assert abs(report.as_json()["brier"] - (0.45**2 + 0.45**2 + 0.05**2 + 0.0) / 4) < 1e-5
