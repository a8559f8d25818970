"""The rules: dealing, legal actions, applying an action, scoring.

Every function here is pure: a state in, a new state (and public events) out. Rule numbers in the
comments refer to ../shared/design/rulings.md; docs/rules.md lists each rule with its source.
"""

from __future__ import annotations

from collections.abc import Sequence

from truco.engine.cards import (
    POWER,
    Card,
    flor_value,
    has_flor,
    shuffled_deck,
    shuffled_deck_sha256,
    tanto,
    tanto_cards,
)
from truco.engine.state import P_ENVIDO, P_FLOR, P_NONE, P_TRUCO, State
from truco.engine.types import (
    PARDA,
    Action,
    Answered,
    Called,
    CardPlayed,
    CardsShown,
    ChicoEnded,
    Do,
    DuelEnded,
    DuelStarted,
    Event,
    HandEnded,
    HandStarted,
    IllegalAction,
    MatchEnded,
    PointsAwarded,
    RoundEnded,
    Rules,
    Seat,
    SonBuenas,
    TantoSung,
    Team,
    WentToMazo,
)

ENVIDO_POINTS = {Do.ENVIDO: 2, Do.REAL_ENVIDO: 3}
_TRUCO_BY_LEVEL = (Do.TRUCO, Do.RETRUCO, Do.VALE_CUATRO)
_LEVEL_OF = {Do.TRUCO: 1, Do.RETRUCO: 2, Do.VALE_CUATRO: 3}
_ENVIDO_OPENERS = (Do.ENVIDO, Do.REAL_ENVIDO, Do.FALTA_ENVIDO)


# ------------------------------------------------------------------ dealing


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
        _start_duel(st, 0, events)
    return st, events


def duel_pair(dealer: Seat, duel: int) -> tuple[Seat, Seat]:
    """Pica-pica: duel ``duel``'s mano and rival. The hand's mano duels first, with the seat facing
    it (three seats on); then the next seats in the order of play."""
    mano = (dealer + 1 + duel) % 6
    return mano, (mano + 3) % 6


def _start_duel(st: State, duel: int, events: list[Event]) -> None:
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


# ------------------------------------------------------------------ legal actions


def _played_round0(st: State, seat: Seat) -> bool:
    return bool(st.results) or bool((st.round_mask >> seat) & 1)


def _envido_open(st: State) -> bool:
    """Envido may still be called this hand (rule 7): round 1, none called, no truco accepted, no flor."""
    return (not st.results and not st.envido_chain and not st.envido_settled and st.truco_level == 0
            and not st.flor_chain)


def _flor_available(st: State, seat: Seat) -> bool:
    """A flor holder may sing it before playing their first card, once per hand (variant ``flor``)."""
    return (st.rules.flor and not st.flor_chain and not st.flor_settled and not st.envido_settled
            and not _played_round0(st, seat) and has_flor(st.dealt[seat]))


def _flor_answerers(st: State, team: Team) -> list[Seat]:
    """Active seats of ``team`` holding a flor they have not lost by playing, who may contest one."""
    n = st.n
    return [s for s in range(team, n, 2)
            if not (st.folded >> s) & 1 and not _played_round0(st, s) and has_flor(st.dealt[s])]


def _team_can_envido_over_truco(st: State, team: Team) -> bool:
    """Rule 7: the envido is open to the team answering a truco while one of its players has not played."""
    if not _envido_open(st):
        return False
    return any(not st.folded >> s & 1 and not st.round_mask >> s & 1 for s in range(team, st.n, 2))


