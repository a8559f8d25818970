"""The seam a cluster plugs its leases into (``truco.runtime.ownership``): two runtimes on one storage
stand for two nodes. A node that takes a table over rebuilds the same table; the old owner's next
write is refused by the log's version fence, and it lets the table go."""

from __future__ import annotations

from typing import Any

from tests.runtime.conftest import Inbox, submit
from truco.protocol import CloseCode, ErrorCode
from truco.runtime import Connection, FakeClock, Runtime
from truco.storage import MemoryStorage

from .tables import four_humans


class _Ownership:
    """An ``Ownership`` that grants every claim and remembers what it was told."""

    def __init__(self) -> None:
        self.claimed: list[str] = []
        self.released: list[str] = []
        self.refused: list[str] = []

    async def claim(self, table_id: str) -> bool:
        self.claimed.append(table_id)
        return True

    def gone(self, table_id: str) -> None:
        self.released.append(table_id)

    def fenced(self, table_id: str) -> None:
        self.refused.append(table_id)


async def _node(storage: MemoryStorage, clock: FakeClock, own: _Ownership) -> Runtime:
    rt = Runtime(storage, clock, bot_delay=0, hand_pause=0, ownership=own)
    await rt.start(recover=False)  # a cluster node adopts tables one by one
    return rt


def _essentials(view: dict[str, Any]) -> dict[str, Any]:
    g = view["game"]
    return {"cards": g["cards"], "score": g["score"], "turn": g["turn"], "rounds": g["rounds"]}


async def test_a_new_table_is_claimed_before_it_is_stored() -> None:
    storage, clock, own = MemoryStorage(), FakeClock(), _Ownership()
    rt = await _node(storage, clock, own)
    try:
        ticket = await rt.create_table({"players": 2}, "Ana")
        assert own.claimed == [ticket.table_id] and storage.meta(ticket.table_id) is not None
    finally:
        await rt.close()


async def test_a_node_taking_a_table_over_rebuilds_the_same_cards_score_and_turn() -> None:
    storage, clock = MemoryStorage(), FakeClock()
    a, b = await _node(storage, clock, _Ownership()), await _node(storage, clock, _Ownership())
    try:
        code, tokens, inboxes = await four_humans(a)
        before = [_essentials(box.view) for box in inboxes]
        assert await b.adopt(code)
        later = [Inbox() for _ in tokens]
        for token, box in zip(tokens, later, strict=True):
            await b.connect(code, token, box)
        assert [_essentials(box.view) for box in later] == before
        assert not await b.adopt("NOSUCH")  # not a live table: nothing to take
    finally:
        await a.close()
        await b.close()


async def test_the_old_owners_next_write_is_refused_by_the_version_fence_and_it_lets_the_table_go() -> None:
    storage, clock = MemoryStorage(), FakeClock()
    own_a = _Ownership()
    a, b = await _node(storage, clock, own_a), await _node(storage, clock, _Ownership())
    try:
        code, tokens, inboxes = await four_humans(a)
        version = a.version(code)
        assert await b.adopt(code)  # the new owner's "recovered" entry takes the next version
        closed: list[int] = []
        await a.connect(code, tokens[0], Inbox(), lambda c, r: closed.append(c))
        # whoever is mano plays (the first dealer is drawn by lot, so it can be any of the four)
        mover, card = next((i, x["card"]) for i, box in enumerate(inboxes)
                           for x in box.view["legal"] or [] if x["do"] == "play")
        res = await submit(a, code, tokens[mover], {"type": "act", "do": "play", "card": card})
        assert not res.ok and res.code == ErrorCode.UNAVAILABLE and res.why == "not_stored"
        assert own_a.refused == [code]
        assert [e.version for e in storage.log(code)][-1] == version + 1  # only the new owner's entry
        await a.let_go(code)
        assert not a.holds(code) and own_a.released == [code]
        assert CloseCode.GOING_AWAY in closed  # its socket reconnects, to the new owner
    finally:
        await a.close()
        await b.close()


async def test_letting_go_asks_every_socket_to_reconnect_and_answers_nothing_more() -> None:
    storage, clock, own = MemoryStorage(), FakeClock(), _Ownership()
    rt = await _node(storage, clock, own)
    try:
        code, _, _ = await four_humans(rt)
        closed: list[tuple[int, str]] = []
        conn: Connection = await rt.connect(code, None, Inbox(), lambda c, r: closed.append((c, r)))
        await rt.let_go(code, "moved; reconnect")
        assert closed == [(CloseCode.GOING_AWAY, "moved; reconnect")] and conn.table_id == code
        assert not rt.holds(code) and own.released == [code]
    finally:
        await rt.close()
