"""The messages a table's mailbox takes, one at a time: typed records, never closures."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from truco.runtime.connections import Connection
from truco.table import Envelope


@dataclass(frozen=True, slots=True)
class Submit:
    """Apply ``envelope`` (a player's command, or the runtime's). ``cid``: the client's command id."""

    envelope: Envelope
    cid: str | None = None


@dataclass(frozen=True, slots=True)
class SubmitAs:
    """A player's command, sent with their seat token: the mailbox finds who they are."""

    token: str
    envelope: Envelope
    cid: str | None


@dataclass(frozen=True, slots=True)
class JoinAs:
    """A new person at the table; ``token`` is theirs from now on."""

    name: str
    token: str


@dataclass(frozen=True, slots=True)
class Attach:
    """Bind a socket: to the player holding ``token``, or to nobody (a spectator) when it is None."""

    token: str | None
    conn: Connection


@dataclass(frozen=True, slots=True)
class Detach:
    conn: Connection


@dataclass(frozen=True, slots=True)
class Refresh:
    """A resync: send this connection a fresh view."""

    conn: Connection


@dataclass(frozen=True, slots=True)
class FillWithBots:
    """The host plays against bots: every empty seat gets a bot of ``level``, then the match starts."""

    level: str


@dataclass(frozen=True, slots=True)
class Fire:
    """A timer: the table's deadlines (``wake``), a bot's turn or a check for an idle table, each
    scheduled at ``version`` (a bot turn or idle check from an older version does nothing)."""

    kind: Literal["wake", "bot", "idle"]
    version: int


@dataclass(frozen=True, slots=True)
class LetGo:
    """This process no longer owns the table (handed over, or fenced off by a newer owner): every
    socket is asked to reconnect (it lands on the new owner) and the mailbox stops."""

    reason: str


Job = Submit | SubmitAs | JoinAs | Attach | Detach | Refresh | FillWithBots | Fire | LetGo
