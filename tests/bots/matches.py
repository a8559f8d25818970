"""Views from real matches played by bots, for the bot tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

from truco.bots import make_bot
from truco.bots.arena import next_action
from truco.engine import Rules, SeatView, State, apply, new_match, next_hand, public_view, view_for


def views_of_a_match(rules: Rules, seed: int, level: str = "normal", max_hands: int = 4,
                     score: tuple[int, int] = (0, 0)) -> Iterator[tuple[State, SeatView]]:
    """Every seat view that had something to do in a few hands played by ``level`` bots (from
    ``score``: a pica-pica table plays its duels from 5 points on)."""
    rng = random.Random(seed)
    bots = [make_bot(level, seed * 10 + s) for s in range(rules.players)]
    st, _ = new_match(rules, dealer=rng.randrange(rules.players), seed=rng.getrandbits(64), score=score)
    hands = 1
    while True:
        if st.hand_over:
            if st.match_over or hands >= max_hands:
                return
            st, _ = next_hand(st, seed=rng.getrandbits(64))
            hands += 1
            continue
        pub = public_view(st)
        for s in pub.to_act:
            yield st, view_for(st, s, pub)
        st, _ = apply(st, next_action(st, bots))
