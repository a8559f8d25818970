"""``policy_reading``: the worlds weighed by how likely the ``neural`` policy makes the rivals' decisions."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from tests.bots.matches import views_of_a_match
from truco.bots.knowledge import knowledge
from truco.bots.maestro import MaestroBot
from truco.bots.maestro_params import MaestroParams
from truco.bots.neural import ACTIONS, action_index, features, features_for_hands, legal_mask, shipped
from truco.bots.policy_reading import bettor_share, dealt_to, policy_weights
from truco.bots.profile import Profile, tanto_share
from truco.bots.sampling import Sampler, World
from truco.engine import Do, Rules, SeatView, State, apply, new_match, view_for
from truco.engine.types import TRUCO_CALLS

FLOR_AT = ACTIONS.index(Do.FLOR)


def replayed(view: SeatView, w: World) -> list[tuple[State, int]]:
    """The hand so far replayed in world ``w``: the state before each action, and the acting seat."""
    p = view.public
    st, _ = new_match(p.rules, dealer=p.dealer, hands=w.hands, score=p.start_score, chicos=p.start_chicos,
                      hand_no=p.hand_no, pica=p.pica)
    out = []
    for a in p.history:
        out.append((st, a.seat))
        st, _ = apply(st, a)
    return out


def reference_weights(view: SeatView, worlds: list[World], eps: float, temperature: float,
                      floors: dict[tuple[int, Do], float] | None = None,
                      skip: frozenset[Do] = frozenset()) -> list[float]:
    """The reading done the long way: every world replayed, every rival's view built from its state."""
    net = shipped()
    rows: list[list[tuple[int, float, int, float]]] = []  # per world: (decision, p, legal actions, floor)
    for w in worlds:
        row = []
        for i, ((st, s), a) in enumerate(zip(replayed(view, w), view.public.history, strict=True)):
            if s & 1 == view.team or a.do in skip:
                continue
            sv = view_for(st, s)
            if len(sv.legal) < 2:
                continue
            x = net.scores(features(sv)[None, :])[0] / temperature
            mask = legal_mask(sv)
            e = np.where(mask, np.exp(x - x[mask].max()), 0.0)
            f = max(eps, (floors or {}).get((s & 1, a.do), eps))
            row.append((i, float(e[action_index(sv, a)] / e.sum()), int(mask.sum()), f))
        rows.append(row)
    top: dict[int, float] = {}  # the likeliest hand's probability at each decision, over the worlds
    for row in rows:
        for i, p, _, _ in row:
            top[i] = max(top.get(i, 0.0), p)
    logs = [sum(float(np.log(f * (top[i] if f > eps else 1 / n) + (1 - f) * p)) for i, p, n, f in row)
            for row in rows]
    best = max(logs)
    return [float(np.exp(v - best)) for v in logs]


def answers_with_history(rules: Rules, seed: int) -> list[SeatView]:
    """Views of a match where a seat may answer a call after the rivals have decided something."""
    out = []
    for _, view in views_of_a_match(rules, seed=seed, level="dificil", max_hands=8):
        rivals_chose = any(a.seat & 1 != view.team for a in view.public.history)
        if rivals_chose and any(a.do.value == "quiero" for a in view.legal):
            out.append(view)
    return out


def drawn(view: SeatView, count: int, seed: int) -> list[World]:
    sampler = Sampler(knowledge(view))
    rng = random.Random(seed)
    return [sampler.world(rng) for _ in range(count)]


def test_a_rivals_decision_read_with_another_hand_has_the_features_that_hand_would_give() -> None:
    checked = 0
    for seed in (1, 2):
        for view in answers_with_history(Rules(players=4), seed):
            worlds = drawn(view, 6, seed)
            for i, (st_ref, s) in enumerate(replayed(view, worlds[0])):
                if s & 1 == view.team:
                    continue
                x, still = features_for_hands(view_for(st_ref, s), [w.hands[s] for w in worlds])
                for row, w in enumerate(worlds):
                    st_w = replayed(view, w)[i][0]
                    truth = view_for(st_w, s)
                    assert np.array_equal(x[row], features(truth))
                    assert sorted(still[row]) == sorted(truth.cards)
                    assert np.array_equal(legal_mask(view_for(st_ref, s)), legal_mask(truth))
                    checked += 1
    assert checked > 100


