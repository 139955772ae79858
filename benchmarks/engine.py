"""Engine speed: unomas beside RLCard's UNO, inside the process and as whole runs, in one run.

Three measurements, each of unomas as installed (compiled with mypyc unless built with
``UNOMAS_PURE=1``) and as pure Python from ``src/`` (or ``--source``):

inside
    Single rounds/s and actions/s in one process: the ``playfirst`` policy of ``unomas
    simulate``, every seat a player of the conductor (official rules, ``target_score=0``),
    beside RLCard 1.2.0's ``UnoGame`` driven directly with uniformly random legal actions
    (it likewise draws only when nothing is playable). The engines alternate in short
    slices, so machine noise hits both alike; the ratio is the median of the slices' ratios,
    with their spread.
whole
    What a user waits for: ``unomas simulate --games N --policy playfirst --set
    target_score=0`` timed as a whole process (start-up, imports, the table it prints),
    beside a process that imports RLCard and plays the same number of single rounds of its
    ``UnoGame`` with random legal actions. ``--runs`` interleaved pairs (every engine once
    per pair, in turn); each process is timed by its processor time (user and system, which
    other work on a shared machine disturbs less than the clock) and by the clock. Shown: the
    medians, and the median of the pairs' ratios with the lowest and highest.
search
    ISMCTS iterations/s (:func:`unomas.bots.search.search`, the search behind
    ``ismcts``) from 20 fixed two-player positions where a seat chooses among several
    turn actions (positions of seeded ``heuristic`` matches), ``--iterations`` per position.

RLCard runs in its own virtual environment (created in ``benchmarks/.venv-rlcard`` on first
use, or given with ``--rlcard-python``), never as a dependency of unomas. Ratios are what to
read; the first lines name the machine (processor, cores, load), the Python and the build.

    python benchmarks/engine.py [--seconds 10] [--players 2 4] [--games 10000] [--runs 5]
                                [--modes inside whole search] [--engine NAME PYTHON [SOURCE]]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
import venv
from pathlib import Path

HERE = Path(__file__).resolve().parent
RLCARD_VENV = HERE / ".venv-rlcard"

RLCARD_WHOLE = """
import random, sys
from rlcard.games.uno.game import UnoGame
players, rounds = int(sys.argv[1]), int(sys.argv[2])
game = UnoGame(num_players=players)
game.np_random.seed(players)
rng = random.Random(players)
for _ in range(rounds):
    state, _ = game.init_game()
    while not game.is_over():
        state, _ = game.step(rng.choice(state["legal_actions"]))
"""
"""RLCard's whole process: import it, play ``rounds`` single rounds with random legal actions."""

TARGETS = {"inside": 5.0, "whole": 10.0}
"""unomas's rounds/s on the compiled build, at least this many times RLCard's."""


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


def search_slice(iterations: int) -> tuple[int, float]:
    """ISMCTS iterations run from the benchmark's positions, and the seconds they took."""
    from unomas.bots import make_bot
    from unomas.bots.player import bot_match
    from unomas.bots.search import search, turn_candidates
    from unomas.position import Phase
    from unomas.rules import Rules
    from unomas.view import View

    rules = Rules(players=2, target_score=0)
    positions: list[View] = []
    match = 0
    while len(positions) < 20:
        table = bot_match(rules, [make_bot("heuristic"), make_bot("heuristic")], seed=f"search/{match}")
        match += 1
        while not table.game.round_over and len(positions) < 20:
            decision = table.decision()
            if decision is not None and not decision[1]:
                view = table.view(decision[0])
                if view.phase is not Phase.COLOR and len(turn_candidates(view.legal_actions)) > 1:
                    positions.append(view)
            table.step()
    rng = random.Random(1)
    start = time.perf_counter()
    for view in positions:
        search(view, rng, iterations=iterations, seconds=None, exploration=0.7)
    return len(positions) * iterations, time.perf_counter() - start


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


