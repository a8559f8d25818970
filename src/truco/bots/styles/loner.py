"""``loner`` (el que juega solo): a plain, independent player who ignores its partners.

Its thresholds are an ordinary player's, but it judges every bet on its own cards alone, as if its
partners held nothing, and it takes every round it can, even one its partner already takes
(spending a card the team needed). Mano a mano it is simply a sound independent player, which makes
it the plainest yardstick of the pool.

A first version also kept its vote when the team's votes differed; under the table's rule (no
agreement is a "no quiero") a team of two such players folded so often that ``random`` won 49 % of
4-player matches against it, which measured the voting rule more than a habit, so it goes along
like everyone else.
"""

from __future__ import annotations

from truco.bots.styles.player import Habits, StylePlayer


class Loner(StylePlayer):
    level = "loner"
    habits = Habits(partner_aware=False)