@pytest.mark.parametrize("eps, temperature", [(0.1, 1.0), (0.2, 2.0)])
def test_the_weights_are_those_of_every_world_replayed_on_its_own(eps: float, temperature: float) -> None:
    views = answers_with_history(Rules(players=4), 3)
    assert views
    for n, view in enumerate(views[:12]):
        pool = drawn(view, 10, n)
        worlds = pool + pool[:4]  # repeats, as a resampling leaves them
        got = policy_weights(view, worlds, eps, temperature)
        assert got is not None
        want = reference_weights(view, worlds, eps, temperature)
        assert got == pytest.approx(want, rel=1e-4, abs=1e-9)
        assert max(got) == pytest.approx(1.0)


def test_a_rival_teams_bets_are_read_with_the_floor_its_record_gives_them() -> None:
    views = answers_with_history(Rules(players=4), 3)
    rng = random.Random(9)
    for n, view in enumerate(views[:8]):
        rivals = 1 - view.team
        kinds = (Do.TRUCO, Do.RETRUCO, Do.ENVIDO, Do.REAL_ENVIDO, Do.QUIERO)
        floors = {(rivals, do): rng.random() for do in kinds}
        worlds = drawn(view, 8, n)
        got = policy_weights(view, worlds, 0.2, 2.0, floors)
        assert got == pytest.approx(reference_weights(view, worlds, 0.2, 2.0, floors), rel=1e-4, abs=1e-9)


def test_the_kinds_of_decision_left_to_the_hand_written_readings_are_not_read() -> None:
    views = answers_with_history(Rules(players=4), 3)
    truco = frozenset(TRUCO_CALLS)
    changed = 0
    for n, view in enumerate(views[:10]):
        worlds = drawn(view, 10, n)
        got = policy_weights(view, worlds, 0.2, 2.0, skip=truco)
        want = reference_weights(view, worlds, 0.2, 2.0, skip=truco)
        if got is None:  # nothing left to read: every rival decision with a choice was a truco call
            assert all(a.do in truco for a in view.public.history if a.seat & 1 != view.team)
            continue
        assert got == pytest.approx(want, rel=1e-4, abs=1e-9)
        changed += got != pytest.approx(policy_weights(view, worlds, 0.2, 2.0), rel=1e-4, abs=1e-9)
    assert changed  # some answer followed a truco call whose reading moved the worlds
    assert MaestroParams().policy_skip == truco


def test_maestros_floors_start_at_its_priors_and_follow_a_team_that_bets_on_any_hand() -> None:
    view = answers_with_history(Rules(players=4), 3)[0]
    decision = MaestroBot(1).decision(view)
    fresh = decision.bet_floors()
    rivals = 1 - view.team
    assert set(fresh) == {(rivals, do) for do in (Do.TRUCO, Do.RETRUCO, Do.VALE_CUATRO, Do.ENVIDO,
                                                  Do.REAL_ENVIDO, Do.FALTA_ENVIDO)}
    prior = MaestroParams()
    late = prior.late_bluff_prior[0] / sum(prior.late_bluff_prior)
    assert fresh[rivals, Do.TRUCO] == pytest.approx(late, abs=0.02)
    assert all(0.0 <= f < 0.5 for f in fresh.values())
    # a team that opened the envido at each of three chances and raised ours four times in four
    profile = decision.profiles[rivals]
    profile.envido_chances, profile.envido_raise_chances = [3, 3], [4, 4]
    bettor = decision.bet_floors()
    for do in (Do.ENVIDO, Do.REAL_ENVIDO, Do.FALTA_ENVIDO):
        assert 0.7 < bettor[rivals, do] <= prior.policy_bettor_rate
    for do in (Do.TRUCO, Do.RETRUCO, Do.VALE_CUATRO):  # its truco floors are another record's
        assert bettor[rivals, do] == fresh[rivals, do]


