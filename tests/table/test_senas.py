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


def test_a_bot_signs_to_its_partners_once_before_its_first_card():
    from truco.table import BotSena, Facts
    from truco.table.view import bot_view

    d = Driver(humans=(0, 1))  # bots in seats 2 and 3: seat 2 is the human's partner
    assert Facts(d.t).bot_senas_due() == (2, 3)
    d.system(BotSena(2, "tres"))
    (effect,) = [e for e in d.effects if event_dict(e.event)["type"] == "sena"]
    assert [s for s in range(4) if effect.audience.reaches(s)] == [0, 2]
    assert d.view(0).senas == ((2, "tres"),)
    assert Facts(d.t).bot_senas_due() == (3,)
    with pytest.raises(TableError) as e:
        d.system(BotSena(2, "dos"))  # once a hand
    assert e.value.reason == "no_senas"
    with pytest.raises(TableError):
        d.system(BotSena(1, "dos"))  # a human's seat
    # the human's seña reaches the bot partner's view, a rival bot's view never
    d.send(0, Sena("ancho_espada"))
    assert bot_view(Facts(d.t), 2).senas == ((0, "ancho_espada"),)
    assert bot_view(Facts(d.t), 3).senas == ()


def test_no_bot_signs_at_a_table_without_senas_or_after_playing():
    from truco.engine import Do
    from truco.table import Facts

    assert Facts(Driver(humans=(0,), senas=False).t).bot_senas_due() == ()
    d = Driver(humans=(0,))
    g = d.t.game
    assert g is not None
    if g.turn == 0:  # the human is mano: they play first, then a bot is in turn
        d.seat(0, Do.PLAY, g.held[0][0])
        g = d.t.game
        assert g is not None
    bot = g.turn
    d.bot(bot, Do.PLAY, g.held[bot][0])
    assert bot != 0 and bot not in Facts(d.t).bot_senas_due()
    assert len(Facts(d.t).bot_senas_due()) == 2  # the other two bots may still sign
