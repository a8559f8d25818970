"""``envido-maniac`` (el envidador): every envido it may call, it calls; every one it is asked, it takes.

Opens the envido on every first turn it can (real envido from 28), answers a truco in the first
round with the envido ("el envido está primero"), accepts every envido, real envido and falta
envido, and raises with 27 or more. Its truco is an ordinary player's.
"""

from __future__ import annotations

from truco.bots.styles.player import Habits, StylePlayer


class EnvidoManiac(StylePlayer):
    level = "envido-maniac"
    habits = Habits(envido_call=0, real_envido_call=28, envido_accept=-10, envido_raise=27)
