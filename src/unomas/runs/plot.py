"""A tournament's win rates as a chart: matplotlib, imported only when a chart is drawn.

Needs the ``plot`` extra (``pip install 'unomas[plot]'``).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from unomas.runs.tournament import TournamentResult

__all__ = ["PLOT_INSTALL", "PlotUnavailable", "plot", "plot_available"]

PLOT_INSTALL = "pip install 'unomas[plot]'"


class PlotUnavailable(RuntimeError):
    """matplotlib is not installed."""

    def __init__(self) -> None:
        super().__init__(f"plotting needs matplotlib: {PLOT_INSTALL}")


def plot_available() -> bool:
    """Whether matplotlib can be imported."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def plot(result: TournamentResult, path: str | os.PathLike[str]) -> None:
    """Draw every entrant's match and round win rates with their 95 % intervals to ``path``.

    Needs matplotlib (the ``plot`` extra); raises :class:`PlotUnavailable` without it.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotUnavailable() from None

    names = [bot.name for bot in result.bots]
    figure, axes = plt.subplots(figsize=(max(6.0, 1.4 * len(names) + 2), 4.5))
    try:
        width = 0.38
        series = [
            ("matches", [b.match_win_rate for b in result.bots], [b.match_win_interval for b in result.bots]),
            ("rounds", [b.round_win_rate for b in result.bots], [b.round_win_interval for b in result.bots]),
        ]
        for offset, (label, rates, intervals) in zip((-width / 2, width / 2), series, strict=True):
            xs = [i + offset for i in range(len(names))]
            errors = [
                [max(0.0, rate - low) for rate, (low, _) in zip(rates, intervals, strict=True)],
                [max(0.0, high - rate) for rate, (_, high) in zip(rates, intervals, strict=True)],
            ]
            axes.bar(xs, rates, width, yerr=errors, capsize=4, label=f"{label} won")
        axes.axhline(1 / len(names), color="grey", linestyle=":", linewidth=1, label="an even share")
        axes.set_xticks(range(len(names)), names)
        axes.set_ylim(0, 1)
        axes.set_ylabel("win rate (95 % Wilson interval)")
        seed = "" if result.seed is None else f", seed {result.seed}"
        axes.set_title(f"{len(result.matches)} matches, {result.rules.players} seats{seed}")
        axes.legend()
        figure.tight_layout()
        figure.savefig(path)
    finally:
        plt.close(figure)
