"""Read-only facts about one version of a table: who may act, who votes, which commands are open.

``Facts(table)`` computes each seat's legal actions once and answers every query from them, so the
views of all players, the bots' scheduling and the runtime share one computation per version. The
reducer builds a fresh ``Facts`` whenever it asks mid-command (the table it edits keeps changing).
"""

from __future__ import annotations

from truco.engine import Action, Do
from truco.engine import legal_actions_for as engine_legal
from truco.table.state import Table

CASUAL_DO = frozenset({Do.PLAY, Do.MAZO})
"""In casual mode the calls are made aloud: the app only plays cards and takes players to the mazo."""


class Facts:
    """Derived facts of one table version. Never outlives that version (the table is immutable)."""

    __slots__ = ("_engine_legal", "table")

    def __init__(self, table: Table) -> None:
        self.table = table
        self._engine_legal: dict[int, tuple[Action, ...]] = {}

    def engine_legal(self, seat: int) -> tuple[Action, ...]:
        """What the rules let ``seat`` do now (calls included, whoever sits there)."""
        acts = self._engine_legal.get(seat)
        if acts is None:
            g = self.table.game
            acts = tuple(engine_legal(g, seat)) if g is not None and self.table.phase == "playing" else ()
            self._engine_legal[seat] = acts
        return acts

    def playable(self, seat: int) -> tuple[Action, ...]:
        """What ``seat`` may do at this table: the rules' actions, less the calls in casual mode."""
        acts = self.engine_legal(seat)
        if self.table.settings.mode == "casual":
            return tuple(a for a in acts if a.do in CASUAL_DO)
        return acts

    def seat_legal(self, seat: int | None) -> tuple[Action, ...]:
        """What the person in ``seat`` may do now (their vote options while their team answers)."""
        t = self.table
        if seat is None or t.phase != "playing" or t.game is None or t.seats[seat].player is None:
            return ()
        return self.playable(seat)

    def voters(self) -> tuple[int, ...]:
        """Human seats of the answering team that may vote (they have legal answers)."""
        t = self.table
        if t.game is None or t.vote is None:
            return ()
        return tuple(s for s in range(t.vote.team, len(t.seats), 2)
                     if t.seats[s].player is not None and self.engine_legal(s))

    def answering_seats(self) -> tuple[int, ...]:
        """Every seat of the answering team with a legal answer, human or bot."""
        t = self.table
        if t.game is None or t.vote is None:
            return ()
        return tuple(s for s in range(t.vote.team, len(t.seats), 2) if self.engine_legal(s))

    def decline(self, seat: int) -> Do:
        """What "no quiero" means for ``seat`` now (against a flor: "con flor me achico")."""
        legal = {a.do for a in self.engine_legal(seat)}
        return Do.NO_QUIERO if Do.NO_QUIERO in legal else Do.CON_FLOR_ME_ACHICO

    def bots_to_act(self) -> tuple[int, ...]:
        """Bot seats whose move (or team answer) the table waits for now."""
        t = self.table
        g = t.game
        if t.phase != "playing" or g is None or g.hand_over:
            return ()
        if t.vote is not None:
            if self.voters():
                return ()
            return next(((s,) for s in self.answering_seats() if t.seats[s].bot is not None), ())
        return (g.turn,) if t.seats[g.turn].bot is not None else ()

    def bot_senas_due(self) -> tuple[int, ...]:
        """Bot seats that may still sign to their partners this hand: señas on (not in a pica-pica),
        the hand on, and the bot has neither played a card nor signed yet."""
        t = self.table
        g = t.game
        if t.phase != "playing" or g is None or g.hand_over or g.pica or not t.settings.senas_allowed:
            return ()
        signed = {s for s, _ in t.senas}
        return tuple(s for s, slot in enumerate(t.seats)
                     if slot.bot is not None and s not in signed and len(g.held[s]) == 3)

    def hints_wanted(self) -> tuple[int, ...]:
        """Bot seats of an answering team with human voters that have not shown their preference yet."""
        t = self.table
        if t.vote is None or t.game is None or not self.voters():
            return ()
        hinted = {s for s, _ in t.vote.hints}
        return tuple(s for s in self.answering_seats() if t.seats[s].bot is not None and s not in hinted)

    def commands_open(self, pid: int) -> tuple[str, ...]:
        """The command types player ``pid`` may send now (what the client offers as buttons)."""
        t = self.table
        p = t.player(pid)
        if p is None:
            return ()
        host = pid == t.host
        out: list[str] = []
        if t.phase == "lobby":
            out.append("sit")
            if host:
                out += ["place", "shuffle_teams", "add_bot", "remove_bot", "remove_player"]
                if all(not s.empty for s in t.seats):
                    out.append("start")
            out.append("leave")
        elif t.phase == "playing":
            if self.seat_legal(p.seat):
                out.append("act")
            if p.seat is not None and t.settings.senas_allowed and not (t.game is not None and t.game.pica):
                out.append("sena")
            if host and t.settings.mode == "casual":
                out += ["award", "end_hand"]
                if t.awards:
                    out.append("undo_award")
        elif t.phase == "over":
            if host:
                out += ["rematch", "remove_player"]
            out.append("leave")
        return tuple(out)
