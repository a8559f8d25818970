"""What one seat may know, built field by field from the state (never filtered from it).

A seat sees its own cards, every card played, the tantos the table sang, the cards shown at the
end of a hand, the calls, the score, whose turn it is and its own legal actions. Nothing else.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from truco.engine.cards import NAME, Card, has_flor, tanto
from truco.engine.deal import duel_pair
from truco.engine.game import envido_stake
from truco.engine.legal import legal_actions_for, to_act
from truco.engine.state import P_ENVIDO, P_FLOR, P_NONE, P_TRUCO, Duel, State
from truco.engine.types import Action, Do, Rules, Seat, Team

_PENDING_NAMES = {P_NONE: None, P_TRUCO: "truco", P_ENVIDO: "envido", P_FLOR: "flor"}
_TRUCO_NAMES = (None, Do.TRUCO, Do.RETRUCO, Do.VALE_CUATRO)


@dataclass(frozen=True, slots=True)
class PublicView:
    """Everything about a hand that every seat (and a spectator) may know."""

    rules: Rules
    hand_no: int
    dealer: Seat
    mano: Seat
    score: tuple[int, int]
    chicos: tuple[int, int]
    start_score: tuple[int, int]
    start_chicos: tuple[int, int]
    rounds: tuple[tuple[tuple[Seat, Card], ...], ...]
    """Cards played in each round so far, the current round last (possibly empty)."""
    results: tuple[Team, ...]
    cards_left: tuple[int, ...]
    turn: Seat
    to_act: tuple[Seat, ...]
    folded: tuple[Seat, ...]
    pending: str | None
    """``truco``, ``envido`` or ``flor`` while a call waits for its answer."""
    pending_call: Do | None
    answer_team: Team
    truco_value: int
    truco_level: Do | None
    truco_owner: Team
    envido_chain: tuple[Do, ...]
    envido_stake: tuple[int | None, int] | None
    """While an envido chain is called: what it pays accepted (``None``: a falta, worth what the
    winner needs) and declined."""
    envido_open: bool
    flor_chain: tuple[Do, ...]
    sung: tuple[tuple[Seat, int, bool], ...]
    """Tantos sung by the table, in order: (seat, tanto or -1 for "son buenas", is_flor)."""
    shown: tuple[tuple[Seat, tuple[Card, ...]], ...]
    history: tuple[Action, ...]
    """Every action of this hand, in order: they are all public (the cards played are on the table)."""
    hand_over: bool
    hand_winner: Team
    chico_over: bool
    match_over: bool
    winner: Team
    pies: tuple[Seat, ...]
    """Each team's *pie*, its last player from the mano, who leads its decisions; mano a mano only the
    dealer is called pie."""
    pica: bool = False
    """This hand is a pica-pica: three duels of two (``mano`` and the fields above are the duel's)."""
    duel: int = -1
    """The duel being played (0, 1, 2); -1 in a hand played in full."""
    idle: tuple[Seat, ...] = ()
    """Seats waiting out this duel (also listed in ``folded``, as they are out of it)."""
    duels: tuple[Duel, ...] = ()
    """Finished duels of this hand: (mano, rival, winning team, rounds, round results)."""

    @property
    def players(self) -> int:
        return self.rules.players


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's view: the public view plus its own cards, tanto and legal actions."""

    seat: Seat
    team: Team
    cards: tuple[Card, ...]
    dealt: tuple[Card, ...]
    my_tanto: int
    my_flor: bool
    legal: tuple[Action, ...]
    public: PublicView
    senas: tuple[tuple[Seat, str], ...] = ()
    """The señas this seat's partners made this hand, (seat, seña) in order. The table sets them
    for a bot; the engine knows of none. Not part of ``to_dict`` (a phone gets them at table level)."""

    def to_dict(self, public_dict: dict[str, Any] | None = None) -> dict[str, Any]:
        """JSON-ready, cards by name. ``public_dict`` (``public_to_dict`` of the same public view)
        may be shared among the seats of one version: it is copied, never changed."""
        d = dict(public_dict) if public_dict is not None else public_to_dict(self.public)
        d.update({
            "seat": self.seat,
            "team": self.team,
            "cards": [NAME[c] for c in self.cards],
            "dealt": [NAME[c] for c in self.dealt],
            "my_tanto": self.my_tanto,
            "my_flor": self.my_flor,
            "legal": [a.to_dict() for a in self.legal],
        })
        return d


def partners_senas(senas: Iterable[tuple[Seat, str]], seat: Seat) -> tuple[tuple[Seat, str], ...]:
    """Of a hand's señas (seat, seña), those that reach ``seat``: its partners' ones."""
    return tuple((s, x) for s, x in senas if s != seat and s % 2 == seat % 2)


def public_view(st: State) -> PublicView:
    rounds = st.rounds if st.hand_over and not st.plays else (*st.rounds, st.plays)
    envido_open = (not st.results and not st.envido_chain and not st.envido_settled
                   and st.truco_level == 0 and not st.flor_chain and not st.hand_over)
    if st.pending == P_TRUCO:
        pending_call: Do | None = _TRUCO_NAMES[st.truco_call]
    elif st.pending == P_ENVIDO:
        pending_call = st.envido_chain[-1]
    elif st.pending == P_FLOR:
        pending_call = st.flor_chain[-1]
    else:
        pending_call = None
    return PublicView(
        rules=st.rules,
        hand_no=st.hand_no,
        dealer=st.dealer,
        mano=st.mano,
        score=st.score,
        chicos=st.chicos,
        start_score=st.start_score,
        start_chicos=st.start_chicos,
        rounds=tuple(tuple(r) for r in rounds),
        results=st.results,
        cards_left=tuple(len(h) for h in st.held),
        turn=st.turn,
        to_act=to_act(st),
        folded=tuple(s for s in range(st.n) if (st.folded >> s) & 1),
        pending=_PENDING_NAMES[st.pending],
        pending_call=pending_call,
        answer_team=st.answer_team,
        truco_value=st.truco_level + 1,
        truco_level=_TRUCO_NAMES[st.truco_level],
        truco_owner=st.truco_owner,
        envido_chain=st.envido_chain,
        envido_stake=envido_stake(st.envido_chain) if st.envido_chain else None,
        envido_open=envido_open,
        flor_chain=st.flor_chain,
        sung=st.sung,
        shown=st.shown,
        history=st.history,
        hand_over=st.hand_over,
        hand_winner=st.hand_winner,
        chico_over=st.chico_over,
        match_over=st.match_over,
        winner=st.winner,
        pies=pies(st.mano, st.n) if st.duel < 0 else tuple(sorted(duel_pair(st.dealer, st.duel))),
        pica=st.pica,
        duel=st.duel,
        idle=tuple(s for s in range(st.n) if (st.idle >> s) & 1),
        duels=st.duels,
    )


def pies(mano: Seat, players: int) -> tuple[Seat, ...]:
    """The *pie* of each team: its last player in the hand's order, which starts at the mano."""
    if players == 2:
        return ((mano + 1) % 2,)  # mano a mano: the dealer is the pie
    last: dict[int, Seat] = {}
    for i in range(players):
        seat = (mano + i) % players
        last[seat & 1] = seat
    return tuple(sorted(last.values()))


def view_for(st: State, seat: Seat, public: PublicView | None = None,
             legal: tuple[Action, ...] | None = None) -> SeatView:
    """Build ``seat``'s view. Pass ``public`` to share one public part among all seats, and
    ``legal`` when the caller already has (or narrows) the seat's legal actions."""
    dealt = st.dealt[seat]
    return SeatView(
        seat=seat,
        team=seat & 1,
        cards=st.held[seat],
        dealt=dealt,
        my_tanto=tanto(dealt),
        my_flor=st.rules.flor and has_flor(dealt),
        legal=tuple(legal_actions_for(st, seat)) if legal is None else legal,
        public=public if public is not None else public_view(st),
    )


def public_to_dict(p: PublicView) -> dict[str, Any]:
    """JSON-ready public view, cards by name."""
    return {
        "rules": p.rules.to_dict(),
        "players": p.rules.players,
        "hand_no": p.hand_no,
        "dealer": p.dealer,
        "mano": p.mano,
        "score": list(p.score),
        "chicos": list(p.chicos),
        "rounds": [[{"seat": s, "card": NAME[c]} for s, c in r] for r in p.rounds],
        "results": list(p.results),
        "cards_left": list(p.cards_left),
        "turn": p.turn,
        "to_act": list(p.to_act),
        "folded": list(p.folded),
        "pending": p.pending,
        "pending_call": None if p.pending_call is None else str(p.pending_call),
        "answer_team": p.answer_team,
        "truco_value": p.truco_value,
        "truco_level": None if p.truco_level is None else str(p.truco_level),
        "truco_owner": p.truco_owner,
        "envido_chain": [str(c) for c in p.envido_chain],
        "envido_stake": None if p.envido_stake is None else
        {"querido": "falta" if p.envido_stake[0] is None else p.envido_stake[0],
         "no_querido": p.envido_stake[1]},
        "envido_open": p.envido_open,
        "flor_chain": [str(c) for c in p.flor_chain],
        "sung": [{"seat": s, "tanto": t, "flor": f} for s, t, f in p.sung],
        "shown": [{"seat": s, "cards": [NAME[c] for c in cs]} for s, cs in p.shown],
        "history": [a.to_dict() for a in p.history],
        "hand_over": p.hand_over,
        "hand_winner": p.hand_winner,
        "chico_over": p.chico_over,
        "match_over": p.match_over,
        "winner": p.winner,
        "pies": list(p.pies),
        "pica": p.pica,
        "duel": p.duel,
        "idle": list(p.idle),
        "duels": duels_to_dict(p.duels),
    }


def duels_to_dict(duels: tuple[Duel, ...] | list[Duel]) -> list[dict[str, Any]]:
    """A pica-pica hand's duels, JSON-ready: each one's mano, rival, winning team (-1: cut short),
    round results and rounds, cards by name."""
    return [{"mano": a, "rival": b, "winner": w, "results": list(res),
             "rounds": [[{"seat": s, "card": NAME[c]} for s, c in r] for r in rounds]}
            for a, b, w, rounds, res in duels]
