"""Every Redis key and channel of a cluster, in one place, and the names read back from them as text.
``prefix`` lets several clusters (or test runs) share one Redis."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Keys:
    prefix: str = "truco"

    def lease(self, table_id: str) -> str:
        """The owner's node id, with a time to live (``Leases``)."""
        return f"{self.prefix}:lease:{table_id}"

    def alive(self, node: str) -> str:
        """Present while the node lives (renewed with its leases)."""
        return f"{self.prefix}:alive:{node}"

    def owned(self, node: str) -> str:
        """The set of tables a node holds: what the others take over when it dies."""
        return f"{self.prefix}:owned:{node}"

    @property
    def nodes(self) -> str:
        """The set of node ids that have joined (a dead one is removed once its tables are taken)."""
        return f"{self.prefix}:nodes"

    def lobby(self, node: str) -> str:
        """A node's open tables (JSON), rewritten each tick with a short time to live."""
        return f"{self.prefix}:lobby:{node}"

    def inbox(self, node: str) -> str:
        """The pub/sub channel of one node: requests for its tables, frames for its sockets, replies."""
        return f"{self.prefix}:inbox:{node}"

    @property
    def moved(self) -> str:
        """The channel every node hears: a table has a new owner."""
        return f"{self.prefix}:moved"

    def rate(self, client: str) -> str:
        return f"{self.prefix}:rate:{client}"


def text(value: bytes | str) -> str:
    """A name as Redis returns it (bytes, unless the client decodes)."""
    return value.decode() if isinstance(value, bytes) else value
