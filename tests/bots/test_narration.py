"""The one narrator of engine events (``truco.terminal.text``), for a player and for ``truco demo``."""

from __future__ import annotations

import pytest

from truco.cli.main import main
from truco.engine import Action, Do
from truco.engine.cards import BASTOS, COPAS, OROS, make_card
from truco.engine.types import (
    ENVIDO_CALLS,
    TRUCO_CALLS,
    Answered,
    Called,
    CardPlayed,
    CardsShown,
    DuelEnded,
    DuelStarted,
    HandEnded,
    HandStarted,
    MatchEnded,
    PointsAwarded,
    RoundEnded,
    SonBuenas,
    TantoSung,
    WentToMazo,
)
from truco.terminal.text import WORDS, describe, match_result, option

NAMES = ["Vos", "Bot 1 (rival)"]


def test_every_action_but_a_card_has_its_words():
    assert set(WORDS) == set(Do) - {Do.PLAY}
    bets = {*TRUCO_CALLS, *ENVIDO_CALLS, Do.FLOR, Do.CONTRA_FLOR, Do.CONTRA_FLOR_AL_RESTO}
    assert {do for do, w in WORDS.items() if w.bet} == bets


def test_the_table_talk():
    sota = make_card(10, OROS)
    assert describe(HandStarted(3, 1, 0), NAMES) == "═══ Mano 3 · reparte Bot 1 (rival) · es mano Vos ═══"
    assert describe(CardPlayed(1, sota), NAMES) == "Bot 1 (rival) tira la sota de oros."
    assert describe(CardPlayed(0, make_card(1, BASTOS)), NAMES) == "Vos tira el as de bastos."
    assert describe(Called(1, Do.RETRUCO), NAMES) == "Bot 1 (rival): ¡Quiero retruco!"
    assert describe(Answered(0, Do.NO_QUIERO), NAMES) == "Vos: No quiero."
    assert describe(WentToMazo(0), NAMES) == "Vos se va al mazo."
    assert describe(TantoSung(1, 28), NAMES) == "  Bot 1 (rival) canta 28."
    assert describe(TantoSung(1, 33, True), NAMES) == "  Bot 1 (rival) canta 33 de flor."
    assert describe(SonBuenas(0), NAMES) == "  Vos: son buenas."
    assert describe(RoundEnded(0, -1, -1), NAMES) == "  Ronda 1: parda."
    assert describe(RoundEnded(1, 1, 1), NAMES) == "  Ronda 2 para Bot 1 (rival)."
    shown = CardsShown(1, (make_card(7, COPAS), sota))
    assert describe(shown, NAMES) == "  Bot 1 (rival) muestra: siete de copas, sota de oros."


def test_the_duels_of_a_pica_pica_are_announced():
    names = ["Vos", "Bot 1", "Bot 2", "Bot 3", "Bot 4", "Bot 5"]
    assert describe(DuelStarted(1, 1, 4), names) == "── Pica-pica, duelo 2 de 3: Bot 1 contra Bot 4 ──"
    assert describe(DuelEnded(1, 0), names, 0) == "  Duelo 2 para nosotros."


@pytest.mark.parametrize(("mine", "expected"), [
    (0, "  +1 punto para nosotros (envido no querido)."),
    (1, "  +1 punto para ellos (envido no querido)."),
    (None, "  +1 punto para el equipo 0 (envido no querido)."),
])
def test_points_are_told_from_the_listeners_side(mine, expected):
    assert describe(PointsAwarded(0, 1, "envido_no_querido"), NAMES, mine) == expected
    assert describe(PointsAwarded(1, 3, "mazo"), NAMES, mine).startswith("  +3 puntos para ")


def test_the_caller_closes_the_hand_and_the_match():
    assert describe(HandEnded(4, 0, (30, 12)), NAMES, 0) is None
    assert describe(MatchEnded(0, (30, 12), (1, 0)), NAMES, 0) is None
    assert match_result(0, 0) == "¡Ganamos la partida!"
    assert match_result(1, 0) == "Perdimos la partida. ¡La próxima será!"
    assert match_result(1, None) == "¡Gana la partida el equipo 1!"


def test_menu_options():
    assert option(Action(0, Do.PLAY, make_card(10, OROS))) == "jugar la sota de oros"
    assert option(Action(0, Do.TRUCO)) == "cantar truco"
    assert option(Action(0, Do.MAZO)) == "irme al mazo"


@pytest.mark.parametrize(("players", "flor"), [(2, False), (4, True), (6, False)])
def test_truco_demo_tells_a_whole_match(players, flor, capsys):
    argv = ["demo", "--players", str(players), "--target", "15", "--seed", "3"] + (["--flor"] if flor else [])
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert main(argv) == 0
    assert capsys.readouterr().out == out  # a seed repeats the match
    lines = out.splitlines()
    assert lines[0] == f"Partida de demostración a 15, {players} jugadores, semilla 3"
    assert lines[2].startswith("═══ Mano 1 · reparte Jugador ")
    assert " tira " in out and "  Tanteador: " in out and "para el equipo " in out
    assert "nosotros" not in out and "ellos" not in out  # an onlooker hears team numbers
    assert lines[-1] in ("¡Gana la partida el equipo 0!", "¡Gana la partida el equipo 1!")
    assert lines[-2].startswith("  Tanteador: ")
