"""An error a node raises for a table of its own reaches the node that asked under its own class."""

from __future__ import annotations

import pytest

from truco.cluster.served import ERRORS, error_kind
from truco.runtime.connections import BadToken, LobbyError, Moved, NoSuchTable, Revoked, ShuttingDown


@pytest.mark.parametrize("cls", [BadToken, Revoked, NoSuchTable, ShuttingDown, Moved, LobbyError])
def test_an_error_served_for_another_node_is_raised_there_as_the_same_class(cls: type[LobbyError]) -> None:
    assert ERRORS[error_kind(cls("x"))] is cls


def test_an_error_with_no_name_of_its_own_travels_as_its_nearest_named_class() -> None:
    class Odd(Revoked):
        pass

    class Other(LobbyError):
        pass

    assert ERRORS[error_kind(Odd("x"))] is Revoked
    assert error_kind(Other("x")) == "lobby"
