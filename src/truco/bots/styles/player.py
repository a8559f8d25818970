"""The skeleton every style shares: the order of a decision, and its habits as plain thresholds.

A style is a person at the table with one strong habit. They all sing a flor, answer a call waiting
for their team, and otherwise act on their turn (maybe the mazo, maybe a call, else a card); what
differs is where each draws its lines, which is all in ``Habits``. When a team's votes differ every
style follows the table's convention (``ViewBot.reconsider``): hearing a partner say "quiero" is the
table's rule for a team answer, not a signal a player may choose to ignore. Nothing here comes from the
levels (``facil``, ``normal``, ``dificil``): the styles are opponents we did not tune our levels on.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from truco.bots.base import ViewBot, find, find_any, forced, mix, view_key
from truco.bots.styles.feel import feel
from truco.bots.styles.play import play_action
from truco.engine import Action, Do, SeatView
from truco.engine.cards import flor_value
from truco.engine.types import TRUCO_CALLS


@dataclass(frozen=True, slots=True)
class Habits:
    """Where a style draws its lines. Tantos are envido points; chances are ``feel`` (0 to 1)."""

    envido_call: int = 27
    """Calls envido from this tanto."""
    real_envido_call: int = 31
    """Opens with real envido instead from this tanto."""
    envido_accept: int = 27
    """Accepts an envido from this tanto; a real envido needs 2 more, a falta envido 4 more."""
    envido_raise: int = 31
    """Raises an envido (to real envido, a real envido to falta) from this tanto."""
    truco_call: float = 0.66
    truco_accept: float = 0.45
    truco_raise: float = 0.82
    respect: float = 0.1
    """Taken off its feel when the rivals bet the truco: who calls usually has cards."""
    bluff_truco: float = 0.0
    """Share of weak spots (its turn, truco open to it, its own cards' feel below ``weak``) where it
    calls anyway."""
    bluff_raise: float = 0.0
    """Share of weak answers to a truco where it raises anyway."""
    bluff_envido: float = 0.0
    """Share of turns with a poor tanto where it opens the envido anyway."""
    weak: float = 0.35
    """A hand is weak, for a bluff, when its own cards alone feel below this."""
    mazo_below: float = -1.0
    """Goes to the mazo in the first round, before its first card, when its feel is below this."""
    partner_aware: bool = True
    """Counts on its partners when it judges a hand, and leaves a round its partner already takes."""


class StylePlayer(ViewBot):
    """One style: ``Habits`` plus the fixed order of a decision. Subclasses set ``level`` and ``habits``."""

    level = "style"
    habits = Habits()

    def decide(self, view: SeatView) -> Action:
        legal = view.legal
        sure = forced(legal)
        if sure is not None:
            return sure
        pending = view.public.pending
        if pending == "flor":
            return self.answer_flor(view)
        if pending == "envido":
            return self.answer_envido(view)
        if pending == "truco":
            return self.answer_truco(view)
        return self.my_turn(view)

    def draw(self, view: SeatView, habit: int) -> float:
        """A number in [0, 1) for one habit at this decision: separate habits draw independently."""
        return random.Random(mix(self.seed, view_key(view), habit)).random()

    # ---------------------------------------------------------------- answers

    def answer_flor(self, view: SeatView) -> Action:
        legal = view.legal
        mine = flor_value(view.dealt) if view.my_flor else 0
        if view.public.pending_call is Do.FLOR:
            return _first(legal, Do.CONTRA_FLOR if mine >= 34 else Do.CON_FLOR_ME_ACHICO)
        return _first(legal, Do.QUIERO if mine >= 32 else Do.NO_QUIERO)

    def answer_envido(self, view: SeatView) -> Action:
        h = self.habits
        legal = view.legal
        tanto = view.my_tanto
        chain = view.public.envido_chain
        need = h.envido_accept + (4 if Do.FALTA_ENVIDO in chain else 2 if Do.REAL_ENVIDO in chain else 0)
        if tanto >= h.envido_raise:
            for do in (Do.REAL_ENVIDO, Do.FALTA_ENVIDO):
                if find(legal, do) is not None and (do is Do.REAL_ENVIDO or tanto >= h.envido_raise + 2):
                    return _first(legal, do)
        return _first(legal, Do.QUIERO if tanto >= need else Do.NO_QUIERO)

    def answer_truco(self, view: SeatView) -> Action:
        h = self.habits
        legal = view.legal
        if find(legal, Do.ENVIDO) is not None and view.my_tanto >= h.envido_call:
            return _first(legal, Do.ENVIDO)  # el envido está primero
        chance = feel(view, alone=not h.partner_aware) - h.respect
        raise_ = find_any(legal, TRUCO_CALLS)
        if raise_ is not None:
            if chance >= h.truco_raise:
                return raise_
            if h.bluff_raise and feel(view, alone=True) < h.weak and self.draw(view, 1) < h.bluff_raise:
                return raise_
        return _first(legal, Do.QUIERO if chance >= h.truco_accept else Do.NO_QUIERO)

    # ---------------------------------------------------------------- its own turn

    def my_turn(self, view: SeatView) -> Action:
        h = self.habits
        legal = view.legal
        first_card = not view.public.results and len(view.cards) == 3
        chance = feel(view, alone=not h.partner_aware)
        if first_card and chance < h.mazo_below and view.public.truco_value == 1:
            mazo = find(legal, Do.MAZO)
            if mazo is not None:
                return mazo
        envido = self.envido_call(view)
        if envido is not None:
            return envido
        call = find_any(legal, TRUCO_CALLS)
        if call is not None:
            level = TRUCO_CALLS.index(call.do)
            if chance >= h.truco_call + 0.08 * level:
                return call
            if h.bluff_truco and feel(view, alone=True) < h.weak and self.draw(view, 2) < h.bluff_truco:
                return call
        return play_action(view, h.partner_aware)

    def envido_call(self, view: SeatView) -> Action | None:
        """The envido it opens on its turn, if any."""
        h = self.habits
        legal = view.legal
        if find(legal, Do.ENVIDO) is None:
            return None
        tanto = view.my_tanto
        if tanto >= h.real_envido_call:
            return _first(legal, Do.REAL_ENVIDO)
        if tanto >= h.envido_call:
            return _first(legal, Do.ENVIDO)
        if h.bluff_envido and self.draw(view, 3) < h.bluff_envido:
            return _first(legal, Do.ENVIDO)
        return None


def _first(legal: tuple[Action, ...], do: Do) -> Action:
    """The legal action ``do``, else the plainest answer there is (quiero, no quiero, achicarse)."""
    for kind in (do, Do.QUIERO, Do.NO_QUIERO, Do.CON_FLOR_ME_ACHICO):
        a = find(legal, kind)
        if a is not None:
            return a
    return legal[0]
