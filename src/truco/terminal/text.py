"""Spanish (rioplatense) words for a match: actions, events, the table and the score.

The one narrator of engine events: the terminal game tells them to its player, ``truco demo`` to an
onlooker, in the same words.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from truco.engine import PARDA, Action, Do, Event, PublicView, Seat, Team
from truco.engine.cards import Card, spanish_name
from truco.engine.types import (
    Answered,
    Called,
    CardPlayed,
    CardsShown,
    DuelEnded,
    DuelStarted,
    HandStarted,
    PointsAwarded,
    RoundEnded,
    SonBuenas,
    TantoSung,
    WentToMazo,
)


class Words(NamedTuple):
    """How one action is spoken of, kept in one row so its phrasings cannot drift apart."""

    said: str
    """What the player says at the table."""
    option: str
    """The menu entry that offers it to the person."""
    bet: str = ""
    """The bet's name while it is called or accepted (calls only)."""


WORDS: dict[Do, Words] = {
    Do.ENVIDO: Words("¡Envido!", "cantar envido", "envido"),
    Do.REAL_ENVIDO: Words("¡Real envido!", "cantar real envido", "real envido"),
    Do.FALTA_ENVIDO: Words("¡Falta envido!", "cantar falta envido", "falta envido"),
    Do.TRUCO: Words("¡Truco!", "cantar truco", "truco"),
    Do.RETRUCO: Words("¡Quiero retruco!", "quiero retruco", "retruco"),
    Do.VALE_CUATRO: Words("¡Quiero vale cuatro!", "quiero vale cuatro", "vale cuatro"),
    Do.FLOR: Words("¡Flor!", "cantar flor", "flor"),
    Do.CONTRA_FLOR: Words("¡Contra flor!", "contra flor", "contra flor"),
    Do.CONTRA_FLOR_AL_RESTO: Words("¡Contra flor al resto!", "contra flor al resto", "contra flor al resto"),
    Do.QUIERO: Words("Quiero.", "quiero"),
    Do.NO_QUIERO: Words("No quiero.", "no quiero"),
    Do.CON_FLOR_ME_ACHICO: Words("Con flor me achico.", "con flor me achico"),
    Do.MAZO: Words("Me voy al mazo.", "irme al mazo"),
}

REASON = {
    "truco": "la mano", "mazo": "se fueron al mazo", "truco_no_querido": "truco no querido",
    "envido": "envido", "envido_no_querido": "envido no querido", "flor": "flor",
    "contra_flor": "contra flor", "contra_flor_al_resto": "contra flor al resto",
    "contra_flor_no_querido": "contra flor no querida", "con_flor_me_achico": "con flor me achico",
}


def card_with_article(card: Card) -> str:
    """``el as de espadas``, ``la sota de oros``."""
    name = spanish_name(card)
    return f"la {name}" if name.startswith("sota") else f"el {name}"


def card_list(cards: Iterable[Card]) -> str:
    """``as de espadas, siete de oros``: a hand, or the cards someone shows."""
    return ", ".join(spanish_name(c) for c in cards)


def option(action: Action) -> str:
    """What a legal action is called in the menu."""
    if action.do is Do.PLAY and action.card is not None:
        return f"jugar {card_with_article(action.card)}"
    return WORDS[action.do].option


def team_name(team: Team, mine: Team | None) -> str:
    """``nosotros``/``ellos`` for a player on ``mine``; ``el equipo N`` for an onlooker (``None``)."""
    if mine is None:
        return f"el equipo {team}"
    return "nosotros" if team == mine else "ellos"


def points(n: int) -> str:
    return f"{n} punto" if n == 1 else f"{n} puntos"


def describe(event: Event, names: Sequence[str], mine: Team | None = None) -> str | None:
    """One line for an event, or None for bookkeeping; the terminal game and ``truco demo`` both say it.

    ``names`` are the seats as the listener knows them (they already tell each seat's side), and
    ``mine`` is the listener's team, or None for an onlooker. The end of a hand or of the match is
    left to the caller, who closes it after the last card with the score (``match_result``).
    """
    if isinstance(event, HandStarted):
        return f"═══ Mano {event.hand_no} · reparte {names[event.dealer]} · es mano {names[event.mano]} ═══"
    if isinstance(event, CardPlayed):
        return f"{names[event.seat]} tira {card_with_article(event.card)}."
    if isinstance(event, (Called, Answered)):
        said = event.call if isinstance(event, Called) else event.answer
        return f"{names[event.seat]}: {WORDS[said].said}"
    if isinstance(event, WentToMazo):
        return f"{names[event.seat]} se va al mazo."
    if isinstance(event, TantoSung):
        return f"  {names[event.seat]} canta {event.tanto}{' de flor' if event.flor else ''}."
    if isinstance(event, SonBuenas):
        return f"  {names[event.seat]}: son buenas."
    if isinstance(event, RoundEnded):
        if event.team == PARDA:
            return f"  Ronda {event.round + 1}: parda."
        return f"  Ronda {event.round + 1} para {names[event.seat]}."
    if isinstance(event, PointsAwarded):
        why = REASON.get(event.reason, event.reason.replace("_", " "))
        return f"  +{points(event.points)} para {team_name(event.team, mine)} ({why})."
    if isinstance(event, CardsShown):
        return f"  {names[event.seat]} muestra: {card_list(event.cards)}."
    if isinstance(event, DuelStarted):
        who = f"{names[event.mano]} contra {names[event.rival]}"
        return f"── Pica-pica, duelo {event.duel + 1} de 3: {who} ──"
    if isinstance(event, DuelEnded):
        return f"  Duelo {event.duel + 1} para {team_name(event.team, mine)}."
    return None


def match_result(winner: Team, mine: Team | None) -> str:
    """The match's last word: for a player, their side won or lost; for an onlooker, which team won."""
    if mine is None:
        return f"¡Gana la partida {team_name(winner, mine)}!"
    return "¡Ganamos la partida!" if winner == mine else "Perdimos la partida. ¡La próxima será!"


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
        parts.append(f"{WORDS[p.truco_level].bet} querido (vale {p.truco_value}, "
                     f"puede subir {team_name(p.truco_owner, mine)})")
    if p.pending_call is not None:
        parts.append(f"cantaron {WORDS[p.pending_call].bet}, contesta {team_name(p.answer_team, mine)}")
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
