"""Backends: batches, match order whatever the finishing order, retries, failures, interrupts."""

from __future__ import annotations

import json
import os
import random
import sys
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import pytest
from pebble import ProcessPool
from typer.testing import CliRunner, Result

from codes import raises_code
from unomas import record
from unomas.bots import BUILTIN_BOTS, PlayFirstBot
from unomas.cli import app
from unomas.errors import SettingsError
from unomas.rules import Rules
from unomas.runs.backends import (
    LOCAL_RETRIES,
    RAY_INSTALL,
    Backend,
    BackendUnavailable,
    BatchFailed,
    LocalRunner,
    batch_size,
    drive,
    play,
    play_batch,
)
from unomas.runs.simulation import SimulatedMatch, SimulationJob, Totals, run_simulation
from unomas.runs.tournament import TournamentInterrupted, TournamentJob, run_tournament, seating

ONE_ROUND = Rules(players=2, target_score=0)


@dataclass(frozen=True, slots=True)
class Squares:
    """Match ``k`` gives ``k * k``; a failed match gives ``-k``."""

    def play(self, number: int) -> int:
        return number * number

    def failed(self, number: int, reason: str) -> int:
        assert reason == "lost"
        return -number


class ScrambledRunner:
    """Finishes the last batch under way and the first, in that order; fails some for good."""

    workers = 3

    def __init__(self, job: Squares, failing: set[int]) -> None:
        self.job = job
        self.failing = failing
        self.started: list[tuple[int, int]] = []
        self.closed: list[object] | None = None

    def submit(self, start: int, stop: int) -> object:
        self.started.append((start, stop))
        return len(self.started) - 1

    def finished(self, handles: list[object]) -> list[tuple[object, list[int] | BatchFailed]]:
        done: list[tuple[object, list[int] | BatchFailed]] = []
        for handle in dict.fromkeys([handles[-1], handles[0]]):
            start, stop = self.started[cast(int, handle)]
            if self.failing & set(range(start, stop)):
                done.append((handle, BatchFailed("lost")))
            else:
                done.append((handle, play_batch(self.job, start, stop)))
        return done

    def close(self, handles: list[object]) -> None:
        self.closed = handles


def test_results_come_in_match_order_once_each_whatever_the_finishing_order() -> None:
    runner = ScrambledRunner(Squares(), failing=set())
    assert list(drive(runner, Squares(), 23, 4)) == [k * k for k in range(23)]
    assert sorted(runner.started) == [(s, min(s + 4, 23)) for s in range(0, 23, 4)]
    assert runner.closed == []


def test_a_batch_that_fails_for_good_is_played_again_match_by_match() -> None:
    runner = ScrambledRunner(Squares(), failing={6})
    results = list(drive(runner, Squares(), 10, 4))
    assert results == [k * k if k != 6 else -6 for k in range(10)]
    assert (4, 8) in runner.started
    assert [(k, k + 1) for k in range(4, 8)] == [t for t in runner.started if t[1] - t[0] == 1]


def test_stopping_early_closes_the_runner_with_the_batches_under_way() -> None:
    runner = ScrambledRunner(Squares(), failing=set())
    results = drive(runner, Squares(), 100, 2)
    assert [next(results) for _ in range(3)] == [0, 1, 4]
    results.close()
    assert runner.closed is not None and len(runner.closed) > 0


@pytest.mark.parametrize(("jobs", "batch"), [(1, None), (2, None), (2, 1), (3, 7)])
def test_local_backend_plays_every_match_in_order(jobs: int, batch: int | None) -> None:
    assert list(play(Squares(), 30, Backend(jobs=jobs, batch=batch))) == [k * k for k in range(30)]


@dataclass(frozen=True, slots=True)
class DyingSquares:
    """Like :class:`Squares`, but the worker process playing match 5 dies: the first
    time only if ``marker`` is given (it is created then), else every time. Each death
    adds a line to ``deaths``, if given."""

    marker: Path | None = None
    deaths: Path | None = None

    def play(self, number: int) -> int:
        if number == 5 and (self.marker is None or not self.marker.exists()):
            if self.marker is not None:
                self.marker.touch()
            if self.deaths is not None:
                with self.deaths.open("a") as tally:
                    tally.write("died\n")
            os._exit(1)
        return number * number

    def failed(self, number: int, reason: str) -> int:
        assert reason == f"its worker process died each of the {LOCAL_RETRIES} times it was played"
        return -number


def test_a_local_worker_that_dies_is_replaced_and_its_matches_played_again(tmp_path: Path) -> None:
    job = DyingSquares(tmp_path / "died")
    assert list(play(job, 200, Backend(jobs=2, batch=4))) == [k * k for k in range(200)]
    assert job.marker is not None and job.marker.exists()  # a worker did die


