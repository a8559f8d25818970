"""``maestro`` fixes what an outside opponent found in ``dificil`` (issue 13), checked against
``dificil-1`` on the same views from real matches, and it remembers how this opponent plays."""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache

from tests.bots.style_views import many_views
from truco.bots import make_bot
from truco.bots.arena import play_match
from truco.bots.base import ENVIDO_BETS
from truco.bots.envido_reading import EnvidoReading
from truco.bots.equity import falta_points
from truco.bots.evidence import Evidence, chance, judged_chance
from truco.bots.maestro import MaestroBot, MaestroDecision
from truco.bots.maestro_params import MaestroParams, for_table
from truco.bots.profile import Profile, tanto_share
from truco.bots.roster import make_player
from truco.bots.tables import STRENGTH_OF, TANTO_OF, mask_of
from truco.bots.truco_reading import read_call
from truco.engine import Action, Do, Rules, SeatView, apply, new_match, parse_card, view_for
from truco.engine.cards import POWER


@cache
def views() -> tuple[SeatView, ...]:
    return (*many_views(2), *many_views(4))


def test_maestro_never_calls_or_raises_a_falta_envido_on_27_or_28_when_it_pays_more_than_a_real_envido():
    spots = [v for v in views() if any(a.do is Do.FALTA_ENVIDO for a in v.legal) and v.my_tanto in (27, 28)
             and falta_points(v.public, v.team) > 3]
    assert len(spots) > 50
    maestro, old = make_bot("maestro", 1), make_bot("dificil-1", 1)
    assert sum(maestro.choose(v).do is Do.FALTA_ENVIDO for v in spots) == 0
    assert sum(old.choose(v).do is Do.FALTA_ENVIDO for v in spots) >= 5  # the weakness it fixes


def _last_and_lost(v: SeatView) -> bool:
    p = v.public
    if p.turn != v.seat or p.pending is not None or len(v.cards) < 2:
        return False
    plays = p.rounds[-1] if len(p.rounds) > len(p.results) else ()
    if len(plays) != p.rules.players - len(p.folded) - 1:
        return False
    best = max(POWER[c] for _, c in plays)
    return all(POWER[c] < best for c in v.cards)


def test_maestro_throws_its_lowest_card_when_it_plays_last_and_cannot_take_the_round():
    spots = [v for v in views() if v.public.rules.players == 4 and _last_and_lost(v)]
    assert len(spots) > 50
    maestro, old = make_bot("maestro", 1), make_bot("dificil-1", 1)

    def not_lowest(a: Action, v: SeatView) -> bool:
        return a.do is Do.PLAY and a.card != min(v.cards, key=POWER.__getitem__)

    assert sum(not_lowest(maestro.choose(v), v) for v in spots) == 0
    assert sum(not_lowest(old.choose(v), v) for v in spots) >= 3  # the weakness it fixes


def _raised_shares(players: int) -> list[float]:
    """The share of its worlds won behind each retruco or vale cuatro a fresh ``maestro`` makes when
    it answers a truco, over the test views of ``players``."""
    spots = [v for v in many_views(players) if v.public.pending == "truco"
             and any(a.do in (Do.RETRUCO, Do.VALE_CUATRO) for a in v.legal)][:80]
    assert len(spots) > 40
    bot, shares = MaestroBot(1), []
    for v in spots:
        if bot.choose(v).do in (Do.RETRUCO, Do.VALE_CUATRO):
            shares.append(bot.last_won_share)
    return shares


def test_maestro_raises_a_truco_only_when_it_wins_in_half_its_worlds_mano_a_mano():
    shares = _raised_shares(2)
    assert shares and min(shares) >= MaestroParams().raise_min * (1 - MaestroParams().passive_prior)


def test_maestro_raises_a_truco_in_4_players_only_when_it_wins_in_four_fifths_of_its_worlds():
    """The regret bench found its 4-player raises, alone of its bets, below their alternatives;
    a raise there needs ``team_raise_min`` of the worlds won (0.8), against a half mano a mano."""
    params = MaestroParams()
    assert params.team_raise_min == 0.8 and params.raise_min == 0.5
    shares = _raised_shares(4)
    assert shares and min(shares) >= params.team_raise_min * (1 - params.passive_prior)


def _late_truco(rival_hand: list[str], other_hand: list[str], first: tuple[str, str], lead: str) -> SeatView:
    """Mano a mano, seat 0 mano: round 1 is ``first`` (seat 0's card, seat 1's); the winner of it
    leads ``lead`` in round 2 when it is seat 0, and seat 1 (the rival) calls truco at its turn
    there, is taken, and plays its lowest card until the hand ends: seat 0's last view."""
    hands = [[parse_card(c) for c in other_hand], [parse_card(c) for c in rival_hand]]
    st, _ = new_match(Rules(players=2), dealer=1, hands=hands)
    st, _ = apply(st, Action(0, Do.PLAY, parse_card(first[0])))
    st, _ = apply(st, Action(1, Do.PLAY, parse_card(first[1])))
    called = False
    while not st.hand_over:
        seat = next(s for s in (0, 1) if view_for(st, s).legal)
        legal = view_for(st, seat).legal
        if seat == 1 and not called and any(a.do is Do.TRUCO for a in legal):
            action, called = next(a for a in legal if a.do is Do.TRUCO), True
        elif any(a.do is Do.QUIERO for a in legal):
            action = next(a for a in legal if a.do is Do.QUIERO)
        else:
            plays = [a for a in legal if a.do is Do.PLAY]
            action = next((a for a in plays if a.card == parse_card(lead)), None) or min(
                plays, key=lambda a: POWER[a.card])  # type: ignore[index]
        st, _ = apply(st, action)
    assert called
    return view_for(st, 0)


