"""``calling-station`` (el que quiere todo): accepts nearly every bet, rarely raises or calls.

The player who hates to be pushed around: "quiero" to any envido unless its tanto is a bare figure,
"quiero" to any truco unless the hand is hopeless, no respect for the caller. It seldom bets on its
own and almost never raises.
"""

from __future__ import annotations

from truco.bots.styles.player import Habits, StylePlayer


class CallingStation(StylePlayer):
    level = "calling-station"
    habits = Habits(envido_call=29, real_envido_call=34, envido_accept=4, envido_raise=34,
                    truco_call=0.74, truco_accept=0.1, truco_raise=0.95, respect=0.0)