def inside(engines: dict[str, tuple[list[str], dict[str, str]]], players: list[int], seconds: float) -> None:
    """The in-process table: rounds/s and actions/s of each engine, slices alternating; the
    ratio to RLCard is the median of the slices' ratios (lowest–highest beside it)."""
    print("inside the process")
    print(
        f"{'players':>7} {'engine':>8} {'rounds/s':>10} {'actions/s':>11} {'actions/round':>14}"
        f" {'vs RLCard':>10} {'spread':>13}"
    )
    slices = 5
    for count in players:
        measured: dict[str, list[tuple[int, int, float]]] = {name: [] for name in engines}
        for _ in range(slices):
            for name, (command, env) in engines.items():
                engine = "rlcard" if name == "rlcard" else "unomas"
                run = [*command, __file__, "--slice", engine, str(count), str(seconds / slices)]
                rounds, actions, elapsed = json.loads(_output(run, env))
                measured[name].append((rounds, actions, elapsed))
        reference = [rounds / elapsed for rounds, _, elapsed in measured["rlcard"]]
        for name, parts in measured.items():
            rounds = sum(part[0] for part in parts)
            actions = sum(part[1] for part in parts)
            elapsed = sum(part[2] for part in parts)
            ratios = [part[0] / part[2] / rate for part, rate in zip(parts, reference, strict=True)]
            print(
                f"{count:>7} {name:>8} {rounds / elapsed:>10,.0f} {actions / elapsed:>11,.0f}"
                f" {actions / rounds:>14.1f} {statistics.median(ratios):>9.2f}x {_spread(ratios):>13}"
            )


def whole(engines: dict[str, tuple[list[str], dict[str, str]]], players: list[int], games: int, runs: int) -> None:
    """The whole-process table: each engine's command timed from start to exit, in
    interleaved pairs; the ratios to RLCard are the medians of the pairs' ratios."""
    print(f"whole process: {games:,} single rounds per run, {runs} interleaved pairs (medians; spread of the ratios)")
    print(
        f"{'players':>7} {'engine':>8} {'cpu s':>7} {'clock s':>8} {'rounds/s':>10}"
        f" {'vs RLCard':>10} {'spread':>13} {'clock vs':>9} {'spread':>13}"
    )
    for count in players:
        simulate = ["simulate", "--games", str(games), "--policy", "playfirst", "--set", "target_score=0"]
        commands = {
            name: (
                [*command, "-c", RLCARD_WHOLE, str(count), str(games)]
                if name == "rlcard"
                else [*command, "-m", "unomas", *simulate, "--players", str(count)],
                env,
            )
            for name, (command, env) in engines.items()
        }
        cpu: dict[str, list[float]] = {name: [] for name in commands}
        clock: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(runs):
            for name, (command, env) in commands.items():
                used, took = _timed(command, env)
                cpu[name].append(used)
                clock[name].append(took)
        for name in commands:
            by_cpu = [theirs / ours for theirs, ours in zip(cpu["rlcard"], cpu[name], strict=True)]
            by_clock = [theirs / ours for theirs, ours in zip(clock["rlcard"], clock[name], strict=True)]
            seconds = statistics.median(cpu[name])
            print(
                f"{count:>7} {name:>8} {seconds:>7.2f} {statistics.median(clock[name]):>8.2f} {games / seconds:>10,.0f}"
                f" {statistics.median(by_cpu):>9.2f}x {_spread(by_cpu):>13}"
                f" {statistics.median(by_clock):>8.2f}x {_spread(by_clock):>13}"
            )


