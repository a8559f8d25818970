"""``loner`` (el que juega solo): a plain, independent player who ignores its partners.

Its bets are an ordinary player's, judged on its own cards. In a team it takes every round it can,
even one its partner already takes (spending a card the team needed), and when the team's votes
differ it keeps its own instead of going along. Mano a mano it is simply a sound independent
player, which makes it the plainest yardstick of the pool.
"""

from __future__ import annotations

from truco.bots.styles.player import Habits, StylePlayer


class Loner(StylePlayer):
    level = "loner"
    habits = Habits(partner_aware=False)