def test_maestro_learns_how_often_this_opponent_bluffs_at_truco():
    """A late truco whose caller's cards the hand showed is judged a bluff or a value call, and the
    team's rate of bluffs moves off the prior: up for a rival who called with 4–5–6 after losing
    the first round, down for one who called with the aces after winning it."""
    params = MaestroParams()
    prior = params.late_bluff_prior

    def rate(*hands: SeatView) -> Profile:
        memory = MaestroBot(1).memory
        for view in hands:
            memory.see(view)
        return memory.all_profiles(params)[1]

    first = _late_truco(["4c", "5o", "6b"], ["7e", "1b", "3o"], ("7e", "4c"), "1b")
    second = _late_truco(["4o", "5c", "6c"], ["7o", "1b", "2e"], ("7o", "4o"), "1b")
    second = replace(second, public=replace(second.public, hand_no=2))  # the next hand of the match
    bluffer = rate(first, second)
    assert bluffer.calls[1] == 2 and bluffer.bluffs[1] == 2
    assert bluffer.bluff_rate(True, prior) > prior[0] / sum(prior) + 0.1
    honest = rate(_late_truco(["1e", "1b", "3c"], ["4c", "5o", "7o"], ("4c", "3c"), "5o"))
    assert honest.calls[1] == 1 and honest.bluffs[1] == 0
    assert honest.bluff_rate(True, prior) < prior[0] / sum(prior)


def test_a_truco_caller_is_judged_by_the_round_on_the_table():
    by_power = sorted(range(40), key=POWER.__getitem__)
    low, mid, top = by_power[2], by_power[20], by_power[39]
    hand = mask_of([low, mid, top])
    plain = chance(2, "", STRENGTH_OF[hand])
    # the rival led a low card: the caller takes the round with its middle card and keeps its top
    assert judged_chance(2, "", hand, 1, ((0, by_power[5]),), 1, 0) > plain
    # the rival led the top card: the round is lost
    assert judged_chance(2, "", hand, 1, ((0, by_power[38]),), 1, 0) < plain / 2
    # a weak hand facing a middle card has next to nothing: a call there is a bluff
    assert judged_chance(2, "", mask_of(by_power[:3]), 1, ((0, mid),), 1, 0) < 0.05
    # a round won and the second one taken settle the hand
    assert judged_chance(2, "W", mask_of([mid, top]), 1, ((0, low),), 1, 0) == 1.0
    # in 4 players, while the caller's partner may still take the round, only its cards count
    weaker = mask_of([low, mid, by_power[30]])
    table = ((0, top), (2, by_power[1]))
    assert judged_chance(4, "", weaker, 1, table, 2, 1) == chance(4, "", STRENGTH_OF[weaker])


def test_maestro_reads_a_retruco_as_rarely_a_bluff_and_a_first_round_truco_as_cards():
    spots = [v for v in views() if v.public.pending == "truco"
             and v.public.pending_call in (Do.RETRUCO, Do.VALE_CUATRO)][:20]
    assert spots
    params = MaestroParams()
    for v in spots:
        decision = MaestroDecision(v, random.Random(1), params, [Profile(), Profile()])
        raises = [e for e in decision.evidence() if e.kind == 2 and e.centre > 0.7]
        assert raises
        assert all(e.floor <= 0.05 and e.slope == params.call_slope for e in raises)
    fresh = Profile()
    assert fresh.raise_bluff_rate(params.raise_bluff_prior) < fresh.bluff_rate(True, params.late_bluff_prior)


def _team_answers(kind: str) -> list[SeatView]:
    return [v for v in many_views(4) if v.public.pending == kind and len(v.public.to_act) > 1]


def test_maestro_votes_as_one_voter_of_its_team():
    """The team takes a bet when any voter does: a vote decides only where the partners decline,
    so a weak tanto does not take an envido on the chance that the partner holds one."""
    spots = [v for v in _team_answers("envido") if v.my_tanto < 20]
    assert len(spots) > 50
    alone = MaestroBot(1, MaestroParams(team_vote=False))
    voter = MaestroBot(1)

    def accepts(bot: MaestroBot) -> int:
        return sum(bot.choose(v).do is not Do.NO_QUIERO for v in spots)

    assert accepts(voter) < accepts(alone)
    v = spots[0]
    decision = MaestroDecision(v, random.Random(1), MaestroParams(), [Profile(), Profile()])
    weights = decision.vote_weights()
    assert weights is not None and len(weights) == len(decision.worlds)
    partner = next(s for s in v.public.to_act if s != v.seat)
    plain = sum(TANTO_OF[w.masks[partner]] for w in decision.worlds) / len(weights)
    pairs = zip(weights, decision.worlds, strict=True)
    weighed = sum(x * TANTO_OF[w.masks[partner]] for x, w in pairs) / sum(weights)
    assert weighed < plain  # the worlds where this vote counts are those where the partner is weak
    assert MaestroDecision(v, random.Random(1), MaestroParams(team_vote=False),
                           [Profile(), Profile()]).vote_weights() is None


def test_maestro_expects_its_truco_to_be_taken_less_than_a_rational_rival_would():
    """A rival reads our call as cards: the model of its answer asks for more than the rational
    threshold after the first round, and an opponent that has not answered yet is modelled that way."""
    spots = [v for v in views() if v.public.pending is None and v.public.turn == v.seat and v.public.results
             and any(a.do is Do.TRUCO for a in v.legal)][:30]
    assert len(spots) >= 10
    shifted, plain = MaestroParams(), MaestroParams(answer_shift=0.0)
    assert shifted.answer_shift > 0
    fewer = 0
    for v in spots:
        a = MaestroDecision(v, random.Random(1), shifted, [Profile(), Profile()])
        b = MaestroDecision(v, random.Random(1), plain, [Profile(), Profile()])
        mean_a = sum(a.accepts_truco(w, 1) for w in a.worlds) / len(a.worlds)
        mean_b = sum(b.accepts_truco(w, 1) for w in b.worlds) / len(b.worlds)
        assert mean_a <= mean_b + 1e-9
        fewer += mean_a < mean_b - 0.01
    assert fewer >= len(spots) // 2


