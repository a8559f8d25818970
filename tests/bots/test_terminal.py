"""The terminal game, played end to end through its real input loop with a scripted person."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from truco.cli.main import main
from truco.terminal import GameConfig, TerminalGame


class Script:
    """A person at the keyboard: a few lines typed first, then a policy for every later question."""

    def __init__(self, lines: list[str], then: str | None = "1") -> None:
        self.lines: Iterator[str] = iter(lines)
        self.then = then
        self.out: list[str] = []
        self.prompts = 0

    def read(self, prompt: str) -> str:
        self.prompts += 1
        for line in self.lines:
            return line
        if self.then is None:
            raise EOFError
        return self.then

    def write(self, line: str) -> None:
        self.out.append(line)

    @property
    def text(self) -> str:
        return "\n".join(self.out)


@pytest.mark.parametrize(("players", "flor"), [(2, False), (4, True), (6, False)])
def test_a_whole_match_against_bots(players, flor):
    person = Script(["", "hola", "0", "99", "1"])
    game = TerminalGame(GameConfig(players=players, bots="facil", flor=flor, target=15, seed=11), person)
    assert game.play() == 0
    text = person.text
    assert text.count("No entendí") == 4
    assert "No entendí «(nada)». Escribí un número del 1 al" in text
    assert "No entendí «hola»" in text
    assert "Tus cartas:" in text and "Te toca. ¿Qué hacés?" in text
    assert "═══ Mano 1 ·" in text and "— Fin de la mano 1:" in text
    assert "Ganamos la partida" in text or "Perdimos la partida" in text
    assert " tira " in text and "  Ronda 1" in text
    assert "para nosotros (" in text or "para ellos (" in text  # points told from the person's side
    assert "para el equipo" not in text
    assert f"a 15{', con flor' if flor else ''})" in text


def test_the_person_answers_calls_and_sees_the_table():
    """Always picking the last option listed: calls, raises, "no quiero", the mazo."""

    class Last(Script):
        def read(self, prompt: str) -> str:
            self.prompts += 1
            options = [ln for ln in self.out if ln.startswith("  ") and ") " in ln]
            return options[-1].split(")")[0].strip() if options else "1"

    person = Last([])
    game = TerminalGame(GameConfig(players=2, bots="normal", target=15, seed=3), person)
    assert game.play() == 0
    assert "irme al mazo" in person.text
    assert "Vos: Me voy al mazo." not in person.text  # the mazo is told as an event line
    assert "Vos se va al mazo." in person.text


def test_a_partner_bot_hints_and_the_person_decides():
    """When the rivals call, the person answers for the team and sees the partner bot's preference."""
    for seed in range(20):
        person = Script([], then="1")
        TerminalGame(GameConfig(players=4, bots="normal", target=15, seed=seed), person).play()
        if "¿Qué contestás?" in person.text:
            break
    else:
        pytest.fail("no call to answer in 20 matches")
    text = person.text
    assert "Bot 2 (compañero) te sugiere:" in text
    assert "Decidís vos por el equipo." in text


def test_the_person_can_leave():
    person = Script(["2", "q"])
    assert TerminalGame(GameConfig(players=2, seed=1), person).play() == 1
    assert "Partida abandonada" in person.text


def test_end_of_input_leaves_cleanly():
    person = Script([], then=None)
    assert TerminalGame(GameConfig(players=2, seed=1), person).play() == 1


def test_truco_play_command(monkeypatch, capsys):
    lines = iter(["1"] * 5000)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    assert main(["play", "--players", "2", "--bots", "random", "--target", "15", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "Truco a 15, 2 jugadores" in out
