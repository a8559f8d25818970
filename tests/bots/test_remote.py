"""Untrusted bots play from their own process: over a pipe (JSON lines) and over the table's WebSocket,
like a phone. Both get their seat's view as plain data and nothing else, and play whole matches."""

from __future__ import annotations

import asyncio
import json
import os
import random
import sys
from collections.abc import Mapping
from typing import Any

from tests.server.conftest import serving
from tests.server.play import autoplay
from truco.bench.player_client import WsPlayer
from truco.bots import Bot, make_bot
from truco.bots.arena import play_match
from truco.bots.guard import detached, from_plain, to_plain
from truco.bots.stdio import SubprocessBot
from truco.cli.bot import play_at_table
from truco.engine import Action, Rules, Seat, SeatView

BOT_PROCESS = [sys.executable, "-m", "truco.cli.main", "bot", "--stdio", "--level", "normal", "--seed", "5"]


class SameAsInProcess:
    """Asks the subprocess bot, and checks it answers what the same level and seed answer here."""

    level = "normal"

    def __init__(self, remote: SubprocessBot) -> None:
        self.remote = remote
        self.local = make_bot("normal", 5)
        self.asked = 0

    def choose(self, view: SeatView) -> Action:
        self.asked += 1
        action = self.remote.choose(view)
        assert action == self.local.choose(view)
        return action

    def hint(self, view: SeatView) -> Action:
        return self.remote.hint(view)

    def reconsider(self, view: SeatView, votes: Mapping[Seat, Action]) -> Action:
        action = self.remote.reconsider(view, votes)
        assert action == self.local.reconsider(view, votes)
        return action


def test_a_view_survives_its_plain_form_unchanged():
    for seed in range(3):
        st_views = []
        from tests.bots.matches import views_of_a_match
        for rules in (Rules(players=2), Rules(players=4, flor=True)):
            st_views += [v for _, v in views_of_a_match(rules, seed, max_hands=3)]
        for view in st_views:
            plain = json.loads(json.dumps(to_plain(view)))
            assert from_plain(plain) == view == detached(view)


def test_a_bot_in_a_subprocess_plays_a_whole_match_and_answers_as_it_would_in_process():
    remote = SubprocessBot(BOT_PROCESS)
    try:
        checked = SameAsInProcess(remote)
        bots: list[Bot] = [checked, make_bot("normal", 9)]
        st, _, hands = play_match(Rules(players=2, target=15), bots, dealer=0, seeds=lambda h: 300 + h)
        assert st.match_over and hands >= 2 and checked.asked > 5
    finally:
        remote.close()


def _over(players: list[WsPlayer]) -> bool:
    return all(p.view is not None and p.view["phase"] == "over" for p in players)


async def test_a_bot_plays_a_whole_match_over_the_tables_websocket_in_this_process():
    async with serving() as live:
        host = await live.create("Ana", players=2, target=15)
        ana = await live.player(host["code"], host["token"])
        task = asyncio.create_task(play_at_table(live.base_http, host["code"], make_bot("normal", 3),
                                                 seat=1, name="Remoto"))
        await ana.until(lambda p: p.view is not None and p.view["seats"][1]["kind"] == "human")
        assert (await ana.command({"type": "start"}))["type"] == "ack"
        await autoplay([ana], random.Random(1), lambda: _over([ana]), timeout=60)
        assert await asyncio.wait_for(task, 10) == 1
        assert max(ana.view["result"]["score"]) >= 15
        await ana.close()


async def _match_with(proc: asyncio.subprocess.Process, ana: WsPlayer, seated: Any,
                      rng: random.Random) -> bytes:
    """Once the bot process is ``seated`` (a test on Ana's view), Ana starts and plays the match
    out; returns what the process printed (it is killed if it has not ended by then)."""
    try:
        await ana.until(lambda p: p.view is not None and seated(p.view), 20)
        assert (await ana.command({"type": "start"}))["type"] == "ack"
        await autoplay([ana], rng, lambda: _over([ana]), timeout=90)
        out, _ = await asyncio.wait_for(proc.communicate(), 20)
        return out
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


async def test_a_bot_plays_a_whole_match_over_the_tables_websocket_from_its_own_process():
    async with serving() as live:
        host = await live.create("Ana", players=2, target=15)
        ana = await live.player(host["code"], host["token"])
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "truco.cli.main", "bot", "--server", live.base_http, "--code", host["code"],
            "--seat", "1", "--level", "dificil", "--seed", "4", stdout=asyncio.subprocess.PIPE)
        out = await _match_with(proc, ana, lambda v: v["seats"][1]["kind"] == "human", random.Random(2))
        assert proc.returncode == 0 and json.loads(out) == {"matches_over": 1}
        assert max(ana.view["result"]["score"]) >= 15
        await ana.close()


