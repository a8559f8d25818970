"""Truco as a multi-agent environment, for people who write their own bots or study the game.

It follows the PettingZoo AEC conventions (``reset``, ``step``, ``last``, ``observe``,
``agent_selection``, ``rewards``, ``terminations``…) without depending on PettingZoo: the engine
stays dependency-free and the same object plugs into those tools through a thin wrapper.

- Agents are ``seat_0`` … ``seat_{n-1}``; teams alternate (even seats are team 0).
- Actions are integers in ``range(N_ACTIONS)``: ``ACTIONS[i]`` is ``(Do, card)`` — playing each of the
  40 cards, then every call and answer. ``action_mask(agent)`` marks the legal ones.
- An observation is the seat's own view (``SeatView.to_dict()``): its cards, the table, never a card
  it may not know; plus the ``action_mask``.
- Rewards are match points: each point a team wins is +1 for its seats and -1 for the others'.
- Pure and reproducible: ``reset(seed)`` fixes every deal of the match.
"""

from __future__ import annotations

from typing import Any, ClassVar

from truco.engine.cards import DECK, Card
from truco.engine.deal import new_match, next_hand
from truco.engine.game import apply
from truco.engine.legal import legal_actions_for, to_act
from truco.engine.state import State
from truco.engine.types import Action, Do, PointsAwarded, Rules
from truco.engine.view import view_for

ACTIONS: tuple[tuple[Do, Card | None], ...] = (
    *((Do.PLAY, c) for c in DECK), *((d, None) for d in Do if d is not Do.PLAY))
"""Every action an agent may name: ``(Do.PLAY, card)`` for the 40 cards, then the calls and answers."""
N_ACTIONS = len(ACTIONS)
_INDEX = {a: i for i, a in enumerate(ACTIONS)}
_MASK64 = (1 << 64) - 1


def _hand_seed(seed: int, hand_no: int) -> int:
    """A deal seed per hand, derived from the episode's seed (splitmix64)."""
    z = (seed + hand_no * 0x9E3779B97F4A7C15) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


class TrucoEnv:
    """One match of truco between ``players`` agents (PettingZoo AEC style)."""

    metadata: ClassVar[dict[str, Any]] = {"name": "truco_v0", "is_parallelizable": False}

    def __init__(self, players: int = 2, target: int = 30, flor: bool = False, falta: str = "leader",
                 chicos: int = 1, pica_pica: bool = False) -> None:
        self.rules = Rules(players=players, target=target, flor=flor, falta=falta,  # type: ignore[arg-type]
                           chicos=chicos, pica_pica=pica_pica)
        self.possible_agents = [f"seat_{i}" for i in range(players)]
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = ""
        self.hands_played = 0
        self._state: State | None = None
        self._seed = 0

    # ------------------------------------------------------------------ the AEC API

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new match. The first dealer and every deal follow from ``seed`` (0 when not given)."""
        self._seed = 0 if seed is None else seed
        self._state, _ = new_match(self.rules, dealer=self._seed % self.rules.players,
                                   seed=_hand_seed(self._seed, 1))
        self.hands_played = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._select()

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s view of the hand (no hidden information) and its action mask."""
        obs = view_for(self.state, self._seat(agent)).to_dict()
        obs["action_mask"] = self.action_mask(agent)
        return obs

    def action_mask(self, agent: str) -> list[int]:
        """1 for each action of ``ACTIONS`` that ``agent`` may take now, else 0."""
        mask = [0] * N_ACTIONS
        if not self.terminations.get(agent, True):
            for a in legal_actions_for(self.state, self._seat(agent)):
                mask[_INDEX[(a.do, a.card)]] = 1
        return mask

    def last(self, observe: bool = True) -> tuple[dict[str, Any] | None, float, bool, bool, dict[str, Any]]:
        """What the agent about to act gets: (observation, reward since it last acted, done, truncated,
        info)."""
        a = self.agent_selection
        return (self.observe(a) if observe else None, self._cumulative_rewards[a], self.terminations[a],
                self.truncations[a], self.infos[a])

    def step(self, action: int | None) -> None:
        """``agent_selection`` takes ``action`` (an index of ``ACTIONS``). Once the match is over each
        agent steps once more with ``None`` and leaves, as AEC environments end."""
        agent = self.agent_selection
        if self.terminations[agent]:
            if action is not None:
                raise ValueError("the match is over: step with None")
            self.agents.remove(agent)
            self.agent_selection = self.agents[0] if self.agents else ""
            return
        if action is None or not 0 <= action < N_ACTIONS:
            raise ValueError(f"an action is an index from 0 to {N_ACTIONS - 1}")
        do, card = ACTIONS[action]
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        st, events = apply(self.state, Action(self._seat(agent), do, card))  # IllegalAction if masked
        for e in events:
            if isinstance(e, PointsAwarded):
                for a in self.agents:
                    self.rewards[a] += e.points if self._seat(a) % 2 == e.team else -e.points
        if st.hand_over:
            self.hands_played += 1
            if not st.match_over:
                st, _ = next_hand(st, seed=_hand_seed(self._seed, st.hand_no + 1))
        self._state = st
        for a in self.agents:
            self._cumulative_rewards[a] += self.rewards[a]
        if st.match_over:
            self.terminations = dict.fromkeys(self.agents, True)
            for a in self.agents:
                self.infos[a] = {"winner_team": st.winner, "score": st.score}
            self.agent_selection = self.agents[0]
        else:
            self._select()

    # ------------------------------------------------------------------ helpers

    @property
    def state(self) -> State:
        """The full state (for study only: an agent must decide from ``observe``)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def _seat(self, agent: str) -> int:
        return int(agent.removeprefix("seat_"))

    def _select(self) -> None:
        self.agent_selection = f"seat_{to_act(self.state)[0]}"
