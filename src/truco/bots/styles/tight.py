"""``tight`` (el amarrete): bets and accepts only with strong hands.

The careful player: envido from 30, "quiero" to an envido from 30 (a real envido from 32), truco
only with a hand it expects to win four times in five, and it takes a rival's truco seriously. It
never bluffs, so its calls can be read, and it gives away the small pots.
"""

from __future__ import annotations

from truco.bots.styles.player import Habits, StylePlayer


class Tight(StylePlayer):
    level = "tight"
    habits = Habits(envido_call=30, real_envido_call=33, envido_accept=30, envido_raise=32,
                    truco_call=0.8, truco_accept=0.6, truco_raise=0.9, respect=0.15)
