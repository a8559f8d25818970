"""Every player the arena knows by name: the table's levels, the styles, and the attackers.

Only the levels (``registry.LEVELS``) can be picked at a table. The styles are caricatures kept as
measuring instruments, and an attacker needs to be told its target and takes far longer per
decision than a person would wait; both exist to measure the levels, so they live here, not there.
"""

from __future__ import annotations

from truco.bots.attacker import Attacker
from truco.bots.base import Bot
from truco.bots.registry import ALL_LEVELS, make_bot
from truco.bots.styles import STYLES, YARDSTICKS, make_style

ATTACK = "attack:"
"""``attack:<level>`` is the best-response search against that level (``attacker.Attacker``)."""
ATTACK_AS = "attack-as:"
"""``attack-as:<level>`` starts from the level's own choice and leaves it where the search finds a gain
(``Attacker(anchored=True)``): the attacker for 4 players, where ``attack:`` reads too little."""
ATTACKERS: tuple[str, ...] = tuple(prefix + level for prefix in (ATTACK, ATTACK_AS) for level in ALL_LEVELS)
NAMES: tuple[str, ...] = (*ALL_LEVELS, *STYLES, *YARDSTICKS, *ATTACKERS)


def check_name(name: str) -> str:
    if name not in NAMES:
        raise ValueError(f"unknown player {name!r} (levels: {', '.join(ALL_LEVELS)}; styles: "
                         f"{', '.join(STYLES + YARDSTICKS)}; attackers: {ATTACK}<level>, {ATTACK_AS}<level>)")
    return name


def make_player(name: str, seed: int = 0) -> Bot:
    """A player by name; for a level this is exactly ``make_bot(level, seed)``."""
    check_name(name)
    if name in ALL_LEVELS:
        return make_bot(name, seed)
    if name in STYLES or name in YARDSTICKS:
        return make_style(name, seed)
    if name.startswith(ATTACK_AS):
        return Attacker(name.removeprefix(ATTACK_AS), seed, anchored=True)
    return Attacker(name.removeprefix(ATTACK), seed)
