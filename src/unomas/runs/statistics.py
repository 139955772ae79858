"""The statistics of a run: Wilson score intervals of win rates, openskill ratings of entrants."""

from __future__ import annotations

import math
from collections.abc import Sequence

from unomas.conductor import MatchSummary

__all__ = ["Z95", "Ratings", "wilson"]

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95 % interval."""


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default); (0, 1) with no trials.

    >>> low, high = wilson(5, 10)
    >>> round(low, 4), round(high, 4)
    (0.2366, 0.7634)
    """
    if trials <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes in {trials} trials")
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


class Ratings:
    """openskill Plackett-Luce ratings of ``entrants``, updated match by match.

    Each entrant is a team of one, from the prior ``mu = 25``, ``sigma = 25/3``; a match
    ranks its seats by the final scores, the match winner first, equal scores sharing a rank.

    >>> ratings = Ratings(2)
    >>> ratings.rate([1, 0], MatchSummary(winner=0, scores=[50, 10], rounds=1, actions=9))
    >>> ratings.ratings[1].mu > 25 > ratings.ratings[0].mu
    True
    """

    def __init__(self, entrants: int) -> None:
        from openskill.models import PlackettLuce

        self.model = PlackettLuce()
        self.ratings = [self.model.rating() for _ in range(entrants)]

    def rate(self, seating: Sequence[int], summary: MatchSummary, last: int | None = None) -> None:
        """Rate a finished match; ``seating`` gives the entrant at each seat; the seat
        ``last`` (one that forfeited) is ranked below every other."""
        keys = [(seat != last, seat == summary.winner, score) for seat, score in enumerate(summary.scores)]
        ranks = [float(sum(other > key for other in keys)) for key in keys]
        teams = [[self.ratings[entrant]] for entrant in seating]
        rated = self.model.rate(teams, ranks=ranks)
        for entrant, team in zip(seating, rated, strict=True):
            self.ratings[entrant] = team[0]