def test_a_table_of_more_than_four_draws_fewer_worlds_so_a_decision_costs_about_the_same():
    """Each world is a playout of every seat's cards: at 6 and 8 players maestro draws half its
    worlds (of the high-stakes ones too); at 2 and 4, and in a pica-pica's duel of two, all."""
    params = MaestroParams()
    for players, share in ((2, 1.0), (4, 1.0), (6, 0.5), (8, 0.5)):
        st, _ = new_match(Rules(players=players), dealer=0, seed=7)
        got = for_table(params, view_for(st, 1))
        assert (got.worlds, got.candidates) == (params.worlds * share, params.candidates * share)
    st, _ = new_match(Rules(players=6), dealer=0, seed=7, score=(25, 3))  # within 6 of the end
    assert for_table(params, view_for(st, 1)).worlds == params.high_worlds // 2
    st, _ = new_match(Rules(players=4), dealer=0, seed=7, score=(25, 3))
    assert for_table(params, view_for(st, 1)).worlds == params.high_worlds
    st, _ = new_match(Rules(players=6, pica_pica=True), dealer=0, seed=7, score=(10, 12), pica=True)
    assert view_for(st, 1).public.pica and for_table(params, view_for(st, 1)).worlds == params.worlds


def test_a_raise_needs_more_of_the_worlds_where_teams_play_the_hand():
    """``for_table`` gives a retruco or vale cuatro ``team_raise_min`` of the worlds at 4 seats and
    more, and ``raise_min`` mano a mano and in a pica-pica's duel of two."""
    params = MaestroParams()
    for players, needed in ((2, params.raise_min), (4, params.team_raise_min), (6, params.team_raise_min),
                            (8, params.team_raise_min)):
        st, _ = new_match(Rules(players=players), dealer=0, seed=7)
        assert for_table(params, view_for(st, 1)).raise_min == needed
    st, _ = new_match(Rules(players=6, pica_pica=True), dealer=0, seed=7, score=(10, 12), pica=True)
    assert for_table(params, view_for(st, 1)).raise_min == params.raise_min


def _declined_falta(caller_hand: list[str], other_hand: list[str], plays: int) -> SeatView:
    """Seat 1 calls a falta envido at its first turn, seat 0 declines it, and then each plays its
    cards in order, ``plays`` cards in all (no truco): seat 0's last view of the hand."""
    hands = [[parse_card(c) for c in other_hand], [parse_card(c) for c in caller_hand]]
    st, _ = new_match(Rules(players=2), dealer=1, hands=hands)
    played = 0
    called = False
    while not st.hand_over and played < plays:
        seat = next(s for s in (0, 1) if view_for(st, s).legal)
        legal = view_for(st, seat).legal
        falta = next((a for a in legal if a.do is Do.FALTA_ENVIDO), None)
        if seat == 1 and not called and falta is not None:
            action, called = falta, True
        elif any(a.do is Do.NO_QUIERO for a in legal):
            action = next(a for a in legal if a.do is Do.NO_QUIERO)
        else:
            action = next(a for a in legal if a.do is Do.PLAY)
            played += 1
        st, _ = apply(st, action)
    assert called
    return view_for(st, 0)


def test_a_declined_envido_bluff_is_exposed_by_the_cards_its_caller_plays_later():
    """A falta envido that is declined is never sung: without its cards a rival who bluffs only
    where we fold would look honest all match. Its cards, once played, tell its tanto."""
    params = MaestroParams()
    # the ancho de espadas, 4 de oros, 5 de copas: tanto 5, a bluff, seen in full over three rounds
    memory = MaestroBot(1).memory
    memory.see(_declined_falta(["1e", "4o", "5c"], ["3b", "2c", "7c"], plays=6))
    prof = memory.all_profiles(params)[1]
    assert (prof.envido_shown[1], prof.envido_bluffs[1]) == (1, 1)
    prior = params.falta_bluff_prior
    assert prof.envido_floor(True, prior) > Profile().envido_floor(True, prior)
    # 6 and 7 de espadas: 33 whatever the third card, a value call, told by two cards
    memory = MaestroBot(1).memory
    memory.see(_declined_falta(["6e", "7e", "4o"], ["1b", "7o", "3b"], plays=4))
    prof = memory.all_profiles(params)[1]
    assert (prof.envido_shown[1], prof.envido_bluffs[1]) == (1, 0)
    # one card seen (the ancho): the other two may make anything, so nothing is counted
    memory = MaestroBot(1).memory
    memory.see(_declined_falta(["1e", "4o", "5c"], ["3b", "2c", "7c"], plays=2))
    prof = memory.all_profiles(params)[1]
    assert prof.envido_shown == [0, 0]


def _envido_hand(hand_no: int, seed: int, call: bool) -> SeatView:
    """Seat 1 (mano) opens the envido at its first turn if ``call``, seat 0 declines, and the hand is
    played out card by card: seat 0's last view of it."""
    st, _ = new_match(Rules(players=2), dealer=0, seed=seed, hand_no=hand_no)
    while not st.hand_over:
        seat = next(s for s in (0, 1) if view_for(st, s).legal)
        legal = view_for(st, seat).legal
        envido = next((a for a in legal if a.do is Do.ENVIDO), None)
        if seat == 1 and call and envido is not None:
            action = envido
        elif any(a.do is Do.NO_QUIERO for a in legal):
            action = next(a for a in legal if a.do is Do.NO_QUIERO)
        else:
            action = next(a for a in legal if a.do is Do.PLAY)
        st, _ = apply(st, action)
    return view_for(st, 0)


def _facing_envido(seed: int) -> SeatView:
    """A fresh deal where seat 1 (mano) opens with an envido: seat 0's view, to answer it."""
    st, _ = new_match(Rules(players=2), dealer=0, seed=seed, hand_no=9)
    st, _ = apply(st, next(a for a in view_for(st, 1).legal if a.do is Do.ENVIDO))
    return view_for(st, 0)