def legal_actions_for(st: State, seat: Seat) -> list[Action]:
    """Exactly the actions ``seat`` may take now (empty when it may do nothing)."""
    if st.hand_over or (st.folded >> seat) & 1:
        return []
    team = seat & 1
    out: list[Action] = []
    if st.pending != P_NONE:
        if team != st.answer_team:
            return []
        if st.pending == P_FLOR:
            last = st.flor_chain[-1]
            if last is Do.FLOR:
                if has_flor(st.dealt[seat]) and not _played_round0(st, seat):
                    out.append(Action(seat, Do.CON_FLOR_ME_ACHICO))
                    out.append(Action(seat, Do.CONTRA_FLOR))
                    out.append(Action(seat, Do.CONTRA_FLOR_AL_RESTO))
                return out
            out.append(Action(seat, Do.QUIERO))
            out.append(Action(seat, Do.NO_QUIERO))
            if last is Do.CONTRA_FLOR:
                out.append(Action(seat, Do.CONTRA_FLOR_AL_RESTO))
            return out
        out.append(Action(seat, Do.QUIERO))
        out.append(Action(seat, Do.NO_QUIERO))
        if st.pending == P_ENVIDO:
            chain = st.envido_chain
            last = chain[-1]
            if last is Do.ENVIDO:
                if len(chain) == 1:
                    out.append(Action(seat, Do.ENVIDO))
                out.append(Action(seat, Do.REAL_ENVIDO))
                out.append(Action(seat, Do.FALTA_ENVIDO))
            elif last is Do.REAL_ENVIDO:
                out.append(Action(seat, Do.FALTA_ENVIDO))
            if _flor_available(st, seat):
                out.append(Action(seat, Do.FLOR))
            return out
        # a truco call is waiting
        if st.truco_call < 3:
            out.append(Action(seat, _TRUCO_BY_LEVEL[st.truco_call]))
        if _team_can_envido_over_truco(st, team):
            flor_on = st.rules.flor
            if not (flor_on and has_flor(st.dealt[seat])):
                out.append(Action(seat, Do.ENVIDO))
                out.append(Action(seat, Do.REAL_ENVIDO))
                out.append(Action(seat, Do.FALTA_ENVIDO))
            if flor_on and _flor_available(st, seat):
                out.append(Action(seat, Do.FLOR))
        return out
    if seat != st.turn:
        return []
    for c in st.held[seat]:
        out.append(Action(seat, Do.PLAY, c))
    if not st.results and not (st.round_mask >> seat) & 1:
        if _envido_open(st) and not (st.rules.flor and has_flor(st.dealt[seat])):
            out.append(Action(seat, Do.ENVIDO))
            out.append(Action(seat, Do.REAL_ENVIDO))
            out.append(Action(seat, Do.FALTA_ENVIDO))
        if st.rules.flor and _flor_available(st, seat):
            out.append(Action(seat, Do.FLOR))
    level = st.truco_level
    if level == 0 or (level < 3 and st.truco_owner == team):
        out.append(Action(seat, _TRUCO_BY_LEVEL[level]))
    out.append(Action(seat, Do.MAZO))
    return out


def to_act(st: State) -> tuple[Seat, ...]:
    """The seats that may act now: the seat in turn, or the active seats of the answering team."""
    if st.hand_over:
        return ()
    if st.pending != P_NONE:
        return tuple(s for s in range(st.answer_team, st.n, 2)
                     if not (st.folded >> s) & 1 and legal_actions_for(st, s))
    return (st.turn,)


def legal_actions(st: State) -> list[Action]:
    """What the seat to act may do, or (for an answer) the first seat of the answering team that may."""
    if st.hand_over:
        return []
    if st.pending == P_NONE:
        return legal_actions_for(st, st.turn)
    for s in range(st.answer_team, st.n, 2):
        acts = legal_actions_for(st, s)
        if acts:
            return acts
    return []


# ------------------------------------------------------------------ apply


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    """Apply one action; returns the new state and the public events. Raises ``IllegalAction``."""
    seat = action.seat
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.n:
        raise IllegalAction(f"there is no seat {seat!r} at this table", "no_such_seat")
    legal = legal_actions_for(state, seat)
    if action not in legal:
        reason, message = illegal_reason(state, action)
        raise IllegalAction(message, reason)
    canonical = legal[legal.index(action)]
    st = state.copy()
    st.history = (*state.history, canonical)
    events: list[Event] = []
    do = canonical.do
    if do is Do.PLAY:
        assert action.card is not None
        _play(st, seat, action.card, events)
    elif do is Do.MAZO:
        _mazo(st, seat, events)
    elif do is Do.QUIERO:
        events.append(Answered(seat, Do.QUIERO))
        _quiero(st, seat, events)
    elif do is Do.NO_QUIERO:
        events.append(Answered(seat, Do.NO_QUIERO))
        _no_quiero(st, seat, events)
    elif do in _LEVEL_OF:
        events.append(Called(seat, do))
        _call_truco(st, seat, _LEVEL_OF[do])
    elif do in _ENVIDO_OPENERS:
        events.append(Called(seat, do))
        _call_envido(st, seat, do, events)
    else:
        _flor_action(st, seat, do, events)
    return st, events


