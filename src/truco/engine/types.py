"""Value types of the engine: settings, actions, events and the readable error."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any, Literal, NamedTuple

from truco.engine.cards import NAME, Card

Seat = int
Team = int
PARDA: Team = -1


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message is meant for the player, ``reason`` (a
    short code such as ``not_your_turn``) for a program that words it in the player's language."""

    def __init__(self, message: str, reason: str = "not_allowed_now") -> None:
        super().__init__(message)
        self.reason = reason


class Do(StrEnum):
    PLAY = "play"
    ENVIDO = "envido"
    REAL_ENVIDO = "real_envido"
    FALTA_ENVIDO = "falta_envido"
    TRUCO = "truco"
    RETRUCO = "retruco"
    VALE_CUATRO = "vale_cuatro"
    QUIERO = "quiero"
    NO_QUIERO = "no_quiero"
    MAZO = "mazo"
    FLOR = "flor"
    CONTRA_FLOR = "contra_flor"
    CONTRA_FLOR_AL_RESTO = "contra_flor_al_resto"
    CON_FLOR_ME_ACHICO = "con_flor_me_achico"


ENVIDO_CALLS = frozenset({Do.ENVIDO, Do.REAL_ENVIDO, Do.FALTA_ENVIDO})
TRUCO_CALLS = (Do.TRUCO, Do.RETRUCO, Do.VALE_CUATRO)
FLOR_CALLS = frozenset({Do.FLOR, Do.CONTRA_FLOR, Do.CONTRA_FLOR_AL_RESTO, Do.CON_FLOR_ME_ACHICO})


class Action(NamedTuple):
    """One seat's action. ``card`` is set only for ``play``."""

    seat: Seat
    do: Do
    card: Card | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"seat": self.seat, "do": str(self.do)}
        if self.card is not None:
            d["card"] = NAME[self.card]
        return d


SENAS: tuple[str, ...] = (
    "ancho_espada", "ancho_basto", "siete_espada", "siete_oro", "tres", "dos", "ancho_falso",
    "tengo_envido", "nada",
)
"""The classic señas partners make (the table carries them to the team; bots make and read them)."""

FaltaRule = Literal["leader", "malas_wins"]


@dataclass(frozen=True, slots=True)
class Rules:
    """Table settings that change the rules. Defaults are the reference table (seed 000)."""

    players: int = 4
    target: int = 30
    flor: bool = False
    falta: FaltaRule = "leader"
    chicos: int = 1
    pica_pica: bool = False
    """Six players only: between two scores each hand is three 1 v 1 duels (docs/rules.md)."""

    def __post_init__(self) -> None:
        if self.players not in (2, 4, 6, 8):
            raise ValueError("players must be 2, 4, 6 or 8")
        if self.target not in (15, 30):
            raise ValueError("target must be 15 or 30")
        if self.falta not in ("leader", "malas_wins"):
            raise ValueError("falta must be 'leader' or 'malas_wins'")
        if self.chicos not in (1, 3):
            raise ValueError("chicos must be 1 or 3")
        if not isinstance(self.flor, bool):
            raise ValueError("flor must be true or false")
        if not isinstance(self.pica_pica, bool):
            raise ValueError("pica_pica must be true or false")
        if self.pica_pica and self.players != 6:
            raise ValueError("pica-pica is played by 6 players only")

    @property
    def chicos_to_win(self) -> int:
        return self.chicos // 2 + 1

    @property
    def pica_band(self) -> tuple[int, int]:
        """The scores between which (both teams, inclusive) pica-pica hands are played: 5 to 25 at
        30 points, 5 to 10 at 15 (docs/rules.md)."""
        return 5, self.target - 5

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        if not self.pica_pica:
            del d["pica_pica"]  # tables and records from before the option read the same
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        unknown = set(data) - {"players", "target", "flor", "falta", "chicos", "pica_pica"}
        if unknown:
            raise ValueError(f"unknown rules key(s): {', '.join(sorted(unknown))}")
        for key in ("players", "target", "chicos"):
            if key in data and (not isinstance(data[key], int) or isinstance(data[key], bool)):
                raise ValueError(f"{key} must be an integer")
        return cls(**data)


# ---------------------------------------------------------------- events (all public)


class HandStarted(NamedTuple):
    hand_no: int
    dealer: Seat
    mano: Seat


class CardPlayed(NamedTuple):
    seat: Seat
    card: Card


class Called(NamedTuple):
    """A call or a raise; a raise given as an answer also accepts the previous bet."""

    seat: Seat
    call: Do


class Answered(NamedTuple):
    seat: Seat
    answer: Do


class WentToMazo(NamedTuple):
    seat: Seat


class TantoSung(NamedTuple):
    """The table sings a tanto (or a flor value) for a seat."""

    seat: Seat
    tanto: int
    flor: bool = False


class SonBuenas(NamedTuple):
    seat: Seat


class RoundEnded(NamedTuple):
    """``team`` is ``PARDA`` (-1) for a tied round; ``seat`` then is -1."""

    round: int
    team: Team
    seat: Seat


class PointsAwarded(NamedTuple):
    team: Team
    points: int
    reason: str


class DuelStarted(NamedTuple):
    """Pica-pica: duel ``duel`` (0, 1, 2) of the hand begins, ``mano`` against ``rival`` (the seat
    facing it); the other four seats wait."""

    duel: int
    mano: Seat
    rival: Seat


class DuelEnded(NamedTuple):
    """Pica-pica: a duel is over; ``team`` took its tricks (its points were awarded as they fell)."""

    duel: int
    team: Team


class CardsShown(NamedTuple):
    seat: Seat
    cards: tuple[Card, ...]


class HandEnded(NamedTuple):
    hand_no: int
    winner: Team
    score: tuple[int, int]


class ChicoEnded(NamedTuple):
    team: Team
    chicos: tuple[int, int]


class MatchEnded(NamedTuple):
    winner: Team
    score: tuple[int, int]
    chicos: tuple[int, int]


Event = (HandStarted | CardPlayed | Called | Answered | WentToMazo | TantoSung | SonBuenas | RoundEnded
         | PointsAwarded | CardsShown | HandEnded | ChicoEnded | MatchEnded | DuelStarted | DuelEnded)

_EVENT_TYPES: dict[type, str] = {
    HandStarted: "hand_started", CardPlayed: "card_played", Called: "called", Answered: "answered",
    WentToMazo: "went_to_mazo", TantoSung: "tanto_sung", SonBuenas: "son_buenas",
    RoundEnded: "round_ended", PointsAwarded: "points_awarded", CardsShown: "cards_shown",
    HandEnded: "hand_ended", ChicoEnded: "chico_ended", MatchEnded: "match_ended",
    DuelStarted: "duel_started", DuelEnded: "duel_ended",
}


def event_to_dict(event: Event) -> dict[str, Any]:
    """JSON-ready form of an event, cards by name."""
    d: dict[str, Any] = {"type": _EVENT_TYPES[type(event)]}
    for key, value in event._asdict().items():
        if key == "card":
            d[key] = NAME[value]
        elif key == "cards":
            d[key] = [NAME[c] for c in value]
        elif isinstance(value, Do):
            d[key] = str(value)
        elif isinstance(value, tuple):
            d[key] = list(value)
        else:
            d[key] = value
    return d
