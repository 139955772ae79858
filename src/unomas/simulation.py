"""Simulation runs: many matches between random players, on a backend, summed up.

:mod:`unomas.simulate` plays one match (and is compiled); this module plays match ``k`` of
a run as a job for :mod:`unomas.backends` and gives back a small, picklable summary of it
(and its record, when asked for), so the same seed gives the same summaries and records on
every backend.

>>> from unomas.rules import Rules
>>> total = Totals(2)
>>> for match in run_simulation(Rules(players=2, target_score=0), 3, seed=1):
...     total.add(match)
>>> total.games, sum(total.wins)
(3, 3)
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any

from unomas import record
from unomas.backends import Backend, play
from unomas.rules import Rules
from unomas.simulate import POLICIES, match_rngs, play_match

__all__ = ["SimulatedMatch", "SimulationJob", "Totals", "run_simulation"]


@dataclass(frozen=True, slots=True)
class SimulatedMatch:
    """What one match of a simulation run gave."""

    number: int
    rounds: int = 0
    actions: int = 0
    abandoned: bool = False
    winner: int = -1
    """The winning seat, or -1."""
    record: dict[str, Any] | None = None
    error: str | None = None
    """Why the match could not be played (its task kept failing), if so."""


@dataclass(frozen=True, slots=True)
class SimulationJob:
    """The matches of a simulation run: match ``number`` from the seed and ``number``."""

    rules: Rules
    policy: str
    seed: int | str | None
    history: bool

    def play(self, number: int) -> SimulatedMatch:
        game_rng, player_rng = match_rngs(self.seed, number)
        result = play_match(
            self.rules, POLICIES[self.policy], game_rng=game_rng, player_rng=player_rng, history=self.history
        )
        return SimulatedMatch(
            number,
            rounds=result.rounds,
            actions=result.actions,
            abandoned=result.abandoned,
            winner=result.game.winner,
            record=record.to_json(result.game) if self.history else None,
        )

    def failed(self, number: int, reason: str) -> SimulatedMatch:
        return SimulatedMatch(number, error=reason)


def run_simulation(
    rules: Rules,
    games: int,
    *,
    policy: str = "playfirst",
    seed: int | str | None = None,
    history: bool = False,
    backend: Backend | None = None,
) -> Generator[SimulatedMatch, None, None]:
    """Play ``games`` matches with the named policy on ``backend``; their summaries in match order."""
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}")
    return play(SimulationJob(rules, policy, seed, history), games, backend)


@dataclass(slots=True)
class Totals:
    """The sums of a simulation run so far, for ``players`` seats."""

    players: int
    games: int = 0
    rounds: int = 0
    actions: int = 0
    abandoned: int = 0
    errors: list[SimulatedMatch] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.wins = [0] * self.players

    def add(self, match: SimulatedMatch) -> None:
        """Count one match."""
        self.games += 1
        if match.error is not None:
            self.errors.append(match)
            return
        self.rounds += match.rounds
        self.actions += match.actions
        self.abandoned += match.abandoned
        if match.winner >= 0:
            self.wins[match.winner] += 1