def test_a_rival_who_opens_the_envido_on_most_hands_is_read_as_calling_with_any_hand():
    """A bluff that is folded to is never sung, so the sung tantos never see it. How often a rival
    opens the envido tells it: far above the share of hands that hold a tanto, it is read as
    calling with any hand, and its envido is taken more often."""
    share = tanto_share(MaestroParams().envido_bluff_tanto)
    assert 0.40 < share < 0.46
    params = MaestroParams()

    def memory_of(calls: set[int]) -> MaestroBot:
        bot = MaestroBot(3)
        for h in range(1, 9):
            bot.memory.see(_envido_hand(h, 100 + h, call=h in calls))
        return bot

    prof = memory_of(set(range(1, 9))).memory.all_profiles(params)[1]
    assert prof.envido_chances == [8, 8]
    assert prof.envido_any_rate(share) > 0.6
    # never sung; the cards told the tanto of half of them, which moves the sung floor by less
    assert prof.envido_any_rate(share) > prof.envido_floor(False, params.envido_bluff_prior) + 0.2
    # a rival who opened on two hands of eight, as an honest caller does, reads as honest
    prof = memory_of({2, 5}).memory.all_profiles(params)[1]
    assert prof.envido_chances == [8, 2] and prof.envido_any_rate(share) == 0.0
    # the same bot, the same spots: it takes the envido more often against the first
    taken = {"honest": 0, "any hand": 0}
    for seed in range(40):
        spot = _facing_envido(seed)
        taken["honest"] += memory_of({2, 5}).choose(spot).do is not Do.NO_QUIERO
        taken["any hand"] += memory_of(set(range(1, 9))).choose(spot).do is not Do.NO_QUIERO
    assert taken["any hand"] >= taken["honest"] + 5, taken


