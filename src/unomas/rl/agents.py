"""The per-agent bookkeeping of the PettingZoo environment's step, compiled with the driver.

Free of PettingZoo and NumPy (``setup.py`` compiles it with mypyc): the environment hands
it its dictionaries, so that its ``step`` stays one call.
"""

from __future__ import annotations

from unomas.rl.driver import Driver

__all__ = ["AgentBook"]


class AgentBook:
    """The per-agent bookkeeping of a PettingZoo step, over the environment's dictionaries
    (``rewards``, ``_cumulative_rewards``, ``terminations``, ``truncations``), done here
    so that the environment's ``step`` stays a thin call."""

    def __init__(
        self,
        driver: Driver,
        names: list[str],
        rewards: dict[str, float],
        cumulative: dict[str, float],
        terminations: dict[str, bool],
        truncations: dict[str, bool],
    ) -> None:
        self.driver = driver
        self.names = names
        self.rewards = rewards
        self.cumulative = cumulative
        self.terminations = terminations
        self.truncations = truncations
        self.rewarded = any(rewards.values())
        """Whether ``rewards`` holds a reward other than 0 (else a step without rewards changes nothing)."""

    def step(self, agent: str, action_id: int) -> str:
        """``agent``, the driver's actor, takes ``action_id``: the rewards it brings are added
        to every agent's total (PettingZoo's ``_accumulate_rewards``), every agent is flagged
        once the episode is over; returns the agent selected next."""
        driver = self.driver
        cumulative = self.cumulative
        cumulative[agent] = 0.0
        rewards = driver.step(action_id)
        names = self.names
        if rewards is not None or self.rewarded:
            for seat in range(len(names)):
                reward = rewards[seat] if rewards is not None else 0.0
                self.rewards[names[seat]] = reward
                cumulative[names[seat]] += reward
            self.rewarded = rewards is not None
        if driver.done:
            flags = self.truncations if driver.truncated else self.terminations
            for name in names:
                flags[name] = True
            return agent
        return names[driver.actor]
