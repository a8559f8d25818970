"""``maestro`` fixes what an outside opponent found in ``dificil`` (issue 13), checked against
``dificil-1`` on the same views from real matches, and it remembers how this opponent plays."""

from __future__ import annotations

from functools import cache

from tests.bots.style_views import many_views
from truco.bots import make_bot
from truco.bots.arena import play_match
from truco.bots.equity import falta_points
from truco.bots.maestro import MaestroBot, MaestroParams
from truco.bots.roster import make_player
from truco.engine import Action, Do, Rules, SeatView
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


def test_maestro_raises_a_truco_only_when_it_wins_in_half_its_worlds():
    spots = [v for v in views() if v.public.pending == "truco"
             and any(a.do in (Do.RETRUCO, Do.VALE_CUATRO) for a in v.legal)][:80]
    assert len(spots) > 40
    bot = MaestroBot(1)
    raised = 0
    for v in spots:
        if bot.choose(v).do in (Do.RETRUCO, Do.VALE_CUATRO):
            raised += 1
            assert bot.last_won_share >= bot.maestro.raise_min
    assert raised > 0


def test_maestro_learns_how_often_this_opponent_bluffs_at_truco():
    rates = {}
    for style in ("bluffer", "tight"):
        bot = MaestroBot(3)
        rival = make_player(style, 4)
        play_match(Rules(players=2), [bot, rival], dealer=0, seeds=lambda h: 900 + h)
        profile = bot.memory.all_profiles(bot.maestro)[1]
        rates[style] = profile.bluff_rate(True, MaestroParams().late_bluff_prior)
        assert sum(profile.calls) > 0
    prior = MaestroParams().late_bluff_prior
    assert rates["bluffer"] > prior[0] / sum(prior) > rates["tight"]
