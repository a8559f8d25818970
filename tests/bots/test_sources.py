"""The points-by-kind bench (truco.bench.sources): every point of the arena's matches, sorted once."""

from __future__ import annotations

from truco.bench.sources import KINDS, kind_of, measure
from truco.bots.arena import ArenaConfig, play_pair


def test_every_point_of_the_arenas_matches_is_sorted_into_one_kind():
    """The bench plays the arena's pair (the same deals and seeds) and its rows add up to the points
    each side scored there."""
    out = measure("dificil-1", "normal", players=4, pairs=1, seed=3, target=15)
    arena = play_pair(ArenaConfig(a="dificil-1", b="normal", players=4, matches=2, seed=3, target=15), 0)
    assert out["a_wins"] == sum(m.a_won for m in arena)
    assert [r["kind"] for r in out["rows"]] == list(KINDS)
    assert sum(r["a_points"] for r in out["rows"]) == sum(m.a_points for m in arena)
    assert sum(r["b_points"] for r in out["rows"]) == sum(m.b_points for m in arena)


def test_a_declined_envido_scores_for_the_side_that_made_its_last_bet():
    out = measure("dificil-1", "normal", players=2, pairs=2, seed=5, target=15)
    declined = {r["kind"]: r for r in out["rows"]}["envido declined"]
    by_side = {side: sum(x["times"] for x in out["envido_bets"]
                         if x["bettor"] == side and x["outcome"] == "declined") for side in "ab"}
    assert (by_side["a"], by_side["b"]) == (declined["a_times"], declined["b_times"])
    sung = {r["kind"]: r for r in out["rows"]}["envido sung"]
    won = {side: sum(x["times"] for x in out["envido_bets"] if x["outcome"] == f"won by {side}")
           for side in "ab"}
    assert (won["a"], won["b"]) == (sung["a_times"], sung["b_times"])
    assert declined["a_times"] + declined["b_times"] + sung["a_times"] + sung["b_times"] > 0


def test_a_truco_played_out_is_sorted_by_who_called_it_last():
    assert kind_of("truco", True) == "truco played, own call last"
    assert kind_of("truco", False) == "truco played, rivals' call last"
    assert kind_of("truco", None) == "no truco"
    assert kind_of("truco_no_querido", True) == "truco declined"
    assert kind_of("envido_no_querido", None) == "envido declined"
    assert kind_of("contra_flor_al_resto", None) == "flor"
