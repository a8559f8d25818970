"""The order in which the rule-of-thumb levels (``facil``, ``normal``) take every decision.

Both think as a player at the table does: a flor is sung as soon as it may be (played before it is
sung, it is lost), a call waiting for our team is answered by its kind, and only then does the bot
act on its own turn. The levels differ in how they answer and act, never in that order, so the order
is written once, here.
"""

from __future__ import annotations

from truco.bots.base import ViewBot, find
from truco.bots.knowledge import Knowledge, knowledge
from truco.engine import Action, Do, SeatView


class HeuristicBot(ViewBot):
    """A level that fills in the answers and the own turn; ``decide`` picks which one applies."""

    def decide(self, view: SeatView) -> Action:
        k = knowledge(view)
        flor = find(view.legal, Do.FLOR)
        if flor is not None:
            return flor
        pending = view.public.pending
        if pending == "flor":
            return self.answer_flor(k)
        if pending == "envido":
            return self.answer_envido(k)
        if pending == "truco":
            return self.answer_truco(k)
        return self.act(k)

    def answer_flor(self, k: Knowledge) -> Action:
        """A rival's flor or contra flor is waiting for our team."""
        raise NotImplementedError

    def answer_envido(self, k: Knowledge) -> Action:
        """An envido, real envido or falta envido is waiting for our team."""
        raise NotImplementedError

    def answer_truco(self, k: Knowledge) -> Action:
        """A truco or one of its raises is waiting for our team."""
        raise NotImplementedError

    def act(self, k: Knowledge) -> Action:
        """Our turn with nothing pending: call something or play a card."""
        raise NotImplementedError
