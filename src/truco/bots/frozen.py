"""Levels frozen under a version name, so that progress is measured against a fixed mark.

``dificil-1`` is ``dificil`` as it was when ``maestro`` was started (issue 13): the same code with
its parameters written out here, so a later change to ``dificil``'s defaults does not move it.
``tests/bots/test_frozen.py`` checks its decisions on a fixed set of views against a recorded
fingerprint: if shared code changes what it plays, that test fails and the change needs a new
frozen copy of the old code instead. It votes as if it answered alone (``team_vote=False``), as
``dificil`` did then.
"""

from __future__ import annotations

from dataclasses import replace

from truco.bots.dificil import DificilBot, Params
from truco.engine import Action, SeatView

DIFICIL_1 = Params(worlds=80, candidates=240, bluff_rate=0.12, call_chance=0.6, call_floor=0.03,
                   edge=0.1, wait_margin=0.01, team_vote=False)


class Dificil1Bot(DificilBot):
    level = "dificil-1"
    makes_senas = False  # the mark stays as it was: it neither makes nor reads señas

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed, DIFICIL_1)

    def decide(self, view: SeatView) -> Action:
        return super().decide(replace(view, senas=()) if view.senas else view)
