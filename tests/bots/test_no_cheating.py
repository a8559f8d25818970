"""Bots cannot cheat: a bot's seed tells nothing about the deals, and the view it is handed (and the
stack it is called from) reaches no other seat's cards."""

from __future__ import annotations

import gc
import sys
import types
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from tests.runtime.conftest import Inbox, submit
from truco.bots import Bot, RandomBot
from truco.bots.arena import play_match
from truco.bots.guard import Guarded, detached
from truco.engine import Action, Do, Rules, Seat, SeatView, State, apply, new_match, view_for
from truco.engine.cards import Card
from truco.runtime import FakeClock, Runtime
from truco.storage import MemoryStorage
from truco.table.edits import derived_seed


def _deal_seeds(secret: int, match_no: int, hand_no: int, players: int) -> Iterator[int | bytes]:
    """The seeds a table with this secret deals a hand from: the plain derivation, and the
    verifiable deal's (docs/fairness.md) with no seat contributing, where the table has it."""
    table: Any = types.SimpleNamespace(seed=secret)
    yield derived_seed(table, "hand", match_no, hand_no)
    try:
        from truco.engine.fairness import deal_seed  # type: ignore[import-not-found,unused-ignore]
        from truco.table.fairness import hand_secret  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return
    yield bytes(deal_seed(hand_secret(table, match_no, hand_no), [None] * players))


def deal_the_rival(seed: int, view: SeatView) -> tuple[Card, ...] | None:
    """The attack of issue 13: a bot that knows only its seed and its view guesses the table's secret
    as ``seed ^ (match_no * 7919 + seat)``, deals the hand as the table does, and keeps the guess
    when the deal gives it exactly its own cards. Returns the rival's hand, or ``None``."""
    p = view.public
    for match_no in range(4):
        secret = seed ^ (match_no * 7919 + view.seat)
        for deal_seed in _deal_seeds(secret, match_no, p.hand_no, p.rules.players):
            st, _ = new_match(p.rules, dealer=p.dealer, seed=deal_seed, hand_no=p.hand_no)
            if st.dealt[view.seat] == view.dealt:
                return st.dealt[(view.seat + 1) % p.rules.players]
    return None


class Recorder(RandomBot):
    """A random bot that keeps its seed and every view it is given, for the attack to work on."""

    seen: ClassVar[list[tuple[int, SeatView]]] = []

    def decide(self, view: SeatView) -> Action:
        Recorder.seen.append((self.seed, view))
        return super().decide(view)


async def _a_table_with_a_recording_bot() -> tuple[Runtime, str, int]:
    Recorder.seen = []
    rt = Runtime(MemoryStorage(), FakeClock(), seed_source=lambda: 0x1234_5678_9ABC_DEF,
                 bot_delay=0, hand_pause=0, bot_factory=lambda level, seed: Recorder(seed))
    await rt.start()
    c = await rt.create_table({"players": 2}, "Ana")
    await rt.connect(c.table_id, c.token, Inbox())
    await submit(rt, c.table_id, c.token, {"type": "add_bot", "seat": 1, "level": "random"})
    await submit(rt, c.table_id, c.token, {"type": "start"})
    g = rt.table(c.table_id).game
    assert g is not None
    if g.turn == 0:
        card = rt.view(c.table_id, c.token)["game"]["cards"][0]
        await submit(rt, c.table_id, c.token, {"type": "act", "do": "play", "card": card})
    await rt.settle()
    return rt, c.table_id, rt.table(c.table_id).seed


async def test_a_bot_seed_reveals_nothing_about_the_deals():
    rt, table_id, secret = await _a_table_with_a_recording_bot()
    try:
        assert Recorder.seen, "the bot was never asked"
        seed, view = Recorder.seen[0]
        game = rt.table(table_id).game
        assert game is not None
        rival = game.dealt[0]
        t = rt.table(table_id)
        # control: with the old derivation the attack deals the rival's hand exactly
        old_seed = (secret ^ (t.match_no * 7919 + view.seat)) & ((1 << 63) - 1)
        assert deal_the_rival(old_seed, view) == rival
        # the seed the runtime gave the bot is no way back to the secret
        assert seed != old_seed
        assert deal_the_rival(seed, view) is None
    finally:
        await rt.close()


# ---------------------------------------------------------------- what a bot can reach


def _reaches_a_state(roots: list[Any], depth: int = 4) -> bool:
    """Follow ``gc.get_referrers`` up from ``roots`` (frames aside, which the next probe covers).
    The empty tuple is one object shared by the whole interpreter and holds nothing: not followed."""
    seen = {id(roots)}
    frontier = [r for r in roots if r != ()]
    for _ in range(depth):
        nxt = []
        for obj in frontier:
            for r in gc.get_referrers(obj):
                if isinstance(r, State):
                    return True
                if isinstance(r, types.FrameType) or id(r) in seen or r is frontier or r is nxt:
                    continue
                seen.add(id(r))
                nxt.append(r)
        frontier = nxt
    return False


