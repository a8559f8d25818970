"""What the server asks of the tables, whoever holds them: the embedded ``Runtime`` (every table in
this process) or a cluster node (``truco.cluster``: the tables of many processes, each owned by one).

The endpoints and sockets of ``truco.server`` speak to this and nothing else, so the cluster plugs in
without a branch in the server; ``Runtime`` is a ``Front`` as it is.
"""

from __future__ import annotations

from typing import Any, Protocol

from truco.runtime.clock import Clock
from truco.runtime.connections import Close, Connection, Send, Ticket
from truco.runtime.mailbox import SubmitResult
from truco.table import PlayerCommand, TableSettings


class Front(Protocol):
    clock: Clock

    async def start(self) -> None: ...

    async def close(self) -> None: ...

    async def create_table(self, settings: TableSettings | dict[str, Any] | None, host_name: str,
                           bots: str | None = None) -> Ticket: ...

    async def join(self, table_id: str, name: str) -> Ticket: ...

    async def connect(self, table_id: str, token: str | None, send: Send,
                      close: Close | None = None) -> Connection: ...

    async def disconnect(self, conn: Connection) -> None: ...

    async def submit(self, table_id: str, token: str, command: PlayerCommand,
                     cid: str | None = None) -> SubmitResult: ...

    async def resync(self, conn: Connection) -> None: ...

    async def lobby(self) -> list[dict[str, Any]]:
        """The open tables anyone may join (``Runtime.list_open_tables``)."""

    async def describe(self, table_id: str) -> dict[str, Any]:
        """A table's summary; raises ``NoSuchTable``."""

    def table_ids(self) -> list[str]:
        """The tables held in this process (for /health and capacity)."""
