"""A whole match in the terminal: one person against bots, at their own pace.

Input and output go through a ``Console`` so a test can play a scripted match through this very
loop. The person picks a legal action by its number; anything else gets a clear message and the
question again. When their team answers a call, they decide for it (ruling 17) and see what their
bot partners would answer.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from truco.bots import Bot, make_bot
from truco.bots.base import mix
from truco.bots.turns import next_action
from truco.engine import (
    Action,
    Do,
    Event,
    PublicView,
    Rules,
    Seat,
    SeatView,
    State,
    apply,
    new_match,
    next_hand,
    public_view,
    view_for,
)
from truco.engine.cards import POWER
from truco.terminal import text

QUIT_WORDS = frozenset({"q", "salir", "chau", "quit", "exit"})


class Console(Protocol):
    def read(self, prompt: str) -> str:
        """One line typed by the person (raises ``EOFError`` when input ends)."""
        ...

    def write(self, line: str) -> None: ...


@dataclass
class StdConsole:
    """The real terminal."""

    def read(self, prompt: str) -> str:
        return input(prompt)

    def write(self, line: str) -> None:
        print(line, flush=True)


@dataclass(frozen=True, slots=True)
class GameConfig:
    players: int = 2
    bots: str = "normal"
    flor: bool = False
    target: int = 30
    seed: int = 0
    human: Seat = 0
    pica_pica: bool = False

    def rules(self) -> Rules:
        return Rules(players=self.players, target=self.target, flor=self.flor, pica_pica=self.pica_pica)


class Quit(Exception):
    """The person asked to leave."""


class TerminalGame:
    def __init__(self, config: GameConfig, console: Console) -> None:
        self.config = config
        self.console = console
        self.rules = config.rules()
        self.human = config.human
        self.team = config.human & 1
        self.names = text.seat_names(self.rules.players, self.human)
        self.bots: dict[Seat, Bot] = {s: make_bot(config.bots, mix(config.seed, s))
                                      for s in range(self.rules.players) if s != self.human}
        self.rng = random.Random(config.seed)

    # ---------------------------------------------------------------- the match

    def play(self) -> int:
        """Play until the match ends (0) or the person leaves (1)."""
        try:
            self._play()
        except (Quit, EOFError):
            self.say("\nPartida abandonada. ¡Hasta la próxima!")
            return 1
        return 0

    def _play(self) -> None:
        n = self.rules.players
        self.say(f"Truco a {self.rules.target}, {n} jugadores"
                 f"{', con flor' if self.rules.flor else ''}{', pica-pica' if self.rules.pica_pica else ''}, "
                 f"bots {self.config.bots}.")
        partners = [self.names[s] for s in range(self.team, n, 2) if s != self.human]
        rivals = [self.names[s] for s in range(1 - self.team, n, 2)]
        if partners:
            self.say(f"Tu equipo: Vos, {', '.join(partners)}.")
        self.say(f"Rivales: {', '.join(rivals)}.")
        self.say("Elegí cada jugada por su número; «q» para salir.")
        st, events = new_match(self.rules, dealer=self.rng.randrange(n), seed=self.rng.getrandbits(64))
        while True:
            self.say("")
            self._tell(events)
            while not st.hand_over:
                st = self._step(st)
            self._hand_summary(st)
            if st.match_over:
                self.say("\n" + text.match_result(st.winner, self.team))
                self.say(text.score_line(public_view(st), self.team))
                return
            st, events = next_hand(st, seed=self.rng.getrandbits(64))

    def _step(self, st: State) -> State:
        pub = public_view(st)
        # the person's turn, or their team's answer (they decide for it); else the bots play or vote
        action = self._ask_human(st, pub) if self.human in pub.to_act else next_action(st, self.bots)
        st, events = apply(st, action)
        self._tell(events)
        return st

    def _tell(self, events: Iterable[Event]) -> None:
        for e in events:
            line = text.describe(e, self.names, self.team)
            if line:
                self.say(line)

    # ---------------------------------------------------------------- the person

    def _ask_human(self, st: State, pub: PublicView) -> Action:
        view = view_for(st, self.human, pub)
        self._show(st, view)
        plays = sorted((a for a in view.legal if a.do is Do.PLAY), key=lambda a: -POWER[a.card or 0])
        legal = plays + [a for a in view.legal if a.do is not Do.PLAY]
        for i, a in enumerate(legal, 1):
            self.say(f"  {i}) {text.option(a)}")
        while True:
            raw = self.console.read("> ").strip().lower()
            if raw in QUIT_WORDS:
                raise Quit
            if raw.isdigit() and 1 <= int(raw) <= len(legal):
                return legal[int(raw) - 1]
            shown = raw if raw else "(nada)"
            self.say(f"No entendí «{shown}». Escribí un número del 1 al {len(legal)}, o «q» para salir.")

    def _show(self, st: State, view: SeatView) -> None:
        p = view.public
        self.say("")
        self.say(f"[{text.score_line(p, self.team)}]")
        for line in text.table_lines(p, self.names, self.team):
            self.say(line)
        bets = text.bets_line(p, self.team)
        if bets:
            self.say(f"Apuestas: {bets}")
        if p.sung:
            self.say("Tantos cantados: " + "; ".join(text.sung_lines(p, self.names)))
        cards = sorted(view.cards, key=POWER.__getitem__, reverse=True)
        self.say("Tus cartas: " + text.card_list(cards)
                 + f"   (tu tanto: {view.my_tanto}{', tenés flor' if view.my_flor else ''})")
        if p.pending is not None:
            for s in p.to_act:
                if s != self.human and s in self.bots:
                    hint = self.bots[s].hint(view_for(st, s, p))
                    self.say(f"{self.names[s]} te sugiere: {text.option(hint)}. Decidís vos por el equipo.")
            self.say("¿Qué contestás?")
        else:
            self.say("Te toca. ¿Qué hacés?")

    # ---------------------------------------------------------------- hands

    def _hand_summary(self, st: State) -> None:
        p = public_view(st)
        won = p.hand_winner == self.team
        self.say(f"— Fin de la mano {p.hand_no}: la {'ganamos' if won else 'ganaron ellos'}. "
                 f"{text.score_line(p, self.team)}")

    def say(self, line: str) -> None:
        self.console.write(line)


def play_game(config: GameConfig, console: Console) -> int:
    return TerminalGame(config, console).play()