def _other(team: Team) -> Team:
    return 1 - team


def _next_to_play(st: State, after: Seat) -> Seat:
    n = st.n
    busy = st.folded | st.round_mask
    s = after
    for _ in range(n):
        s = (s + 1) % n
        if not (busy >> s) & 1:
            return s
    return -1


def _first_active_from(st: State, seat: Seat) -> Seat:
    """Rule 5: if the seat that should lead is in the mazo, the next active seat leads."""
    n = st.n
    for i in range(n):
        s = (seat + i) % n
        if not (st.folded >> s) & 1:
            return s
    return -1


def _play(st: State, seat: Seat, card: Card, events: list[Event]) -> None:
    held = st.held[seat]
    st.held = (*st.held[:seat], tuple(c for c in held if c != card), *st.held[seat + 1:])
    st.plays = (*st.plays, (seat, card))
    st.round_mask |= 1 << seat
    events.append(CardPlayed(seat, card))
    if (st.round_mask | st.folded) == st.full_mask:
        _end_round(st, events)
    else:
        st.turn = _next_to_play(st, seat)


def _end_round(st: State, events: list[Event]) -> None:
    plays = st.plays
    best = -1
    for _, c in plays:
        p = POWER[c]
        if p > best:
            best = p
    teams = 0
    win_seat = -1
    for s, c in plays:
        if POWER[c] == best:
            teams |= 1 << (s & 1)
            if win_seat < 0:
                win_seat = s  # rule 3: the partner who played the top card first
    round_no = len(st.results)
    if teams == 3:
        result, win_seat, next_lead = PARDA, -1, st.lead  # rule 4: the opener leads again
    else:
        result, next_lead = win_seat & 1, win_seat
    events.append(RoundEnded(round_no, result, win_seat))
    st.rounds = (*st.rounds, plays)
    st.results = (*st.results, result)
    st.round_winners = (*st.round_winners, win_seat)
    st.plays = ()
    st.round_mask = 0
    winner = hand_winner(st.results, st.mano & 1)
    if winner >= 0:
        _end_hand(st, winner, st.truco_level + 1, "truco", events)
        return
    lead = _first_active_from(st, next_lead)
    st.lead = lead
    st.turn = lead


def hand_winner(results: tuple[Team, ...], mano_team: Team) -> Team:
    """The pardas table of seed 000; -1 while the hand is undecided."""
    k = len(results)
    if k < 2:
        return -1
    r0, r1 = results[0], results[1]
    if k == 2:
        if r0 == r1:
            return -1 if r0 == PARDA else r0
        if r0 == PARDA:
            return r1
        if r1 == PARDA:
            return r0
        return -1  # one each: the third decides
    r2 = results[2]
    if r2 != PARDA:
        return r2  # P,P,X or X,Y,X or X,Y,Y: the third round settles it
    if r0 == PARDA:
        return mano_team  # three pardas
    return r0  # one each and a parda: the first to win a round


def _end_hand(st: State, winner: Team, points: int, reason: str, events: list[Event]) -> None:
    if st.duel >= 0:
        _end_duel(st, winner, points, reason, events)
        return
    st.hand_winner = winner
    if _award(st, winner, points, reason, events):
        return
    _close_hand(st, events)
    events.append(HandEnded(st.hand_no, winner, st.score))


def _end_duel(st: State, winner: Team, points: int, reason: str, events: list[Event]) -> None:
    """A duel's tricks are settled: its points to the team, then the next duel or the hand's end.
    The hand goes to the team that gained more points in it; even, to the hand's mano's team."""
    if _award(st, winner, points, reason, events):
        return
    _show_winners(st, events)
    rounds = (*st.rounds, st.plays) if st.plays else st.rounds
    a, b = duel_pair(st.dealer, st.duel)
    st.duels = (*st.duels, (a, b, winner, rounds, st.results))
    events.append(DuelEnded(st.duel, winner))
    if st.duel < 2:
        _start_duel(st, st.duel + 1, events)
        return
    gained = [st.score[t] - st.start_score[t] for t in (0, 1)]
    hand_mano = (st.dealer + 1) % st.n
    st.hand_winner = 0 if gained[0] > gained[1] else 1 if gained[1] > gained[0] else hand_mano & 1
    _close_hand(st, events)
    events.append(HandEnded(st.hand_no, st.hand_winner, st.score))


