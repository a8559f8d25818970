"""Spanish (rioplatense) words for the terminal game: actions, events, the table and the score."""

from __future__ import annotations

from truco.engine import PARDA, Action, Do, Event, PublicView, Seat, Team
from truco.engine.cards import Card, spanish_name
from truco.engine.types import (
    Answered,
    Called,
    CardPlayed,
    CardsShown,
    MatchEnded,
    PointsAwarded,
    RoundEnded,
    SonBuenas,
    TantoSung,
    WentToMazo,
)

SAY = {
    Do.ENVIDO: "¡Envido!", Do.REAL_ENVIDO: "¡Real envido!", Do.FALTA_ENVIDO: "¡Falta envido!",
    Do.TRUCO: "¡Truco!", Do.RETRUCO: "¡Quiero retruco!", Do.VALE_CUATRO: "¡Quiero vale cuatro!",
    Do.QUIERO: "Quiero.", Do.NO_QUIERO: "No quiero.", Do.FLOR: "¡Flor!", Do.CONTRA_FLOR: "¡Contra flor!",
    Do.CONTRA_FLOR_AL_RESTO: "¡Contra flor al resto!", Do.CON_FLOR_ME_ACHICO: "Con flor me achico.",
    Do.MAZO: "Me voy al mazo.",
}

OPTION = {
    Do.ENVIDO: "cantar envido", Do.REAL_ENVIDO: "cantar real envido", Do.FALTA_ENVIDO: "cantar falta envido",
    Do.TRUCO: "cantar truco", Do.RETRUCO: "quiero retruco", Do.VALE_CUATRO: "quiero vale cuatro",
    Do.QUIERO: "quiero", Do.NO_QUIERO: "no quiero", Do.FLOR: "cantar flor", Do.CONTRA_FLOR: "contra flor",
    Do.CONTRA_FLOR_AL_RESTO: "contra flor al resto", Do.CON_FLOR_ME_ACHICO: "con flor me achico",
    Do.MAZO: "irme al mazo",
}

REASON = {
    "truco": "la mano", "mazo": "se fueron al mazo", "truco_no_querido": "truco no querido",
    "envido": "envido", "envido_no_querido": "envido no querido", "flor": "flor",
    "contra_flor": "contra flor", "contra_flor_al_resto": "contra flor al resto",
    "contra_flor_no_querido": "contra flor no querida", "con_flor_me_achico": "con flor me achico",
}

PENDING = {Do.TRUCO: "truco", Do.RETRUCO: "retruco", Do.VALE_CUATRO: "vale cuatro", Do.ENVIDO: "envido",
           Do.REAL_ENVIDO: "real envido", Do.FALTA_ENVIDO: "falta envido", Do.FLOR: "flor",
           Do.CONTRA_FLOR: "contra flor", Do.CONTRA_FLOR_AL_RESTO: "contra flor al resto"}


def card_with_article(card: Card) -> str:
    """``el as de espadas``, ``la sota de oros``."""
    name = spanish_name(card)
    return f"la {name}" if name.startswith("sota") else f"el {name}"


def option(action: Action) -> str:
    """What a legal action is called in the menu."""
    if action.do is Do.PLAY and action.card is not None:
        return f"jugar {card_with_article(action.card)}"
    return OPTION[action.do]


def team_name(team: Team, mine: Team) -> str:
    return "nosotros" if team == mine else "ellos"


def points(n: int) -> str:
    return f"{n} punto" if n == 1 else f"{n} puntos"


def describe(event: Event, names: list[str], mine: Team) -> str | None:
    """One line for an event as the person at ``mine``'s side hears it, or None for bookkeeping."""
    if isinstance(event, CardPlayed):
        return f"{names[event.seat]} tira {card_with_article(event.card)}."
    if isinstance(event, Called):
        return f"{names[event.seat]}: {SAY[event.call]}"
    if isinstance(event, Answered):
        return f"{names[event.seat]}: {SAY[event.answer]}"
    if isinstance(event, WentToMazo):
        return f"{names[event.seat]} se va al mazo."
    if isinstance(event, TantoSung):
        return f"  {names[event.seat]} canta {event.tanto}{' de flor' if event.flor else ''}."
    if isinstance(event, SonBuenas):
        return f"  {names[event.seat]}: son buenas."
    if isinstance(event, RoundEnded):
        if event.team == PARDA:
            return f"  Ronda {event.round + 1}: parda."
        return f"  Ronda {event.round + 1} para {names[event.seat]} ({team_name(event.team, mine)})."
    if isinstance(event, PointsAwarded):
        why = REASON.get(event.reason, event.reason.replace("_", " "))
        return f"  +{points(event.points)} para {team_name(event.team, mine)} ({why})."
    if isinstance(event, CardsShown):
        cards = ", ".join(spanish_name(c) for c in event.cards)
        return f"  {names[event.seat]} muestra: {cards}."
    if isinstance(event, MatchEnded):
        return None
    return None


def score_line(p: PublicView, mine: Team) -> str:
    return (f"Nosotros {p.score[mine]} – Ellos {p.score[1 - mine]} "
            f"(a {p.rules.target}{', con flor' if p.rules.flor else ''})")


def table_lines(p: PublicView, names: list[str], mine: Team) -> list[str]:
    """The rounds so far, one line each."""
    lines = []
    for i, rnd in enumerate(p.rounds):
        if not rnd:
            continue
        cards = " · ".join(f"{names[s]}: {spanish_name(c)}" for s, c in rnd)
        if i < len(p.results):
            r = p.results[i]
            cards += "  → parda" if r == PARDA else f"  → {team_name(r, mine)}"
        lines.append(f"  Ronda {i + 1}: {cards}")
    return lines


def bets_line(p: PublicView, mine: Team) -> str | None:
    parts = []
    if p.truco_level is not None:
        parts.append(f"{PENDING[p.truco_level]} querido (vale {p.truco_value}, "
                     f"puede subir {team_name(p.truco_owner, mine)})")
    if p.pending_call is not None:
        parts.append(f"cantaron {PENDING[p.pending_call]}, contesta {team_name(p.answer_team, mine)}")
    return "; ".join(parts) if parts else None


def sung_lines(p: PublicView, names: list[str]) -> list[str]:
    out = []
    for s, t, flor in p.sung:
        if t < 0:
            out.append(f"{names[s]}: son buenas")
        else:
            out.append(f"{names[s]}: {t}{' de flor' if flor else ''}")
    return out


def seat_names(players: int, human: Seat) -> list[str]:
    names = []
    for s in range(players):
        if s == human:
            names.append("Vos")
        else:
            role = "compañero" if s & 1 == human & 1 else "rival"
            names.append(f"Bot {s} ({role})")
    return names
