"""Opponents we did not write our levels against: eight human habits, for measuring, not for the table.

Each style is one plausible habit played consistently (see docs/styles.md); the ``expert`` is a
strong plain player with no habit to exploit, the yardstick an outside heuristic stands for. They
share only the skeleton of a decision (``player``), a player's feel for a hand (``feel``) and plain
card play (``play``), none of it taken from the levels.
"""

from __future__ import annotations

from truco.bots.styles.bluffer import Bluffer
from truco.bots.styles.calling_station import CallingStation
from truco.bots.styles.early_mazo import EarlyMazo
from truco.bots.styles.envido_maniac import EnvidoManiac
from truco.bots.styles.expert import Expert
from truco.bots.styles.loner import Loner
from truco.bots.styles.maniac import Maniac
from truco.bots.styles.player import Habits, StylePlayer
from truco.bots.styles.tight import Tight
from truco.bots.styles.trapper import Trapper

STYLE_CLASSES: dict[str, type[StylePlayer]] = {
    cls.level: cls for cls in (Bluffer, CallingStation, Tight, EnvidoManiac, EarlyMazo, Loner, Maniac,
                                 Trapper)
}
STYLES: tuple[str, ...] = tuple(STYLE_CLASSES)
YARDSTICK_CLASSES: dict[str, type[StylePlayer]] = {Expert.level: Expert}
"""Players with no habit to exploit on purpose: strong heuristics written apart from the levels."""
YARDSTICKS: tuple[str, ...] = tuple(YARDSTICK_CLASSES)
_ALL_CLASSES = {**STYLE_CLASSES, **YARDSTICK_CLASSES}


def make_style(name: str, seed: int = 0) -> StylePlayer:
    """A player of style ``name``; like the levels, a pure function of ``seed`` and the view."""
    try:
        return _ALL_CLASSES[name](seed)
    except KeyError:
        raise ValueError(f"unknown style {name!r} (choose from {', '.join(STYLES + YARDSTICKS)})") from None


__all__ = ["STYLES", "STYLE_CLASSES", "YARDSTICKS", "YARDSTICK_CLASSES", "Habits", "StylePlayer",
           "make_style"]
