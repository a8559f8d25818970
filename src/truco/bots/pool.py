"""The pool report: every level against every style, on the same duplicate deals.

A level's figures against itself and its neighbours only say how our own bots rank each other; the
styles (``truco.bots.styles``) are opponents written apart from them, one human habit each. Every
cell is an ordinary arena run (``arena.run_arena``) with the same seed, so every level meets a style
on the same deals, and a cell's figures are those ``truco arena --a LEVEL --b STYLE`` prints.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from truco.bots.arena import ArenaConfig, run_arena
from truco.bots.registry import LEVELS
from truco.bots.roster import check_name
from truco.bots.styles import STYLES


@dataclass(frozen=True, slots=True)
class PoolConfig:
    levels: tuple[str, ...] = LEVELS
    styles: tuple[str, ...] = STYLES
    players: tuple[int, ...] = (2, 4)
    matches: int = 200
    """Per cell (level, style, players), in duplicate pairs."""
    seed: int = 1
    flor: bool = False
    target: int = 30
    jobs: int = 1

    def __post_init__(self) -> None:
        if not self.levels or not self.styles or not self.players:
            raise ValueError("the pool needs at least one level, one style and one table size")
        for name in (*self.levels, *self.styles):
            check_name(name)
        self.cells()  # validates the rest

    def cells(self) -> list[ArenaConfig]:
        """The arena runs, table size first, then level, then style."""
        return [ArenaConfig(a=level, b=style, players=n, matches=self.matches, seed=self.seed,
                            flor=self.flor, target=self.target, jobs=self.jobs)
                for n in self.players for level in self.levels for style in self.styles]


def run_pool(config: PoolConfig, progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Every cell's arena summary, plus the settings; ``progress(done, total)`` counts matches."""
    cells = config.cells()
    total = sum(c.pairs * 2 for c in cells)
    done = 0
    summaries = []
    for cell in cells:
        def step(n: int, _total: int, before: int = done) -> None:
            if progress is not None:
                progress(before + n, total)

        summaries.append(run_arena(cell, step).summary())
        done += cell.pairs * 2
    return {
        "pool": {"levels": list(config.levels), "styles": list(config.styles),
                 "players": list(config.players), "matches_per_cell": cells[0].pairs * 2, "seed": config.seed,
                 "flor": config.flor, "target": config.target},
        "cells": summaries,
    }


def cell(report: dict[str, Any], level: str, style: str, players: int) -> dict[str, Any]:
    """One cell's summary from a report."""
    cells: list[dict[str, Any]] = report["cells"]
    for s in cells:
        if (s["a"], s["b"], s["players"]) == (level, style, players):
            return s
    raise KeyError((level, style, players))
