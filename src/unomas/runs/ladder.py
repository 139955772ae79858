"""The strength ladder: every bot against every other, written as ``docs/strength.md``.

    python -m unomas.runs.ladder [--rounds 400] [--jobs 1] [--out docs/strength.md] [--bots SPEC ...]
        [--rlcard-python PYTHON]

Each pair of bots plays ``--rounds`` single rounds (``target_score=0``) at each table: two
and four players (a four-player table seats the two bots in turn, ``a,b,a,b``), under the
official rules and with every house rule on (``all``), seats rotated every round, through
the tournament runner, from ``--seed``. A cell is the share of the rounds its row's bot won
against its column's, with the 95 % Wilson interval; a bot's time is the mean of its
answers to the table over every round it played. Under each table, every pair of bots
next to each other in the order given (weakest first) is said to be separated, the one
ahead named, when the interval of their share lies clear of one half, or not. Each table
also rates the bots with OpenSkill (Plackett-Luce, as tournaments do): every round a match
of two, the bot of the round's winner first, in the order played; the figure is the
conservative ``mu - 3 * sigma``.

``--rlcard-python`` names an interpreter with ``rlcard==1.2.0`` (benchmarks/engine.py makes
one in ``benchmarks/.venv-rlcard``): RLCard's rule agent then joins the ladder as the
external anchor, ``rlcard-rule``, a program bot (:mod:`unomas.runs.rlcard_rule`) placed
after ``playfirst``. Without it the page says the anchor is absent.
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
from unomas.conductor import MatchSummary
from unomas.rules import Rules
from unomas.runs.statistics import Ratings, wilson
from unomas.runs.tournament import TournamentResult, run_tournament

BOTS = ("random", "playfirst", "learned", "heuristic", "ismcts:iterations=100")
TABLES = ((2, "official"), (2, "all"), (4, "official"), (4, "all"))
ANCHOR = "rlcard-rule"
"""The name the ladder gives RLCard's rule agent."""


@dataclass
class Pairing:
    """The rounds one pair of bots played at one table, and how many the first won."""

    rounds: int = 0
    wins: int = 0


@dataclass
class Ladder:
    """What a ladder's rounds gave: the pairings' figures (keyed by players, preset, bot,
    opponent, both ways round), each bot's mean seconds per decision, and each table's
    OpenSkill ratings (``mu - 3 * sigma``, in the order of the bots)."""

    pairings: dict[tuple[int, str, str, str], Pairing]
    seconds: dict[str, float]
    ratings: dict[tuple[int, str], list[float]]


def anchor_spec(python: str) -> str:
    """The program-bot spec of RLCard's rule agent run by ``python`` (one with rlcard 1.2.0)."""
    from unomas.runs import rlcard_rule

    return "cmd:startup=60:" + shlex.join([python, str(Path(rlcard_rule.__file__))])


