"""Pica-pica at the table: the option is the host's, its duels reach every screen, and the partners
who wait out a duel have nothing to do, señas included (docs/rules.md, "Pica-pica")."""

from __future__ import annotations

import pytest

from tests.table.table_driver import Driver
from truco.engine import Do
from truco.engine.legal import legal_actions_for
from truco.table import Sena, TableError, TableSettings
from truco.table.view import TableView


def _to_pica(d: Driver) -> None:
    """Whoever acts goes to the mazo until the scores reach the band (mano rotates: both teams score)."""
    for _ in range(40):
        g = d.t.game
        assert g is not None
        if g.pica:
            return
        seat = d.turn
        d.seat(seat, Do.MAZO if any(a.do is Do.MAZO for a in legal_actions_for(g, seat)) else Do.QUIERO)
    raise AssertionError("never reached a pica-pica")


def _game(view: TableView) -> dict:
    return view.to_dict()["game"]


def test_the_host_chooses_pica_pica_for_six_and_it_is_off_by_default():
    assert TableSettings(players=6).pica_pica is False
    assert TableSettings.from_dict({"players": 6, "pica_pica": True}).rules().pica_pica
    for bad in ({"players": 4, "pica_pica": True}, {"players": 6, "pica_pica": "yes"}):
        with pytest.raises(ValueError):
            TableSettings.from_dict(bad)


def test_every_screen_sees_the_duel_and_who_waits():
    d = Driver(players=6, pica_pica=True)
    _to_pica(d)
    g = d.t.game
    assert g is not None and g.duel == 0 and min(g.score) >= 5
    for seat in range(6):
        game = _game(d.view(seat))
        assert game["pica"] and game["duel"] == 0 and sorted(game["idle"]) == sorted(
            s for s in range(6) if s not in (g.mano, (g.mano + 3) % 6))
    assert [e for e in d.events("duel_started")][-1] == {"type": "duel_started", "duel": 0, "mano": g.mano,
                                                         "rival": (g.mano + 3) % 6}


def test_a_seat_waiting_for_its_duel_cannot_act_and_nobody_makes_senas_in_a_pica_pica():
    d = Driver(players=6, pica_pica=True)
    _to_pica(d)
    g = d.t.game
    assert g is not None
    waiting = next(s for s in range(6) if (g.idle >> s) & 1)
    with pytest.raises(TableError) as e:
        d.seat(waiting, Do.MAZO)
    assert e.value.reason == "waiting_for_duel"
    with pytest.raises(TableError) as e:
        d.send(d.pid_of_seat[g.mano], Sena("tres"))
    assert e.value.reason == "no_senas_in_pica"
    assert "sena" not in d.view(waiting).to_dict()["commands"]


def test_the_hand_summary_of_a_pica_pica_lists_its_three_duels():
    d = Driver(players=6, pica_pica=True)
    _to_pica(d)
    hand_no = d.t.hand_no
    while d.t.hand_no == hand_no and d.t.phase == "playing":
        g = d.t.game
        assert g is not None
        d.seat(d.turn, Do.MAZO)
    summary = d.t.last_hand
    assert summary is not None and summary["pica"] and summary["hand_no"] == hand_no
    assert [(x["mano"], x["rival"]) for x in summary["duels"]] == [
        ((summary["mano"] + k - 2) % 6, (summary["mano"] + k + 1) % 6) for k in range(3)]
    assert summary["mazo"] == [x["mano"] for x in summary["duels"]]
    assert len(d.events("duel_ended")) == 3