def _view_roots(view: SeatView) -> list[Any]:
    p = view.public
    return [view, p, p.history, p.rules, p.rounds, p.sung, p.shown, view.cards, view.dealt, view.legal,
            *p.history, *p.rounds]


def _frames_hold(given: SeatView) -> list[str]:
    """What the caller's frames hold that a bot must not reach: a state, or a view other than its own."""
    found = []
    f = sys._getframe(2)
    while f is not None:
        for name, value in f.f_locals.items():
            values = value if isinstance(value, list | tuple) else (value,)
            for v in values:
                if isinstance(v, State) or (isinstance(v, SeatView) and v is not given):
                    found.append(f"{f.f_code.co_name}.{name}")
        f = f.f_back
    return found


class Prober:
    """A bot that looks around from inside ``choose`` and writes down what it could reach."""

    level = "prober"

    def __init__(self) -> None:
        self.reached_state = 0
        self.frame_leaks: list[str] = []
        self.calls = 0

    def _probe(self, view: SeatView) -> Action:
        self.calls += 1
        self.frame_leaks += _frames_hold(view)
        if self.calls <= 6 and _reaches_a_state(_view_roots(view)):
            self.reached_state += 1
        return view.legal[0]

    def choose(self, view: SeatView) -> Action:
        return self._probe(view)

    def hint(self, view: SeatView) -> Action:
        return self._probe(view)

    def reconsider(self, view: SeatView, votes: Mapping[Seat, Action]) -> Action:
        return self._probe(view)


def test_a_detached_view_equals_the_view_and_shares_no_container_with_the_state():
    st, _ = new_match(Rules(players=4), dealer=0, seed=5)
    view = view_for(st, 0)
    assert _reaches_a_state(_view_roots(view))  # control: the engine's own view leads to the state
    copy = detached(view)
    assert copy == view
    assert not _reaches_a_state(_view_roots(copy))


def test_a_detached_view_of_a_pica_pica_keeps_its_duels():
    st, _ = new_match(Rules(players=6, pica_pica=True), dealer=5, seed=5, score=(10, 10))
    st, _ = apply(st, Action(0, Do.TRUCO))
    st, _ = apply(st, Action(3, Do.NO_QUIERO))
    view = view_for(st, 1)
    copy = detached(view)
    assert copy == view and copy.public.duels and copy.public.idle == (0, 2, 3, 5)
    assert not _reaches_a_state(_view_roots(copy))


def test_a_bot_in_the_arena_reaches_no_state_from_its_view_or_its_callers_frames():
    guarded = [Prober() for _ in range(2)]
    bots: list[Bot] = [Guarded(p) for p in guarded]
    play_match(Rules(players=2, target=15), bots, dealer=0, seeds=lambda h: 1000 + h)
    assert all(p.calls > 10 for p in guarded)
    assert all(p.reached_state == 0 and p.frame_leaks == [] for p in guarded)
    # control: the same probes called the unguarded way find the arena's state
    raw = [Prober() for _ in range(2)]
    play_match(Rules(players=2, target=15), list[Bot](raw), dealer=0, seeds=lambda h: 1000 + h)
    assert raw[0].reached_state > 0 and any("play_match" in leak for leak in raw[0].frame_leaks)


async def test_a_bot_at_a_table_reaches_no_state_from_its_view_or_its_callers_frames():
    probes: list[Prober] = []

    def factory(level: str, seed: int) -> Bot:
        probes.append(Prober())
        return probes[-1]

    rt = Runtime(MemoryStorage(), FakeClock(), bot_delay=0, hand_pause=0, bot_factory=factory)
    await rt.start()
    try:
        c = await rt.create_table({"players": 2, "target": 15}, "Ana")
        box = Inbox()
        await rt.connect(c.table_id, c.token, box)
        await submit(rt, c.table_id, c.token, {"type": "add_bot", "seat": 1, "level": "random"})
        await submit(rt, c.table_id, c.token, {"type": "start"})
        for _ in range(40):
            await rt.settle()
            legal = box.view["legal"]
            if box.view["phase"] != "playing" or not legal:
                break
            cmd = {k: v for k, v in legal[0].items() if k != "seat"} | {"type": "act"}
            await submit(rt, c.table_id, c.token, cmd)
        assert probes and probes[0].calls > 0
        assert probes[0].reached_state == 0 and probes[0].frame_leaks == []
    finally:
        await rt.close()