def _show_winners(st: State, events: list[Event]) -> None:
    """Show the cards that won the envido or the flor (rule 13), each seat once a hand."""
    shown = list(st.shown)
    for s in (st.envido_winner, st.flor_winner):
        if s >= 0 and all(s != x for x, _ in shown):
            cards = st.dealt[s]
            shown.append((s, cards))
            events.append(CardsShown(s, cards))
    st.shown = tuple(shown)


def _close_hand(st: State, events: list[Event]) -> None:
    """Mark the hand over and show the cards that won the envido or the flor (rule 13)."""
    st.hand_over = True
    st.turn = -1
    st.pending = P_NONE
    st.answer_team = -1
    _show_winners(st, events)


def _award(st: State, team: Team, points: int, reason: str, events: list[Event]) -> bool:
    """Add points at once (rule 11, 15). True if that ended the chico (and maybe the match)."""
    sc = list(st.score)
    sc[team] += points
    st.score = (sc[0], sc[1])
    events.append(PointsAwarded(team, points, reason))
    if sc[team] < st.rules.target:
        return False
    ch = list(st.chicos)
    ch[team] += 1
    st.chicos = (ch[0], ch[1])
    st.chico_over = True
    if st.hand_winner < 0:
        st.hand_winner = team
    _close_hand(st, events)
    events.append(HandEnded(st.hand_no, team, st.score))
    if st.rules.chicos > 1:
        events.append(ChicoEnded(team, st.chicos))
    if ch[team] >= st.rules.chicos_to_win:
        st.match_over = True
        st.winner = team
        events.append(MatchEnded(team, st.score, st.chicos))
    return True


def _mazo(st: State, seat: Seat, events: list[Event]) -> None:
    """Rule 14: partners play on; the whole team gone gives the hand (plus 1 while envido was open)."""
    st.folded |= 1 << seat
    events.append(WentToMazo(seat))
    team = seat & 1
    if all((st.folded >> s) & 1 for s in range(team, st.n, 2)):
        points = st.truco_level + 1 + (1 if _envido_open(st) else 0)
        _end_hand(st, _other(team), points, "mazo", events)
        return
    if (st.round_mask | st.folded) == st.full_mask:
        _end_round(st, events)
    else:
        st.turn = _next_to_play(st, seat)


def _call_truco(st: State, seat: Seat, level: int) -> None:
    if st.pending == P_TRUCO:
        # a raise given as the answer accepts the previous bet (seed 000: "quiero retruco")
        st.truco_level = st.truco_call
        st.truco_owner = seat & 1
    st.truco_call = level
    st.truco_caller = seat
    st.pending = P_TRUCO
    st.answer_team = _other(seat & 1)


def _call_envido(st: State, seat: Seat, call: Do, events: list[Event]) -> None:
    st.envido_chain = (*st.envido_chain, call)
    st.envido_caller = seat
    st.pending = P_ENVIDO
    st.answer_team = _other(seat & 1)


def _after_side_bet(st: State) -> None:
    """Envido or flor settled: a truco left waiting is answered next by the same team (rule 7)."""
    if st.truco_call:
        st.pending = P_TRUCO
        st.answer_team = _other(st.truco_caller & 1)
    else:
        st.pending = P_NONE
        st.answer_team = -1


def _quiero(st: State, seat: Seat, events: list[Event]) -> None:
    if st.pending == P_TRUCO:
        st.truco_level = st.truco_call
        st.truco_owner = seat & 1
        st.truco_call = 0
        st.truco_caller = -1
        st.pending = P_NONE
        st.answer_team = -1
    elif st.pending == P_ENVIDO:
        st.envido_settled = True
        if "falta" in "".join(st.envido_chain):
            winner = _sing_tantos(st, events)
            points = falta_value(st, winner & 1)
        else:
            points = sum(ENVIDO_POINTS[c] for c in st.envido_chain)
            winner = _sing_tantos(st, events)
        st.envido_winner = winner
        if _award(st, winner & 1, points, "envido", events):
            return
        _after_side_bet(st)
    else:
        _settle_flor_contest(st, events)


