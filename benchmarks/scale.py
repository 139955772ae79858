"""Throughput of the backends: matches/s on this machine's processes and on Ray.

    python benchmarks/scale.py [--games 10000] [--bots heuristic,playfirst] [--batches 1 4 8 16 32]

The workload is the strength benchmark's: single-round matches (two seats,
``target_score=0``) between the given bots, played as a tournament from one seed, so every
run plays the same matches (the script checks that the figures agree). It measures

- the local backend with 1 and 2 processes;
- Ray on a local instance of 1 and 2 CPUs, at the default batch size (``BATCH``);
- Ray's overhead per task: the seconds a task of no match at all costs, end to end;
- Ray with 2 CPUs at each batch size of ``--batches``, as a share of the local backend's
  throughput on the same 2 cores.

Target: at the default batch size, Ray with 2 workers keeps at least 90 % of the local
backend's throughput with 2 processes (its overhead under 10 %). Throughput is counted
once the first tenth of the matches is done, so that starting the local processes or
Ray's workers does not count; Ray's own start (a few seconds, once per cluster) is shown
apart.

Needs the ``ray`` extra (``pip install 'unomas[ray]'``).
"""

from __future__ import annotations

import argparse
import os
import time
from dataclasses import dataclass
from typing import Any

import ray

from unomas.rules import Rules
from unomas.runs.backends import BATCH, Backend, batch_size, play
from unomas.runs.tournament import TournamentResult, run_tournament

TARGET = 0.90
"""The least share of the local backend's throughput that Ray must keep."""


@dataclass(frozen=True, slots=True)
class Nothing:
    """A job whose matches cost nothing: what is left of a task is Ray's overhead."""

    def play(self, number: int) -> int:
        return number

    def failed(self, number: int, reason: str) -> int:
        return -1


def figures(result: TournamentResult) -> list[dict[str, Any]]:
    """The per-bot figures without the timing."""
    bots: list[dict[str, Any]] = result.to_json()["bots"]
    for bot in bots:
        del bot["seconds_per_decision"]
    return bots


def start_ray(cpus: int) -> float:
    """Start a local Ray instance of ``cpus`` CPUs; the seconds it took."""
    started = time.perf_counter()
    ray.init(address="local", num_cpus=cpus, include_dashboard=False, object_store_memory=128 * 1024 * 1024)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000, help="matches per measurement")
    parser.add_argument("--bots", default="heuristic,playfirst")
    parser.add_argument("--seed", default="scale")
    parser.add_argument("--batches", type=int, nargs="+", default=[1, 4, 8, 16, 32, 64])
    parser.add_argument("--tasks", type=int, default=2000, help="no-op tasks to measure the overhead per task")
    args = parser.parse_args()
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    games: int = args.games
    rules = Rules(players=2, target_score=0)
    specs = args.bots.split(",")
    reference: list[dict[str, Any]] | None = None

    def measure(label: str, **where: Any) -> float:
        """Matches/s once the first tenth is done (so that neither start-up counts)."""
        nonlocal reference
        marks: list[tuple[float, int]] = []

        def mark(done: int, total: int) -> None:
            if done >= total // 10 and not marks:
                marks.append((time.perf_counter(), done))

        started = time.perf_counter()
        result = run_tournament(rules, specs, games, seed=args.seed, progress=mark, **where)
        seconds = time.perf_counter() - started
        if reference is None:
            reference = figures(result)
        assert figures(result) == reference, f"{label}: not the same results as the first run"
        (since, counted) = marks[0]
        rate = (games - counted) / (time.perf_counter() - since)
        print(f"{label:<34} {rate:>10,.0f} matches/s  ({seconds:.1f} s in all)", flush=True)
        return rate

    print(f"{args.games} single-round matches {args.bots}, {os.cpu_count()} cores, default batch {BATCH}\n")
    local = {jobs: measure(f"local, {jobs} process(es)", jobs=jobs) for jobs in (1, 2)}
    rates: dict[int, float] = {}
    by_batch: dict[int, float] = {}
    overhead = 0.0
    for cpus in (1, 2):
        startup = start_ray(cpus)
        try:
            run_tournament(rules, specs, 8 * cpus, seed="warm-up", backend="ray", batch=1)  # start the workers
            rates[cpus] = measure(f"ray, {cpus} worker(s), batch {batch_size(games, cpus)}", backend="ray")
            if cpus == 1:
                started = time.perf_counter()
                for _ in play(Nothing(), args.tasks, Backend("ray", batch=1)):
                    pass
                overhead = (time.perf_counter() - started) / args.tasks
            else:
                for size in args.batches:
                    by_batch[size] = measure(f"ray, 2 workers, batch {size}", backend="ray", batch=size)
        finally:
            ray.shutdown()
        print(f"{'':<34} (Ray started in {startup:.1f} s)")
    match_seconds = 1 / local[1]
    print(f"\nRay's overhead per task: {1000 * overhead:.2f} ms (a match takes {1000 * match_seconds:.2f} ms here)")
    print(f"\n{'batch':>6} {'ray / local, 2 workers':>24} {'overhead':>9} {'expected':>9}")
    for size, rate in sorted({**by_batch, batch_size(games, 2): rates[2]}.items()):
        expected = overhead / (overhead + size * match_seconds)
        print(f"{size:>6} {rate / local[2]:>24.1%} {1 - rate / local[2]:>9.1%} {expected:>9.1%}")
    share = rates[2] / local[2]
    print(
        f"\nray, 2 workers, default batch {batch_size(games, 2)}: {share:.1%} of local"
        f" (target ≥ {TARGET:.0%}): {'met' if share >= TARGET else 'NOT met'}"
    )
    print(f"ray 2 workers / ray 1 worker: {rates[2] / rates[1]:.2f}×; local 2 / local 1: {local[2] / local[1]:.2f}×")


if __name__ == "__main__":
    main()
