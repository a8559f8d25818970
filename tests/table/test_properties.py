"""Properties over random command streams: never a crash, refusals change nothing, no card leaks,
señas reach partners only, and the log replays to the same table."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from truco.engine import Do
from truco.engine.cards import NAME, parse_card
from truco.engine.fairness import Reveal, verify_deal
from truco.table import (
    SENAS,
    Abandon,
    Act,
    AddBot,
    Award,
    BotAct,
    BotHint,
    Command,
    Connect,
    Contribute,
    Create,
    Disconnect,
    EndHand,
    Envelope,
    Facts,
    Join,
    Leave,
    Place,
    Rematch,
    RemoveBot,
    Sena,
    ShuffleTeams,
    Sit,
    Start,
    Table,
    TableError,
    TableSettings,
    UndoAward,
    Wake,
    apply,
    bot_view,
    create,
    event_dict,
    replay_log,
    table_view,
)
from truco.table.fairness import hand_secret, next_deal

CARD_NAMES = frozenset(NAME)


def cards_in(obj: Any, key: str = "") -> set[str]:
    """Every card name a message carries (under the keys that hold cards)."""
    out: set[str] = set()
    if isinstance(obj, dict):
        for k, v in obj.items():
            out |= cards_in(v, k)
    elif isinstance(obj, list | tuple):
        for v in obj:
            out |= cards_in(v, key)
    elif isinstance(obj, str) and key in ("card", "cards", "dealt") and obj in CARD_NAMES:
        out.add(obj)
    return out


class Knowledge:
    """What each player may know so far: public cards (played or shown) and their own hands."""

    def __init__(self) -> None:
        self.public: set[str] = set()
        self.own: dict[int, set[str]] = {}

    def update(self, t: Table) -> None:
        for rec in t.hands:
            for a in rec["actions"]:
                if a["do"] == "play":
                    self.public.add(a["card"])
        g = t.game
        if g is not None:
            for r in (*g.rounds, g.plays):
                self.public |= {NAME[c] for _, c in r}
            for _, cs in g.shown:
                self.public |= {NAME[c] for c in cs}
        if t.last_hand:
            for s in t.last_hand["shown"]:
                self.public |= set(s["cards"])
        for p in t.players:
            if p.seat is None:
                continue
            mine = self.own.setdefault(p.pid, set())
            if g is not None:
                mine |= {NAME[c] for c in g.dealt[p.seat]}
            for rec in t.hands:
                mine |= set(rec["hands"][p.seat])

    def allowed(self, pid: int) -> set[str]:
        return self.public | self.own.get(pid, set())


def pick(seq: Any, k: int) -> Any:
    return seq[k % len(seq)]


def command_for(t: Table, choice: int, k: int, j: int) -> tuple[Envelope, int]:
    """A command from a random family, aimed at the current table (often legal, often not)."""
    players = [p.pid for p in t.players]
    pid = pick([*players, 99], k)
    n = len(t.seats)
    c = choice % 20
    advance = 0
    cmd: Command
    if c < 6 and t.game is not None:
        seated = [p for p in t.players if p.seat is not None and Facts(t).seat_legal(p.seat)]
        if seated:
            p = pick(seated, k)
            a = pick(Facts(t).seat_legal(p.seat), j)
            return Envelope(Act(a.do, a.card), p.pid), advance
        if Facts(t).bots_to_act():
            s = Facts(t).bots_to_act()[0]
            a = pick(bot_view(Facts(t), s).legal, j)
            return Envelope(BotAct(s, a.do, a.card)), advance
        if Facts(t).hints_wanted():
            s = Facts(t).hints_wanted()[0]
            return Envelope(BotHint(s, pick(bot_view(Facts(t), s).legal, j).do)), advance
    if c < 8:
        cmd = Act(pick(list(Do), j), j % 40 if pick(list(Do), j) is Do.PLAY else None)
    elif c == 8:
        cmd, pid = Wake(), None
        advance = pick([0, 1, 9_999, 10_000, 30_000, 60_000], j)
    elif c == 9:
        cmd, pid = Disconnect(k % (len(players) + 1)), None
    elif c == 10:
        cmd, pid = Connect(k % (len(players) + 1)), None
    elif c == 11:
        cmd = Sena(pick([*SENAS, "guiño"], j))
    elif c == 12:
        cmd = pick([Award(j % 3, j % 6), UndoAward(), EndHand()], k)
    elif c == 13:
        cmd = pick([Sit(j % (n + 1)), Place(j % 5, k % n), ShuffleTeams(), Leave()], j + k)
    elif c == 14:
        cmd = pick([AddBot(j % n, "random"), RemoveBot(j % n), Start(), Rematch()], j + k)
    elif c == 15:
        cmd, pid = Join(f"p{j}", f"tok-{j % 5}"), None
    elif c == 16:
        cmd, pid = BotAct(j % n, pick(list(Do), k), j % 40), None
    elif c == 17:
        cmd, pid = BotHint(j % n, pick(list(Do), k)), None
    elif c == 18 and j % 50 == 0:
        cmd, pid = Abandon(), None
    elif c == 19:
        match_no, hand_no = next_deal(t) if j % 4 else (1 + k % 3, 1 + j % 5)
        cmd = Contribute(match_no, hand_no, f"{(j * 1_000_003 + k) % 2**128:032x}")
    else:
        cmd = Start() if t.phase == "lobby" else Act(Do.MAZO)
    return Envelope(cmd, pid), advance


def unrevealed_secrets(t: Table) -> set[str]:
    """What nobody may hear of yet: the secret and seed of the hand on the table, the next secret."""
    out = {hand_secret(t, *next_deal(t)).hex()}
    if t.seal is not None:
        out |= {t.seal.secret, t.seal.seed}
    return out


def check_outcome(t: Table, effects: Any, know: Knowledge) -> None:
    secrets = unrevealed_secrets(t)
    for rec in t.hands[-1:]:  # every hand kept was dealt from its revealed seed
        assert rec["fairness"] is not None
        verify_deal(Reveal.from_dict(rec["fairness"]), [[parse_card(c) for c in h] for h in rec["hands"]])
    for e in effects:
        told = repr(event_dict(e.event))
        assert not any(s in told for s in secrets), f"{e.event} tells a hand's secret before its end"
        if event_dict(e.event)["type"] in ("sena", "vote_cast", "bot_hint"):
            assert e.audience.kind == "team"
            if event_dict(e.event)["type"] == "sena":
                assert e.audience.value == event_dict(e.event)["seat"] % 2
        for p in t.players:
            if p.left or not e.audience.reaches(p.seat):
                continue
            leaked = cards_in(event_dict(e.event)) - know.allowed(p.pid)
            assert not leaked, f"{e.event} shows {leaked} to player {p.pid}"
    for p in t.players:
        if p.left:
            continue
        view = table_view(Facts(t), p.pid).to_dict()
        leaked = cards_in(view) - know.allowed(p.pid)
        assert not leaked, f"the view of player {p.pid} shows {leaked}"
        text = repr(view)
        assert not any(q.token in text for q in t.players), "a token left the server"
        assert not any(s in text for s in secrets), "a view tells a hand's secret before its end"


tables = st.tuples(
    st.integers(0, 2**32), st.sampled_from([2, 4, 6, 8]), st.sampled_from(["full", "casual"]),
    st.sampled_from(["humans", "one_human", "mixed"]), st.booleans(), st.sampled_from([15, 30]),
    st.sampled_from([1, 3]),
)
streams = st.tuples(st.integers(0, 2**32), st.integers(50, 400))
"""A stream of commands: (seed, length). Drawn from a seeded generator so that each example is long."""


def commands_of(stream: tuple[int, int]) -> list[tuple[int, int, int]]:
    rng = random.Random(stream[0])
    return [(rng.randrange(1000), rng.randrange(1000), rng.randrange(1000)) for _ in range(stream[1])]


def start_table(seed: int, players: int, mode: str, who: str, flor: bool = False, target: int = 30,
                chicos: int = 1) -> tuple[Table, list[tuple[Envelope, int]]]:
    now = 1_000_000
    settings = TableSettings(players=players, mode=mode, flor=flor, target=target, chicos=chicos)  # type: ignore[arg-type]
    cmd = Create("P", settings, "p0", "tok-0", seed)
    t, _ = create(cmd, now)
    log = [(Envelope(cmd), now)]

    def do(env: Envelope) -> None:
        nonlocal t
        t, _ = apply(t, env, now)
        log.append((env, now))

    do(Envelope(Connect(0)))
    for seat in range(1, players):
        human = who == "humans" or (who == "mixed" and seat % 2 == 1)
        if human:
            pid = len(t.players)
            do(Envelope(Join(f"p{pid}", f"tok-{pid}")))
            do(Envelope(Sit(seat), pid))
            do(Envelope(Connect(pid)))
        else:
            do(Envelope(AddBot(seat), 0))
    do(Envelope(Start(), 0))
    return t, log


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables, streams)
def test_random_commands_never_crash_refusals_change_nothing_and_no_card_leaks(table: Any, stream: Any):
    t, log = start_table(*table)
    now = log[-1][1]
    know = Knowledge()
    know.update(t)
    last: Envelope | None = None
    for choice, k, j in commands_of(stream):
        env, advance = command_for(t, choice, k, j)
        if choice % 23 == 0 and last is not None:
            env = last  # a duplicate: applied again it is a new command, legal or not
        now += advance
        before = dict(vars(t))
        try:
            t2, out = apply(t, env, now)
        except TableError as e:
            assert str(e), "a refusal has a reason"
            assert vars(t) == before, "a refused command changed the table"
            continue
        if out.changed:
            assert t2.version == t.version + 1
            log.append((env, now))
        else:
            assert t2 is t
        t = t2
        last = env
        know.update(t)
        check_outcome(t, out.effects, know)
    event(f"phase {t.phase}, hands {t.hand_no}, matches {t.match_no}")
    rebuilt = replay_log(log)
    assert rebuilt.version == t.version and rebuilt.seats == t.seats and rebuilt.deadlines == t.deadlines
    if t.game is not None:
        assert rebuilt.game is not None and rebuilt.game.history == t.game.history
        assert rebuilt.game.dealt == t.game.dealt and rebuilt.game.score == t.game.score


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([4, 6]))
def test_senas_reach_partners_only_in_every_view(seed: int, players: int):
    t, _ = start_table(seed, players, "full", "humans")
    for sender in t.players:
        assert sender.seat is not None
        t, out = apply(t, Envelope(Sena(SENAS[seed % len(SENAS)]), sender.pid), 2_000_000)
        for p in t.players:
            assert p.seat is not None
            got = table_view(Facts(t), p.pid).senas
            assert all(s % 2 == p.seat % 2 and s != p.seat for s, _ in got)
        (effect,) = out.effects
        assert [s for s in range(players) if effect.audience.reaches(s)] == \
            list(range(sender.seat % 2, players, 2))


def test_the_leak_check_catches_another_seats_cards():
    """The property above would notice a leak: another seat's hand is flagged."""
    from truco.engine import view_for
    t, _ = start_table(3, 4, "full", "humans")
    know = Knowledge()
    know.update(t)
    assert t.game is not None
    foreign = cards_in(view_for(t.game, 1).to_dict())
    assert foreign - know.allowed(0) == {NAME[c] for c in t.game.dealt[1]}
