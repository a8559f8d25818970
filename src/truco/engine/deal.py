"""Dealing: a match's first hand, the next hand, and a pica-pica duel's start.

Pure like the rest of the engine: the deal comes from a seed or explicit hands, never from a clock or
the process's randomness. Rule numbers refer to ../shared/design/rulings.md.
"""

from __future__ import annotations

from collections.abc import Sequence

from truco.engine.cards import Card, shuffled_deck, shuffled_deck_sha256
from truco.engine.state import P_NONE, State
from truco.engine.types import DuelStarted, Event, HandStarted, IllegalAction, Rules, Seat


def deal_hands(deck: Sequence[Card], players: int, mano: Seat) -> tuple[tuple[Card, ...], ...]:
    """Three cards each, one at a time, starting with the mano and going round in play order."""
    hands: list[list[Card]] = [[] for _ in range(players)]
    k = 0
    for _ in range(3):
        for i in range(players):
            hands[(mano + i) % players].append(deck[k])
            k += 1
    return tuple(tuple(h) for h in hands)


def _check_hands(hands: Sequence[Sequence[Card]], players: int) -> tuple[tuple[Card, ...], ...]:
    if len(hands) != players:
        raise ValueError(f"expected {players} hands, got {len(hands)}")
    seen: set[Card] = set()
    for i, h in enumerate(hands):
        if len(h) != 3:
            raise ValueError(f"hand {i} must have exactly 3 cards")
        for c in h:
            if not isinstance(c, int) or not 0 <= c < 40:
                raise ValueError(f"hand {i} has an invalid card {c!r}")
            if c in seen:
                raise ValueError(f"card dealt twice: {c}")
            seen.add(c)
    return tuple(tuple(h) for h in hands)


def new_match(rules: Rules, *, dealer: Seat, seed: int | bytes | None = None,
              hands: Sequence[Sequence[Card]] | None = None,
              score: tuple[int, int] = (0, 0), chicos: tuple[int, int] = (0, 0),
              hand_no: int = 1, pica: bool | None = None) -> tuple[State, list[Event]]:
    """Start a match (or resume one at ``score``) with the first hand dealt.

    The deal is either explicit (``hands[i]`` are seat i's cards) or shuffled from ``seed``: an int
    (splitmix64, fast, for simulations) or bytes (the verifiable SHA-256 shuffle of docs/fairness.md).
    ``pica`` says whether a hand resumed inside the pica-pica band is a pica-pica (hands alternate
    there; by default the first one in the band is).
    """
    n = rules.players
    if not isinstance(dealer, int) or not 0 <= dealer < n:
        raise ValueError(f"dealer must be a seat from 0 to {n - 1}")
    for label, pair in (("score", score), ("chicos", chicos)):
        if len(pair) != 2 or any(not isinstance(x, int) or isinstance(x, bool) or x < 0 for x in pair):
            raise ValueError(f"{label} must be two non-negative integers")
    if max(score) >= rules.target:
        raise ValueError(f"score must be below the target ({rules.target})")
    if max(chicos) >= rules.chicos_to_win:
        raise ValueError("the match is already over at those chicos")
    st = State.__new__(State)
    st.rules = rules
    st.n = n
    st.full_mask = (1 << n) - 1
    st.score = (score[0], score[1])
    st.chicos = (chicos[0], chicos[1])
    st.match_over = False
    st.winner = -1
    st.pica_next = True
    return _start_hand(st, dealer, hand_no, seed, hands, pica)


def next_hand(state: State, *, seed: int | bytes | None = None,
              hands: Sequence[Sequence[Card]] | None = None,
              pica: bool | None = None) -> tuple[State, list[Event]]:
    """Deal the next hand: the deal passes to the next seat (rule 2). A finished chico resets the score."""
    if not state.hand_over:
        raise IllegalAction("the hand is not over yet", "hand_not_over")
    if state.match_over:
        raise IllegalAction("the match is over", "match_over")
    st = state.copy()
    if st.chico_over:
        st.score = (0, 0)
    return _start_hand(st, (state.dealer + 1) % state.n, state.hand_no + 1, seed, hands, pica)


def in_pica_band(rules: Rules, score: tuple[int, int]) -> bool:
    """Whether a hand dealt at ``score`` falls in the pica-pica band (both teams inside it)."""
    if not rules.pica_pica:
        return False
    lo, hi = rules.pica_band
    return lo <= score[0] <= hi and lo <= score[1] <= hi


def _start_hand(st: State, dealer: Seat, hand_no: int, seed: int | bytes | None,
                hands: Sequence[Sequence[Card]] | None, pica: bool | None) -> tuple[State, list[Event]]:
    n = st.n
    if in_pica_band(st.rules, st.score):
        st.pica = st.pica_next if pica is None else pica
        st.pica_next = not st.pica
    elif pica:
        raise ValueError("a pica-pica hand is dealt only with pica_pica on and both scores in its band")
    else:
        st.pica = False
        st.pica_next = True
    mano = (dealer + 1) % n
    if hands is not None:
        dealt = _check_hands(hands, n)
    elif isinstance(seed, bytes):
        dealt = deal_hands(shuffled_deck_sha256(seed), n, mano)
    elif seed is not None:
        dealt = deal_hands(shuffled_deck(seed), n, mano)
    else:
        raise ValueError("a deal needs a seed or explicit hands")
    st.start_score = st.score
    st.start_chicos = st.chicos
    st.dealer = dealer
    st.hand_no = hand_no
    st.dealt = dealt
    st.held = dealt
    _open_deal(st, mano, 0)
    st.sung = ()
    st.history = ()
    st.shown = ()
    st.hand_over = False
    st.hand_winner = -1
    st.chico_over = False
    st.duel = -1
    st.idle = 0
    st.duels = ()
    events: list[Event] = [HandStarted(hand_no, dealer, mano)]
    if st.pica:
        start_duel(st, 0, events)
    return st, events


def duel_pair(dealer: Seat, duel: int) -> tuple[Seat, Seat]:
    """Pica-pica: duel ``duel``'s mano and rival. The hand's mano duels first, with the seat facing
    it (three seats on); then the next seats in the order of play."""
    mano = (dealer + 1 + duel) % 6
    return mano, (mano + 3) % 6


def start_duel(st: State, duel: int, events: list[Event]) -> None:
    """A pica-pica duel is a hand of two: its own rounds, truco, envido, flor and mazo."""
    a, b = duel_pair(st.dealer, duel)
    st.duel = duel
    st.idle = st.full_mask & ~(1 << a | 1 << b)
    _open_deal(st, a, st.idle)
    events.append(DuelStarted(duel, a, b))


def _open_deal(st: State, mano: Seat, out: int) -> None:
    """Rounds, calls and bets back to nothing, ``mano`` to lead: a hand's start, or a duel's (the
    seats in ``out`` do not play it)."""
    st.mano = mano
    st.rounds = ()
    st.results = ()
    st.round_winners = ()
    st.plays = ()
    st.round_mask = 0
    st.lead = mano
    st.turn = mano
    st.folded = out
    st.truco_level = 0
    st.truco_owner = -1
    st.truco_call = 0
    st.truco_caller = -1
    st.envido_chain = ()
    st.envido_caller = -1
    st.envido_settled = False
    st.envido_winner = -1
    st.flor_chain = ()
    st.flor_caller = -1
    st.flor_sung = 0
    st.flor_settled = False
    st.flor_winner = -1
    st.pending = P_NONE
    st.answer_team = -1
