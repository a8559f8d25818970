"""What a bot is: a player that sees only its seat's view and answers with one legal action."""

from __future__ import annotations

import random
from typing import Protocol

from truco.engine import Action, SeatView


class Bot(Protocol):
    """A player. It receives a ``SeatView`` (never the full state) and returns one of ``view.legal``.

    When the view shows a call waiting for the bot's team, the returned answer is the bot's vote.
    """

    level: str

    def choose(self, view: SeatView) -> Action: ...


class RandomBot:
    """Uniform over the legal actions; for tests and as the weakest arena opponent."""

    level = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: SeatView) -> Action:
        if not view.legal:
            raise ValueError("the bot has nothing to do in this view")
        return self._rng.choice(view.legal)
