"""Engine speed: single rounds/s and actions/s, unomas beside RLCard's UNO, in one run.

unomas plays with the ``playfirst`` policy of ``unomas simulate``, every seat a player of
the conductor (official rules, single rounds: ``target_score=0``), both as installed
(compiled with mypyc unless built with ``UNOMAS_PURE=1``) and as pure Python from ``src/``.
RLCard 1.2.0's ``UnoGame`` is driven directly with uniformly random legal actions (it
likewise draws only when nothing is playable). RLCard
runs in its own virtual environment (created in ``benchmarks/.venv-rlcard`` on first use,
or given with ``--rlcard-python``), never as a dependency of unomas. The two alternate
in short slices so machine noise hits both alike; ratios are what to read.

    python benchmarks/engine.py [--seconds 10] [--players 2 4]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
import venv
from pathlib import Path

HERE = Path(__file__).resolve().parent
RLCARD_VENV = HERE / ".venv-rlcard"


def unomas_slice(players: int, seconds: float, seed: int) -> tuple[int, int, float]:
    """Rounds and actions played by unomas's playfirst policy in about ``seconds``."""
    from unomas.conductor import Conductor
    from unomas.game import Game
    from unomas.rules import Rules
    from unomas.runs.selfplay import players as selfplay_players

    rules = Rules(players=players, target_score=0)
    rng = random.Random(seed)
    rngs = [rng] * players
    rounds = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(50):
            table = Conductor(Game(rules, rng=rng, history=False), selfplay_players("playfirst", players), rngs=rngs)
            summary = table.play()
            rounds += summary.rounds
            actions += summary.actions
    return rounds, actions, time.perf_counter() - start


def rlcard_slice(players: int, seconds: float, seed: int) -> tuple[int, int, float]:
    """Rounds and actions of RLCard's UnoGame with uniformly random legal actions."""
    from rlcard.games.uno.game import UnoGame

    game = UnoGame(num_players=players)
    game.np_random.seed(seed)
    rng = random.Random(seed)
    rounds = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(50):
            state, _ = game.init_game()
            while not game.is_over():
                state, _ = game.step(rng.choice(state["legal_actions"]))
                actions += 1
            rounds += 1
    return rounds, actions, time.perf_counter() - start


def rlcard_python(given: str | None) -> str:
    """An interpreter with rlcard 1.2.0 installed (a venv of the benchmark's own)."""
    if given:
        return given
    python = RLCARD_VENV / "bin" / "python"
    if not python.exists():
        print("creating benchmarks/.venv-rlcard with rlcard 1.2.0 …", file=sys.stderr)
        venv.create(RLCARD_VENV, with_pip=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "rlcard==1.2.0"], check=True)
    return str(python)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10.0, help="measuring time per engine and player count")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--rlcard-python", help="a Python with rlcard==1.2.0 (default: a venv of its own)")
    parser.add_argument("--slice", nargs=3, metavar=("ENGINE", "PLAYERS", "SECONDS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.slice:  # one measurement, run in the interpreter that has the engine
        engine, players, seconds = args.slice[0], int(args.slice[1]), float(args.slice[2])
        measure = unomas_slice if engine == "unomas" else rlcard_slice
        print(json.dumps(measure(players, seconds, seed=players)))
        return
    engines = {
        "unomas": ([sys.executable], {}),
        "pure": ([sys.executable], {"PYTHONPATH": str(HERE.parent / "src")}),
        "rlcard": ([rlcard_python(args.rlcard_python)], {}),
    }
    print(f"unomas as installed: {build_of_installed()}; 'pure' runs the same source uncompiled")
    print(f"{'players':>7} {'engine':>8} {'rounds/s':>10} {'actions/s':>11} {'actions/round':>14} {'vs RLCard':>10}")
    slices = 5
    for players in args.players:
        totals = {name: [0, 0, 0.0] for name in engines}
        for _ in range(slices):
            for name, (command, env) in engines.items():
                engine = "rlcard" if name == "rlcard" else "unomas"
                run = [*command, __file__, "--slice", engine, str(players), str(args.seconds / slices)]
                output = subprocess.run(run, check=True, capture_output=True, text=True, env=os.environ | env).stdout
                rounds, actions, elapsed = json.loads(output)
                totals[name][0] += rounds
                totals[name][1] += actions
                totals[name][2] += elapsed
        reference = totals["rlcard"][0] / totals["rlcard"][2]
        for name, (rounds, actions, elapsed) in totals.items():
            rate = rounds / elapsed
            print(
                f"{players:>7} {name:>8} {rate:>10,.0f} {actions / elapsed:>11,.0f}"
                f" {actions / rounds:>14.1f} {rate / reference:>9.2f}x"
            )
    print("target: unomas ≥ 5x RLCard's rounds/s")


def build_of_installed() -> str:
    """Whether the unomas this interpreter imports is the mypyc-compiled build."""
    import unomas.game

    return "compiled (mypyc)" if not unomas.game.__file__.endswith(".py") else "pure Python"


if __name__ == "__main__":
    main()
