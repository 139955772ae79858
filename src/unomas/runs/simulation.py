"""Simulation runs: many self-play matches (``unomas simulate``) on a backend, summed up.

Match ``k`` of a run is a :func:`~unomas.runs.selfplay.selfplay` match seeded with
``f"{seed}/{k}"`` (as a tournament's match ``k``), played as a job for
:mod:`unomas.runs.backends`; it gives back its :class:`~unomas.conductor.MatchSummary`
(and its record, when asked for), so the same seed gives the same summaries and records
on every backend.

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
from typing import Any, NamedTuple

from unomas.conductor import MatchSummary, deal_seed
from unomas.rules import Rules
from unomas.runs.backends import Backend, play
from unomas.runs.selfplay import check_policy, selfplay

__all__ = ["SimulatedMatch", "SimulationJob", "Totals", "run_simulation", "shuffle"]


class SimulatedMatch(NamedTuple):
    """What one match of a simulation run gave (a named tuple: made for every match, at a
    third of a frozen dataclass's cost)."""

    number: int
    summary: MatchSummary | None = None
    """How the match went; None if it could not be played."""
    record: dict[str, Any] | None = None
    error: str | None = None
    """Why the match could not be played (its task kept failing), if so."""


def shuffle(seed: str | None) -> dict[str, Any]:
    """The ``shuffle`` field of the record of a match seeded with ``seed`` (none unseeded):
    the seed it was dealt from (:func:`~unomas.conductor.deal_seed`) and its commitment, so
    that ``unomas replay --verify`` checks every deal. The run's seed tells it: it proves
    the deals, not that they were secret. (The commitments' hashing loads with the first
    seeded match: an unseeded run needs none.)"""
    if seed is None:
        return {}
    from unomas import fairness

    return {fairness.FIELD: fairness.reveal(deal_seed(seed))}


@dataclass(frozen=True, slots=True)
class SimulationJob:
    """The matches of a simulation run: match ``number`` from the seed and ``number``."""

    rules: Rules
    policy: str
    seed: int | str | None
    history: bool

    def play(self, number: int) -> SimulatedMatch:
        seed = None if self.seed is None else f"{self.seed}/{number}"
        table = selfplay(self.rules, self.policy, seed=seed, history=self.history)
        summary = table.play()
        if not self.history:
            return SimulatedMatch(number, summary)
        from unomas import record  # (its JSON and files load for a run that writes records)

        return SimulatedMatch(number, summary, record.to_json(table.game, **shuffle(seed)))

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
    """Play ``games`` matches of the named policy on ``backend``; their summaries in match order.

    An unknown policy raises :class:`~unomas.errors.SettingsError` at once.
    """
    check_policy(policy)
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
        summary = match.summary
        if summary is None:
            self.errors.append(match)
            return
        self.rounds += summary.rounds
        self.actions += summary.actions
        self.abandoned += summary.abandoned
        if summary.winner is not None:
            self.wins[summary.winner] += 1
