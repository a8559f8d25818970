"""``trapper`` (el que se hace el muerto): never bets first; waits for the rivals to bet, then raises.

The player who plays dead: it never opens the envido and never calls a truco on its own turn,
whatever it holds, so its silence says nothing. Asked, it answers a little wider than the ordinary
player (an envido from 25, a truco from a feel of 0.40, with no respect for the caller) and raises
what it can beat: an envido to a real envido from 29 (a real envido to the falta from 31), a truco
to the retruco from a feel of 0.62. A reader that takes a quiet rival for a weak one bets into it.
"""

from __future__ import annotations

from truco.bots.styles.player import Habits, StylePlayer


class Trapper(StylePlayer):
    level = "trapper"
    habits = Habits(envido_call=99, real_envido_call=99, envido_accept=25, envido_raise=29,
                    truco_call=2.0, truco_accept=0.4, truco_raise=0.62, respect=0.0)