def test_a_match_whose_worker_always_dies_is_an_error_of_that_match_alone(tmp_path: Path) -> None:
    deaths = tmp_path / "deaths"
    results = list(play(DyingSquares(deaths=deaths), 12, Backend(jobs=2, batch=4)))
    assert results == [k * k if k != 5 else -5 for k in range(12)]
    # Its batch of four died once; then match 5 alone, LOCAL_RETRIES times (a pool pebble
    # gives up when its workers die fast, as on a loaded machine, plays its batch once more).
    assert 1 + LOCAL_RETRIES <= deaths.read_text().count("died") <= 2 * (1 + LOCAL_RETRIES)


class GivenUpPool:
    """A pool that pebble gave up, as it may when it cannot tell whose worker process died:
    it is no longer active, and what it was playing failed with BrokenProcessPool."""

    active = False

    def __init__(self, pool: ProcessPool) -> None:
        self.pool = pool
        self.stopped = False

    def lost(self) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_exception(BrokenProcessPool("All workers expired"))
        return future

    def stop(self) -> None:
        self.stopped = True
        self.pool.stop()

    def join(self) -> None:
        self.pool.join()


def test_the_batches_of_a_pool_given_up_are_played_in_a_new_pool() -> None:
    runner: LocalRunner[int] = LocalRunner(Squares(), 1)
    given_up = GivenUpPool(runner.pool)
    try:
        lost = cast("Any", runner.submit(0, 3))
        lost.future = given_up.lost()
        runner.pool = cast("ProcessPool", given_up)
        assert runner.finished([lost]) == []  # played again, in a new pool
        assert given_up.stopped and runner.pool is not cast("ProcessPool", given_up)
        assert runner.finished([lost]) == [(lost, [0, 1, 4])]
    finally:
        runner.close([])


@dataclass(frozen=True, slots=True)
class FaultySquares:
    """Like :class:`Squares`, but match 3 raises (a fault of the job, not of a bot)."""

    def play(self, number: int) -> int:
        if number == 3:
            raise RuntimeError("no square today")
        return number * number

    def failed(self, number: int, reason: str) -> int:
        assert reason == "RuntimeError: no square today"
        return -number


def test_a_match_that_raises_in_a_local_worker_is_an_error_of_that_match_alone() -> None:
    assert list(play(FaultySquares(), 9, Backend(jobs=2, batch=4))) == [k * k if k != 3 else -3 for k in range(9)]


def test_batch_size() -> None:
    assert batch_size(1_000_000, 4) == 32
    assert batch_size(64, 2) == 8
    assert batch_size(5, 2) == 1
    assert batch_size(1000, 1, limit=10) == 10


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"name": "cloud"}, "setup.unknown_backend"),
        ({"jobs": 0}, "setup.at_least_one"),
        ({"batch": 0}, "setup.at_least_one"),
        ({"address": "10.0.0.1:6379"}, "setup.address_not_ray"),
        ({"name": "ray", "address": "10.0.0.1:6379", "jobs": 2}, "setup.jobs_on_cluster"),
    ],
)
def test_bad_backends_are_refused(kwargs: dict[str, object], code: str) -> None:
    with raises_code(SettingsError, code):
        Backend(**kwargs)  # type: ignore[arg-type]


def test_ray_without_the_extra_names_the_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    monkeypatch.delitem(sys.modules, "unomas.runs.backends.ray", raising=False)
    with raises_code(BackendUnavailable, "setup.no_ray"):
        list(play(Squares(), 3, Backend("ray")))
    with raises_code(BackendUnavailable, "setup.no_ray"):
        run_tournament(ONE_ROUND, ["playfirst", "random"], 2, backend="ray")
    result = run("tournament", "--bots", "playfirst,random", "--games", "2", "--backend", "ray")
    assert result.exit_code == 2
    assert RAY_INSTALL in result.output
    result = run("simulate", "--games", "2", "--backend", "ray")
    assert result.exit_code == 2
    assert RAY_INSTALL in result.output


# ---------------------------------------------------------------- the jobs


def test_a_match_that_could_not_be_played_is_an_error_of_no_bot() -> None:
    job = TournamentJob(Rules(players=3), ("a", "b", "c"), 1, False)
    result = job.failed(4, "WorkerCrashedError: gone")
    assert result.number == 4 and result.seating == seating(3, 4) and result.summary is None
    assert result.error is not None
    assert (result.error.match, result.error.bot, result.error.reason) == (4, None, "WorkerCrashedError: gone")
    lost = SimulationJob(ONE_ROUND, "playfirst", 1, False).failed(2, "gone")
    assert lost == SimulatedMatch(2, error="gone")
    totals = Totals(2)
    totals.add(lost)
    assert totals.games == 1 and totals.errors == [lost] and totals.wins == [0, 0]