def play_ladder(
    bots: Sequence[str],
    rounds: int,
    *,
    seed: str,
    jobs: int,
    tables: Sequence[tuple[int, str]] = TABLES,
    names: dict[str, str] | None = None,
) -> Ladder:
    """Play every pairing at every table (see the module); ``names``: as :func:`markdown`'s,
    which the pairings' seeds use, so that the anchor deals the same wherever it is installed."""
    shown = {bot: (names or {}).get(bot, bot) for bot in bots}
    pairings: dict[tuple[int, str, str, str], Pairing] = {}
    thinking: dict[str, float] = defaultdict(float)
    decisions: dict[str, int] = defaultdict(int)
    ratings: dict[tuple[int, str], list[float]] = {}
    for players, preset in tables:
        rules = Rules.preset(preset, players=players, target_score=0)
        rated = Ratings(len(bots))
        for i, bot in enumerate(bots):
            for opponent in bots[i + 1 :]:
                result = run_tournament(
                    rules,
                    [bot, opponent],
                    rounds,
                    seed=f"{seed}/{players}/{preset}/{shown[bot]}/{shown[opponent]}",
                    jobs=jobs,
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
                rate_rounds(rated, result, bots.index(bot), bots.index(opponent))
        ratings[players, preset] = [rating.mu - 3 * rating.sigma for rating in rated.ratings]
    seconds = {spec: thinking[spec] / decisions[spec] if decisions[spec] else 0.0 for spec in bots}
    return Ladder(pairings, seconds, ratings)


def rate_rounds(ratings: Ratings, result: TournamentResult, bot: int, opponent: int) -> None:
    """Rate every round of ``result`` (a tournament of the bots at indices ``bot`` and
    ``opponent``) as a match of two, the winner's bot first."""
    first = result.bots[0].spec
    for match in result.matches:
        summary = match.summary
        if summary is None or summary.winner is None:
            continue
        won = result.bots[match.seating[summary.winner]].spec == first
        two = MatchSummary(winner=0 if won else 1, scores=[1, 0] if won else [0, 1], rounds=1, actions=0)
        ratings.rate([bot, opponent], two)


def markdown(
    bots: Sequence[str],
    ladder: Ladder,
    command: str,
    tables: Sequence[tuple[int, str]] = TABLES,
    names: dict[str, str] | None = None,
) -> str:
    """The ladder as a Markdown page (see the module); ``names``: how to show a bot whose
    spec is not its name (the anchor)."""
    shown = {bot: (names or {}).get(bot, bot) for bot in bots}
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
    ]
    if ANCHOR in shown.values():
        lines += [
            f"`{ANCHOR}` is RLCard 1.2.0's rule agent (`UNORuleAgentV1`), the external anchor, run as a program bot",
            "in RLCard's own environment. / es el agente de reglas de RLCard 1.2.0, el ancla externa, como",
            "programa en el entorno propio de RLCard.",
        ]
    else:
        lines += [
            "RLCard's rule agent, the external anchor, is absent from this run (give `--rlcard-python`).",
            "El agente de reglas de RLCard, el ancla externa, no está en esta tirada (dé `--rlcard-python`).",
        ]
    lines += [
        "",
        "| bot | ms per decision / ms por decisión | forgets UNO / olvida el UNO | misses a catch / no pilla |"
        + "".join(f" OpenSkill {players}p `{preset}` |" for players, preset in tables),
        "|---|---|---|---|" + "---|" * len(tables),
    ]
    for index, bot in enumerate(bots):
        forget, miss = (0.0, 0.0) if shown[bot] == ANCHOR else slips(bot)
        rated = "".join(f" {ladder.ratings[table][index]:.1f} |" for table in tables if table in ladder.ratings)
        lines.append(
            f"| `{shown[bot]}` | {ladder.seconds[bot] * 1000:.2f} | {_percent(forget)} | {_percent(miss)} |{rated}"
        )
    lines += ["", "OpenSkill: `mu - 3 * sigma`, every round a match of two. / cada ronda, una partida de dos.", ""]
    for players, preset in tables:
        lines += [f"## {players} players / jugadores, `{preset}` rules / reglas", ""]
        lines.append("| bot | " + " | ".join(f"`{shown[b]}`" for b in bots) + " |")
        lines.append("|---" * (len(bots) + 1) + "|")
        for bot in bots:
            cells = []
            for opponent in bots:
                pairing = ladder.pairings.get((players, preset, bot, opponent))
                if pairing is None or not pairing.rounds:
                    cells.append("")
                    continue
                low, high = wilson(pairing.wins, pairing.rounds)
                cells.append(f"{pairing.wins / pairing.rounds:.1%} ({low:.1%}–{high:.1%}) n={pairing.rounds}")
            lines.append(f"| `{shown[bot]}` | " + " | ".join(cells) + " |")
        lines.append("")
        for weaker, stronger in itertools.pairwise(bots):
            pairing = ladder.pairings[players, preset, stronger, weaker]
            low, high = wilson(pairing.wins, pairing.rounds)
            if low > 0.5 or high < 0.5:
                ahead, behind = (stronger, weaker) if low > 0.5 else (weaker, stronger)
                lines.append(f"- `{shown[ahead]}` ahead of / por delante de `{shown[behind]}`: separated / separados")
            else:
                lines.append(f"- `{shown[stronger]}` and / y `{shown[weaker]}`: **not separated / no separados**")
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
    parser.add_argument("--rlcard-python", help="a Python with rlcard==1.2.0: RLCard's rule agent joins as the anchor")
    parser.add_argument("--out", type=Path, default=Path("docs/strength.md"))
    args = parser.parse_args(argv)
    bots: list[str] = list(args.bots)
    names: dict[str, str] = {}
    if args.rlcard_python:
        anchor = anchor_spec(args.rlcard_python)
        names[anchor] = ANCHOR
        bots.insert(bots.index("playfirst") + 1 if "playfirst" in bots else 0, anchor)
    ladder = play_ladder(bots, args.rounds, seed=args.seed, jobs=args.jobs, names=names)
    given = sys.argv[1:] if argv is None else argv
    command = shlex.join(["python", "-m", "unomas.runs.ladder", *given])
    args.out.write_text(markdown(bots, ladder, command, names=names) + "\n")


if __name__ == "__main__":
    main()
