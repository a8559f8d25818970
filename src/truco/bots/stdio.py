"""A bot in another process, speaking JSON lines over its stdin and stdout.

The process is a bot we may not trust: it gets only its seat's view, as plain data, and nothing of
ours shares its memory. One request per line in, one answer per line out:

    → {"type": "choose", "view": <the seat's view>}
    → {"type": "hint", "view": …}
    → {"type": "reconsider", "view": …, "votes": [{"seat": 1, "do": "quiero"}, …]}
    → {"type": "senas", "view": …}
    → {"type": "recall", "views": [<a view of each hand of the match before it was made>, …]}
    ← {"type": "act", "do": "play", "card": "7o"}          (the phone's ``act``, without its ``id``)
    ← {"type": "senas", "senas": ["ancho-espadas"]}         (to "senas": the señas it makes, if any)
    ← {"type": "recalled"}                                  (to "recall": a bot with no memory ignores it)

The view is ``SeatView.to_dict()`` — the ``game`` a phone receives — plus ``start_score`` and
``start_chicos`` (``guard.to_plain``). ``truco bot --stdio --level LEVEL`` is such a process;
``SubprocessBot`` is the table's (or the arena's) end of the pipe.

The same lines carry a server's *bots' worker* (``serve_many``, ``python -m truco.bots.stdio``;
``truco.runtime.bot_workers`` is the server's end): one process holding the bots of many tables.
Each request then also names its table (``"table"``) and its bot (``"bot"``: a key the server
chooses within the table, with ``"level"`` and ``"seed"`` to make it on first use), and carries an
``"id"`` that its answer repeats; ``{"type": "forget", "table": ID}`` drops the bots of that table. The
answer to the request that made a bot says ``"made": true`` (a worker started again, or a bot dropped):
the server then tells it the match so far (``"recall"``) before its next turn.
A bot that fails answers ``{"type": "error", "error": …}`` and the table plays its fallback.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import IO, Any

from truco.bots.base import Bot
from truco.bots.guard import action_from_plain, from_plain, known_senas, recall_match, to_plain
from truco.bots.registry import make_level
from truco.engine import Action, Do, Seat, SeatView
from truco.engine.cards import parse_card


def answer(bot: Bot, request: Mapping[str, Any]) -> dict[str, Any]:
    """What a bot answers to one request (the process side)."""
    kind = request.get("type", "choose")
    if kind == "recall":
        recall_match(bot, [from_plain(v) for v in request.get("views", [])])
        return {"type": "recalled"}
    view = from_plain(request["view"])
    if kind == "reconsider":
        votes = {int(v["seat"]): action_from_plain(v) for v in request.get("votes", [])}
        action = bot.reconsider(view, votes)
    elif kind == "hint":
        action = bot.hint(view)
    elif kind == "senas":
        make = getattr(bot, "senas", None)
        return {"type": "senas", "senas": list(known_senas(make(view) if make is not None else ()))}
    else:
        action = bot.choose(view)
    msg: dict[str, Any] = {"type": "act", "do": str(action.do)}
    if action.card is not None:
        msg["card"] = action.to_dict()["card"]
    return msg


def serve(bot: Bot, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    """Answer requests line by line until stdin closes."""
    src = stdin or sys.stdin
    out = stdout or sys.stdout
    for line in src:
        if not line.strip():
            continue
        out.write(json.dumps(answer(bot, json.loads(line))) + "\n")
        out.flush()
    return 0


class Overrun(BaseException):
    """A bot's decision ran past the worker's budget (a ``BaseException``: a bot's own ``except
    Exception`` must not swallow it)."""


DECISION_BUDGET = 10.0
"""Seconds a bot may think in a worker before that decision is given up (ours take under 0.1 s; the
server kills a worker silent for 30 s, which is for a bot stuck where no signal reaches it)."""


@contextmanager
def _budget(seconds: float | None) -> Iterator[None]:
    """Raise ``Overrun`` in this thread if the block runs past ``seconds`` (SIGALRM: the main thread
    of a POSIX process only; elsewhere, or with None, no budget)."""
    if (seconds is None or not hasattr(signal, "setitimer")
            or threading.current_thread() is not threading.main_thread()):
        yield
        return

    def overrun(signum: int, frame: object) -> None:
        raise Overrun(f"no decision within {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, overrun)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def serve_many(make: Callable[[str, int], Bot] | None = None, stdin: IO[str] | None = None,
               stdout: IO[str] | None = None, budget: float | None = DECISION_BUDGET) -> int:
    """A bots' worker: answer requests for many bots, each made on its first request and kept until
    its table is forgotten, until stdin closes (the server ended, however it ended). A bot that
    thinks past ``budget`` seconds answers an error and is dropped (it may be left half-way through
    its own bookkeeping): its table's next request makes it again, and the worker's other bots keep
    their memory of their matches."""
    src = stdin or sys.stdin
    out = stdout or sys.stdout
    make = make or make_level
    tables: dict[str, dict[str, Bot]] = {}
    """The bots by table, then by the server's key."""
    for line in src:
        if not line.strip():
            continue
        req = json.loads(line)
        if req.get("type") == "forget":
            table = req.get("table")
            if isinstance(table, str):
                tables.pop(table, None)
            continue
        bots: dict[str, Bot] = {}
        key = ""
        try:
            bots = tables.setdefault(str(req["table"]), {})
            key = str(req["bot"])
            with _budget(budget):
                bot = bots.get(key)
                made = bot is None
                if bot is None:
                    bot = bots[key] = make(str(req["level"]), int(req["seed"]))
                msg = answer(bot, req)
                if made:
                    msg["made"] = True  # this request made it: it knows nothing of the match before
        except Overrun as e:
            bots.pop(key, None)
            msg = {"type": "error", "error": f"Overrun: {e}"}
        except Exception as e:  # a failing bot costs its table a fallback move, never the worker
            msg = {"type": "error", "error": f"{type(e).__name__}: {e}"}
        msg["id"] = req.get("id")
        out.write(json.dumps(msg) + "\n")
        out.flush()
    return 0


