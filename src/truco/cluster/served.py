"""The owner's side of the cluster: what this node does for the other nodes' sockets and requests.

A node that holds a table answers every request another node sends for it (attach a socket, submit a
command, join, describe, resync, detach) in the table's own runtime, and keeps a runtime connection
for each socket another node relays. Every frame for such a socket is built here, with that seat's
view, and published whole to the node that holds the socket (``relay``); that node writes it out
unchanged. The routing side, which finds a table's owner and relays its own sockets there, is
``node.ClusterNode``.

An error raised while serving travels back as its name (``error_kind``) and is raised again on the
asking node as the same class (``ERRORS``).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, cast

from truco.cluster.bus import Bus
from truco.protocol import ServerMessage, encode
from truco.runtime import (
    BadToken,
    Close,
    Connection,
    LobbyError,
    NoSuchTable,
    Revoked,
    Runtime,
    Send,
    ShuttingDown,
)
from truco.runtime.connections import Moved
from truco.table import PlayerCommand, command_from_dict

log = logging.getLogger("truco.cluster")

ERRORS: dict[str, type[LobbyError]] = {"bad_token": BadToken, "revoked": Revoked, "no_table": NoSuchTable,
                                       "moved": Moved, "stopping": ShuttingDown, "lobby": LobbyError}
_KINDS: dict[type[LobbyError], str] = {cls: kind for kind, cls in ERRORS.items()}


def error_kind(e: LobbyError) -> str:
    """The name another node raises ``e`` again by: its most specific class that has one."""
    return next(_KINDS[cls] for cls in type(e).__mro__ if cls in _KINDS)


class Served:
    """The requests and relayed sockets of other nodes for the tables this node holds.

    ``settled(table_id)`` waits for a takeover of that table in progress here; ``adopt(table_id)``
    takes a table a stopping node hands over (both ``ClusterNode``'s)."""

    def __init__(self, rt: Runtime, bus: Bus, node: str, settled: Callable[[str], Awaitable[None]],
                 adopt: Callable[[str], Awaitable[None]]) -> None:
        self.rt = rt
        self.bus = bus
        self.node = node
        self._settled = settled
        self._adopt = adopt
        self.remote: dict[tuple[str, int], Connection] = {}
        """The runtime's connection for each socket another node relays, by (node, its socket id)."""

    async def serve(self, msg: dict[str, Any]) -> None:
        """A request from another node for a table of ours; the answer goes back to it by ``rid``."""
        rid, origin = msg.get("rid"), msg["from"]
        try:
            reply = await self._do(msg)
        except LobbyError as e:
            reply = {"error": error_kind(e), "message": str(e)}
        except Exception:
            log.exception("node %s: a request failed", self.node)
            reply = {"error": "lobby", "message": "the server could not do that"}
        if rid is not None:
            self.bus.post(origin, {"op": "reply", "to": rid, **reply})

    async def _do(self, msg: dict[str, Any]) -> dict[str, Any]:
        op, origin = msg["op"], msg["from"]
        if op == "detach":
            conn = self.remote.pop((origin, msg["c"]), None)
            if conn is not None:
                with contextlib.suppress(LobbyError):
                    await self.rt.disconnect(conn)
            return {}
        if op == "resync":
            conn = self.remote.get((origin, msg["c"]))
            if conn is None:
                raise Moved("not here")
            await self.rt.resync(conn)
            return {}
        if op == "adopt":  # a node stopping hands this table to us
            await self._adopt(msg["table"])
            return {}
        table_id = msg["table"]
        await self._settled(table_id)
        if not self.rt.holds(table_id):
            log.info("node %s: %s for table %s, which is not here", self.node, op, table_id)
            raise Moved("not here")
        if op == "attach":
            key = (origin, int(msg["c"]))
            conn = await self.rt.connect(table_id, msg["token"], self._relay(origin, key[1]),
                                         self._relay_close(origin, key[1]))
            self.remote[key] = conn
            return {"player": conn.player}
        if op == "submit":
            command = cast(PlayerCommand, command_from_dict(msg["cmd"]))
            res = await self.rt.submit(table_id, msg["token"], command, msg.get("cid"))
            return {"accepted": res.ok, "version": res.version, "reason": res.reason,
                    "duplicate": res.duplicate, "code": str(res.code), "why": res.why}
        if op == "join":
            ticket = await self.rt.join(table_id, msg["name"])
            return {"player": ticket.player, "token": ticket.token}
        if op == "describe":
            return {"summary": self.rt.summary(table_id)}
        raise LobbyError(f"unknown request {op!r}")

    def _relay(self, origin: str, cid: int) -> Send:
        def send(msg: ServerMessage | str) -> None:
            frame = msg if isinstance(msg, str) else encode(msg)
            self.bus.post(origin, {"op": "frame", "c": cid, "t": frame})
        return send

    def _relay_close(self, origin: str, cid: int) -> Close:
        def close(code: int, reason: str) -> None:
            self.remote.pop((origin, cid), None)
            self.bus.post(origin, {"op": "close", "c": cid, "code": code, "reason": reason})
        return close

    def forget_table(self, table_id: str) -> None:
        """The table left this node: the sockets relayed to it reconnect to its new owner."""
        for key, conn in list(self.remote.items()):
            if conn.table_id == table_id:
                del self.remote[key]

    async def forget_node(self, node: str) -> None:
        """``node`` died: the sockets it relayed are gone, and their players away."""
        for key, conn in list(self.remote.items()):
            if key[0] == node:
                del self.remote[key]
                with contextlib.suppress(LobbyError):
                    await self.rt.disconnect(conn)