def _timed(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """The processor seconds (user and system) and the clock seconds of a run of ``command``."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, env=os.environ | env)
    _, status, usage = os.wait4(process.pid, 0)
    took = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise subprocess.CalledProcessError(process.returncode, command)
    return usage.ru_utime + usage.ru_stime, took


def _spread(ratios: list[float]) -> str:
    """The lowest and highest of some ratios."""
    return f"{min(ratios):.2f}x–{max(ratios):.2f}x"


def search_speed(engines: dict[str, tuple[list[str], dict[str, str]]], iterations: int) -> None:
    """The ISMCTS table: iterations/s of each unomas build, runs alternating."""
    print(f"ISMCTS search: 20 two-player positions, {iterations} iterations each")
    print(f"{'engine':>8} {'iterations/s':>13}")
    totals = {name: [0, 0.0] for name in engines if name != "rlcard"}
    for _ in range(3):
        for name in totals:
            command, env = engines[name]
            done, seconds = json.loads(_output([*command, __file__, "--search-slice", str(iterations)], env))
            totals[name][0] += done
            totals[name][1] += seconds
    for name, (done, seconds) in totals.items():
        print(f"{name:>8} {done / seconds:>13,.0f}")


def _output(command: list[str], env: dict[str, str]) -> str:
    return subprocess.run(command, check=True, capture_output=True, text=True, env=os.environ | env).stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10.0, help="inside: measuring time per engine and players")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--games", type=int, default=10_000, help="whole: single rounds per run")
    parser.add_argument("--runs", type=int, default=7, help="whole: interleaved pairs (medians are shown)")
    parser.add_argument("--iterations", type=int, default=300, help="search: ISMCTS iterations per position")
    parser.add_argument("--modes", nargs="+", choices=["inside", "whole", "search"], default=["inside", "whole"])
    parser.add_argument("--source", type=Path, default=HERE.parent / "src", help="the source the pure build runs")
    parser.add_argument("--rlcard-python", help="a Python with rlcard==1.2.0 (default: a venv of its own)")
    parser.add_argument(
        "--engine",
        nargs="+",
        action="append",
        default=[],
        metavar="NAME PYTHON [SOURCE]",
        help="another unomas to measure beside (an earlier build, say): its Python, and a source it runs from",
    )
    parser.add_argument("--slice", nargs=3, metavar=("ENGINE", "PLAYERS", "SECONDS"), help=argparse.SUPPRESS)
    parser.add_argument("--search-slice", type=int, metavar="ITERATIONS", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.slice:  # one measurement, run in the interpreter that has the engine
        engine, players, seconds = args.slice[0], int(args.slice[1]), float(args.slice[2])
        measure = unomas_slice if engine == "unomas" else rlcard_slice
        print(json.dumps(measure(players, seconds, seed=players)))
        return
    if args.search_slice:
        print(json.dumps(search_slice(args.search_slice)))
        return
    engines: dict[str, tuple[list[str], dict[str, str]]] = {
        "unomas": ([sys.executable], {}),
        "pure": ([sys.executable], {"PYTHONPATH": str(args.source.resolve())}),
    }
    for name, python, *source in args.engine:
        engines[name] = ([python], {"PYTHONPATH": str(Path(source[0]).resolve())} if source else {})
    if "inside" in args.modes or "whole" in args.modes:
        engines["rlcard"] = ([rlcard_python(args.rlcard_python)], {})
    print(machine())
    print(f"unomas as installed: {build_of_installed()}; 'pure' runs the same source uncompiled")
    if "inside" in args.modes:
        inside(engines, args.players, args.seconds)
    if "whole" in args.modes:
        whole(engines, args.players, args.games, args.runs)
    if "search" in args.modes:
        search_speed(engines, args.iterations)
    print(", ".join(f"target ({mode}): unomas ≥ {ratio:g}x RLCard's rounds/s" for mode, ratio in TARGETS.items()))


def machine() -> str:
    """The processor, its cores and their load now, and the Python: what the figures came from."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            model = next(line.split(":", 1)[1].strip() for line in info if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    load = ", ".join(f"{figure:.1f}" for figure in os.getloadavg())
    return (
        f"machine: {model}, {os.cpu_count()} cores (load {load}); "
        f"Python {platform.python_version()} ({platform.python_implementation()})"
    )


def build_of_installed() -> str:
    """Whether the unomas this interpreter imports is the mypyc-compiled build."""
    import unomas.game

    return "compiled (mypyc)" if not unomas.game.__file__.endswith(".py") else "pure Python"


if __name__ == "__main__":
    main()
