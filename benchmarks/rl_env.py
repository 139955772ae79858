"""RL environment speed: steps/s with random masked actions, unomas beside RLCard's UNO env.

unomas: the PettingZoo AEC environment (``unomas.rl.env``, official rules, one round per
episode), each step reading the selected agent's observation and mask with ``last()`` and
taking a uniformly random allowed id (out-of-turn decisions and ``none`` included: every
decision is a step). batch: 64 such games stepped together (``unomas.rl.batch``), one
random open id per game drawn with NumPy for the whole batch (a step of the batch counts
64 steps). RLCard 1.2.0: ``rlcard.make("uno")`` stepping uniformly random legal actions,
each step encoding the next state as its env does. Each loop reads what its environment
hands out the cheapest plain way: the mask's ``nonzero()`` as a list for unomas
(``np.flatnonzero`` costs twice as much), the ``legal_actions`` keys for RLCard. RLCard
runs in its own virtual environment (created in ``benchmarks/.venv-rlcard`` on first use,
or given with ``--rlcard-python``), never as a dependency of unomas. They alternate in
short slices so machine noise hits all alike; the steps/s ratio is what to read (episodes
differ in length: random unomas play may draw while holding a playable card, RLCard's may
not).

On a machine that other work loads, ``--clock cpu`` measures each loop's own processor
time (``time.process_time``) instead of the wall clock: every loop is single-threaded, so
the time it waits for a core is left out and the ratios hold steadier.

    python benchmarks/rl_env.py [--seconds 10] [--players 2 4] [--clock wall|cpu]

``--lengths EPISODES`` measures instead how long random masked play under ``preset="all"``
runs and how often it reaches each environment's step limit (the AEC environment's
100,000, OpenSpiel's 10,000 when ``open_spiel`` is installed).

    python benchmarks/rl_env.py --lengths 100 [--players 2 4]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from engine import build_of_installed, rlcard_python  # noqa: E402

CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}


def unomas_slice(players: int, seconds: float, seed: int, clock: Callable[[], float]) -> tuple[int, int, float]:
    """Episodes and steps of the AEC environment with random masked actions."""
    import unomas.rl

    env = unomas.rl.env(players=players, target_score=0)
    env.reset(seed=seed)
    rng = random.Random(seed)
    episodes = steps = 0
    start = clock()
    while clock() - start < seconds:
        for _ in range(5):
            env.reset()
            while True:
                observation, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    break
                assert observation is not None
                allowed = observation["action_mask"].nonzero()[0].tolist()
                env.step(allowed[rng.randrange(len(allowed))])
                steps += 1
            episodes += 1
    return episodes, steps, clock() - start


def batch_slice(players: int, seconds: float, seed: int, clock: Callable[[], float]) -> tuple[int, int, float]:
    """Episodes and steps of a batch of 64 games (``unomas.rl.batch``) with random masked actions."""
    import numpy as np

    import unomas.rl
    from unomas.rl.batch import random_actions

    games = unomas.rl.batch(64, players=players, target_score=0)
    games.reset(seed=seed)
    rng = np.random.default_rng(seed)
    episodes = steps = 0
    start = clock()
    while clock() - start < seconds:
        for _ in range(20):
            games.step(random_actions(games.action_masks, rng))
            episodes += int(games.terminated.sum())
        steps += 20 * games.games
    return episodes, steps, clock() - start


def rlcard_slice(players: int, seconds: float, seed: int, clock: Callable[[], float]) -> tuple[int, int, float]:
    """Episodes and steps of RLCard's UNO env with uniformly random legal actions."""
    import rlcard

    env = rlcard.make("uno", config={"seed": seed, "game_num_players": players})
    rng = random.Random(seed)
    episodes = steps = 0
    start = clock()
    while clock() - start < seconds:
        for _ in range(5):
            state, _ = env.reset()
            while not env.is_over():
                state, _ = env.step(rng.choice(list(state["legal_actions"])))
                steps += 1
            episodes += 1
    return episodes, steps, clock() - start


