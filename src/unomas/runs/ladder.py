"""The strength ladder: every bot against every other, written as ``docs/strength.md``.

    python -m unomas.runs.ladder [--rounds 400] [--jobs 1] [--out docs/strength.md] [--bots SPEC ...]

Each pair of bots plays ``--rounds`` single rounds (``target_score=0``) at each table: two
and four players (a four-player table seats the two bots in turn, ``a,b,a,b``), under the
official rules and with every house rule on (``all``), seats rotated every round, through
the tournament runner, from ``--seed``. A cell is the share of the rounds its row's bot won
against its column's, with the 95 % Wilson interval; a bot's time is the mean of its
answers to the table over every round it played. Under each table, every pair of bots
next to each other in the order given (weakest first) is said to be separated, the one
ahead named, when the interval of their share lies clear of one half, or not.
"""

from __future__ import annotations

import argparse
import itertools
import shlex
import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from unomas.bots.levels import slips
from unomas.rules import Rules
from unomas.runs.statistics import wilson
from unomas.runs.tournament import run_tournament

BOTS = ("random", "playfirst", "heuristic", "ismcts:iterations=1000", "learned", "ismcts:iterations=1000:prior=learned")
TABLES = ((2, "official"), (2, "all"), (4, "official"), (4, "all"))


@dataclass
class Pairing:
    """The rounds one pair of bots played at one table, and how many the first won."""

    rounds: int = 0
    wins: int = 0


def play_ladder(
    bots: Sequence[str], rounds: int, *, seed: str, jobs: int, tables: Sequence[tuple[int, str]] = TABLES
) -> tuple[dict[tuple[int, str, str, str], Pairing], dict[str, float]]:
    """Play every pairing at every table: the pairings' figures (keyed by players, preset,
    bot, opponent, both ways round) and each bot's mean seconds per decision."""
    pairings: dict[tuple[int, str, str, str], Pairing] = {}
    thinking: dict[str, float] = defaultdict(float)
    decisions: dict[str, int] = defaultdict(int)
    for players, preset in tables:
        rules = Rules.preset(preset, players=players, target_score=0)
        for i, bot in enumerate(bots):
            for opponent in bots[i + 1 :]:
                result = run_tournament(
                    rules, [bot, opponent], rounds, seed=f"{seed}/{players}/{preset}/{bot}/{opponent}", jobs=jobs
                )
                if result.errors:
                    raise RuntimeError(f"{bot} against {opponent}: {result.errors[0].reason}")
                wins = sum(stats.round_wins for stats in result.bots if stats.spec == bot)
                first = Pairing(result.bots[0].rounds, wins)
                for stats in result.bots:
                    thinking[stats.spec] += stats.thinking
                    decisions[stats.spec] += stats.decisions
                pairings[players, preset, bot, opponent] = first
                pairings[players, preset, opponent, bot] = Pairing(first.rounds, first.rounds - first.wins)
    seconds = {spec: thinking[spec] / decisions[spec] if decisions[spec] else 0.0 for spec in bots}
    return pairings, seconds


def markdown(
    bots: Sequence[str],
    pairings: dict[tuple[int, str, str, str], Pairing],
    seconds: dict[str, float],
    command: str,
    tables: Sequence[tuple[int, str]] = TABLES,
) -> str:
    """The ladder as a Markdown page (see the module)."""
    lines = [
        "# Strength ladder / Escalera de fuerza",
        "",
        "Every bot against every other in single rounds, seats rotated every round; a cell is the",
        "share of rounds its row's bot won against its column's, with the 95 % interval.",
        "Cada bot contra cada otro en rondas sueltas, asientos rotando cada ronda; una celda es la",
        "parte de las rondas que ganó el bot de su fila contra el de su columna, con el intervalo del 95 %.",
        "",
        f"Regenerate / regenerar: `{command}`",
        "",
        "| bot | ms per decision / ms por decisión | forgets UNO / olvida el UNO | misses a catch / no pilla |",
        "|---|---|---|---|",
        *[
            f"| `{bot}` | {seconds[bot] * 1000:.2f} | {_percent(slips(bot)[0])} | {_percent(slips(bot)[1])} |"
            for bot in bots
        ],
        "",
    ]
    for players, preset in tables:
        lines += [f"## {players} players / jugadores, `{preset}` rules / reglas", ""]
        lines.append("| bot | " + " | ".join(f"`{b}`" for b in bots) + " |")
        lines.append("|---" * (len(bots) + 1) + "|")
        for bot in bots:
            cells = []
            for opponent in bots:
                pairing = pairings.get((players, preset, bot, opponent))
                if pairing is None or not pairing.rounds:
                    cells.append("")
                    continue
                low, high = wilson(pairing.wins, pairing.rounds)
                cells.append(f"{pairing.wins / pairing.rounds:.1%} ({low:.1%}–{high:.1%}) n={pairing.rounds}")
            lines.append(f"| `{bot}` | " + " | ".join(cells) + " |")
        lines.append("")
        for weaker, stronger in itertools.pairwise(bots):
            pairing = pairings[players, preset, stronger, weaker]
            low, high = wilson(pairing.wins, pairing.rounds)
            if low > 0.5 or high < 0.5:
                ahead, behind = (stronger, weaker) if low > 0.5 else (weaker, stronger)
                lines.append(f"- `{ahead}` ahead of / por delante de `{behind}`: separated / separados")
            else:
                lines.append(f"- `{stronger}` and / y `{weaker}`: **not separated / no separados**")
        lines.append("")
    return "\n".join(lines)


def _percent(rate: float) -> str:
    return f"{rate * 100:.0f} %"


def main(argv: list[str] | None = None) -> None:
    """The command line (see the module's documentation)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=400, help="rounds per pairing and table")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--seed", default="ladder")
    parser.add_argument("--bots", nargs="+", default=list(BOTS), help="bot specs, weakest first")
    parser.add_argument("--out", type=Path, default=Path("docs/strength.md"))
    args = parser.parse_args(argv)
    pairings, seconds = play_ladder(args.bots, args.rounds, seed=args.seed, jobs=args.jobs)
    given = sys.argv[1:] if argv is None else argv
    command = shlex.join(["python", "-m", "unomas.runs.ladder", *given])
    args.out.write_text(markdown(args.bots, pairings, seconds, command) + "\n")


if __name__ == "__main__":
    main()
