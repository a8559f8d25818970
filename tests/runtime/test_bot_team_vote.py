"""A team of bots answers a call as the arena's bots do (``truco.bots.turns.next_action``), through
its first bot: each bot with a legal answer votes, a split is reconsidered once with every vote in
sight, and a team still split declines (ruling 16, with the bots as the voters). Their levels weigh
their vote as one of the team's (``maestro``'s ``vote_weights``): one bot deciding alone would
answer as the half of a team it is not."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tests.runtime.conftest import Inbox, MakeRuntime, submit
from truco.bots import Bot
from truco.bots.base import ViewBot
from truco.engine import Action, Do, Seat, SeatView
from truco.runtime import Runtime

_ANSWERS = (Do.QUIERO, Do.NO_QUIERO, Do.RETRUCO)


class _Voter(ViewBot):
    """Plays its first card and never calls; to a truco it votes ``vote``. On a split it moves to the
    mildest vote that takes the bet on (every level's convention), or keeps its own (``stubborn``)."""

    level = "scripted"

    def __init__(self, vote: Do, stubborn: bool = False) -> None:
        super().__init__(0)
        self.vote = vote
        self.stubborn = stubborn
        self.asked: list[str] = []

    def decide(self, view: SeatView) -> Action:
        legal = view.legal
        if any(a.do in _ANSWERS for a in legal):
            self.asked.append("vote")
            decline = next(a for a in legal if a.do is Do.NO_QUIERO)
            return next((a for a in legal if a.do is self.vote), decline)
        return next((a for a in legal if a.do is Do.PLAY), legal[0])

    def reconsider(self, view: SeatView, votes: Mapping[Seat, Action]) -> Action:
        self.asked.append("reconsider")
        return votes[view.seat] if self.stubborn else super().reconsider(view, votes)


async def _truco_against_two_bots(rt: Runtime, voters: dict[str, _Voter]) -> tuple[str, list[dict[str, Any]]]:
    """Ana (seat 0) with a bot partner (seat 2) against two bots (seats 1 and 3) made by ``voters``'
    levels; Ana calls truco at her first turn. Returns the table and its log's commands after the call."""
    c = await rt.create_table({"players": 4}, "Ana")
    box = Inbox()
    await rt.connect(c.table_id, c.token, box)
    for seat, level in ((1, "facil"), (2, "dificil"), (3, "normal")):
        assert (await submit(rt, c.table_id, c.token, {"type": "add_bot", "seat": seat, "level": level})).ok
    assert (await submit(rt, c.table_id, c.token, {"type": "start"})).ok
    await rt.settle()
    assert any(a["do"] == "truco" for a in box.view["legal"]), "Ana's turn, the truco still open"
    assert (await submit(rt, c.table_id, c.token, {"type": "act", "do": "truco"})).ok
    called = rt.version(c.table_id)
    await rt.settle()
    return c.table_id, [e.command for e in rt.storage.log(c.table_id) if e.version > called]


def _runtime_bots(voters: dict[str, _Voter]) -> Any:
    def factory(level: str, seed: int) -> Bot:
        return voters[level]
    return factory


async def test_a_team_of_bots_takes_the_truco_when_one_of_its_bots_would(make_runtime: MakeRuntime):
    voters = {"facil": _Voter(Do.NO_QUIERO), "normal": _Voter(Do.QUIERO), "dificil": _Voter(Do.QUIERO)}
    rt = await make_runtime(bot_factory=_runtime_bots(voters))
    _, after = await _truco_against_two_bots(rt, voters)
    answer = next(c for c in after if c["type"] == "bot_act")
    assert (answer["seat"], answer["do"]) == (1, "quiero")  # through its first bot, the team's answer
    assert voters["facil"].asked == ["vote", "reconsider"]
    assert voters["normal"].asked == ["vote", "reconsider"]
    assert voters["dificil"].asked == []  # the other team's bot is not asked


async def test_a_team_of_bots_that_agrees_answers_at_once(make_runtime: MakeRuntime):
    voters = {"facil": _Voter(Do.NO_QUIERO), "normal": _Voter(Do.NO_QUIERO), "dificil": _Voter(Do.QUIERO)}
    rt = await make_runtime(bot_factory=_runtime_bots(voters))
    _, after = await _truco_against_two_bots(rt, voters)
    answer = next(c for c in after if c["type"] == "bot_act")
    assert (answer["seat"], answer["do"]) == (1, "no_quiero")
    assert voters["facil"].asked == voters["normal"].asked == ["vote"]


async def test_a_team_of_bots_still_split_after_reconsidering_declines(make_runtime: MakeRuntime):
    voters = {"facil": _Voter(Do.RETRUCO, stubborn=True), "normal": _Voter(Do.QUIERO, stubborn=True),
              "dificil": _Voter(Do.QUIERO)}
    rt = await make_runtime(bot_factory=_runtime_bots(voters))
    _, after = await _truco_against_two_bots(rt, voters)
    answer = next(c for c in after if c["type"] == "bot_act")
    assert (answer["seat"], answer["do"]) == (1, "no_quiero")  # ruling 16: no agreement is "no quiero"
    assert voters["facil"].asked == voters["normal"].asked == ["vote", "reconsider"]


async def test_a_team_of_bots_votes_the_same_way_in_workers(make_runtime: MakeRuntime):
    """Bots in worker processes (``truco serve``'s default) reconsider through the worker: two
    ``maestro``s answer a truco with one agreed answer, legal for the first bot."""
    rt = await make_runtime(bot_workers=1)
    c = await rt.create_table({"players": 4}, "Ana", bots="maestro")
    box = Inbox()
    await rt.connect(c.table_id, c.token, box)
    for _ in range(200):
        await rt.settle()
        t = rt.table(c.table_id)
        assert t.game is not None
        if any(a["do"] == "truco" for a in box.view["legal"]):
            break
        move = next((a for a in box.view["legal"] if a["do"] in ("play", "no_quiero")), None)
        if move is not None:  # her card, or a decline of the rivals' call
            cmd = {k: v for k, v in move.items() if k != "seat"} | {"type": "act"}
            assert (await submit(rt, c.table_id, c.token, cmd)).ok
    called = rt.version(c.table_id)
    assert (await submit(rt, c.table_id, c.token, {"type": "act", "do": "truco"})).ok
    await rt.settle()
    answer = next(e.command for e in rt.storage.log(c.table_id)
                  if e.version > called and e.command["type"] == "bot_act")
    assert answer["seat"] % 2 == 1 and answer["do"] in ("quiero", "no_quiero", "retruco", "envido",
                                                        "real_envido", "falta_envido")
