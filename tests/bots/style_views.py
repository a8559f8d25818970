"""Views from real matches among styles and levels, shared by the style and attacker tests."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from truco.bots.arena import next_action
from truco.bots.roster import make_player
from truco.engine import Rules, SeatView, apply, new_match, next_hand, public_view, view_for


def views_from(rules: Rules, names: Sequence[str], seed: int, hands: int) -> Iterator[SeatView]:
    """Every view that had something to do in ``hands`` hands, seat ``s`` played by ``names[s % len]``."""
    bots = [make_player(names[s % len(names)], seed * 10 + s) for s in range(rules.players)]
    st, _ = new_match(rules, dealer=seed % rules.players, seed=seed)
    played = 1
    while True:
        if st.hand_over:
            if st.match_over or played >= hands:
                return
            st, _ = next_hand(st, seed=seed * 1000 + st.hand_no)
            played += 1
            continue
        pub = public_view(st)
        for s in pub.to_act:
            yield view_for(st, s, pub)
        st, _ = apply(st, next_action(st, bots))


def many_views(players: int, matches: int = 12, hands: int = 30) -> list[SeatView]:
    """Views from several matches where bluffers and envido maniacs make calls for others to answer."""
    mixes = (("bluffer", "normal"), ("envido-maniac", "calling-station"), ("tight", "bluffer"),
             ("normal", "envido-maniac"), ("loner", "bluffer"), ("early-mazo", "facil"))
    out: list[SeatView] = []
    for m in range(matches):
        out.extend(views_from(Rules(players=players), mixes[m % len(mixes)], seed=100 + m, hands=hands))
    return out