def test_a_team_that_bets_the_envido_at_every_chance_reads_as_a_bettor_within_three() -> None:
    prior, rate, honest = 0.3, 0.9, tanto_share(24)
    assert bettor_share([], prior, rate) == pytest.approx(prior * rate)
    always = [bettor_share([(n, n, honest)], prior, rate) for n in range(1, 6)]
    assert always == sorted(always) and always[2] > 0.7 > always[0] > prior * rate
    # the spread of rates the hand-written readings use takes about twice as many chances
    spread = Profile()
    spread.envido_chances = [3, 3]
    assert spread.envido_any_rate(honest) < 0.4 < always[1]
    # a team that opens a third of its chances, as dificil-1 does, reads as honest after one pass
    assert bettor_share([(1, 0, honest)], prior, rate) < 0.05
    assert bettor_share([(12, 4, honest)], prior, rate) < 1e-3
    # raises count too: a team that passed an opening but raised every envido of ours reads as a bettor
    assert bettor_share([(1, 0, honest), (4, 4, 0.3)], prior, rate) > prior * rate


def test_a_floor_above_eps_is_read_against_the_hand_that_most_wants_the_bet() -> None:
    # a floor of 1 for every kind read: every world was as likely to make every decision, whatever it holds
    view = answers_with_history(Rules(players=4), 3)[0]
    rivals = 1 - view.team
    everything = {(rivals, a.do) for a in view.public.history}
    weights = policy_weights(view, drawn(view, 12, 0), 0.2, 2.0, dict.fromkeys(everything, 1.0))
    assert weights == pytest.approx([1.0] * 12)


def test_a_floor_of_one_reads_nothing_every_world_keeps_its_weight() -> None:
    view = answers_with_history(Rules(players=4), 4)[0]
    weights = policy_weights(view, drawn(view, 12, 0), eps=1.0, temperature=1.0)
    assert weights == pytest.approx([1.0] * 12)


def test_a_decision_the_model_expects_weighs_a_world_more_than_one_it_does_not() -> None:
    # across many answers, the worlds the reading favours are those where the rivals' moves were likely
    spread = []
    for view in answers_with_history(Rules(players=4), 5)[:10]:
        weights = policy_weights(view, drawn(view, 30, 1), 0.2, 2.0)
        assert weights is not None and all(0.0 < w <= 1.0 for w in weights)
        spread.append(min(weights))
    assert min(spread) < 0.5  # some world was found less likely than the best


def test_with_flor_a_rival_is_read_with_what_its_hand_let_it_do_a_flor_holder_sings_flor() -> None:
    # with flor, what a seat may do depends on its hand (a flor holder may sing flor and may not call
    # the envido): each world's rival is read with the actions that world's hand gave it
    views = [v for seed in (6, 7) for v in answers_with_history(Rules(players=4, flor=True), seed)]
    assert views
    differs = 0
    for n, view in enumerate(views[:12]):
        worlds = drawn(view, 12, n)
        got = policy_weights(view, worlds, 0.2, 2.0)
        assert got is not None
        assert got == pytest.approx(reference_weights(view, worlds, 0.2, 2.0), rel=1e-4, abs=1e-9)
        first = view.public.history[0]  # before any card: a flor holder may sing it there
        if first.seat & 1 != view.team:
            st, s = replayed(view, worlds[0])[0]
            differs += len({bool(legal_mask(view_for(dealt_to(st, s, w.hands[s], w.hands[s]), s))[FLOR_AT])
                            for w in worlds}) == 2
    assert differs  # some rival's first decision was read in worlds with a flor and in worlds without


def test_a_pica_pica_hand_is_not_read_its_duels_are_hands_of_two() -> None:
    flor = answers_with_history(Rules(players=4, flor=True), 6)[0]
    pica = replace(flor, public=replace(flor.public, pica=True, rules=replace(flor.public.rules, flor=False)))
    assert policy_weights(pica, drawn(flor, 5, 0), 0.2, 2.0) is None


@pytest.mark.parametrize("players", [2, 4, 6])
def test_maestro_reads_through_the_policy_by_default_only_at_four_players(players: int) -> None:
    off = MaestroParams(policy_reading=False)
    views = answers_with_history(Rules(players=players), 7)[:15]
    assert views
    differ = sum([w.hands for w in MaestroBot(3).decision(v).worlds]
                 != [w.hands for w in MaestroBot(3, off).decision(v).worlds] for v in views)
    assert (differ > 0) == (players == 4)
    assert MaestroParams().policy_reading  # on by default (item 27, its 4-player row run with it)
