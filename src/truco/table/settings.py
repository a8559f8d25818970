"""A table's settings: the engine's rules plus the table's own (mode, señas, timings)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from truco.engine import Rules

Mode = Literal["full", "casual"]

_INT_KEYS = ("players", "target", "chicos", "vote_seconds", "answer_seconds", "reconnect_seconds")


class SettingsError(ValueError):
    """Settings a table cannot be created with; the message is meant for the host."""


@dataclass(frozen=True, slots=True)
class TableSettings:
    """What the host chooses when creating a table. Defaults are the reference table."""

    players: int = 4
    target: int = 30
    flor: bool = False
    falta: Literal["leader", "malas_wins"] = "leader"
    chicos: int = 1
    pica_pica: bool = False
    """Six players: pica-pica hands (three duels of two) inside the score band (docs/rules.md)."""
    mode: Mode = "full"
    senas: bool = True
    """Señas between partners (4 and 6 players only)."""
    vote_seconds: int = 10
    answer_seconds: int = 30
    reconnect_seconds: int = 60
    bot_delay: float | None = None
    """Seconds a bot waits before acting; ``None`` lets the runtime choose (0.7–1.5 s by default)."""
    private: bool = False
    """Reachable by link or code only: never listed among the open tables."""
    turn_seconds: int | None = None
    """The turn clock: seconds a player has to play when the table waits on them alone. Off
    (``None``) by default, as at the reference table. On expiry the table plays their mildest action
    (their lowest card); twice in a row and they are treated as away (their seat is held)."""

    def __post_init__(self) -> None:
        try:
            self.rules()
        except ValueError as e:
            raise SettingsError(str(e)) from None
        if self.mode not in ("full", "casual"):
            raise SettingsError("mode must be 'full' or 'casual'")
        if self.pica_pica and self.mode == "casual":
            raise SettingsError("pica-pica is played at the full table only (casual hands keep no score)")
        if not isinstance(self.senas, bool):
            raise SettingsError("senas must be true or false")
        if not isinstance(self.private, bool):
            raise SettingsError("private must be true or false")
        for key in ("vote_seconds", "answer_seconds", "reconnect_seconds"):
            value = getattr(self, key)
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 3600:
                raise SettingsError(f"{key} must be a whole number of seconds from 1 to 3600")
        if self.turn_seconds is not None and (
                isinstance(self.turn_seconds, bool) or not isinstance(self.turn_seconds, int)
                or not 5 <= self.turn_seconds <= 600):
            raise SettingsError("turn_seconds must be a whole number of seconds from 5 to 600, or null")
        if self.bot_delay is not None and (
                isinstance(self.bot_delay, bool) or not isinstance(self.bot_delay, int | float)
                or not 0 <= self.bot_delay <= 10):
            raise SettingsError("bot_delay must be a number of seconds from 0 to 10")

    def rules(self) -> Rules:
        return Rules(players=self.players, target=self.target, flor=self.flor, falta=self.falta,
                     chicos=self.chicos, pica_pica=self.pica_pica)

    @property
    def senas_allowed(self) -> bool:
        """Señas need a partner: on only for 4 and 6 players."""
        return self.senas and self.players >= 4

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players, "target": self.target, "flor": self.flor, "falta": self.falta,
            "chicos": self.chicos, "mode": self.mode, "senas": self.senas,
            "vote_seconds": self.vote_seconds, "answer_seconds": self.answer_seconds,
            "reconnect_seconds": self.reconnect_seconds, "bot_delay": self.bot_delay,
            "private": self.private, "turn_seconds": self.turn_seconds, "pica_pica": self.pica_pica,
        }

    @classmethod
    def from_dict(cls, data: Any) -> TableSettings:
        """Strict decoding: unknown keys and wrong types are refused with a readable reason."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise SettingsError("settings must be an object")
        data = dict(data)
        if "señas" in data:
            data["senas"] = data.pop("señas")
        unknown = set(data) - set(cls.__dataclass_fields__)
        if unknown:
            raise SettingsError(f"unknown setting(s): {', '.join(sorted(unknown))}")
        for key in _INT_KEYS:
            if key in data and (not isinstance(data[key], int) or isinstance(data[key], bool)):
                raise SettingsError(f"{key} must be an integer")
        for key in ("flor", "senas", "private", "pica_pica"):
            if key in data and not isinstance(data[key], bool):
                raise SettingsError(f"{key} must be true or false")
        return cls(**data)
