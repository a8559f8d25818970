"""The full state of a match: plain data, copied on every ``apply``, never sent to a client.

The class keeps its fields in ``__dict__`` so a copy is one dict update: the engine copies the state
on every action and bots copy it thousands of times per decision. Fields hold only immutable values
(ints, bools, tuples), so a shallow copy is a full copy. Nothing outside the engine mutates a state.
"""

from __future__ import annotations

from truco.engine.cards import Card
from truco.engine.types import Action, Do, Rules, Seat, Team

Rounds = tuple[tuple[tuple[Seat, Card], ...], ...]
Duel = tuple[Seat, Seat, Team, Rounds, tuple[Team, ...]]
"""A finished pica-pica duel: (mano, rival, winning team, its rounds, their results)."""

# what a pending call is waiting on
P_NONE, P_TRUCO, P_ENVIDO, P_FLOR = 0, 1, 2, 3


class State:
    rules: Rules
    n: int
    full_mask: int
    score: tuple[int, int]
    chicos: tuple[int, int]
    start_score: tuple[int, int]
    start_chicos: tuple[int, int]
    dealer: Seat
    mano: Seat
    hand_no: int
    dealt: tuple[tuple[Card, ...], ...]
    held: tuple[tuple[Card, ...], ...]
    rounds: tuple[tuple[tuple[Seat, Card], ...], ...]
    results: tuple[Team, ...]
    round_winners: tuple[Seat, ...]
    plays: tuple[tuple[Seat, Card], ...]
    round_mask: int
    lead: Seat
    turn: Seat
    folded: int
    truco_level: int
    truco_owner: Team
    truco_call: int
    truco_caller: Seat
    envido_chain: tuple[Do, ...]
    envido_caller: Seat
    envido_settled: bool
    envido_winner: Seat
    flor_chain: tuple[Do, ...]
    flor_caller: Seat
    flor_sung: int
    flor_settled: bool
    flor_winner: Seat
    pending: int
    answer_team: Team
    sung: tuple[tuple[Seat, int, bool], ...]
    history: tuple[Action, ...]
    shown: tuple[tuple[Seat, tuple[Card, ...]], ...]
    hand_over: bool
    hand_winner: Team
    chico_over: bool
    match_over: bool
    winner: Team
    # pica-pica (docs/rules.md): this hand is three duels; ``mano`` and the fields above are then the
    # current duel's, the hand's own mano is the seat after the dealer
    pica: bool
    pica_next: bool
    """Inside the score band hands alternate: whether the next one in the band is a pica-pica."""
    duel: int
    """The duel being played (0, 1, 2), -1 in a hand played in full."""
    idle: int
    """Bit mask of the seats waiting out this duel (they are also in ``folded``: out of it)."""
    duels: tuple[Duel, ...]
    """Finished duels of this hand."""

    def copy(self) -> State:
        new = State.__new__(State)
        new.__dict__.update(self.__dict__)
        return new

    def __repr__(self) -> str:
        return (f"State(hand={self.hand_no}, score={self.score}, turn={self.turn}, "
                f"pending={self.pending}, over={self.hand_over})")

    # Derived facts used everywhere; cheap enough to compute on demand.
    @property
    def round_no(self) -> int:
        return len(self.results)

    @property
    def truco_value(self) -> int:
        return self.truco_level + 1

    def active(self, seat: Seat) -> bool:
        return not (self.folded >> seat) & 1