def _no_quiero(st: State, seat: Seat, events: list[Event]) -> None:
    if st.pending == P_TRUCO:
        caller_team = st.truco_caller & 1
        _end_hand(st, caller_team, st.truco_call, "truco_no_querido", events)
    elif st.pending == P_ENVIDO:
        st.envido_settled = True
        chain = st.envido_chain
        points = max(1, sum(ENVIDO_POINTS.get(c, 0) for c in chain[:-1]))
        if _award(st, st.envido_caller & 1, points, "envido_no_querido", events):
            return
        _after_side_bet(st)
    else:
        # a contra flor (al resto) declined: its caller takes 4 (seed 003)
        st.flor_settled = True
        if _award(st, st.flor_caller & 1, 4, "contra_flor_no_querido", events):
            return
        _after_side_bet(st)


def envido_stake(chain: tuple[Do, ...]) -> tuple[int | None, int]:
    """What an envido chain pays: accepted (``None`` for a falta envido, whose value depends on who
    wins) and declined (the chain before the last call, at least 1)."""
    accepted = None if Do.FALTA_ENVIDO in chain else sum(ENVIDO_POINTS[c] for c in chain)
    return accepted, max(1, sum(ENVIDO_POINTS.get(c, 0) for c in chain[:-1]))


PICA_FALTA = 7
"""A falta envido (and a contra flor al resto) in a pica-pica duel: 7, the most an envido chain
without a falta pays, so one duel of two cannot settle the match of six (docs/rules.md)."""


def falta_value(st: State, winner: Team) -> int:
    if st.duel >= 0:
        return PICA_FALTA
    return falta_points(st.rules, st.score, winner)


def falta_points(rules: Rules, score: tuple[int, int], winner: Team) -> int:
    """Rule 12. ``leader``: what the leading team lacks. ``malas_wins``: in the malas, the whole chico."""
    target = rules.target
    lead = max(score)
    if rules.falta == "malas_wins" and lead * 2 <= target:
        return target - score[winner]
    return target - lead


def _order_from_mano(st: State) -> list[Seat]:
    n = st.n
    return [(st.mano + i) % n for i in range(n)]


def _sing_tantos(st: State, events: list[Event]) -> Seat:
    """Rule 10: the table sings from the mano; a better tanto of the other team is sung, else
    "son buenas"; equal tantos go to the seat closer to the mano. Returns the winning seat."""
    best_seat, best = -1, -1
    sung = list(st.sung)
    for s in _order_from_mano(st):
        if (st.folded >> s) & 1:
            continue
        t = tanto(st.dealt[s])
        if best_seat < 0:
            best_seat, best = s, t
            events.append(TantoSung(s, t))
            sung.append((s, t, False))
        elif (s & 1) != (best_seat & 1):
            if t > best:
                best_seat, best = s, t
                events.append(TantoSung(s, t))
                sung.append((s, t, False))
            else:
                events.append(SonBuenas(s))
                sung.append((s, -1, False))
    st.sung = tuple(sung)
    return best_seat


def _flor_action(st: State, seat: Seat, do: Do, events: list[Event]) -> None:
    team = seat & 1
    events.append(Called(seat, do) if do is not Do.CON_FLOR_ME_ACHICO else Answered(seat, do))
    if do is Do.FLOR:
        # a flor cancels the envido of this hand, even one waiting for its answer
        st.flor_chain = (Do.FLOR,)
        st.flor_caller = seat
        st.flor_sung |= 1 << seat
        if st.pending == P_ENVIDO:
            st.envido_chain = ()
        st.envido_settled = True
        if _flor_answerers(st, _other(team)):
            st.pending = P_FLOR
            st.answer_team = _other(team)
            return
        st.flor_settled = True
        if _award(st, team, 3, "flor", events):
            return
        _after_side_bet(st)
        return
    st.flor_sung |= 1 << seat
    if do is Do.CON_FLOR_ME_ACHICO:
        st.flor_settled = True
        if _award(st, _other(team), 4, "con_flor_me_achico", events):
            return
        _after_side_bet(st)
        return
    st.flor_chain = (*st.flor_chain, do)
    st.flor_caller = seat
    st.pending = P_FLOR
    st.answer_team = _other(team)


