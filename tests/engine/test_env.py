"""The environment API (PettingZoo AEC conventions): observations without hidden information, a
mask of exactly the legal actions, rewards in match points, and the example that plays 1,000 hands."""

from __future__ import annotations

import random
import runpy
from pathlib import Path

import pytest

from truco.engine import legal_actions_for
from truco.engine.cards import NAME
from truco.engine.env import ACTIONS, N_ACTIONS, TrucoEnv

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "random_agents.py"


def _random_match(env: TrucoEnv, rng: random.Random, check: bool = False) -> dict[str, float]:
    totals = dict.fromkeys(env.possible_agents, 0.0)
    while env.agents:
        obs, reward, done, _, _ = env.last()
        totals[env.agent_selection] += reward
        if done:
            env.step(None)
            continue
        assert obs is not None
        if check:
            seat = int(env.agent_selection.removeprefix("seat_"))
            legal = {(a.do, a.card) for a in legal_actions_for(env.state, seat)}
            assert {ACTIONS[i] for i, ok in enumerate(obs["action_mask"]) if ok} == legal
            others = {NAME[c] for s, hand in enumerate(env.state.held) if s != seat for c in hand}
            assert not others & set(obs["cards"]) and "held" not in obs
        env.step(rng.choice([i for i, ok in enumerate(obs["action_mask"]) if ok]))
    return totals


@pytest.mark.parametrize("players", [2, 4, 6, 8])
def test_the_mask_is_exactly_the_legal_actions_and_an_observation_shows_only_the_seats_cards(players):
    env = TrucoEnv(players=players, target=15)
    env.reset(seed=players)
    _random_match(env, random.Random(players), check=True)
    assert len(ACTIONS) == N_ACTIONS == 40 + 13


def test_the_environment_plays_pica_pica_duels_with_the_same_masks():
    env = TrucoEnv(players=6, target=15, pica_pica=True)
    env.reset(seed=11)
    _random_match(env, random.Random(11), check=True)
    assert env.rules.pica_pica and env.state.match_over


def test_rewards_are_match_points_each_team_plus_what_it_won_minus_what_the_rivals_won():
    env = TrucoEnv(players=4)
    env.reset(seed=7)
    totals = _random_match(env, random.Random(7))
    score = env.state.score
    assert totals["seat_0"] == totals["seat_2"] == score[0] - score[1] == -totals["seat_1"]


def test_a_seed_repeats_the_match_exactly():
    runs = []
    for _ in range(2):
        env = TrucoEnv(players=2)
        env.reset(seed=42)
        runs.append((_random_match(env, random.Random(1)), env.state.score, env.hands_played))
    assert runs[0] == runs[1]


def test_the_example_plays_a_thousand_hands_of_random_agents():
    play = runpy.run_path(str(EXAMPLE))["play"]
    result = play(1000, players=2, seed=0)
    assert result["hands"] >= 1000 and result["matches"] > 10
    assert result["seat_0"] == -result["seat_1"]