async def test_a_bot_process_takes_a_seat_it_holds_with_the_token_from_its_environment_never_its_arguments():
    async with serving() as live:
        host = await live.create("Ana", players=2, target=15)
        ana = await live.player(host["code"], host["token"])
        seat = await live.join(host["code"], "Remoto")
        phone = await live.player(host["code"], seat["token"])  # the seat is taken from a phone first
        assert (await phone.command({"type": "sit", "seat": 1}))["type"] == "ack"
        await phone.close()
        argv = [sys.executable, "-m", "truco.cli.main", "bot", "--server", live.base_http,
                "--code", host["code"], "--level", "normal", "--seed", "5"]
        assert seat["token"] not in " ".join(argv)  # what `ps` shows every user of the machine
        env = {**os.environ, "TRUCO_SEAT_TOKEN": seat["token"]}
        proc = await asyncio.create_subprocess_exec(*argv, env=env, stdout=asyncio.subprocess.PIPE)
        out = await _match_with(proc, ana, lambda v: v["seats"][1]["name"] == "Remoto"
                                and v["seats"][1]["connected"], random.Random(3))
        assert proc.returncode == 0 and json.loads(out) == {"matches_over": 1}
        # the bot played from the seat it already held: no second Remoto joined
        assert [s["name"] for s in ana.view["seats"]].count("Remoto") == 1
        await ana.close()


def test_a_remote_bot_signs_once_a_hand_and_reads_its_partners_signs():
    from tests.table.table_driver import Driver
    from truco.bots.senas import truthful_senas
    from truco.cli.bot import SeatClient
    from truco.table import Sena

    d = Driver()  # four people: the bot process plays seat 2's, whose partner is seat 0
    d.send(0, Sena("ancho_espada"))
    view = d.view(2).to_dict()
    assert view["senas"] == [{"from": 0, "sena": "ancho_espada"}]
    client = SeatClient(make_bot("dificil", 4))
    signs = client.senas_for(view)
    g = d.t.game
    assert g is not None
    assert [s["sena"] for s in signs] == list(truthful_senas(g.dealt[2]))
    assert all(s["type"] == "sena" for s in signs) and len({s["id"] for s in signs}) == len(signs)
    assert client.senas_for(view) == []  # once a hand
    mano_view = d.view(g.turn).to_dict()
    act = SeatClient(make_bot("dificil", 4)).command_for(mano_view)
    assert act is not None and act["type"] == "act"


class _SaysNo:
    """Votes "no quiero" to any call, reconsiders as every level does (``ViewBot``), and counts both."""

    level = "scripted"

    def __init__(self) -> None:
        from truco.bots.base import ViewBot
        self.base = ViewBot(0)
        self.asked: list[str] = []

    def choose(self, view: SeatView) -> Action:
        self.asked.append("vote")
        return next(a for a in view.legal if a.do.value == "no_quiero")

    def hint(self, view: SeatView) -> Action:
        return self.choose(view)

    def reconsider(self, view: SeatView, votes: Mapping[Seat, Action]) -> Action:
        self.asked.append("reconsider")
        return self.base.reconsider(view, votes)


def test_a_remote_bot_whose_team_split_reconsiders_once_and_moves_to_its_partners_quiero():
    """Over the WebSocket a bot is a person: on a split vote it reconsiders once, as a team of bots
    does (the mildest vote that takes the bet on), so its team is not left to the window's decline."""
    from tests.table.table_driver import Driver
    from truco.cli.bot import SeatClient
    from truco.engine import Do

    d = Driver()
    caller = d.call_truco()
    partner, me = (caller + 1) % 4, (caller + 3) % 4
    d.seat(partner, Do.QUIERO)  # the person votes first (a refused command raises)
    bot = _SaysNo()
    client = SeatClient(bot)
    first = client.command_for(d.view(me).to_dict())
    assert first is not None and first["do"] == "no_quiero"
    d.seat(me, Do(first["do"]))  # split: the window opens
    assert d.t.vote is not None
    split = d.view(me).to_dict()
    second = client.command_for(split)
    assert second is not None and second["do"] == "quiero" and second["id"] != first["id"]
    again = {**split, "version": split["version"] + 1}
    assert client.command_for(again) is None  # once a call
    game = {**split["game"], "hand_no": split["game"]["hand_no"] + 1}
    later = {**again, "version": split["version"] + 2, "game": game}
    assert client.command_for(later) is not None  # the same place of a later hand is another call
    d.seat(me, Do(second["do"]))
    assert d.t.vote is None and d.t.game is not None and d.t.game.truco_level == 1  # the team took it
    assert bot.asked == ["vote", "reconsider", "reconsider"]
