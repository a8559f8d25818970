"""Build the mock page's fixtures from real table sessions (``python tests/browser/make_fixtures.py``).

Every fixture is a ``TableView.to_dict()`` taken from the table layer, so the mock page renders the
exact shapes the server sends. Writes ``tests/browser/mock/fixtures.json``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from truco.engine import Do, legal_actions
from truco.server.qr import qr_svg
from truco.table import (
    Act,
    AddBot,
    Award,
    BotAct,
    Connect,
    Create,
    Disconnect,
    EndHand,
    Envelope,
    Facts,
    Join,
    Sena,
    Sit,
    Start,
    TableSettings,
    apply,
    create,
    table_view,
)

OUT = Path(__file__).resolve().parent / "mock" / "fixtures.json"
NAMES = ["Ana", "Beto", "Caro", "Dani", "Eli", "Fede", "Gabi", "Hugo"]
NOW = 1_000_000


class Sim:
    def __init__(self, players: int, humans: int, **settings: Any) -> None:
        self.now = NOW
        settings_ = TableSettings(players=players, **settings)
        self.t, _ = create(Create("KX7P", settings_, NAMES[0], "tok0", 12345), self.now)
        self.pids = {0: 0}
        for i in range(1, humans):
            self.do(Join(NAMES[i], f"tok{i}"))
            self.do(Sit(i), i)
            self.pids[i] = i
        for pid in self.pids:
            self.do(Connect(pid))

    def do(self, cmd: Any, pid: int | None = None) -> None:
        self.t, _ = apply(self.t, Envelope(cmd, pid), self.now)

    def view(self, pid: int) -> dict[str, Any]:
        return table_view(Facts(self.t), pid).to_dict()

    def seat_pid(self, seat: int) -> int:
        return self.t.seats[seat].player  # type: ignore[return-value]

    def play_first(self) -> None:
        g = self.t.game
        seat = g.turn
        a = next(a for a in Facts(self.t).seat_legal(seat) if a.do == Do.PLAY)
        self.do(Act(a.do, a.card), self.seat_pid(seat))

    def act(self, seat: int, do: Do) -> None:
        self.do(Act(do), self.seat_pid(seat))

    def answer(self, do: Do) -> None:
        """Every seat of the answering team votes ``do``."""
        team = self.t.game.answer_team
        for seat in range(team, len(self.t.seats), 2):
            if self.t.game.pending:
                self.act(seat, do)


def build() -> dict[str, Any]:
    """Every fixture, from fresh table sessions (deterministic: fixed seed and clock)."""
    fx: dict[str, Any] = {}
    link = "http://192.168.0.12:8000/m/KX7P"
    fx["qr_svg"] = qr_svg(link).decode()
    fx["link"] = link
    fx["lobby"] = {"tables": [
        {"code": "KX7P", "players": 4, "free": 2, "target": 30, "mode": "full", "host_name": "Ana"},
        {"code": "M3RW", "players": 2, "free": 1, "target": 15, "mode": "casual", "host_name": "Fede"},
    ]}

    s = Sim(4, 2)
    s.do(AddBot(3, "normal"), 0)
    fx["waiting"] = s.view(0)

    # every seat taken, but Caro is away: the host is told who is missing and may remove her
    s = Sim(4, 3)
    s.do(AddBot(3, "normal"), 0)
    s.do(Disconnect(2))
    fx["waiting_away"] = s.view(0)
    fx["waiting_guest"] = s.view(1)

    s = Sim(4, 4)
    s.do(Start(), 0)
    fx["table4_start"] = s.view(0)
    g = s.t.game
    mano = g.mano
    fx["table4_my_turn"] = s.view(s.seat_pid(mano))  # the mano, first to act: every call is open
    s.act(mano, Do.ENVIDO)
    s.act((mano + 1) % 4, Do.QUIERO)
    s.act((mano + 3) % 4, Do.QUIERO)
    for _ in range(4):
        s.play_first()
    fx["table4_mid"] = s.view(0)
    fx["spectator"] = table_view(Facts(s.t), None).to_dict()
    # truco by the team that is not ours? the next to play calls it
    caller = s.t.game.turn
    s.act(caller, Do.TRUCO)
    answering = 1 - caller % 2
    a, b = answering, answering + 2
    fx["table4_vote_pending"] = s.view(s.seat_pid(a))
    s.act(a, Do.QUIERO)
    s.act(b, Do.NO_QUIERO)
    fx["table4_vote_split"] = s.view(s.seat_pid(a))
    fx["table4_vote_other"] = s.view(s.seat_pid(caller))
    s.do(Sena("ancho_espada"), s.seat_pid(caller ^ 2 if False else (caller + 2) % 4))
    fx["table4_sena"] = s.view(s.seat_pid(caller))
    s.do(Disconnect(s.seat_pid((caller + 1) % 4)))
    fx["table4_disconnected"] = s.view(s.seat_pid(caller))

    # a whole hand with an envido and a truco, both wanted: last_hand with points, tantos, cards shown
    s = Sim(4, 4)
    s.do(Start(), 0)
    mano = s.t.game.mano
    s.act(mano, Do.ENVIDO)
    s.answer(Do.QUIERO)
    s.act(s.t.game.turn, Do.TRUCO)
    s.answer(Do.QUIERO)
    while s.t.hand_no == 1:
        s.play_first()
    fx["table4_hand_over"] = s.view(0)

    # an envido raised to a real envido: the stake is public while the chain is called
    s = Sim(4, 4)
    s.do(Start(), 0)
    mano = s.t.game.mano
    s.act(mano, Do.ENVIDO)
    s.answer(Do.REAL_ENVIDO)  # the other team raises (both vote it)
    fx["table4_envido_stake"] = s.view(s.seat_pid((mano + 2) % 4))
    fx["table4_envido_stake_caller"] = s.view(s.seat_pid((mano + 1) % 4))

    # a truco whose answering team lost a player: the table voted "no quiero" for them (forced)
    s = Sim(4, 4)
    s.do(Start(), 0)
    caller = s.t.game.turn
    s.act(caller, Do.TRUCO)
    s.do(Disconnect(s.seat_pid((caller + 3) % 4)))
    fx["table4_vote_forced"] = s.view(s.seat_pid((caller + 1) % 4))

    # the turn clock is on: the view has a deadline of kind "turn" for whose turn it is
    s = Sim(4, 4, turn_seconds=30)
    s.do(Start(), 0)
    fx["table4_turn_clock"] = s.view(0)

    s = Sim(2, 1)
    s.do(AddBot(1, "facil"), 0)
    s.do(Start(), 0)
    fx["table2"] = s.view(0)
    # play a whole hand to get last_hand
    while s.t.hand_no == 1:
        legal = legal_actions(s.t.game)
        play = next((x for x in legal if x.do == Do.PLAY), legal[0])
        if play.seat == 0:
            s.do(Act(play.do, play.card), 0)
        else:
            s.do(BotAct(play.seat, play.do, play.card))
    fx["table2_next_hand"] = s.view(0)

    s = Sim(6, 6, flor=True)
    s.do(Start(), 0)
    for _ in range(3):
        s.play_first()
    fx["table6"] = s.view(0)

    # pica-pica: hands to the mazo until both teams are in the band (5–25), then the first duel played
    s = Sim(6, 6, pica_pica=True)
    s.do(Start(), 0)
    while not s.t.game.pica:
        s.act(s.t.game.turn, Do.MAZO)
    while s.t.game.duel == 0:
        s.play_first()
    s.play_first()  # the second duel has begun: one card on the felt
    fx["table6_pica"] = s.view(0)
    fx["table6_pica_dueling"] = s.view(s.seat_pid(s.t.game.turn))
    hand_no = s.t.hand_no
    while s.t.hand_no == hand_no:
        s.act(s.t.game.turn, Do.MAZO)
    fx["table6_pica_over"] = s.view(0)

    s = Sim(8, 8)
    s.do(Start(), 0)
    for _ in range(3):
        s.play_first()
    fx["table8"] = s.view(0)

    s = Sim(4, 4, mode="casual")
    s.do(Start(), 0)
    s.do(Award(0, 2), 0)
    s.do(Award(1, 3), 0)
    s.play_first()
    fx["casual_host"] = s.view(0)
    fx["casual_player"] = s.view(1)
    s.do(EndHand(), 0)  # the host ends the hand (a "no quiero" said aloud): last_hand, no engine points
    fx["casual_hand_over"] = s.view(0)

    return fx


def main() -> None:
    fx = build()
    OUT.write_text(json.dumps(fx, indent=1, ensure_ascii=False))
    print("wrote", OUT, sorted(fx))


if __name__ == "__main__":
    main()
