"""A bot never receives the full state: by its types, at run time, and in what the arena hands it."""

from __future__ import annotations

import ast
import dataclasses
import sys
from pathlib import Path

import pytest

from truco.bots import LEVELS
from truco.bots.arena import play_match
from truco.bots.roster import make_player
from truco.bots.styles import STYLES, YARDSTICKS
from truco.engine import PublicView, Rules, SeatView, State, new_match, view_for

BOTS_SRC = Path(__file__).resolve().parents[2] / "src" / "truco" / "bots"


@pytest.mark.parametrize("level", [*LEVELS, "neural", *STYLES, *YARDSTICKS, "attack:normal"])
def test_a_bot_refuses_the_full_state(level):
    st, _ = new_match(Rules(players=2), dealer=0, seed=1)
    bot = make_player(level, 1)
    with pytest.raises(TypeError, match="SeatView"):
        bot.choose(st)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="SeatView"):
        bot.hint(st)  # type: ignore[arg-type]


@pytest.mark.parametrize("level", [*LEVELS, "neural", *STYLES, *YARDSTICKS, "attack:normal"])
def test_a_bot_refuses_a_look_alike_view(level):
    """Duck typing is not enough: a view must be the engine's own SeatView."""
    st, _ = new_match(Rules(players=2), dealer=0, seed=1)
    view = view_for(st, st.turn)

    class Sneaky:
        def __getattr__(self, name):
            return getattr(view, name)

    with pytest.raises(TypeError):
        make_player(level, 1).choose(Sneaky())  # type: ignore[arg-type]


def _walk(value: object, found: set[type]) -> None:
    """Every type reachable from a view's fields, by value."""
    found.add(type(value))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            _walk(getattr(value, f.name), found)
    elif isinstance(value, (tuple, list)):
        for v in value:
            _walk(v, found)


def test_a_seat_view_holds_no_state_and_no_other_hand():
    st, _ = new_match(Rules(players=4), dealer=0, seed=3)
    view = view_for(st, 1)
    found: set[type] = set()
    _walk(view, found)
    assert State not in found
    assert PublicView in found
    others = {c for s in (0, 2, 3) for c in st.dealt[s]}
    # the only cards a fresh view names are the seat's own
    assert not others & set(view.cards) and not others & set(view.dealt)


class Spy:
    """Records what the arena hands a bot."""

    level = "spy"

    def __init__(self, level: str, seed: int) -> None:
        self.inner = make_player(level, seed)
        self.received: list[object] = []

    def choose(self, view):
        self.received.append(view)
        return self.inner.choose(view)

    def hint(self, view):
        self.received.append(view)
        return self.inner.hint(view)

    def reconsider(self, view, votes):
        self.received.append(view)
        return self.inner.reconsider(view, votes)


@pytest.mark.parametrize("level", [*LEVELS, *STYLES, *YARDSTICKS])
def test_the_arena_hands_bots_their_own_seat_view_only(level):
    rules = Rules(players=4, target=15)
    spies = [Spy(level, s) for s in range(4)]
    play_match(rules, spies, dealer=0, seeds=lambda h: 100 + h)
    for seat, spy in enumerate(spies):
        assert spy.received
        for v in spy.received:
            assert type(v) is SeatView
            assert v.seat == seat


ARRAYS = {"numpy"}
"""numpy: array arithmetic and nothing else (the ``neural`` level's forward pass and its training);
it has no way to the state a bot must not see."""


def test_bots_import_only_the_engine_the_standard_library_and_numpy():
    allowed_std = set(sys.stdlib_module_names) | ARRAYS
    for path in sorted(BOTS_SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                if top == "truco":
                    assert name.startswith(("truco.engine", "truco.bots")), f"{path.name} imports {name}"
                else:
                    assert top in allowed_std or top == "__future__", f"{path.name} imports {name}"
