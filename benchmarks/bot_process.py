"""What a program bot costs per match: in-process bots beside `cmd:` bots of every protocol version.

Plays single-round two-player matches, the same seeds for every contestant: a `random`
bot inside unomas against `random` (the reference), then the example program bot
(`examples/random_bot.py`, the same policy over the JSON-lines protocol) against `random`,
speaking `unomas-bot/1` (a process per match), `unomas-bot/2` (one process for all
matches) and `unomas-bot/3` (one process, small questions: the view's changes, the actions
as text, an index for an answer, no events). The contestants take turns in slices, so the machine's load falls on
all alike, and each is printed as seconds per match and as a ratio to the reference:

    python benchmarks/bot_process.py [--matches 300] [--slices 5]
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path

from unomas.bots import make_bot
from unomas.bots.player import bot_match
from unomas.bots.process import close_idle
from unomas.rules import Rules

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "random_bot.py"
CONTESTANTS: dict[str, str] = {
    "random (in process)": "random",
    "cmd: protocol 1": "cmd:" + shlex.join([sys.executable, str(EXAMPLE), "--protocol", "1"]),
    "cmd: protocol 2": "cmd:" + shlex.join([sys.executable, str(EXAMPLE), "--protocol", "2"]),
    "cmd: protocol 3": "cmd:" + shlex.join([sys.executable, str(EXAMPLE)]),
}


def play(spec: str, seeds: range) -> float:
    """Seconds to play one match per seed, ``spec`` at seat 0 against ``random``."""
    rules = Rules(players=2, target_score=0)
    began = time.perf_counter()
    for seed in seeds:
        bot_match(rules, [make_bot(spec), make_bot("random")], seed=seed).play()
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=300, help="matches per contestant")
    parser.add_argument("--slices", type=int, default=5, help="turns each contestant takes")
    args = parser.parse_args()
    per_slice = max(1, args.matches // args.slices)
    totals = dict.fromkeys(CONTESTANTS, 0.0)
    for spec in CONTESTANTS.values():  # warm up: imports, the first process, the idle pool
        play(spec, range(2))
    for number in range(args.slices):
        seeds = range(number * per_slice, (number + 1) * per_slice)
        for name, spec in CONTESTANTS.items():
            totals[name] += play(spec, seeds)
    close_idle()
    matches = per_slice * args.slices
    reference = totals["random (in process)"] / matches
    print(f"{matches} single-round matches each, two players, against random")
    print(f"{'bot':<22} {'ms/match':>9} {'vs in process':>14}")
    for name, total in totals.items():
        cost = total / matches
        print(f"{name:<22} {cost * 1000:>9.2f} {cost / reference:>13.1f}×")


if __name__ == "__main__":
    main()
