"""Señas: one of the classic signs, received by the sender's partners only."""

from __future__ import annotations

import pytest

from tests.table.table_driver import Driver
from truco.table import Sena, TableError, event_dict


def test_senas_reach_partners_only():
    d = Driver()
    d.send(d.pid_of_seat[1], Sena("ancho_espada"))
    (effect,) = [e for e in d.effects if event_dict(e.event)["type"] == "sena"]
    assert effect.audience.kind == "team" and effect.audience.value == 1
    assert [s for s in range(4) if effect.audience.reaches(s)] == [1, 3]
    assert d.view(3).senas == ((1, "ancho_espada"),)
    assert d.view(0).senas == () and d.view(2).senas == ()
    assert d.view(1).senas == ()  # the sender does not "receive" their own


def test_senas_in_six_player_tables_reach_both_partners():
    d = Driver(players=6)
    d.send(d.pid_of_seat[2], Sena("tengo_envido"))
    assert [s for s in range(6) if d.view(s).senas] == [0, 4]


def test_senas_are_cleared_with_each_new_hand():
    from truco.table import EndHand
    d = Driver(mode="casual")
    d.send(d.pid_of_seat[1], Sena("nada"))
    d.send(0, EndHand())
    assert d.view(3).senas == ()


def test_senas_need_a_partner_and_the_setting_on():
    with pytest.raises(TableError, match="without señas"):
        Driver(players=2).send(1, Sena("nada"))
    with pytest.raises(TableError, match="without señas"):
        Driver(senas=False).send(1, Sena("nada"))


def test_an_unknown_sena_is_refused():
    with pytest.raises(TableError, match="unknown"):
        Driver().send(1, Sena("guiño"))