def offered(view: SeatView, msg: Mapping[str, Any]) -> Action:
    """The action an ``act`` answer names, as ``view`` offers it; anything else raises (the table then
    plays the bot's fallback)."""
    card = msg.get("card")
    action = Action(view.seat, Do(str(msg["do"])), None if card is None else parse_card(str(card)))
    for a in view.legal:
        if a == action:
            return a
    raise ValueError(f"the bot answered {msg!r}, which its view does not offer")


class SubprocessBot:
    """The table's end of a bot that runs as its own process (``command``, e.g. ``truco bot --stdio``).

    A dead process, garbage or an action the view does not offer raises; the caller (the runtime's
    bot turns, the arena) treats that as any failing bot."""

    def __init__(self, command: Sequence[str], level: str = "subprocess") -> None:
        self.level = level
        self._proc = subprocess.Popen(list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      text=True, bufsize=1)

    def _ask(self, kind: str, view: SeatView, votes: Mapping[Seat, Action] | None = None) -> Action:
        assert self._proc.stdin is not None and self._proc.stdout is not None
        req: dict[str, Any] = {"type": kind, "view": to_plain(view)}
        if votes is not None:
            req["votes"] = [a.to_dict() for a in votes.values()]
        self._proc.stdin.write(json.dumps(req) + "\n")
        self._proc.stdin.flush()
        line = self._proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the bot process ended (exit code {self._proc.poll()})")
        return offered(view, json.loads(line))

    def choose(self, view: SeatView) -> Action:
        return self._ask("choose", view)

    def hint(self, view: SeatView) -> Action:
        return self._ask("hint", view)

    def reconsider(self, view: SeatView, votes: Mapping[Seat, Action]) -> Action:
        return self._ask("reconsider", view, votes)

    def close(self) -> None:
        if self._proc.stdin is not None:
            self._proc.stdin.close()
        try:
            self._proc.wait(5)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()


if __name__ == "__main__":
    try:
        raise SystemExit(serve_many())
    except BrokenPipeError:  # the server is gone: so is the reason to answer
        raise SystemExit(0) from None
