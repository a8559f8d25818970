"""``early-mazo`` (el que se va al mazo): folds the hand when the first cards look bad.

Before its first card, when it likes its hand little (less than about one chance in three), it goes
to the mazo rather than play it out, giving the rivals the hand (and the envido point while the
envido was still open). Otherwise it plays an ordinary game.
"""

from __future__ import annotations

from truco.bots.styles.player import Habits, StylePlayer


class EarlyMazo(StylePlayer):
    level = "early-mazo"
    habits = Habits(mazo_below=0.3)
