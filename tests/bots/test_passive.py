"""``maestro`` against a team that never bets first (item 25 in docs/bots.md): the trapper's habit,
read within a match from the chances it let pass, and answered by calling the truco as ``dificil``
does and by reading nothing into its passes."""

from __future__ import annotations

import random
from dataclasses import replace

from tests.bots.style_views import many_views
from truco.bots.arena import play_match
from truco.bots.maestro import MaestroBot, MaestroDecision
from truco.bots.maestro_params import MaestroParams
from truco.bots.profile import Profile
from truco.bots.roster import make_player
from truco.bots.tables import TANTO_OF
from truco.engine import Do, Rules, SeatView, apply, new_match, view_for

PARAMS = MaestroParams()


def _passive(profile: Profile) -> float:
    return profile.passive(PARAMS.passive_prior, PARAMS.passive_rates, PARAMS.passive_never)


def _quiet(envido: int, first: int, later: int) -> Profile:
    """A team that let pass that many chances to open the envido, to call a first-round truco and a
    later one, and bet on none."""
    out = Profile()
    out.envido_chances = [envido, 0]
    out.truco_chances[0] = [first, 0]
    out.truco_chances[1] = [later, 0]
    return out


def test_a_team_is_read_as_never_betting_first_from_the_chances_it_let_pass_and_one_bet_undoes_it():
    assert abs(_passive(Profile()) - PARAMS.passive_prior) < 1e-9
    assert Profile().passive_share(PARAMS.passive_prior, PARAMS.passive_rates, PARAMS.passive_never) == 0.0
    # a hand or two says little; six or seven hands of chances passed say it
    assert _passive(_quiet(2, 3, 1)) < 0.3
    assert _passive(_quiet(8, 14, 4)) > 0.7
    assert _passive(_quiet(12, 20, 6)) > 0.9
    bettor = _quiet(400, 600, 200)  # a long match of bets: no overflow
    bettor.envido_chances[1], bettor.truco_chances[0][1], bettor.truco_chances[1][1] = 100, 150, 150
    assert 0.0 <= _passive(bettor) < 1e-9
    quiet = _passive(_quiet(8, 14, 4))
    for kind in range(3):
        for bets, most in ((1, 0.1 * quiet / (1 - quiet)), (2, 0.03)):
            bettor = _quiet(8, 14, 4)
            (bettor.envido_chances, bettor.truco_chances[0], bettor.truco_chances[1])[kind][1] = bets
            assert _passive(bettor) < most, (kind, bets)


def _rivals_after_a_match(style: str, players: int, seed: int) -> Profile:
    bots = [MaestroBot(seed + s) if s % 2 == 0 else make_player(style, seed + s) for s in range(players)]
    play_match(Rules(players=players), bots, dealer=0, seeds=lambda h: 900 * seed + h)
    return bots[0].memory.all_profiles(PARAMS)[1]  # type: ignore[attr-defined]


def test_the_trapper_reads_as_never_betting_first_within_a_match_and_the_other_styles_do_not():
    """The trapper never opens the envido and never calls a truco on its own turn; every other
    opponent of the pool bets first on some of its chances (the tight player with its best hands,
    ``dificil-1`` on most of its later chances), and one bet is enough to tell."""
    for players in (2, 4):
        assert _passive(_rivals_after_a_match("trapper", players, 3)) > 0.95
        for style in ("dificil-1", "expert", "tight", "calling-station"):
            assert _passive(_rivals_after_a_match(style, players, 3)) < 0.01, (style, players)


def _views_at_a_later_truco(most: int = 20) -> list[SeatView]:
    views = (*many_views(2), *many_views(4))
    return [v for v in views if v.public.pending is None and v.public.turn == v.seat and v.public.results
            and any(a.do is Do.TRUCO for a in v.legal)][:most]


def test_against_a_team_that_never_bets_first_our_truco_is_modelled_as_taken_on_the_odds():
    """The model of the answers to our truco gives a rival that reads our call as cards
    ``answer_shift`` more than the rational threshold; a rival that never bets first takes a bet on
    its odds (the trapper: from a feel of 0.40, with no respect for the caller), and against it
    the model is ``dificil``'s."""
    spots = _views_at_a_later_truco()
    assert len(spots) >= 10
    rational = replace(PARAMS, answer_shift=0.0)
    for v in spots:
        against_quiet = MaestroDecision(v, random.Random(1), PARAMS, [_quiet(40, 60, 20)] * 2)
        plain = MaestroDecision(v, random.Random(1), rational, [Profile(), Profile()])
        assert against_quiet.active < 0.01
        for w in against_quiet.worlds:
            assert abs(against_quiet.rational_truco(w, 1) - plain.rational_truco(w, 1)) < 0.02
        ordinary = MaestroDecision(v, random.Random(1), PARAMS, [Profile(), Profile()])
        assert ordinary.active == 1.0  # nothing changes before the match shows the habit


def test_against_a_team_that_never_bets_first_maestro_makes_no_mixed_calls_with_a_medium_hand():
    """The mixed calls with a medium hand (and the early bluffs) keep a team that reads our calls as
    cards guessing; a team that never bets first takes a bet on its odds, so against it only the
    calls that pay on the odds are left (60 later truco spots, 8 draws each, those with 40–65 % of
    the worlds won)."""
    spots = _views_at_a_later_truco(60)
    calls = {"ordinary": 0, "quiet": 0}
    for v in spots:
        for seed in range(8):
            for who, profiles in (("ordinary", [Profile(), Profile()]), ("quiet", [_quiet(40, 60, 20)] * 2)):
                d = MaestroDecision(v, random.Random(seed), PARAMS, profiles)
                _, won = d.best_play()
                p = sum(won) / len(won)
                if 0.4 <= p < 0.65 and d.run().do is Do.TRUCO:
                    calls[who] += 1
    assert calls["ordinary"] >= 10 and calls["quiet"] <= calls["ordinary"] // 2, calls


def test_a_pass_of_the_envido_by_a_team_that_never_bets_first_says_nothing_of_its_tanto():
    """A seat that played its first card with the envido open is read as holding less than 26
    (``read_passes``); a team that never opens passes with any tanto, and its worlds keep them."""
    off = replace(PARAMS, read_passes=False)
    read, quiet, unread = [], [], []
    for seed in range(40):
        st, _ = new_match(Rules(players=2), dealer=1, seed=seed)
        st, _ = apply(st, next(a for a in view_for(st, 0).legal if a.do is Do.PLAY))
        view = view_for(st, 1)
        for out, params, rivals in ((read, PARAMS, Profile()), (quiet, PARAMS, _quiet(40, 60, 20)),
                                    (unread, off, Profile())):
            d = MaestroDecision(view, random.Random(seed), params, [rivals, Profile()])
            out += [TANTO_OF[w.masks[0]] for w in d.worlds]
    mean = [sum(x) / len(x) for x in (read, quiet, unread)]
    assert mean[0] < mean[2] - 1.5, mean
    assert abs(mean[1] - mean[2]) < 0.5, mean
