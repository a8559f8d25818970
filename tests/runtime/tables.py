"""What the runtime tests share: the tables they start from (four humans, two humans with bot
partners, one person against a bot), whose turn it is, a first card played, and a vote that closes
at its full length."""

from __future__ import annotations

from typing import Any

from tests.runtime.conftest import Inbox, submit
from truco.runtime import FakeClock, Runtime


async def four_humans(rt: Runtime, **settings: Any) -> tuple[str, list[str], list[Inbox]]:
    """A started table with four connected humans in seats 0..3; returns id, tokens, inboxes."""
    c = await rt.create_table({"players": 4, **settings}, "Ana")
    tokens = [c.token]
    for i, name in enumerate(("Beto", "Caro", "Dani"), start=1):
        j = await rt.join(c.table_id, name)
        assert (await submit(rt, c.table_id, j.token, {"type": "sit", "seat": i})).ok
        tokens.append(j.token)
    inboxes = []
    for tok in tokens:
        box = Inbox()
        await rt.connect(c.table_id, tok, box)
        inboxes.append(box)
    assert (await submit(rt, c.table_id, tokens[0], {"type": "start"})).ok
    return c.table_id, tokens, inboxes


async def humans_and_bots(rt: Runtime, **settings: Any) -> tuple[str, list[str], list[Inbox]]:
    """Humans in seats 0 and 1 (opponents), bots of two levels in seats 2 and 3; started."""
    c = await rt.create_table({"players": 4, **settings}, "Ana")
    j = await rt.join(c.table_id, "Beto")
    await submit(rt, c.table_id, j.token, {"type": "sit", "seat": 1})
    await submit(rt, c.table_id, c.token, {"type": "add_bot", "seat": 2, "level": "normal"})
    await submit(rt, c.table_id, c.token, {"type": "add_bot", "seat": 3, "level": "facil"})
    boxes = [Inbox(), Inbox()]
    for tok, box in zip((c.token, j.token), boxes, strict=True):
        await rt.connect(c.table_id, tok, box)
    assert (await submit(rt, c.table_id, c.token, {"type": "start"})).ok
    return c.table_id, [c.token, j.token], boxes


async def against_a_bot(rt: Runtime, level: str = "facil") -> tuple[str, str, Inbox]:
    """Ana (seat 0) against a bot in seat 1, started; her first card played if she leads, so the bot
    moves next. Returns id, her token, her inbox."""
    c = await rt.create_table({"players": 2}, "Ana")
    box = Inbox()
    await rt.connect(c.table_id, c.token, box)
    await submit(rt, c.table_id, c.token, {"type": "add_bot", "seat": 1, "level": level})
    await submit(rt, c.table_id, c.token, {"type": "start"})
    if turn(rt, c.table_id) == 0:
        card = box.view["game"]["cards"][0]
        assert (await submit(rt, c.table_id, c.token, {"type": "act", "do": "play", "card": card})).ok
    return c.table_id, c.token, box


def turn(rt: Runtime, table_id: str) -> int:
    g = rt.table(table_id).game
    assert g is not None
    return g.turn


async def play_first_card(rt: Runtime, table_id: str, tokens: list[str]) -> None:
    seat = turn(rt, table_id)
    card = rt.view(table_id, tokens[seat])["game"]["cards"][0]
    res = await submit(rt, table_id, tokens[seat], {"type": "act", "do": "play", "card": card})
    assert res.ok, res


async def vote_closes_after(rt: Runtime, table_id: str, clock: FakeClock, ms: int) -> None:
    """The open vote is still open ``ms`` - 1 milliseconds from now and closed at ``ms``."""
    clock.advance(ms - 1)
    await rt.settle()
    assert rt.table(table_id).vote is not None
    clock.advance(1)
    await rt.settle()
    assert rt.table(table_id).vote is None
