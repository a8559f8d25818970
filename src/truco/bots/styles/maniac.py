"""``maniac`` (el que va a todo): bets the most it can, every time, and raises every bet it hears.

The player who never lets a hand go quietly: it opens a real envido on every first turn it can,
raises any envido to a real envido and a real envido to the falta, calls truco on every turn it may
and the retruco and vale cuatro after it, and answers every truco with the next bet up — whatever
it holds. Its card play is anyone's. Nothing it says tells anything about its cards, which is the
test: a reader that takes a bet as cards folds to it every hand.
"""

from __future__ import annotations

from truco.bots.styles.player import Habits, StylePlayer


class Maniac(StylePlayer):
    level = "maniac"
    habits = Habits(envido_call=0, real_envido_call=0, envido_accept=-10, envido_raise=-10,
                    truco_call=-1.0, truco_accept=-1.0, truco_raise=-1.0, respect=0.0)
