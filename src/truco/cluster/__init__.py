"""Many ``truco serve`` processes, one table space: PostgreSQL holds every table's log, Redis holds
who owns each live table (a lease) and carries the messages between processes. See docs/scaling.md.

Plugged into the embedded runtime through two seams only: ``truco.runtime.ownership.Ownership`` (the
leases) and ``truco.runtime.front.Front`` (what the server's endpoints and sockets speak to).
"""

from truco.cluster.leases import Leases
from truco.cluster.node import ClusterNode, NodeConfig

__all__ = ["ClusterNode", "Leases", "NodeConfig"]
