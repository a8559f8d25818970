"""``truco bot``: a bot level playing from its own process, the way a phone does.

    truco bot --server http://HOST:PORT --code K7P2QX --seat 1 --level maestro [--name Bot] [--seed N]
    TRUCO_SEAT_TOKEN=… truco bot --server http://HOST:PORT --code K7P2QX --level dificil
    truco bot --stdio --level maestro [--seed N]

Over the network it joins the table by its code (``POST /api/tables/{code}/join``) and sits in
``--seat`` — or takes a seat it already holds, whose token it reads from the ``TRUCO_SEAT_TOKEN``
environment variable (never an argument: a process's arguments are public to every user) — then
opens the table's WebSocket with the token in the ``truco`` subprotocol, like the phone client, and
answers every view that offers it something to do with one ``act``. It receives only what the
server sends that seat. With ``--stdio`` it answers JSON lines instead (``truco.bots.stdio``): what a
table that starts the bot as a subprocess speaks to it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import sys
import urllib.request
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from truco.bots import Bot, make_bot
from truco.bots.guard import from_plain
from truco.bots.registry import ALL_LEVELS
from truco.bots.stdio import serve
from truco.engine import Action, Do, Seat


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--level", default="dificil", choices=ALL_LEVELS, help="the bot level that plays")
    p.add_argument("--seed", type=int, default=None, help="the bot's seed (default: a random one)")
    p.add_argument("--stdio", action="store_true", help="answer JSON lines on stdin/stdout instead")
    p.add_argument("--server", default="http://127.0.0.1:8000", help="the server's base URL")
    p.add_argument("--code", help="the table's code")
    p.add_argument("--seat", type=int, default=None, help="the seat to take after joining")
    p.add_argument("--name", default="Bot", help="the name it joins with")
    p.add_argument("--matches", type=int, default=1, help="leave after this many matches end (0: stay)")


def join(server: str, code: str, name: str) -> str:
    """Join the table by HTTP; returns the new player's token."""
    req = urllib.request.Request(f"{server.rstrip('/')}/api/tables/{code}/join",
                                 data=json.dumps({"name": name}).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=10) as r:
        token: str = json.loads(r.read())["token"]
    return token


