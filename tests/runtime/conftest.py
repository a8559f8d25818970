"""A runtime on a fake clock: bots act at once, seeds are fixed, nothing sleeps."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import msgspec
import pytest

from truco.protocol import ServerMessage
from truco.runtime import FakeClock, Runtime, SubmitResult
from truco.storage import MemoryStorage, Storage
from truco.table import PlayerCommand, parse_command

MakeRuntime = Callable[..., Awaitable[Runtime]]


@pytest.fixture
async def make_runtime() -> AsyncIterator[MakeRuntime]:
    made: list[Runtime] = []
    counter = itertools.count(12345)

    async def make(storage: Storage | None = None, clock: FakeClock | None = None, **kw: Any) -> Runtime:
        kw.setdefault("bot_delay", 0)
        kw.setdefault("hand_pause", 0)
        rt = Runtime(storage or MemoryStorage(), clock or FakeClock(),
                     seed_source=lambda: next(counter) * 2654435761 % (1 << 63), **kw)
        await rt.start()
        made.append(rt)
        return rt

    yield make
    for rt in made:
        await rt.close()


async def submit(rt: Runtime, table_id: str, token: str, cmd: dict[str, Any] | PlayerCommand,
                 cid: str | None = None) -> SubmitResult:
    """A player's command, written as its JSON form for short tests."""
    return await rt.submit(table_id, token, parse_command(cmd) if isinstance(cmd, dict) else cmd, cid)


class Inbox:
    """What one connection received, as the JSON a client would read."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    def __call__(self, msg: ServerMessage) -> None:
        self.messages.append(msgspec.to_builtins(msg))

    @property
    def view(self) -> dict[str, Any]:
        return self.messages[-1]["view"]  # type: ignore[no-any-return]

    def events(self, type_: str) -> list[dict[str, Any]]:
        return [e for m in self.messages if m["type"] == "update" for e in m["events"] if e["type"] == type_]