def aec_lengths(players: int, episodes: int, rng: random.Random) -> tuple[list[int], int, int]:
    """Random masked episodes of the AEC environment under ``preset="all"``: their lengths,
    how many were truncated, the limit."""
    import unomas.rl

    env = unomas.rl.env(players=players, preset="all")
    env.reset(seed=players)
    lengths, truncated = [], 0
    for _ in range(episodes):
        env.reset()
        steps = 0
        while True:
            observation, _, terminated, cut, _ = env.last()
            if terminated or cut:
                truncated += cut
                break
            assert observation is not None
            allowed = observation["action_mask"].nonzero()[0].tolist()
            env.step(allowed[rng.randrange(len(allowed))])
            steps += 1
        lengths.append(steps)
    return lengths, truncated, env.driver.max_steps


def openspiel_lengths(players: int, episodes: int, rng: random.Random) -> tuple[list[int], int, int]:
    """The same for OpenSpiel's ``python_unomas_all`` (chance by its probabilities)."""
    import pyspiel

    from unomas.rl.openspiel import ALL_RULES_NAME

    game = pyspiel.load_game(ALL_RULES_NAME, {"players": players})
    lengths, truncated = [], 0
    for _ in range(episodes):
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probabilities)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
        truncated += state.driver.truncated
        lengths.append(steps)
    return lengths, truncated, game.max_game_length()


def print_lengths(players: list[int], episodes: int) -> None:
    """The episode lengths of random play under every house rule, beside each step limit."""
    import importlib.util

    measures = {"AEC env": aec_lengths}
    if importlib.util.find_spec("pyspiel") is not None:
        measures["OpenSpiel"] = openspiel_lengths
    print(f"{'env':>10} {'players':>7} {'limit':>8} {'episodes':>8} {'truncated':>10} {'median steps':>13}")
    for name, measure in measures.items():
        for n in players:
            lengths, truncated, limit = measure(n, episodes, random.Random(n))
            median = sorted(lengths)[len(lengths) // 2]
            print(
                f"{name:>10} {n:>7} {limit:>8,} {episodes:>8} {truncated:>4} ({truncated / episodes:>3.0%})"
                f" {median:>13,}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10.0, help="measuring time per engine and player count")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--rlcard-python", help="a Python with rlcard==1.2.0 (default: a venv of its own)")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall", help="wall time or each loop's CPU time")
    parser.add_argument("--lengths", type=int, metavar="EPISODES", help="measure episode lengths instead")
    parser.add_argument("--slice", nargs=3, metavar=("ENGINE", "PLAYERS", "SECONDS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.lengths:
        print_lengths(args.players, args.lengths)
        return
    if args.slice:  # one measurement, run in the interpreter that has the engine
        engine, players, seconds = args.slice[0], int(args.slice[1]), float(args.slice[2])
        measure = {"unomas": unomas_slice, "batch": batch_slice, "rlcard": rlcard_slice}[engine]
        print(json.dumps(measure(players, seconds, players, CLOCKS[args.clock])))
        return
    engines = {
        "unomas": [sys.executable],
        "batch": [sys.executable],
        "rlcard": [rlcard_python(args.rlcard_python)],
    }
    print(f"unomas as installed: {build_of_installed()}; clock: {args.clock}")
    print(f"{'players':>7} {'env':>8} {'episodes/s':>11} {'steps/s':>10} {'steps/episode':>14} {'vs RLCard':>10}")
    slices = 5
    for players in args.players:
        totals = {name: [0, 0, 0.0] for name in engines}
        for _ in range(slices):
            for name, command in engines.items():
                run = [*command, __file__, "--clock", args.clock]
                run += ["--slice", name, str(players), str(args.seconds / slices)]
                output = subprocess.run(run, check=True, capture_output=True, text=True, env=dict(os.environ)).stdout
                episodes, steps, elapsed = json.loads(output)
                totals[name][0] += episodes
                totals[name][1] += steps
                totals[name][2] += elapsed
        reference = totals["rlcard"][1] / totals["rlcard"][2]
        for name, (episodes, steps, elapsed) in totals.items():
            rate = steps / elapsed
            print(
                f"{players:>7} {name:>8} {episodes / elapsed:>11,.1f} {rate:>10,.0f}"
                f" {steps / max(episodes, 1):>14.1f} {rate / reference:>9.2f}x"
            )
    print("target: unomas ≥ 3x RLCard's steps/s")


if __name__ == "__main__":
    main()
