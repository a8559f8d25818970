"""A socket as the runtime sees it: bound once, at connect, to one player of one table, or to no
player at all (a spectator). The runtime only ever hands it typed messages, or asks it to close."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from truco.protocol import ServerMessage

Send = Callable[[ServerMessage | str], None]
"""Called with each message for one connection. It must not block (queue it). A ``str`` is a message
already encoded: a cluster node relays the frames a table's owner built (``truco.cluster``)."""
Close = Callable[[int, str], None]
"""Asks the connection to close with a WebSocket close code, after what it has queued."""


def _keep_open(code: int, reason: str) -> None:
    """The default ``close`` of a connection that has no socket behind it (tests, embedding)."""


@dataclass(eq=False)
class Connection:
    """One socket bound to ``player`` (``None``: a spectator) of one table."""

    table_id: str
    player: int | None
    send: Send
    close: Close = _keep_open
    conn_id: int = 0


@dataclass(frozen=True, slots=True)
class Ticket:
    """What a person gets on creating or joining a table: their player id and secret seat token."""

    table_id: str
    player: int
    token: str


class LobbyError(ValueError):
    """A request the runtime refuses before any table sees it; the message is meant for the user."""


class NoSuchTable(LobbyError):
    pass


class BadToken(LobbyError):
    """An unknown or stale seat token: it does nothing."""


class Revoked(BadToken):
    """A token that was ended: its player left the table or was removed by the host."""


class ShuttingDown(LobbyError):
    """The server is stopping: the client should reconnect (to this server once it is back)."""


class Moved(ShuttingDown):
    """The table moved to another process of the cluster: reconnect (the load balancer finds it)."""
