"""Spectators: read-only sockets that get the public view and the public events only.

The runtime facade binds sockets to players; it has no watcher. This thin subclass adds one without
touching table logic, through the extension points docs/runtime-api.md keeps stable: after every
accepted command it sends each spectator the events addressed to everyone and a view built from
public facts only (``truco.protocol.views``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from truco.protocol.views import public_events, spectator_view
from truco.runtime import Runtime, Send


@dataclass(eq=False)
class Watcher:
    table_id: str
    send: Send


class ServerRuntime(Runtime):
    """The runtime plus spectators."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._watchers: dict[str, list[Watcher]] = {}

    async def watch(self, table_id: str, send: Send) -> Watcher:
        """Attach a spectator; it gets a ``snapshot`` at once, then one ``update`` per version."""
        live = self._live(table_id)

        def run(lv: Any) -> Watcher:
            w = Watcher(table_id, send)
            self._watchers.setdefault(table_id, []).append(w)
            t = lv.table
            send({"type": "snapshot", "table_id": table_id, "version": t.version, "reason": "connect",
                  "view": spectator_view(t)})
            return w

        return await self._call(live, run)

    async def unwatch(self, w: Watcher) -> None:
        watchers = self._watchers.get(w.table_id)
        if watchers and w in watchers:
            watchers.remove(w)
            if not watchers:
                del self._watchers[w.table_id]

    def watcher_count(self, table_id: str) -> int:
        return len(self._watchers.get(table_id, ()))

    def _after(self, live: Any, out: Any, now: int) -> None:
        super()._after(live, out, now)
        watchers = self._watchers.get(live.table_id)
        if not watchers:
            return
        t = live.table
        msg = {"type": "update", "table_id": t.table_id, "version": t.version,
               "events": public_events(out.effects),
               "view": spectator_view(t)}
        for w in list(watchers):
            try:
                w.send(msg)
            except Exception:  # a broken spectator socket must not touch the table
                watchers.remove(w)
        if t.phase == "closed":  # the runtime forgets the table; so do we
            self._watchers.pop(live.table_id, None)

    async def spectator_snapshot(self, table_id: str) -> dict[str, Any]:
        """A fresh public view (a spectator's resync)."""
        live = self._live(table_id)

        def run(lv: Any) -> dict[str, Any]:
            t = lv.table
            return {"type": "snapshot", "table_id": table_id, "version": t.version, "reason": "resync",
                    "view": spectator_view(t)}

        return await self._call(live, run)
