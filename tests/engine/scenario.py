"""Spell out a hand in a test: cards by name, actions as short strings ("0 envido", "1 play 1e")."""

from __future__ import annotations

from typing import Any

from truco.engine import Action, Do, Rules, State, apply, new_match, parse_card
from truco.engine.types import Event, PointsAwarded


def act(text: str) -> Action:
    parts = text.split()
    seat, do = int(parts[0]), Do(parts[1])
    return Action(seat, do, parse_card(parts[2]) if do is Do.PLAY else None)


class Hand:
    """A hand under test: ``Hand(["1e 4c 5o", ...], dealer=3)`` then ``.do("0 envido", "1 quiero")``."""

    def __init__(self, hands: list[str], *, dealer: int | None = None, score: tuple[int, int] = (0, 0),
                 won_chicos: tuple[int, int] = (0, 0), **rules: Any) -> None:
        players = len(hands)
        self.rules = Rules(players=players, **rules)
        cards = [[parse_card(c) for c in h.split()] for h in hands]
        if dealer is None:
            dealer = players - 1  # seat 0 is mano
        self.state: State
        self.state, self.events = new_match(self.rules, dealer=dealer, hands=cards, score=score,
                                            chicos=won_chicos)

    def do(self, *actions: str) -> Hand:
        for a in actions:
            self.state, evs = apply(self.state, act(a))
            self.events.extend(evs)
        return self

    def play_round(self, *cards: str) -> Hand:
        """Play one card per seat in turn order, e.g. ``play_round("1e", "4c", ...)``."""
        for c in cards:
            self.do(f"{self.state.turn} play {c}")
        return self

    @property
    def score(self) -> tuple[int, int]:
        return self.state.score

    def points(self) -> list[tuple[int, int, str]]:
        return [(e.team, e.points, e.reason) for e in self.events if isinstance(e, PointsAwarded)]

    def of(self, kind: type) -> list[Event]:
        return [e for e in self.events if isinstance(e, kind)]
