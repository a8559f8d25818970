"""Card play read as evidence (``card_reading``): what a rival's card says about the cards it kept."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from truco.bots.card_reading import DIFICIL_1_RATES, play_likelihood, read_plays
from truco.bots.maestro import MaestroBot
from truco.bots.maestro_params import MaestroParams
from truco.bots.sampling import World
from truco.bots.tables import mask_of
from truco.bots.tricks import sensible_card
from truco.engine import Action, Do, Rules, SeatView, apply, new_match, parse_card, view_for
from truco.engine.cards import POWER, Card


def _cards(names: list[str]) -> list[Card]:
    return [parse_card(c) for c in names]


def _first_round(mine: list[str], rival: list[str], lead: str, follow: str) -> SeatView:
    """Mano a mano, seat 0 mano leads ``lead``, seat 1 follows with ``follow``: the view of the
    seat that leads round 2 (seat 0 when its card held)."""
    st, _ = new_match(Rules(players=2), dealer=1, hands=[_cards(mine), _cards(rival)])
    st, _ = apply(st, Action(0, Do.PLAY, parse_card(lead)))
    st, _ = apply(st, Action(1, Do.PLAY, parse_card(follow)))
    return view_for(st, st.turn)


def _share(view: SeatView, params: MaestroParams, held: Callable[[list[Card]], bool]) -> float:
    """The share of the worlds (ten decisions of seat 0) in which seat 1's unplayed cards satisfy
    ``held``."""
    played = {c for rnd in view.public.rounds for s, c in rnd if s == 1}
    n = hits = 0
    for seed in range(10):
        for w in MaestroBot(seed, params).decision(view).worlds:
            n += 1
            hits += held([c for c in w.hands[1] if c not in played])
    return hits / n


def test_a_rival_that_leaves_a_round_it_could_take_is_read_as_holding_no_card_that_takes_it():
    """Seat 1 throws a 4 on seat 0's 2 of copa: a sound player with a card that beats the 2 (an ace
    of espada or basto, a 7 of espada or oro, a 3) takes the round, so the worlds should give it
    one less often than the cards left unseen would."""
    view = _first_round(["2c", "5e", "6o"], ["4e", "5o", "6c"], "2c", "4e")
    assert view.seat == 0
    two = POWER[parse_card("2c")]
    off = replace(MaestroParams(), read_plays=False)

    def beats(rest: list[Card]) -> bool:
        return any(POWER[c] > two for c in rest)

    read, unread = _share(view, MaestroParams(), beats), _share(view, off, beats)
    assert read < 0.6 * unread, (read, unread)


def test_a_rival_that_takes_a_round_with_more_than_it_needs_is_read_as_holding_no_lower_winner():
    """Seat 1 takes seat 0's 4 of copa with the 3 of espada, then leads its 4 of oro: with a 5, a 6,
    a 12 or a 2 it would have taken the round for less, so the worlds should hold fewer of them as
    its last card."""
    st, _ = new_match(Rules(players=2), dealer=1, hands=[_cards(["4c", "5e", "6o"]),
                                                         _cards(["3e", "4o", "5o"])])
    for seat, card in ((0, "4c"), (1, "3e"), (1, "4o")):
        st, _ = apply(st, Action(seat, Do.PLAY, parse_card(card)))
    view = view_for(st, 0)
    four, three = POWER[parse_card("4c")], POWER[parse_card("3e")]
    off = replace(MaestroParams(), read_plays=False)

    def lower_winner(rest: list[Card]) -> bool:
        return any(four < POWER[c] < three for c in rest)

    read, unread = _share(view, MaestroParams(), lower_winner), _share(view, off, lower_winner)
    assert read < 0.6 * unread, (read, unread)


def test_a_first_round_lead_a_last_card_and_a_partners_card_are_not_read():
    """Any card leads a first round, and a last card is forced; a partner's cards are not the
    rivals'. Only a rival's card that followed, or led a later round with a choice, is read."""
    rules = Rules(players=4)
    st, _ = new_match(rules, dealer=3, seed=5)  # seat 0 is mano
    for _ in range(4):  # the first round: every seat plays its lowest card
        v = view_for(st, st.turn)
        play = min((a for a in v.legal if a.do is Do.PLAY), key=lambda a: POWER[a.card])  # type: ignore[index]
        st, _ = apply(st, play)
    reads = read_plays(view_for(st, 0).public, 0)
    assert [r.seat for r in reads] == [1, 3]  # seat 1 and 3 followed; seat 0 led, seat 2 is a partner
    assert all(not r.results and r.plays for r in reads)
    assert [r.seat for r in read_plays(view_for(st, 1).public, 1)] == [2]  # seat 0 led it


def test_a_world_that_explains_the_card_played_weighs_more_than_one_that_does_not():
    view = _first_round(["2c", "5e", "6o"], ["4e", "5o", "6c"], "2c", "4e")
    reads = read_plays(view.public, 0)
    (r,) = reads
    assert r.seat == 1 and r.card == parse_card("4e")
    mine = _cards(["2c", "5e", "6o"])

    def world(rival: list[str]) -> World:
        hands = [tuple(mine), tuple(_cards(rival))]
        return World(hands, [mask_of(h) for h in hands])

    weak = play_likelihood(world(["4e", "5o", "6c"]), reads, (DIFICIL_1_RATES, DIFICIL_1_RATES))
    strong = play_likelihood(world(["4e", "1e", "6c"]), reads, (DIFICIL_1_RATES, DIFICIL_1_RATES))
    assert weak > 3 * strong


def _played_out(hand_no: int, rival_cards: list[str], follow_high: bool,
                mine: tuple[str, ...] = ("4c", "1e", "12o")) -> SeatView:
    """Mano a mano, seat 0 mano plays the sound card (``sensible_card``'s); seat 1 its highest card
    (``follow_high``) or the sound one too, and the hand is played to its end: seat 0's last view,
    as hand ``hand_no`` of the match."""
    st, _ = new_match(Rules(players=2), dealer=1, hands=[_cards(list(mine)), _cards(rival_cards)])
    while not st.hand_over:
        v = view_for(st, st.turn)
        plays = [a for a in v.legal if a.do is Do.PLAY]
        if st.turn == 0 or not follow_high:
            card = sensible_card(st.held[st.turn], st.turn, st.plays, st.results)
            action = Action(st.turn, Do.PLAY, card)
        else:
            action = max(plays, key=lambda a: POWER[a.card])  # type: ignore[index]
        st, _ = apply(st, action)
    view = view_for(st, 0)
    return replace(view, public=replace(view.public, hand_no=hand_no))


def test_a_rival_that_throws_any_card_is_soon_read_as_saying_nothing_by_its_cards():
    """The rates a rival's cards are read with move to what its cards showed in the hands it played
    out: a team that always spends its highest card where a lower one takes the round is read, after
    a few hands, as playing the sound card seldom; one that plays soundly, as often as before or more.
    Only hands played out count: there every card of the rival is known."""
    params = MaestroParams()
    prior = params.play_rates.rate(2, False)  # a first-round round it can take

    def profile(follow_high: bool) -> tuple[float, int]:
        memory = MaestroBot(1).memory
        for h in range(1, 7):
            memory.see(_played_out(h, ["5o", "6c", "7c"], follow_high))
        rival = memory.all_profiles(params)[1]
        rates = rival.play_rates(params.play_rates, params.play_weight)
        return rates.rate(2, False), rival.plays_read[2][0]

    rate, seen = profile(True)
    assert seen == 6 and rate < prior - 0.2
    rate, seen = profile(False)
    assert seen == 6 and rate > prior


def test_a_hand_won_before_its_last_card_still_teaches_how_the_rival_plays():
    """A hand that ends with a card of the rival unseen (won in two rounds) counts its readable
    cards too: each is judged on every hand the unseen card could complete, a share of a card for
    each. A rival that takes the first round with its highest card, where a lower one would do, is
    read as such from those hands alone; before, only hands played out to the last card taught."""
    params = MaestroParams()
    prior = params.play_rates.rate(2, False)
    memory = MaestroBot(1).memory
    for h in range(1, 7):
        view = _played_out(h, ["7o", "3e", "2c"], True, mine=("4c", "5c", "6o"))
        assert view.public.hand_over and len(view.public.rounds) == 2  # the 2c was never seen
        memory.see(view)
    rival = memory.all_profiles(params)[1]
    rates = rival.play_rates(params.play_rates, params.play_weight)
    assert rival.plays_read[2][0] == pytest.approx(6.0)  # one card a hand, whatever the third was
    assert rival.plays_sound[2][0] == pytest.approx(0.0)  # no third card makes the 7o the sound one
    assert rates.rate(2, False) < prior - 0.2
