"""What the simulated players (tests, load generator) share: the latest view, decoded only when read."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from typing import Any

import orjson

_UPDATE_PREFIX = b'{"type":"update"'
_VERSION_RE = re.compile(rb'"version":(\d+)')


class FollowedView:
    """The latest view of a player's socket. An ``update`` frame may be kept undecoded: the load
    generator reads only the version of most updates, and decoding every view would load the client."""

    version: int
    on_message: Callable[[Any, dict[str, Any]], None] | None
    _view: dict[str, Any] | None
    _raw_view: bytes | None
    _changed: asyncio.Event

    def _follow(self, on_message: Callable[[Any, dict[str, Any]], None] | None) -> None:
        self.version = 0
        self.on_message = on_message
        self._view = None
        self._raw_view = None
        self._changed = asyncio.Event()

    @property
    def view(self) -> dict[str, Any] | None:
        """The latest full view (decoded on first use)."""
        if self._raw_view is not None:
            self._view = orjson.loads(self._raw_view)["view"]
            self._raw_view = None
        return self._view

    def view_mentions(self, needle: bytes) -> bool:
        """Whether the latest view contains ``needle`` in its JSON, without decoding it when it can."""
        if self._raw_view is not None:
            return needle in self._raw_view
        return self._view is not None and needle in orjson.dumps(self._view)

    def _take_update(self, raw: bytes) -> bool:
        """Keep an ``update`` frame undecoded; False for any other frame (decode it then)."""
        if not raw.startswith(_UPDATE_PREFIX):
            return False
        found = _VERSION_RE.search(raw, 0, 200)
        if found is None:
            return False
        self.version = int(found.group(1))
        self._raw_view = raw
        if self.on_message is not None:
            self.on_message(self, {"type": "update", "version": self.version})
        self._changed.set()
        return True

    def _take_message(self, msg: dict[str, Any]) -> None:
        """A decoded frame: a view-bearing one replaces the view; everyone is told."""
        if msg.get("type") in ("hello", "update", "snapshot"):
            self.version = msg["version"]
            self._view, self._raw_view = msg["view"], None
        if self.on_message is not None:
            self.on_message(self, msg)
        self._changed.set()
