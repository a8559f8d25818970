"""Random agents play truco through the environment API (``truco.engine.env``): no training, just
the loop a learning agent would run. ``python examples/random_agents.py --hands 1000``."""

from __future__ import annotations

import argparse
import random
import time

from truco.engine.env import TrucoEnv


def play(hands: int, players: int = 2, seed: int = 0) -> dict[str, float]:
    """Random legal actions until ``hands`` hands are played (a new match when one ends); returns the
    points each agent collected and the hands and matches played."""
    env = TrucoEnv(players=players)
    rng = random.Random(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    matches = 0
    played = 0
    while played < hands:
        env.reset(seed=seed + matches)
        matches += 1
        while env.agents:
            obs, reward, done, truncated, _ = env.last()
            totals[env.agent_selection] += reward
            if done or truncated:
                env.step(None)
                continue
            assert obs is not None
            legal = [i for i, ok in enumerate(obs["action_mask"]) if ok]
            env.step(rng.choice(legal))
            if played + env.hands_played >= hands:
                break
        played += env.hands_played
    return {**totals, "hands": float(played), "matches": float(matches)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--players", type=int, default=2, choices=(2, 4, 6, 8))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = time.perf_counter()
    result = play(args.hands, args.players, args.seed)
    took = time.perf_counter() - start
    print(f"{int(result['hands'])} hands, {int(result['matches'])} matches in {took:.2f} s: {result}")


if __name__ == "__main__":
    main()
