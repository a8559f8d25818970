"""Señas between partners: what a bot signals of its own cards, and what a partner's signs say.

A seña is private to the team (the table carries it to the partners only), so a bot has no reason to
lie to its own side: it signs every seña its cards allow, or "nada". Reading one works on any
partner, human or bot, and takes only what a seña affirms: "tres" says there is a three, not that
there is no ancho (a person signs their best one or two). "nada" is the one sign that denies: no card
with a seña of its own and no envido worth telling.
"""

from __future__ import annotations

from typing import NamedTuple

from truco.engine.cards import Card, make_card, tanto
from truco.engine.types import SENAS

_E, _B, _O, _C = 0, 1, 2, 3
_ONE: dict[str, tuple[Card, ...]] = {
    "ancho_espada": (make_card(1, _E),),
    "ancho_basto": (make_card(1, _B),),
    "siete_espada": (make_card(7, _E),),
    "siete_oro": (make_card(7, _O),),
    "tres": tuple(make_card(3, s) for s in range(4)),
    "dos": tuple(make_card(2, s) for s in range(4)),
    "ancho_falso": (make_card(1, _O), make_card(1, _C)),
}
"""The señas that name a card (or one of a few): the partner holds (or held) one of these."""
ENVIDO_WORTH_TELLING = 27
"""The tanto from which "tengo_envido" is signed (as the classic sign: "27 or more")."""
_ANY_SIGNED = 0
for _cards in _ONE.values():
    for _c in _cards:
        _ANY_SIGNED |= 1 << _c

assert set(_ONE) | {"tengo_envido", "nada"} == set(SENAS)


class SenaRule(NamedTuple):
    """What a partner's señas say about their three dealt cards, as masks and a tanto range."""

    any_of: tuple[int, ...]
    """Each mask must meet the hand (one of its cards was dealt to the partner)."""
    none_of: int
    min_tanto: int
    max_tanto: int

    def holds(self, mask: int, hand_tanto: int) -> bool:
        if mask & self.none_of:
            return False
        for m in self.any_of:
            if not mask & m:
                return False
        return self.min_tanto <= hand_tanto <= self.max_tanto


def rule_of(senas: tuple[str, ...] | list[str], envido: bool = True) -> SenaRule | None:
    """The rule a partner's señas make, or None when they say nothing (no seña, or only unknown ones).
    ``envido`` False leaves out what they say of the tanto ("tengo_envido", and the tanto "nada"
    denies): the cards only."""
    any_of: list[int] = []
    none_of = 0
    lo, hi = 0, 33
    said = False
    for s in senas:
        if s in _ONE:
            m = 0
            for c in _ONE[s]:
                m |= 1 << c
            any_of.append(m)
            said = True
        elif s == "tengo_envido":
            if envido:
                lo = max(lo, ENVIDO_WORTH_TELLING)
                said = True
        elif s == "nada":
            none_of |= _ANY_SIGNED
            if envido:
                hi = min(hi, ENVIDO_WORTH_TELLING - 1)
            said = True
    return SenaRule(tuple(any_of), none_of, lo, hi) if said else None


def truthful_senas(dealt: tuple[Card, ...]) -> tuple[str, ...]:
    """Every seña three cards allow, strongest first; "nada" when none does."""
    out = [name for name, cards in _ONE.items() if any(c in dealt for c in cards)]
    if tanto(dealt) >= ENVIDO_WORTH_TELLING:
        out.append("tengo_envido")
    return tuple(out) or ("nada",)
