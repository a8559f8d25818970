"""Fan-out between the runtime and sockets: in-memory by default (one process)."""

from truco.bus.base import Bus, Subscription
from truco.bus.memory import MemoryBus

__all__ = ["Bus", "MemoryBus", "Subscription"]
