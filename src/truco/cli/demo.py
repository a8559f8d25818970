"""``truco demo``: a real match between players choosing random legal actions, hand by hand."""

from __future__ import annotations

import argparse
import random
import secrets

from truco.engine import Event, Rules, apply, legal_actions, new_match, next_hand
from truco.engine.cards import spanish_name
from truco.engine.types import (
    PARDA,
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
from truco.terminal.text import REASON, SAY, card_with_article


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=2, choices=(2, 4, 6))
    parser.add_argument("--target", type=int, default=30, choices=(15, 30))
    parser.add_argument("--flor", action="store_true")
    parser.add_argument("--seed", type=int, default=None, help="repeat a match exactly")


def describe(event: Event, name: list[str]) -> str | None:
    """One line of Spanish for an event, or None for bookkeeping events."""
    if isinstance(event, CardPlayed):
        return f"{name[event.seat]} tira {card_with_article(event.card)}"
    if isinstance(event, (Called, Answered)):
        what = event.call if isinstance(event, Called) else event.answer
        return f"{name[event.seat]}: {SAY[what]}"
    if isinstance(event, WentToMazo):
        return f"{name[event.seat]} se va al mazo"
    if isinstance(event, TantoSung):
        return f"  la mesa canta por {name[event.seat]}: {event.tanto}{' de flor' if event.flor else ''}"
    if isinstance(event, SonBuenas):
        return f"  {name[event.seat]}: son buenas"
    if isinstance(event, RoundEnded):
        who = "parda" if event.team == PARDA else f"la gana {name[event.seat]}"
        return f"  ronda {event.round + 1}: {who}"
    if isinstance(event, PointsAwarded):
        why = REASON.get(event.reason, event.reason.replace("_", " "))
        return f"  + {event.points} para el equipo {event.team} ({why})"
    if isinstance(event, CardsShown):
        cards = ", ".join(spanish_name(c) for c in event.cards)
        return f"  {name[event.seat]} muestra: {cards}"
    if isinstance(event, MatchEnded):
        return f"¡Gana la partida el equipo {event.winner}!"
    return None


def run(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    rng = random.Random(seed)
    rules = Rules(players=args.players, target=args.target, flor=args.flor)
    name = [f"Jugador {s + 1} (eq. {s % 2})" for s in range(rules.players)]
    print(f"Partida de demostración a {rules.target}, {rules.players} jugadores, semilla {seed}")
    st, _ = new_match(rules, dealer=rng.randrange(rules.players), seed=rng.getrandbits(64))
    while True:
        print(f"\n— Mano {st.hand_no}: reparte {name[st.dealer]}, es mano {name[st.mano]} —")
        for s in range(rules.players):
            print(f"  {name[s]}: " + ", ".join(spanish_name(c) for c in st.dealt[s]))
        while not st.hand_over:
            st, events = apply(st, rng.choice(legal_actions(st)))
            for e in events:
                line = describe(e, name)
                if line:
                    print(line)
        print(f"  Tanteador: {st.score[0]} a {st.score[1]}")
        if st.match_over:
            return 0
        st, _ = next_hand(st, seed=rng.getrandbits(64))
