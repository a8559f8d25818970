"""``bluffer`` (el mentiroso): calls truco and envido with weak hands, often.

The player who lies for fun: on a weak hand it calls truco in nearly half the spots where it may,
raises a truco it cannot hold one time in five, and opens the envido with nothing three times in
ten. With good cards it plays like anyone, a little keener to call.
"""

from __future__ import annotations

from truco.bots.styles.player import Habits, StylePlayer


class Bluffer(StylePlayer):
    level = "bluffer"
    habits = Habits(truco_call=0.6, bluff_truco=0.45, bluff_raise=0.2, bluff_envido=0.3, weak=0.4)