def test_dificil_1_opening_the_envido_reads_as_honest():
    """The mark opens the envido about as often as hands hold a tanto: the read leaves it alone.
    Pooled over 16 matches (about 200 chances): with one change to ``maestro``'s own envido, 6 matches
    (about 50 chances) read the mark at 6 % and 16 matches of the same change at 0.2 %: the sample
    moved, not the mark."""
    share = tanto_share(MaestroParams().envido_bluff_tanto)
    rates = []
    pooled = Profile()
    for m in range(16):
        bot = MaestroBot(10 + m)
        play_match(Rules(players=2), [bot, make_bot("dificil-1", 20 + m)], dealer=m % 2,
                   seeds=lambda h, m=m: 1000 * m + h)
        prof = bot.memory.all_profiles(MaestroParams())[1]
        rates.append(prof.envido_any_rate(share))
        pooled.envido_chances = [x + y for x, y in
                                 zip(pooled.envido_chances, prof.envido_chances, strict=True)]
    assert pooled.envido_chances[0] >= 150
    assert pooled.envido_any_rate(share) < 0.02, pooled.envido_chances
    # a match reads a handful of chances: most read it as honest, none as calling on most hands
    assert sorted(rates)[len(rates) // 2] < 0.05, rates
    assert max(rates) < 0.3, rates


def _falta_over_envido(score: tuple[int, int]) -> SeatView:
    """Seat 0 (mano) calls envido, seat 1 raises to the falta: seat 0's view, at ``score``."""
    st, _ = new_match(Rules(players=2), dealer=1, seed=5, score=score)
    st, _ = apply(st, next(a for a in view_for(st, 0).legal if a.do is Do.ENVIDO))
    st, _ = apply(st, next(a for a in view_for(st, 1).legal if a.do is Do.FALTA_ENVIDO))
    return view_for(st, 0)


def test_a_falta_envido_that_pays_no_more_than_a_real_envido_is_read_as_one():
    """Near the end a falta stakes what a real envido does, and a caller uses it on a real envido's
    tanto: read as a falta that stakes the match (30, 3 % bluffs) it is folded to too often."""
    params = MaestroParams()

    def falta_reading(score: tuple[int, int]) -> tuple[float, float]:
        view = _falta_over_envido(score)
        decision = MaestroDecision(view, random.Random(1), params, [Profile(), Profile()])
        (raise_,) = [e for e in decision.evidence() if e.kind == 1]
        return raise_.centre, raise_.floor

    falta_floor = Profile().envido_floor(True, params.falta_bluff_prior)
    assert falta_reading((5, 3)) == (params.falta_caller, falta_floor)
    centre, floor = falta_reading((26, 20))  # the falta pays 4
    assert centre < params.falta_caller
    assert floor == Profile().envido_floor(False, params.envido_bluff_prior) > 0.05


def _envido_answered(raise_it: bool, hand_no: int) -> SeatView:
    """Seat 1 (mano) opens the envido and seat 0 raises it with another envido, which seat 1 takes
    (``raise_it``); or seat 0 opens it at its first turn and seat 1 declines. Seat 0's last view."""
    st, _ = new_match(Rules(players=2), dealer=0, seed=200 + hand_no, hand_no=hand_no)
    while not st.hand_over:
        seat = next(s for s in (0, 1) if view_for(st, s).legal)
        legal = view_for(st, seat).legal
        dos = {a.do: a for a in legal}
        if raise_it and Do.ENVIDO in dos and len(st.envido_chain) == 1 - seat:  # 1 opens, 0 raises
            action = dos[Do.ENVIDO]
        elif raise_it and Do.QUIERO in dos:
            action = dos[Do.QUIERO]
        elif not raise_it and seat == 0 and Do.ENVIDO in dos:
            action = dos[Do.ENVIDO]
        elif Do.NO_QUIERO in dos:
            action = dos[Do.NO_QUIERO]
        else:
            action = next(a for a in legal if a.do is Do.PLAY)
        st, _ = apply(st, action)
    return view_for(st, 0)


def test_a_raise_of_a_rivals_own_envido_is_priced_by_how_it_took_raises_not_by_its_folds():
    """A team that called the envido holds a tanto: it takes a raise of its call far more often
    than a bet it did not ask for (``dificil-1`` declined 86 % of ``maestro``'s first envidos and
    took 19 of 29 raises of its own). One record for both read its folds into the raises, and
    ``maestro`` raised expecting a fold and lost 14 of 19 such envidos in 4 players."""
    params = MaestroParams()
    memory = MaestroBot(2).memory
    for h in range(1, 8):
        memory.see(_envido_answered(raise_it=h > 4, hand_no=h))
    prof = memory.all_profiles(params)[1]
    assert prof.envido_answered == [4, 3] and prof.envido_folds == [4, 0]

    # facing the rival's envido, the chance it takes our raise: its folds to our first envidos
    # leave it where the model has it; its record of taking raises does not lower it
    folds_first, folds_raises, took_raises = Profile(), Profile(), Profile()
    folds_first.envido_answered, folds_first.envido_folds = [8, 0], [8, 0]
    folds_raises.envido_answered, folds_raises.envido_folds = [0, 8], [0, 8]
    took_raises.envido_answered, took_raises.envido_folds = [0, 8], [0, 0]

    def taken(rival: Profile) -> float:
        decision = MaestroDecision(_facing_envido(7), random.Random(1), params, [Profile(), rival])
        chain = (Do.ENVIDO, Do.ENVIDO)
        return sum(decision.accepts_envido(w, chain) for w in decision.worlds) / len(decision.worlds)

    model = taken(Profile())
    assert taken(folds_first) == model
    assert taken(folds_raises) < model / 3
    # 8 takes in 8 read as 94 % (half a fold in the estimate): never much under the model
    assert taken(took_raises) >= min(model, 1.0 - 0.5 / 9) - 0.02


def test_a_quiero_vote_does_not_cap_the_raise_of_a_partner_who_signed_its_tanto():
    """A team answers with the mildest vote that takes the bet on (``reconsider``): a weaker
    partner's "quiero" turns the raise of a partner who holds the tanto into a plain acceptance.
    With the partner's "tengo envido" in its señas, ``maestro`` counts what its "quiero" would cap
    and leaves the answer to that partner more often than a voter blind to the partner's raise."""
    spots = []
    for v in _team_answers("envido"):
        partner = next(s for s in v.public.to_act if s != v.seat)
        if v.my_tanto < 27 and any(a.do in (Do.ENVIDO, Do.REAL_ENVIDO) for a in v.legal):
            spots.append(replace(v, senas=((partner, "tengo_envido"),)))
    assert len(spots) > 20
    blind = MaestroBot(1, MaestroParams(partner_raise_tanto=99.0))
    deferring = MaestroBot(1)

    def quieros(bot: MaestroBot) -> int:
        return sum(bot.choose(v).do is Do.QUIERO for v in spots)

    assert quieros(deferring) < quieros(blind)
    costs = []
    for v in spots:
        d = MaestroDecision(v, random.Random(1), MaestroParams(), [Profile(), Profile()])
        d._vote_w = d.vote_weights()
        costs.append(d.quiero_cost(v.public.envido_chain, d.envido_wins()))
    assert sum(costs) > 0  # the partner's raise pays more than the plain acceptance it would get
    alone = MaestroDecision(spots[0], random.Random(1), MaestroParams(team_vote=False),
                            [Profile(), Profile()])
    alone._vote_w = alone.vote_weights()  # answering alone: no partner's raise to cap
    assert alone.quiero_cost(spots[0].public.envido_chain, alone.envido_wins()) == 0.0


def _opened_with(call: Do, seed: int) -> SeatView:
    """Seat 0 (mano) opens the envido with ``call``: seat 1's view, to answer it."""
    st, _ = new_match(Rules(players=2), dealer=1, seed=seed)
    st, _ = apply(st, next(a for a in view_for(st, 0).legal if a.do is call))
    return view_for(st, 1)


def _caller_tantos(bot: MaestroBot, view: SeatView) -> list[int]:
    return [TANTO_OF[w.masks[0]] for w in bot.decision(view).worlds]


def test_an_opening_envido_is_read_as_a_band_of_tantos_a_bigger_hand_would_have_opened_bigger():
    """A plain envido opening speaks for a middling tanto: a caller holding 31 or more would have
    opened with a real envido or a falta. Read only as "enough to call" (``dificil``'s reading),
    a third of the worlds behind `dificil-1`'s plain openings held 30 or more where it held that
    much behind 2 % of them (4 players, 200 matches, seed 1)."""
    high_maestro = high_dificil = total = 0
    for seed in range(12):
        view = _opened_with(Do.ENVIDO, seed)
        tantos = _caller_tantos(MaestroBot(seed), view)
        old = [TANTO_OF[w.masks[0]] for w in make_bot("dificil", seed).decision(view).worlds]  # type: ignore[attr-defined]
        high_maestro += sum(t >= 31 for t in tantos)
        high_dificil += sum(t >= 31 for t in old)
        total += len(tantos)
    assert high_maestro < 0.5 * high_dificil
    assert high_maestro < 0.1 * total
    envido = [t for s in range(12) for t in _caller_tantos(MaestroBot(s), _opened_with(Do.ENVIDO, s))]
    real = [t for s in range(12) for t in _caller_tantos(MaestroBot(s), _opened_with(Do.REAL_ENVIDO, s))]
    high_real = sum(t >= 29 for t in real) / len(real)
    high_envido = sum(t >= 29 for t in envido) / len(envido)
    assert high_real > 1.5 * high_envido, (high_real, high_envido)  # a real envido speaks for more


def test_the_band_of_an_opening_moves_to_what_this_rival_sang_behind_it():
    """A rival who sang 33 behind its plain envidos is read at its word: its band moves up; one
    who always sings 27 behind them is read more narrowly than the prior."""
    env, real, spread, weight = MaestroParams().opening_prior
    prof = Profile()
    assert prof.opening_band(Do.ENVIDO, env, spread, weight) == (env, spread)
    prof.first_call_tantos[Do.ENVIDO] += [33, 33, 32, 33]
    mid, band = prof.opening_band(Do.ENVIDO, env, spread, weight)
    assert mid > 29.5 and mid + band > 32.0
    assert prof.opening_band(Do.REAL_ENVIDO, real, spread, weight) == (real, spread)
    steady = Profile()
    steady.first_call_tantos[Do.ENVIDO] += [27] * 12
    mid, band = steady.opening_band(Do.ENVIDO, env, spread, weight)
    assert mid == 27.0 and band < 0.6 * spread


def test_an_opening_falta_envido_is_read_from_the_top_tantos_with_few_worlds_under_27():
    """A falta opened at the first turn stakes the match: a caller opens it on its best tantos.
    Read as a soft threshold at 30 with a 3 % share of bluffs used as the rate at which any hand
    calls, 30 % of the worlds gave such a caller less than 27 (`dificil-1` held 29–33 behind 84 %
    of its faltas); read from a standard deviation under the faltas' tanto, with that share as a
    rate over the hands under it, 9 %."""
    maestro: list[int] = []
    dificil: list[int] = []
    for seed in range(12):
        view = _opened_with(Do.FALTA_ENVIDO, seed)
        maestro += _caller_tantos(MaestroBot(seed), view)
        dificil += [TANTO_OF[w.masks[0]] for w in make_bot("dificil", seed).decision(view).worlds]  # type: ignore[attr-defined]
    under = sum(t < 27 for t in maestro) / len(maestro)
    assert under < 0.15
    assert under < 0.5 * sum(t < 27 for t in dificil) / len(dificil)
    assert sum(t >= 29 for t in maestro) / len(maestro) > 0.6


def test_the_tanto_a_declined_opening_showed_in_its_cards_moves_the_band_a_bluff_does_not():
    """A declined opening is never sung, and in 4 players a lower tanto says "son buenas": the band
    of a rival's openings would learn almost nothing from the table. The caller's cards, once they
    tell its tanto, count as a sung tanto would; a bluff counts only against the floor."""
    params = MaestroParams()
    memory = MaestroBot(1).memory
    memory.see(_declined_falta(["6e", "7e", "4o"], ["1b", "7o", "3b"], plays=4))  # 33, two cards tell
    prof = memory.all_profiles(params)[1]
    assert prof.first_call_tantos[Do.FALTA_ENVIDO] == [33]
    mid, _, weight = params.falta_prior
    assert prof.opening_band(Do.FALTA_ENVIDO, mid, 2.0, weight)[0] > mid
    memory = MaestroBot(1).memory
    memory.see(_declined_falta(["1e", "4o", "5c"], ["3b", "2c", "7c"], plays=6))  # 5: a bluff
    prof = memory.all_profiles(params)[1]
    assert prof.first_call_tantos[Do.FALTA_ENVIDO] == []
    assert (prof.envido_shown[1], prof.envido_bluffs[1]) == (1, 1)
    memory = MaestroBot(1).memory
    memory.see(_declined_falta(["6e", "7e", "4o"], ["1b", "7o", "3b"], plays=2))  # one card: nothing
    assert memory.all_profiles(params)[1].first_call_tantos[Do.FALTA_ENVIDO] == []


@cache
def _rivals_chances(style: str, players: int, seeds: tuple[int, ...] = (3, 5, 7)) -> Profile:
    """The truco chances (by phase) and the envido raise chances of ``style``'s team as
    ``maestro``'s memory counted them, summed over whole matches against it (a match shows a
    handful of chances of each kind)."""
    out = Profile()
    for seed in seeds:
        bots = [MaestroBot(seed + s) if s % 2 == 0 else make_player(style, seed + s) for s in range(players)]
        play_match(Rules(players=players), bots, dealer=0, seeds=lambda h, seed=seed: 900 * seed + h)
        rivals = bots[0].memory.all_profiles(bots[0].maestro)[1]  # type: ignore[attr-defined]
        for mine, theirs in zip([*out.truco_chances, out.envido_raise_chances],
                                [*rivals.truco_chances, rivals.envido_raise_chances], strict=True):
            mine[0] += theirs[0]
            mine[1] += theirs[1]
    return out


def test_a_team_that_calls_truco_on_most_of_its_later_chances_is_read_as_calling_on_any_hand():
    """A truco that is folded to ends the hand and shows no card, so the record of judged bluffs
    sees a fifth of a team's later calls in 4 players. How often it calls is seen every hand:
    `dificil-1`'s teams call the first truco after the first round on about three of four chances
    whatever their cards (counted on the real cards: 76 % of their chances under 0.1 to win), where
    a caller who never bluffs calls on the third or so that hold the cards."""
    honest = MaestroParams().late_call_honest
    assert Profile().truco_any_rate(honest) == 0.0
    steady = Profile()
    steady.truco_chances[1] = [40, 12]
    assert steady.truco_any_rate(honest) == 0.0
    eager = Profile()
    eager.truco_chances[1] = [40, 32]
    assert eager.truco_any_rate(honest) > 0.5

    eager_team = _rivals_chances("dificil-1", 4)
    chances, calls = eager_team.truco_chances[1]
    assert chances >= 12 and calls > 0.5 * chances, eager_team.truco_chances
    assert eager_team.truco_any_rate(honest) > 0.3
    assert _rivals_chances("tight", 2).truco_any_rate(honest) == 0.0


def test_a_team_that_bets_the_truco_whatever_it_holds_is_read_as_saying_nothing_with_it():
    """The first round's truco and the raises, read as the later truco is: a call that is folded to
    shows no card, so a player who calls truco on every turn and raises every truco it hears (the
    ``maniac``) was read as holding the cards each time, and ``maestro`` folded to it more than
    ``dificil-1`` did. Counted every hand, its rate says so within a match; an honest team's
    (``dificil-1``, calling on 7–10 % of its first-round chances here and raising a third to a half
    of the trucos it takes, the best of them; six matches, since three gave 7 raise chances in 4
    players, and 5 raises of 7 read as a little more than honest)
    reads as none, and a call of it stays cards."""
    m = MaestroParams()
    maniac = _rivals_chances("maniac", 2)
    first, raises = maniac.truco_chances[0], maniac.truco_chances[2]
    assert first[0] >= 10 and first[1] > 0.9 * first[0], first
    assert raises[0] >= 5 and raises[1] > 0.9 * raises[0], raises
    assert maniac.truco_any_rate(m.early_call_honest, 0) > 0.8
    assert maniac.truco_any_rate(m.raise_honest, 2) > 0.5
    for players in (2, 4):
        honest = _rivals_chances("dificil-1", players, seeds=(3, 5, 7, 9, 11, 13))
        assert honest.truco_chances[0][0] >= 10 and honest.truco_chances[2][0] >= 12, honest.truco_chances
        assert honest.truco_any_rate(m.early_call_honest, 0) == 0.0, honest.truco_chances
        assert honest.truco_any_rate(m.raise_honest, 2) == 0.0, honest.truco_chances

    # the floor of a first-round call and of a retruco: the maniac's says nothing, an honest one's stays low
    first_call = Evidence(2, 1, m.call_chance, 0.1, m.call_floor, (0, 0), "")
    a_raise = first_call._replace(centre=m.call_chance + 0.08)
    assert read_call(first_call, maniac, m).floor > 0.8
    assert read_call(a_raise, maniac, m).floor > 0.5
    for e in (first_call, a_raise):
        assert read_call(e, Profile(), m).floor < 0.1



def _with_rivals(raised: int, chances: int = 8) -> tuple[MaestroBot, Profile]:
    """A ``maestro`` whose memory holds only that the rivals raised ``raised`` of ``chances`` envido
    bets of ours."""
    bot = MaestroBot(7)
    rivals = Profile()
    rivals.envido_raise_chances = [chances, raised]
    bot.memory.profiles = lambda view, params: [Profile(), rivals]  # type: ignore[method-assign]
    return bot, rivals


def _facing_falta_raise(seed: int) -> SeatView:
    """Seat 0 (mano) opens a real envido and seat 1 raises it to the falta: seat 0's view."""
    st, _ = new_match(Rules(players=2), dealer=1, seed=seed, hand_no=9)
    st, _ = apply(st, next(a for a in view_for(st, 0).legal if a.do is Do.REAL_ENVIDO))
    st, _ = apply(st, next(a for a in view_for(st, 1).legal if a.do is Do.FALTA_ENVIDO))
    return view_for(st, 0)


def test_a_team_that_raises_our_envido_whatever_it_holds_is_read_and_priced_so():
    """A raise of our envido that is folded to is never sung, and one that is taken is sung only as
    the team's best tanto, so a team that raises every envido it hears (the ``maniac``) was read as
    holding the tanto each time: ``maestro`` opened a real envido and folded to the falta behind it.
    How often a team raises is seen on every answer (item 23): the maniac's rate reads as any hand
    within a match; ``dificil-1``'s (3 of 33 answers here, its best tantos) as none."""
    m = for_table(MaestroParams(), _facing_falta_raise(1))
    maniac = _rivals_chances("maniac", 2)
    chances, raised = maniac.envido_raise_chances
    assert chances >= 3 and raised == chances, maniac.envido_raise_chances
    assert maniac.envido_raise_any_rate(m.envido_raise_honest) > 0.5
    for players in (2, 4):
        honest = _rivals_chances("dificil-1", players)
        line = _raise_honest(players)
        assert honest.envido_raise_chances[0] >= 20, honest.envido_raise_chances
        assert honest.envido_raise_any_rate(line) == 0.0, honest.envido_raise_chances

    # the falta behind our real envido: the raiser's says nothing of its tanto, the honest one's does
    falta = Evidence(1, 1, 28.0, 2.0, 0.1)
    pub = _facing_falta_raise(1).public
    assert EnvidoReading(pub, 0, m).read(falta, _with_rivals(8)[1]).floor > 0.5
    assert EnvidoReading(pub, 0, m).read(falta, _with_rivals(1)[1]).floor < 0.1
    taken = {"honest": 0, "raiser": 0}
    for seed in range(60):
        view = _facing_falta_raise(seed)
        if 25 <= view.my_tanto <= 29:
            taken["honest"] += _with_rivals(1)[0].choose(view).do is Do.QUIERO
            taken["raiser"] += _with_rivals(8)[0].choose(view).do is Do.QUIERO
    assert taken["raiser"] >= taken["honest"] + 8, taken

    # and our own bets are priced with the raise: a middling tanto is not opened into it
    opened = {"honest": 0, "raiser": 0}
    for seed in range(150):
        st, _ = new_match(Rules(players=2), dealer=1, seed=seed, hand_no=9)
        view = view_for(st, 0)
        if view.my_tanto < 27 and any(a.do in ENVIDO_BETS for a in view.legal):
            opened["honest"] += _with_rivals(1)[0].choose(view).do in ENVIDO_BETS
            opened["raiser"] += _with_rivals(8)[0].choose(view).do in ENVIDO_BETS
    assert opened["honest"] >= 10 and opened["raiser"] <= opened["honest"] // 2, opened


def _raise_honest(players: int) -> float:
    st, _ = new_match(Rules(players=players), dealer=0, seed=1)
    return for_table(MaestroParams(), view_for(st, 0)).envido_raise_honest


def test_how_often_an_honest_team_raises_our_envido_is_how_often_its_best_hand_holds_the_tanto():
    """Item 23 read a team as raising our envido on any hand once it raised more often than 0.3 of
    its chances: the share of the best of two hands that hold 28. Mano a mano one hand answers, and
    holds 28 on 17 % of deals, so a lone rival could raise to the falta on any hand one time in eight
    and read as honest, and ``maestro`` folded to it: the attacker did so (13 falta raises on under 25
    of tanto in 16 matches, 15 % of what it estimated it took). The line is now the best of the
    team's hands: 17 % mano a mano, 31 % in 4 players, 43 % in 6."""
    share = tanto_share(MaestroParams().envido_raise_tanto)
    assert abs(share - 0.172) < 0.005
    for players, hands in ((2, 1), (4, 2), (6, 3)):
        assert abs(_raise_honest(players) - (1 - (1 - share) ** hands)) < 1e-9
    # a rival that raised 16 of 40 of our envidos: far above one hand's line, near two hands'
    rival = Profile()
    rival.envido_raise_chances = [40, 16]
    assert rival.envido_raise_any_rate(_raise_honest(2)) > 0.2
    assert rival.envido_raise_any_rate(_raise_honest(4)) < 0.03
    assert rival.envido_raise_any_rate(0.3) < 0.03  # the line before
    # and mano a mano its falta behind our real envido is taken on a middling tanto more often
    taken = {"honest": 0, "raiser": 0}
    for seed in range(60):
        view = _facing_falta_raise(seed)
        if 25 <= view.my_tanto <= 29:
            taken["honest"] += _with_rivals(4, 40)[0].choose(view).do is Do.QUIERO
            taken["raiser"] += _with_rivals(16, 40)[0].choose(view).do is Do.QUIERO
    assert taken["raiser"] > taken["honest"], taken


def _passed(seed: int) -> SeatView:
    """Seat 0 (mano) plays its first card with the envido open: seat 1's view, at its turn."""
    st, _ = new_match(Rules(players=2), dealer=1, seed=seed)
    st, _ = apply(st, next(a for a in view_for(st, 0).legal if a.do is Do.PLAY))
    return view_for(st, 1)


def test_a_seat_that_plays_its_first_card_with_the_envido_open_is_read_as_holding_less_tanto():
    """Passing the envido speaks too: `dificil-1` opened it on 96 % of its chances with 26–27 mano a
    mano and on every one with 28 or more (200 matches, seed 1), so a mano that played its first card
    without a call seldom holds 28. Read as a tanto under ``pass_tanto``, with a floor for the hands
    kept quiet; without it the worlds gave the passer a tanto as if it had said nothing."""
    off = replace(MaestroParams(), read_passes=False)
    read: list[int] = []
    unread: list[int] = []
    for seed in range(12):
        view = _passed(seed)
        read += [TANTO_OF[w.masks[0]] for w in MaestroBot(seed).decision(view).worlds]
        unread += [TANTO_OF[w.masks[0]] for w in MaestroBot(seed, off).decision(view).worlds]
    high_read = sum(t >= 28 for t in read) / len(read)
    high_unread = sum(t >= 28 for t in unread) / len(unread)
    assert high_read < 0.5 * high_unread, (high_read, high_unread)
    assert sum(read) / len(read) < sum(unread) / len(unread) - 1.5


def test_an_envido_pass_is_read_only_while_the_envido_was_open():
    from truco.bots.envido_reading import read_passes

    view = _passed(3)
    (e,) = read_passes(view.public, view.seat, 26.0, 1.0, (0.1, 0.2))
    assert (e.kind, e.who, e.centre, e.slope, e.floor) == (0, 0, 26.0, -1.0, 0.1)
    # after an envido was called, a card played says nothing of the tanto
    st, _ = new_match(Rules(players=2), dealer=1, seed=3)
    for pick in (Do.ENVIDO, Do.NO_QUIERO, Do.PLAY):
        seat = next(s for s in (0, 1) if view_for(st, s).legal)
        st, _ = apply(st, next(a for a in view_for(st, seat).legal if a.do is pick))
    assert read_passes(view_for(st, 1).public, 1, 26.0, 1.0, (0.1, 0.1)) == []
    # nor is this seat's own pass read
    assert read_passes(view_for(st, 0).public, 0, 26.0, 1.0, (0.1, 0.1)) == []


def test_a_team_that_keeps_its_tanto_quiet_is_read_with_a_higher_pass_floor():
    """The floor of a pass is how often this team passes with a tanto it could have opened on, of
    the tantos worth opening on that the hand told at its chances to open: a rival who played out 33
    without a word is read as one who slow-plays, one who opened the envido with 33 as one who does
    not, and a pass with 5 says nothing of how it plays a high tanto. (Counted among its passes
    alone, a rival who never opens would read as passing a high tanto a sixth of the time, as often
    as any hand holds one, and its passes would still weigh against the worlds that give it one.)"""
    params = MaestroParams()
    prior = params.pass_prior
    assert Profile().pass_floor(prior) == prior[0] / sum(prior)

    def quiet(rival_hand: list[str], opens: bool = False) -> Profile:
        hands = [[parse_card(c) for c in ["1b", "7o", "3b"]], [parse_card(c) for c in rival_hand]]
        st, _ = new_match(Rules(players=2), dealer=0, hands=hands)  # seat 1 is mano
        picks = [Do.ENVIDO, Do.QUIERO] if opens else []
        while not st.hand_over:
            seat = next(s for s in (0, 1) if view_for(st, s).legal)
            pick = picks.pop(0) if picks else Do.PLAY
            st, _ = apply(st, next(a for a in view_for(st, seat).legal if a.do is pick))
        memory = MaestroBot(1).memory
        memory.see(view_for(st, 0))
        return memory.all_profiles(params)[1]

    slow = quiet(["6e", "7e", "4o"])  # 33
    assert slow.passes == [1, 1]
    assert slow.pass_floor(prior) > 1.5 * Profile().pass_floor(prior)
    plain = quiet(["1e", "4o", "5c"])  # 5
    assert plain.passes == [1, 0]
    assert plain.pass_floor(prior) == Profile().pass_floor(prior)
    opener = quiet(["6e", "7e", "4o"], opens=True)
    assert (opener.passes, opener.opened_high) == ([0, 0], 1)
    assert opener.pass_floor(prior) < Profile().pass_floor(prior)
    never_opens = Profile()
    never_opens.passes = [36, 6]  # 36 passes seen, six of them on a high tanto, no opening
    assert never_opens.pass_floor(prior) > 0.4
