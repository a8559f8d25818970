"""No card leaks: over many random matches, every frame sent to every seat and spectator is scanned
for a card that reader may not know. A player may hear of a card only if it was once in their own
hand or it was on the table (played or shown) by that version. The truth comes from replaying the
table's log after the match; the frames are the ones that crossed the real sockets."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Iterator
from typing import Any

import orjson
import pytest

from truco.engine.cards import NAME
from truco.runtime import FakeClock
from truco.server.socket import SocketLimits
from truco.table import EVERYONE, Create, Envelope, apply, command_from_dict, create, event_dict
from truco.table.fairness import hand_secret, next_deal

from .conftest import serving
from .play import autoplay, phase_is

CARD_NAMES = frozenset(NAME)


def _strings(obj: Any) -> Iterator[str]:
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield k
            yield from _strings(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _strings(v)


def _unrevealed(t: Any) -> set[str]:
    """The hex a table must keep to itself now: the secret and seed of the hand on the table and
    the secret of the next hand (docs/fairness.md)."""
    out = {hand_secret(t, *next_deal(t)).hex()}
    if t.seal is not None:
        out |= {t.seal.secret, t.seal.seed}
    return out


def _truth_and_secrets(entries: list[Any]) -> tuple[dict[int, set[int]], dict[int, dict[int, set[int]]],
                                                    dict[int, set[str]]]:
    """Per version: the cards public by then, for each player the cards once in their hand, and the
    deal secrets nobody may have heard of yet.

    A card becomes public when it is played or shown at the end of a hand; a command that ends a
    hand deals the next one at once, so both the state and the command's public events count (and
    each such event is checked against the hand that was being played)."""
    first = command_from_dict(entries[0].command)
    assert isinstance(first, Create)
    t, _ = create(first, entries[0].at_ms)
    public: set[int] = set()
    own: dict[int, set[int]] = {}
    public_at: dict[int, set[int]] = {t.version: set()}
    own_at: dict[int, dict[int, set[int]]] = {t.version: {}}
    secret_at: dict[int, set[str]] = {t.version: _unrevealed(t)}
    for e in entries[1:]:
        before = t.game
        t, out = apply(t, Envelope(command_from_dict(e.command), e.player), e.at_ms)
        for effect in out.effects:
            ev = event_dict(effect.event)
            if effect.audience == EVERYONE and ev["type"] in ("card_played", "cards_shown"):
                assert before is not None
                cards = [ev["card"]] if ev["type"] == "card_played" else ev["cards"]
                for name in cards:
                    assert NAME.index(name) in before.dealt[ev["seat"]], ev
                    public.add(NAME.index(name))
        g = t.game
        if g is not None:
            for rnd in (*g.rounds, g.plays):
                public.update(card for _, card in rnd)
            for _, cards in g.shown:
                public.update(cards)
            for p in t.players:
                if p.seat is not None and p.seat < len(g.dealt):
                    own.setdefault(p.pid, set()).update(g.dealt[p.seat])
        public_at[t.version] = set(public)
        own_at[t.version] = {pid: set(cards) for pid, cards in own.items()}
        secret_at[t.version] = _unrevealed(t)
    return public_at, own_at, secret_at


def _secrets_told(frames: list[str], pid: int | None, secret_at: dict[int, set[str]]) -> list[str]:
    """Frames that carry a deal secret of a hand not over by their version."""
    found = []
    version = 0
    for raw in frames:
        version = orjson.loads(raw).get("version", version)
        told = [s for s in secret_at[version] if s in raw]
        if told:
            found.append(f"player {pid} v{version}: a deal secret in {raw[:200]}")
    return found


def _leaks(frames: list[str], pid: int | None, public_at: dict[int, set[int]],
           own_at: dict[int, dict[int, set[int]]]) -> list[str]:
    found = []
    version = 0
    for raw in frames:
        msg = orjson.loads(raw)
        version = msg.get("version", version)
        allowed = public_at[version] | (own_at[version].get(pid, set()) if pid is not None else set())
        names = {s for s in _strings(msg) if s in CARD_NAMES}
        bad = {n for n in names if NAME.index(n) not in allowed}
        if bad:
            found.append(f"player {pid} v{version}: {sorted(bad)} in {raw[:200]}")
    return found


async def _fast_clock(clock: FakeClock) -> None:
    """Ten seconds of table time per real second: split votes expire without waiting."""
    while True:
        await asyncio.sleep(0.05)
        clock.advance(500)


MATCHES_PER_TABLE = 4
MATCHES = [
    # (players, humans' seats, flor)
    (2, (0, 1), True),
    (2, (0, 1), False),
    (4, (0, 1), True),
    (4, (0, 1, 2, 3), False),
    (4, (0, 1, 2), True),
    (6, (0, 1, 2, 3), True),
]


@pytest.mark.slow
@pytest.mark.parametrize(("players", "humans", "flor"), MATCHES)
async def test_no_frame_to_any_seat_or_spectator_names_a_card_it_may_not_know(
        players: int, humans: tuple[int, ...], flor: bool) -> None:
    rng = random.Random(players * 100 + len(humans) * 10 + flor)
    clock = FakeClock()
    async with serving(clock=clock, limits=SocketLimits(rate=1e6, burst=1e6)) as live:
        ticker = asyncio.create_task(_fast_clock(clock))
        try:
            host = await live.create("Ana", players=players, target=15, flor=flor, bot_delay=0)
            code = host["code"]
            tokens = [host["token"]]
            for i in range(1, len(humans)):
                tokens.append((await live.join(code, f"Jugador {i}"))["token"])
            clients = [await live.player(code, tok) for tok in tokens]
            spectator = await live.player(code, None)
            for client, seat in zip(clients[1:], humans[1:], strict=True):
                assert (await client.command({"type": "sit", "seat": seat}))["type"] == "ack"
            for seat in range(players):
                if seat not in humans:
                    await clients[0].command({"type": "add_bot", "seat": seat, "level": "random"})
            assert (await clients[0].command({"type": "start"}))["type"] == "ack"
            for match in range(MATCHES_PER_TABLE):
                if match:
                    assert (await clients[0].command({"type": "rematch"}))["type"] == "ack"
                    for c in clients:
                        await c.until(lambda c: c.view["phase"] == "playing")
                await autoplay(clients, rng, phase_is(clients, "over"), timeout=120, pace=0.0)
            assert clients[0].view["match_no"] == MATCHES_PER_TABLE
            await spectator.until(lambda s: s.version == live.rt.version(code))
            for c in clients:
                await c.until(lambda c: c.version == live.rt.version(code))
        finally:
            ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ticker
        public_at, own_at, secret_at = _truth_and_secrets(live.storage.log(code))
        leaks: list[str] = []
        frames = 0
        for c in clients:
            leaks += _leaks(c.frames, c.player, public_at, own_at)
            leaks += _secrets_told(c.frames, c.player, secret_at)
            frames += len(c.frames)
        leaks += _leaks(spectator.frames, None, public_at, own_at)
        leaks += _secrets_told(spectator.frames, None, secret_at)
        frames += len(spectator.frames)
        assert frames > 20 * len(clients)
        assert leaks == []
        # the scans are not vacuous: every player did hear of cards they alone knew, and of the
        # secrets of hands once they were over
        revealed = {s for secrets in secret_at.values() for s in secrets} - secret_at[live.rt.version(code)]
        for c in clients:
            assert any(s in raw for raw in c.frames for s in revealed)
            assert any(n in CARD_NAMES for raw in c.frames for n in _strings(orjson.loads(raw)))
        for c in [*clients, spectator]:
            await c.close()


def test_the_secret_scan_catches_a_secret_told_early() -> None:
    secret_at = {5: {"ab" * 32}}
    assert _secrets_told(['{"type":"update","version":5,"x":"' + "ab" * 32 + '"}'], 0, secret_at) != []
    assert _secrets_told(['{"type":"update","version":5,"x":"cd"}'], 0, secret_at) == []


def test_the_scan_catches_a_leak() -> None:
    public_at = {5: {NAME.index("1e")}}
    own_at = {5: {0: {NAME.index("7o")}}}
    frames = ['{"type":"update","version":5,"view":{"game":{"cards":["7o","3c"]}}}']
    assert _leaks(frames, 0, public_at, own_at) != []
    assert _leaks(['{"type":"update","version":5,"events":[{"card":"1e"}]}'], None, public_at, own_at) == []
