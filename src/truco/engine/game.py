"""The rules in play: applying an action to a state, the rounds, the bets and the scoring.

Every function here is pure: a state in, a new state (and public events) out. Dealing is in
``deal``, what a seat may do and why not in ``legal``. Rule numbers in the comments refer to
../shared/design/rulings.md; docs/rules.md lists each rule with its source.
"""

from __future__ import annotations

from truco.engine.cards import POWER, Card, flor_value, tanto
from truco.engine.deal import duel_pair, start_duel
from truco.engine.legal import (
    LEVEL_OF,
    envido_open,
    flor_answerers,
    illegal_reason,
    legal_actions_for,
)
from truco.engine.state import P_ENVIDO, P_FLOR, P_NONE, P_TRUCO, State
from truco.engine.types import (
    ENVIDO_CALLS,
    PARDA,
    Action,
    Answered,
    Called,
    CardPlayed,
    CardsShown,
    ChicoEnded,
    Do,
    DuelEnded,
    Event,
    HandEnded,
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
    elif do in LEVEL_OF:
        events.append(Called(seat, do))
        _call_truco(st, seat, LEVEL_OF[do])
    elif do in ENVIDO_CALLS:
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
        start_duel(st, st.duel + 1, events)
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
        points = st.truco_level + 1 + (1 if envido_open(st) else 0)
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
        if flor_answerers(st, _other(team)):
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

