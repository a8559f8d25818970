"""Casual mode (seed 004): the app deals, keeps turns and decides rounds; the host keeps the score."""

from __future__ import annotations

import pytest

from tests.table.table_driver import Driver
from truco.engine import Do
from truco.table import Award, EndHand, TableError, UndoAward


def casual(**kw: object) -> Driver:
    return Driver(mode="casual", **kw)  # type: ignore[arg-type]


def play_hand(d: Driver) -> None:
    """Everyone plays their first legal card until the hand changes."""
    hand = d.t.hand_no
    while d.t.hand_no == hand and d.t.phase == "playing":
        seat = d.turn
        card = next(a for a in d.view(seat).legal if a.do is Do.PLAY)
        d.seat(seat, Do.PLAY, card.card)


def test_casual_there_are_no_calls_in_the_app():
    d = casual()
    assert {a.do for a in d.view(d.turn).legal} <= {Do.PLAY, Do.MAZO}
    with pytest.raises(TableError, match="aloud"):
        d.seat(d.turn, Do.TRUCO)
    with pytest.raises(TableError, match="aloud"):
        d.seat(d.turn, Do.ENVIDO)


def test_casual_any_player_may_go_to_the_mazo_in_turn():
    d = casual()
    seat = d.turn
    d.seat(seat, Do.MAZO)
    assert d.t.game is not None and seat in [s for s in range(4) if (d.t.game.folded >> s) & 1]
    with pytest.raises(TableError):
        d.seat((d.turn + 1) % 4, Do.MAZO)  # not in turn


def test_casual_the_app_decides_the_rounds_and_the_hand_but_scores_nothing():
    d = casual()
    play_hand(d)
    assert d.t.last_hand is not None and d.t.last_hand["winner"] in (0, 1)
    assert d.t.casual_score == (0, 0)
    assert d.events("round_ended")


def test_casual_the_next_hand_is_dealt_with_the_mano_rotated():
    d = casual()
    assert d.t.game is not None
    mano = d.t.game.mano
    play_hand(d)
    assert d.t.game.mano == (mano + 1) % 4 and d.t.hand_no == 2


def test_casual_the_host_awards_1_to_4_points_to_a_team():
    d = casual()
    d.send(0, Award(1, 3))
    d.send(0, Award(0, 4))
    assert d.t.casual_score == (4, 3)
    assert d.view(2).casual == {"score": [4, 3], "target": 30,
                                "awards": [{"team": 1, "points": 3}, {"team": 0, "points": 4}]}
    for bad in (0, 5):
        with pytest.raises(TableError):
            d.send(0, Award(0, bad))
    with pytest.raises(TableError, match="host"):
        d.send(1, Award(1, 1))


def test_casual_the_host_can_undo_the_last_award():
    d = casual()
    d.send(0, Award(1, 2))
    d.send(0, Award(0, 1))
    d.send(0, UndoAward())
    assert d.t.casual_score == (0, 2) and d.t.awards == ((1, 2),)
    d.send(0, UndoAward())
    with pytest.raises(TableError):
        d.send(0, UndoAward())


def test_casual_the_host_can_end_the_hand_early_after_a_no_quiero_said_aloud():
    d = casual()
    assert d.t.game is not None
    mano = d.t.game.mano
    d.send(0, Award(0, 1))
    d.send(0, EndHand())
    assert d.t.hand_no == 2 and d.t.game.mano == (mano + 1) % 4
    assert d.t.game.history == ()
    with pytest.raises(TableError, match="host"):
        d.send(1, EndHand())


def test_casual_the_match_ends_at_the_target():
    d = casual(target=15)
    for _ in range(3):
        d.send(0, Award(1, 4))
    out = d.send(0, Award(1, 4))
    assert d.t.phase == "over" and d.t.result is not None and d.t.result.winner == 1
    assert d.t.casual_score == (0, 15)
    (record,) = out.records
    assert record["casual"]["score"] == [0, 15]


def test_awards_are_for_casual_mode_only():
    d = Driver()
    with pytest.raises(TableError, match="casual"):
        d.send(0, Award(0, 1))
