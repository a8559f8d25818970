"""The expert: a strong plain heuristic, legal everywhere, reading the calls and pricing its bets."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from truco.bots.arena import ArenaConfig, play_match
from truco.bots.registry import LEVELS, make_bot
from truco.bots.roster import NAMES
from truco.bots.styles import STYLES, YARDSTICKS, make_style
from truco.bots.styles.expert import Worlds
from truco.engine import Do, Rules, SeatView, apply, legal_actions, new_match, tanto, view_for
from truco.engine.cards import POWER

from .style_views import many_views, views_from
from .test_styles import Checked


@pytest.mark.parametrize(("players", "flor", "pica"), [
    (2, False, False), (2, True, False), (4, False, False), (4, True, False),
    (6, False, False), (6, False, True), (8, True, False)])
def test_the_expert_plays_only_legal_actions(players, flor, pica):
    """Whole matches to 15, the expert against a level and beside one as a partner."""
    rules = Rules(players=players, flor=flor, target=15, pica_pica=pica)
    for k, other in enumerate(("normal", "facil")):
        names = ["expert" if s % 2 == k % 2 or s == 0 else other for s in range(players)]
        bots = [Checked(name, 17 * k + s) for s, name in enumerate(names)]
        st, _, _ = play_match(rules, bots, dealer=k % players, seeds=lambda h, k=k: 104729 * (k + 1) + h)
        assert st.match_over
        assert any(b.decisions for b in bots if b.level == "expert")


def test_the_expert_decides_by_seed_and_view_alone():
    views = many_views(2, matches=2, hands=8)[:120]
    first, again = make_style("expert", 42), make_style("expert", 42)
    answers = [first.choose(v) for v in views]
    assert [again.choose(v) for v in reversed(views)] == list(reversed(answers))
    assert [first.hint(v) for v in views] == answers


def test_the_expert_is_an_arena_yardstick_not_a_table_level_nor_a_habit():
    assert "expert" in YARDSTICKS and "expert" in NAMES
    assert "expert" not in STYLES and "expert" not in LEVELS
    with pytest.raises(ValueError):
        make_bot("expert", 1)
    ArenaConfig(a="maestro", b="expert")


def _answering_envido(players: int) -> list[SeatView]:
    views = []
    for seed in range(200, 212):
        views += [v for v in views_from(Rules(players=players), ("envido-maniac", "expert"), seed, 20)
                  if v.public.pending == "envido" and v.team == 1]
    return views


def test_a_rivals_envido_call_lowers_what_the_expert_believes_of_its_tanto():
    """The same views, read with the call and with the call taken out of the hand's history."""
    views = _answering_envido(2)
    assert len(views) >= 20
    lower = 0
    for v in views:
        called = Worlds(v, random.Random(1)).envido_chance()
        history = tuple(a for a in v.public.history if a.do not in (Do.ENVIDO, Do.REAL_ENVIDO,
                                                                      Do.FALTA_ENVIDO))
        unread = Worlds(replace(v, public=replace(v.public, history=history)), random.Random(1))
        lower += called < unread.envido_chance() - 1e-9
    assert lower >= 0.8 * len(views)


def test_every_world_gives_a_seat_that_sang_its_tanto_that_tanto():
    views = [v for v in many_views(2, matches=6, hands=20)
             if any(s != v.seat and t >= 0 and not f for s, t, f in v.public.sung)]
    assert len(views) >= 10
    for v in views:
        worlds = Worlds(v, random.Random(3))
        sung = {s: t for s, t, f in v.public.sung if t >= 0 and not f and s != v.seat}
        fits = [all(tanto(worlds.played[s] + hands[s]) == t for s, t in sung.items() if s in hands)
                for hands in worlds.hands]
        assert sum(fits) >= 0.9 * len(fits)


def _last_cards(count: int) -> list[SeatView]:
    """Mano a mano, one round each, the third led: the view of the seat that plays last."""
    out = []
    for seed in range(count * 8):
        st, _ = new_match(Rules(players=2), dealer=seed % 2, seed=seed)
        while len(st.results) < 2 and not st.hand_over:
            st, _ = apply(st, next(a for a in legal_actions(st) if a.do is Do.PLAY))
        if st.hand_over:
            continue
        st, _ = apply(st, next(a for a in legal_actions(st) if a.do is Do.PLAY))
        view = view_for(st, st.turn)
        if any(a.do is Do.TRUCO for a in view.legal):
            out.append(view)
        if len(out) == count:
            break
    return out


def test_the_expert_calls_on_a_sure_last_card_and_never_on_a_lost_one():
    """Its last card against the rival's, the rival with none left: a sure hand is bet, and a lost one
    is not bluffed (the rival can count it)."""
    sure = lost = 0
    for v in _last_cards(40):
        mine, theirs = POWER[v.cards[0]], POWER[v.public.rounds[-1][0][1]]
        action = make_style("expert", 5).choose(v)
        if mine > theirs:
            sure += 1
            assert action.do is Do.TRUCO
        elif mine < theirs:
            lost += 1
            assert action.do is Do.PLAY
    assert sure >= 5 and lost >= 5
