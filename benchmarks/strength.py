"""Bot strength: round win rates between pairs of bots, with 95 % intervals.

UNO is mostly luck, so each pairing plays many single rounds (two players,
``target_score=0``), seats swapped every round, through the tournament runner. Targets:
``heuristic`` wins ≥ 65 % of rounds against ``playfirst``; ``ismcts`` with at most 0.1 s
per move wins ≥ 55 % against ``heuristic`` with the interval's lower bound above 50 %.
Both under the official rules and with every house rule on (``--rules all``).

    python benchmarks/strength.py [--rounds 2000] [--jobs 2] [--ismcts ismcts:iterations=1500]

The ISMCTS budget is given in iterations so that a run is reproducible; the script prints
the seconds per move it measured, which must stay at or under 0.1 s.
"""

from __future__ import annotations

import argparse
import time

from unomas.rules import Rules
from unomas.runs.tournament import run_tournament

TARGETS = {"heuristic": ("playfirst", 0.65), "ismcts": ("heuristic", 0.55)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=2000, help="rounds per pairing and preset")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--seed", default="strength")
    parser.add_argument("--ismcts", default="ismcts:iterations=1500", help="the ISMCTS spec to measure")
    parser.add_argument("--presets", nargs="+", default=["official", "all"])
    parser.add_argument("--pairings", nargs="+", default=["heuristic/playfirst", "ismcts/heuristic"])
    args = parser.parse_args()
    print(
        f"{'rules':>8} {'bot':>24} {'opponent':>10} {'rounds':>7} {'win rate':>9} {'95 % interval':>15}"
        f" {'s/move':>8} {'target':>7} {'met':>4}"
    )
    for preset in args.presets:
        rules = Rules.preset(preset, players=2, target_score=0)
        for pairing in args.pairings:
            name, opponent = pairing.split("/")
            spec = args.ismcts if name == "ismcts" else name
            started = time.perf_counter()
            result = run_tournament(rules, [spec, opponent], args.rounds, seed=f"{args.seed}/{preset}", jobs=args.jobs)
            bot = result.bots[0]
            low, high = bot.round_win_interval
            rate = bot.round_win_rate
            target = TARGETS.get(name, ("", 0.5))[1]
            met = rate >= target and (name != "ismcts" or low > 0.5)
            per_move = bot.seconds_per_decision or 0.0
            print(
                f"{preset:>8} {spec:>24} {opponent:>10} {bot.rounds:>7} {rate:>9.1%} {f'{low:.1%}–{high:.1%}':>15}"
                f" {per_move:>8.3f} {target:>7.0%} {'yes' if met else 'NO':>4}"
                f"   ({time.perf_counter() - started:.0f} s)",
                flush=True,
            )


if __name__ == "__main__":
    main()
