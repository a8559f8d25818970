"""What a seat may do now (``legal_actions_for``, ``to_act``), and why an action it may not do is
refused (``illegal_reason``): a code for programs and a sentence in English.

Rule numbers refer to ../shared/design/rulings.md.
"""

from __future__ import annotations

from truco.engine.cards import has_flor
from truco.engine.state import P_ENVIDO, P_FLOR, P_NONE, P_TRUCO, State
from truco.engine.types import ENVIDO_CALLS, TRUCO_CALLS, Action, Do, Seat, Team

LEVEL_OF = {do: i + 1 for i, do in enumerate(TRUCO_CALLS)}
"""The truco's calls by the level they bet: truco 1, retruco 2, vale cuatro 3."""


def _played_round0(st: State, seat: Seat) -> bool:
    return bool(st.results) or bool((st.round_mask >> seat) & 1)


def envido_open(st: State) -> bool:
    """Envido may still be called this hand (rule 7): round 1, none called, no truco accepted, no flor."""
    return (not st.results and not st.envido_chain and not st.envido_settled and st.truco_level == 0
            and not st.flor_chain)


def _flor_available(st: State, seat: Seat) -> bool:
    """A flor holder may sing it before playing their first card, once per hand (variant ``flor``)."""
    return (st.rules.flor and not st.flor_chain and not st.flor_settled and not st.envido_settled
            and not _played_round0(st, seat) and has_flor(st.dealt[seat]))


def flor_answerers(st: State, team: Team) -> list[Seat]:
    """Active seats of ``team`` holding a flor they have not lost by playing, who may contest one."""
    n = st.n
    return [s for s in range(team, n, 2)
            if not (st.folded >> s) & 1 and not _played_round0(st, s) and has_flor(st.dealt[s])]


def _team_can_envido_over_truco(st: State, team: Team) -> bool:
    """Rule 7: the envido is open to the team answering a truco while one of its players has not played."""
    if not envido_open(st):
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
            out.append(Action(seat, TRUCO_CALLS[st.truco_call]))
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
        if envido_open(st) and not (st.rules.flor and has_flor(st.dealt[seat])):
            out.append(Action(seat, Do.ENVIDO))
            out.append(Action(seat, Do.REAL_ENVIDO))
            out.append(Action(seat, Do.FALTA_ENVIDO))
        if st.rules.flor and _flor_available(st, seat):
            out.append(Action(seat, Do.FLOR))
    level = st.truco_level
    if level == 0 or (level < 3 and st.truco_owner == team):
        out.append(Action(seat, TRUCO_CALLS[level]))
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
    if do in ENVIDO_CALLS:
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
    if do in LEVEL_OF:
        if st.truco_level == 3:
            return "vale_cuatro_is_the_top", "the vale cuatro cannot be raised"
        if LEVEL_OF[do] != st.truco_level + 1:
            return "not_the_next_bet", f"the next bet is {TRUCO_CALLS[min(st.truco_level, 2)].value}"
        return "raise_not_yours", "only the team that accepted the last bet may raise it"
    return "not_allowed_now", f"{do.value} is not allowed now"
