"""Drive a table in a test: players by id, a fake ``now``, every effect kept."""

from __future__ import annotations

from typing import Any

from truco.engine import Do
from truco.table import (
    Act,
    AddBot,
    BotAct,
    BotHint,
    Command,
    Connect,
    Create,
    Disconnect,
    Effect,
    Envelope,
    Facts,
    Join,
    Outcome,
    Sit,
    Start,
    Table,
    TableSettings,
    Wake,
    apply,
    create,
    event_dict,
    table_view,
)
from truco.table.view import TableView


class Driver:
    """``Driver(humans=[0, 1, 2, 3])`` seats a human in each listed seat and a bot in the others."""

    def __init__(self, players: int = 4, humans: tuple[int, ...] | None = None, seed: int = 7,
                 start: bool = True, **settings: Any) -> None:
        self.now = 1_000_000
        self.settings = TableSettings(players=players, **settings)
        humans = tuple(range(players)) if humans is None else humans
        assert humans and humans[0] == 0, "the host sits at seat 0"
        first = Create("T", self.settings, "p0", "tok-0", seed)
        self.table, out = create(first, self.now)
        self.effects: list[Effect] = list(out.effects)
        self.log: list[tuple[Envelope, int]] = [(Envelope(first), self.now)]
        """Every accepted command with its time, as storage keeps it."""
        self.pid_of_seat: dict[int, int] = {0: 0}
        for seat in humans[1:]:
            pid = len(self.table.players)
            self.system(Join(f"p{pid}", f"tok-{pid}"))
            self.send(pid, Sit(seat))
            self.pid_of_seat[seat] = pid
        for seat in range(players):
            if seat not in humans:
                self.send(0, AddBot(seat, "random"))
        for pid in self.pid_of_seat.values():
            self.system(Connect(pid))
        if start:
            self.send(0, Start())

    # commands
    def send(self, pid: int, cmd: Command) -> Outcome:
        return self._apply(Envelope(cmd, pid))

    def system(self, cmd: Command) -> Outcome:
        return self._apply(Envelope(cmd))

    def _apply(self, env: Envelope) -> Outcome:
        self.table, out = apply(self.table, env, self.now)
        self.effects.extend(out.effects)
        if out.changed:
            self.log.append((env, self.now))
        return out

    def seat(self, seat: int, do: Do, card: int | None = None) -> Outcome:
        """The human in ``seat`` acts (or votes)."""
        return self.send(self.pid_of_seat[seat], Act(do, card))

    def bot(self, seat: int, do: Do, card: int | None = None) -> Outcome:
        return self.system(BotAct(seat, do, card))

    def hint(self, seat: int, do: Do) -> Outcome:
        return self.system(BotHint(seat, do))

    def drop(self, seat: int) -> Outcome:
        return self.system(Disconnect(self.pid_of_seat[seat]))

    def back(self, seat: int) -> Outcome:
        return self.system(Connect(self.pid_of_seat[seat]))

    def at(self, ms_after: int, since: int) -> Outcome:
        """Move the clock to ``since + ms_after`` and fire what is due."""
        self.now = since + ms_after
        return self.system(Wake())

    # facts
    @property
    def t(self) -> Table:
        return self.table

    @property
    def turn(self) -> int:
        assert self.table.game is not None
        return self.table.game.turn

    def view(self, seat: int) -> TableView:
        return table_view(Facts(self.table), self.pid_of_seat[seat])

    def call_truco(self) -> int:
        """The seat in turn calls truco (a human); returns the caller's seat."""
        caller = self.turn
        self.seat(caller, Do.TRUCO)
        return caller

    def events(self, type_: str) -> list[dict[str, Any]]:
        return [d for d in (event_dict(e.event) for e in self.effects) if d["type"] == type_]