def _settle_flor_contest(st: State, events: list[Event]) -> None:
    """A contra flor (al resto) accepted: the best flor of the seats that sang one wins."""
    st.flor_settled = True
    best_seat, best = -1, -1
    for s in _order_from_mano(st):
        if not (st.flor_sung >> s) & 1:
            continue
        v = flor_value(st.dealt[s])
        events.append(TantoSung(s, v, True))
        st.sung = (*st.sung, (s, v, True))
        if v > best:
            best_seat, best = s, v
    st.flor_winner = best_seat
    team = best_seat & 1
    if st.flor_chain[-1] is Do.CONTRA_FLOR_AL_RESTO:
        rest = PICA_FALTA if st.duel >= 0 else st.rules.target - st.score[team]
        points, reason = rest, "contra_flor_al_resto"
    else:
        points, reason = 6, "contra_flor"
    if _award(st, team, points, reason, events):
        return
    _after_side_bet(st)


# ------------------------------------------------------------------ explanations


def why_illegal(st: State, action: Action) -> str:
    """A reason a player can read for an action that is not legal now."""
    return illegal_reason(st, action)[1]


def illegal_reason(st: State, action: Action) -> tuple[str, str]:
    """Why an action is not legal now: a short code for programs (a client words it in the player's
    language) and a sentence in English."""
    seat = action.seat
    try:
        do = Do(action.do)
    except ValueError:
        return "unknown_action", f"unknown action {action.do!r}"
    if st.match_over:
        return "match_over", "the match is over"
    if st.hand_over:
        return "hand_over", "the hand is over"
    if (st.idle >> seat) & 1:
        return "waiting_for_duel", "pica-pica: only the two seats of this duel play now"
    if (st.folded >> seat) & 1:
        return "in_the_mazo", "you went to the mazo this hand"
    if do is Do.PLAY and action.card is None:
        return "card_needed", "play needs a card"
    if st.pending != P_NONE:
        what = {P_TRUCO: "the truco", P_ENVIDO: "the envido", P_FLOR: "the flor"}[st.pending]
        if (seat & 1) != st.answer_team:
            if do in (Do.PLAY, Do.MAZO):
                return "answer_pending", f"{what} must be answered first"
            return "other_team_answers", f"the other team must answer {what}"
        return "not_an_answer", f"you cannot answer {what} with {do.value}"
    if do in (Do.QUIERO, Do.NO_QUIERO, Do.CONTRA_FLOR, Do.CONTRA_FLOR_AL_RESTO, Do.CON_FLOR_ME_ACHICO):
        return "nothing_to_answer", "there is no call to answer"
    if seat != st.turn:
        return "not_your_turn", "it is not your turn"
    if do is Do.PLAY:
        return "card_not_held", "you do not hold that card"
    if do in _ENVIDO_OPENERS:
        if st.results or (st.round_mask >> seat) & 1:
            return ("envido_too_late",
                    "envido can only be called in the first round, before you play your card")
        if st.envido_chain or st.envido_settled:
            return "envido_already_called", "the envido was already called this hand"
        if st.truco_level:
            return "envido_after_truco", "no envido after the truco was accepted"
        if st.flor_chain:
            return "flor_cancels_envido", "a flor cancels the envido"
        return "sing_flor_instead", "with flor you sing flor, not envido"
    if do is Do.FLOR:
        if not st.rules.flor:
            return "no_flor_at_this_table", "this table plays without flor"
        if not has_flor(st.dealt[seat]):
            return "no_flor_in_hand", "you do not have flor"
        return "flor_too_late", "the flor can only be sung once, before you play your first card"
    if do in _LEVEL_OF:
        if st.truco_level == 3:
            return "vale_cuatro_is_the_top", "the vale cuatro cannot be raised"
        if _LEVEL_OF[do] != st.truco_level + 1:
            return "not_the_next_bet", f"the next bet is {_TRUCO_BY_LEVEL[min(st.truco_level, 2)].value}"
        return "raise_not_yours", "only the team that accepted the last bet may raise it"
    return "not_allowed_now", f"{do.value} is not allowed now"


def tanto_of(st: State, seat: Seat) -> int:
    return tanto(st.dealt[seat])


def tanto_cards_of(st: State, seat: Seat) -> tuple[Card, ...]:
    return tanto_cards(st.dealt[seat])
