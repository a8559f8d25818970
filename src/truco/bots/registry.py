"""The bot levels by name."""

from __future__ import annotations

from truco.bots.base import Bot, RandomBot, ViewBot
from truco.bots.dificil import DificilBot
from truco.bots.facil import FacilBot
from truco.bots.frozen import Dificil1Bot
from truco.bots.maestro import MaestroBot
from truco.bots.neural import NeuralBot
from truco.bots.normal import NormalBot

LEVELS: tuple[str, ...] = ("random", "facil", "normal", "dificil", "maestro")
"""The levels a table offers, weakest (bar ``random``) to strongest."""
FROZEN: tuple[str, ...] = ("dificil-1",)
"""Levels frozen under a version name (``frozen``): for measuring, not offered at a table."""
LEARNT: tuple[str, ...] = ("neural",)
"""Levels learnt by ``truco train`` (``neural``): measured in the arena, not offered at a table."""
ALL_LEVELS: tuple[str, ...] = (*LEVELS, *FROZEN, *LEARNT)
_CLASSES: dict[str, type[ViewBot]] = {
    "random": RandomBot, "facil": FacilBot, "normal": NormalBot, "dificil": DificilBot,
    "maestro": MaestroBot, "dificil-1": Dificil1Bot, "neural": NeuralBot,
}


def make_bot(level: str, seed: int = 0) -> Bot:
    """A bot of ``level`` whose decisions are a pure function of ``seed`` and the views it gets."""
    try:
        cls = _CLASSES[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r} (choose from {', '.join(ALL_LEVELS)})") from None
    return cls(seed)


def make_level(level: str, seed: int) -> Bot:
    """The bot of ``level``, or ``random`` for a level this code does not know (a table stored by
    another version): a table never stalls for want of a bot."""
    try:
        return make_bot(level, seed)
    except ValueError:
        return make_bot("random", seed)