class SeatClient:
    """What the bot knows between messages: the versions it answered, each hand's starting score."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.answered = -1
        self.starts: dict[tuple[int, int], tuple[tuple[int, int], tuple[int, int]]] = {}
        self.matches_over = 0
        self.signed: set[tuple[int, int]] = set()
        self._last_result: Any = None
        self.reconsidered: tuple[int, int, int, str] | None = None
        """The call whose split vote it reconsidered: match, hand, its place in the hand, the call."""

    def senas_for(self, view: dict[str, Any]) -> list[dict[str, Any]]:
        """The señas to make once a hand, before the first card, when the table has them on."""
        game = view.get("game")
        sign = getattr(self.bot, "senas", None)
        if not game or "seat" not in game or sign is None or "sena" not in (view.get("commands") or ()):
            return []
        key = (int(view.get("match_no", 0)), int(game["hand_no"]))
        if key in self.signed or len(game["cards"]) < 3:
            return []
        self.signed.add(key)
        score = (game["score"][0], game["score"][1])
        chicos = (game["chicos"][0], game["chicos"][1])
        signs = sign(from_plain(game, score, chicos))
        return [{"type": "sena", "id": f"s{key[0]}.{key[1]}.{i}", "sena": x} for i, x in enumerate(signs)]

    def command_for(self, view: dict[str, Any]) -> dict[str, Any] | None:
        """The ``act`` this view calls for, if any (at most one per table version)."""
        game = view.get("game")
        if view.get("result") is not None and view.get("result") != self._last_result:
            self._last_result = view["result"]
            self.matches_over += 1
        if not game or "seat" not in game:
            return None
        key = (int(view.get("match_no", 0)), int(game["hand_no"]))
        if not game["history"] or key not in self.starts:
            # the score before anything of this hand happened (first seen mid-hand: the score now)
            self.starts.setdefault(key, ((game["score"][0], game["score"][1]),
                                         (game["chicos"][0], game["chicos"][1])))
        vote = view.get("vote")
        if not view.get("legal") or view["version"] <= self.answered:
            return None
        split: dict[Seat, Action] | None = None
        mine = vote.get("my_vote") if vote else None
        if vote and mine is not None:
            split = self._split(key, game, vote)
            if split is None:
                return None  # voted already: the team decides
        start_score, start_chicos = self.starts[key]
        seat_view = from_plain(game, start_score, start_chicos)
        signs = tuple((int(x["from"]), str(x["sena"])) for x in view.get("senas") or ())
        if signs:  # what the partners signed this hand (the table sends a seat only its partners')
            seat_view = replace(seat_view, senas=signs)
        action = self.bot.choose(seat_view) if split is None else self.bot.reconsider(seat_view, split)
        self.answered = view["version"]
        if split is not None and str(action.do) == mine:
            return None  # it keeps its vote
        msg: dict[str, Any] = {"type": "act", "id": f"b{view['version']}", "do": str(action.do)}
        if action.card is not None:
            msg["card"] = action.to_dict()["card"]
        return msg

    def _split(self, hand: tuple[int, int], game: dict[str, Any],
               vote: dict[str, Any]) -> dict[Seat, Action] | None:
        """Every voter of its team has voted and the votes differ: the votes, the first time this call
        is seen split (a bot reconsiders once, as a team of bots does at the table and in the arena:
        to the mildest vote that still takes the bet on); else None."""
        votes = vote.get("votes") or []
        if any(v.get("vote") is None for v in votes) or len({v["vote"] for v in votes}) < 2:
            return None
        call = (*hand, len(game["history"]), str(vote.get("call")))
        if call == self.reconsidered:
            return None
        self.reconsidered = call
        return {int(v["seat"]): Action(int(v["seat"]), Do(v["vote"])) for v in votes}


async def play_at_table(server: str, code: str, bot: Bot, *, token: str | None = None,
                        seat: int | None = None, name: str = "Bot", matches: int = 1,
                        on_message: Callable[[dict[str, Any]], None] | None = None) -> int:
    """Play at a table over its WebSocket until ``matches`` matches end (0: until the socket closes).
    Returns the number of matches that ended while it sat there."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed
    from websockets.typing import Subprotocol

    from truco.protocol import SUBPROTOCOL, TOKEN_PREFIX

    if token is None:
        token = await asyncio.to_thread(join, server, code, name)
    ws_base = "ws" + server[len("http"):] if server.startswith("http") else server
    client = SeatClient(bot)
    async with connect(f"{ws_base.rstrip('/')}/ws/{code}", compression=None,
                       subprotocols=[Subprotocol(SUBPROTOCOL), Subprotocol(f"{TOKEN_PREFIX}{token}")]) as ws:
        if seat is not None:
            await ws.send(json.dumps({"type": "sit", "id": "sit", "seat": seat}))
        try:
            async for raw in ws:
                msg = json.loads(raw)
                if on_message is not None:
                    on_message(msg)
                if msg.get("type") not in ("hello", "update", "snapshot"):
                    continue
                for sign in client.senas_for(msg["view"]):
                    await ws.send(json.dumps(sign))
                cmd = client.command_for(msg["view"])
                if cmd is not None:
                    await ws.send(json.dumps(cmd))
                if matches and client.matches_over >= matches:
                    break
        except ConnectionClosed:
            pass
    return client.matches_over


def run(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else secrets.randbits(63)
    bot = make_bot(args.level, seed)
    if args.stdio:
        return serve(bot)
    if not args.code:
        print("truco bot: --code is needed (or --stdio)", file=sys.stderr)
        return 2
    token = os.environ.get("TRUCO_SEAT_TOKEN") or None
    over = asyncio.run(play_at_table(args.server, args.code, bot, token=token, seat=args.seat,
                                     name=args.name, matches=args.matches))
    print(json.dumps({"matches_over": over}))
    return 0