def test_simulation_runs_are_the_same_on_every_local_backend() -> None:
    rules = Rules(players=3, target_score=100)
    one = list(run_simulation(rules, 12, seed="x", history=True))
    two = list(run_simulation(rules, 12, seed="x", history=True, backend=Backend(jobs=2, batch=5)))
    assert one == two
    assert [m.number for m in one] == list(range(12))
    for match in one:
        assert match.record is not None and match.summary is not None
        assert record.replay(match.record).winner == match.summary.winner
        assert match.record["scores"] == match.summary.scores
    with raises_code(SettingsError, "setup.unknown_policy"):
        run_simulation(rules, 1, policy="clever")
    with raises_code(SettingsError, "setup.unknown_policy"):
        run_simulation(rules, 1, policy="uniform")


# ---------------------------------------------------------------- interrupts


class ImpatientBot(PlayFirstBot):
    """Stands for Ctrl-C: the fourth time one starts, it raises KeyboardInterrupt."""

    name = "impatient"
    starts = 0

    def start(self, seat: int, rules: Rules, rng: random.Random) -> None:
        ImpatientBot.starts += 1
        if ImpatientBot.starts == 4:
            raise KeyboardInterrupt
        super().start(seat, rules, rng)


@pytest.fixture
def impatient(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BUILTIN_BOTS, "impatient", ImpatientBot)
    monkeypatch.setattr(ImpatientBot, "starts", 0)


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200", "NO_COLOR": "1"})


@pytest.mark.usefixtures("impatient")
def test_an_interrupted_tournament_keeps_the_matches_before_it(tmp_path: Path) -> None:
    records = tmp_path / "r.jsonl"
    with pytest.raises(TournamentInterrupted, match="interrupted after 3 of 10 matches") as stopped:
        run_tournament(ONE_ROUND, ["impatient", "random"], 10, seed=3, records=records)
    partial = stopped.value.result
    assert partial.interrupted and len(partial.matches) == 3
    assert len(record.read_file(records)) == 3
    whole = run_tournament(ONE_ROUND, ["playfirst", "random"], 3, seed=3)
    assert [b.match_wins for b in partial.bots] == [b.match_wins for b in whole.bots]
    assert [(b.mu, b.sigma) for b in partial.bots] == [(b.mu, b.sigma) for b in whole.bots]
    assert partial.to_json()["interrupted"] is True and whole.to_json()["interrupted"] is False


@pytest.mark.usefixtures("impatient")
def test_cli_tournament_writes_the_results_so_far_on_ctrl_c(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    result = run("tournament", "--bots", "impatient,random", "--games", "10", "--seed", "3", "--out", str(out))
    assert result.exit_code == 130
    assert "interrupted after 3 of 10 matches; results so far written to" in result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["matches"] == 3 and data["interrupted"] is True
    assert sum(bot["matches"] for bot in data["bots"]) == 6


def test_cli_simulate_prints_the_figures_so_far_on_ctrl_c(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    played = SimulationJob.play

    def interrupted(self: SimulationJob, number: int) -> SimulatedMatch:
        if number == 5:
            raise KeyboardInterrupt
        return played(self, number)

    monkeypatch.setattr(SimulationJob, "play", interrupted)
    records = tmp_path / "r.jsonl"
    result = run("simulate", "--games", "9", "--seed", "1", "--records", str(records))
    assert result.exit_code == 130
    assert "interrupted after 5 of 9 matches" in result.output
    assert "games 5" in " ".join(result.output.replace("│", " ").split())
    assert len(record.read_file(records)) == 5


def test_cli_simulate_with_jobs_gives_the_same_records(tmp_path: Path) -> None:
    texts = []
    for jobs in ("1", "2"):
        path = tmp_path / f"{jobs}.jsonl"
        result = run("simulate", "--games", "6", "--seed", "s", "--jobs", jobs, "--records", str(path))
        assert result.exit_code == 0, result.output
        texts.append(path.read_text(encoding="utf-8"))
    assert texts[0] == texts[1]
    refused = run("simulate", "--games", "2", "--address", "auto")
    assert refused.exit_code == 2
    assert "--backend ray" in refused.output


def test_cli_simulate_lists_the_matches_that_could_not_be_played(monkeypatch: pytest.MonkeyPatch) -> None:
    played = SimulationJob.play

    def lost(self: SimulationJob, number: int) -> SimulatedMatch:
        return self.failed(number, "WorkerCrashedError: gone") if number == 2 else played(self, number)

    monkeypatch.setattr(SimulationJob, "play", lost)
    result = run("simulate", "--games", "4", "--seed", "1")
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.replace("│", " ").split())
    assert "not played (task failed) 1" in text
    assert "error in match 2: WorkerCrashedError: gone" in text
