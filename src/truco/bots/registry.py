"""The bot levels by name."""

from __future__ import annotations

from truco.bots.base import Bot, RandomBot, ViewBot
from truco.bots.dificil import DificilBot
from truco.bots.facil import FacilBot
from truco.bots.normal import NormalBot

LEVELS: tuple[str, ...] = ("random", "facil", "normal", "dificil")
_CLASSES: dict[str, type[ViewBot]] = {
    "random": RandomBot, "facil": FacilBot, "normal": NormalBot, "dificil": DificilBot,
}


def make_bot(level: str, seed: int = 0) -> Bot:
    """A bot of ``level`` whose decisions are a pure function of ``seed`` and the views it gets."""
    try:
        cls = _CLASSES[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r} (choose from {', '.join(LEVELS)})") from None
    return cls(seed)
