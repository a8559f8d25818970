"""Who owns a table: the seam where a cluster plugs its leases into the runtime.

Alone (the embedded default) this process owns every table and nothing is asked of anyone. In a cluster
(``truco.cluster``) a new table's code is claimed before it is stored, a table that leaves the process
(closed, or handed over) gives its lease back, and a write that storage refuses because someone else
advanced the table (the ``(table_id, version)`` fence) makes this process let go of it.
"""

from __future__ import annotations

from typing import Protocol


class Ownership(Protocol):
    async def claim(self, table_id: str) -> bool:
        """A new table's code: True when it is now this process's (False: in use elsewhere)."""

    def gone(self, table_id: str) -> None:
        """The table left this process: closed, or let go."""

    def fenced(self, table_id: str) -> None:
        """Storage refused a write of this table: another process has advanced it."""


class Alone:
    """One process, every table its own."""

    async def claim(self, table_id: str) -> bool:
        return True

    def gone(self, table_id: str) -> None:
        pass

    def fenced(self, table_id: str) -> None:
        pass
