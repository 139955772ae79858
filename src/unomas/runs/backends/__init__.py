"""Where the matches of a run are played: this machine's processes, or a Ray cluster.

A run is a *job* (a picklable object that plays match ``k`` of the run from its settings,
the seed and ``k`` alone) and a number of matches. A backend cuts the match numbers into
batches, plays each batch with :func:`play_batch` wherever it likes and hands the batches
back in whatever order they finish; :func:`play` turns those into the per-match results in
match order, every number exactly once: a result is kept by its match number, so a batch
played twice (as a retried one may be) replaces, never adds. The aggregators (the
tournament's table, the simulation's totals) see only that ordered stream, so they give the
same answer on every backend, whatever the number of workers and the order of finishing.

``local``
    ``jobs`` processes of this machine (1: this process), in a pebble process pool. A
    worker process that dies mid-run is replaced and the batch it took down is played
    again (:class:`LocalRunner`).
``ray``
    Ray tasks (:mod:`unomas.runs.backends.ray`, the one module that imports Ray, loaded only
    when chosen): a local Ray instance of ``jobs`` CPUs (every core by default), or the
    cluster at ``address``. A worker lost mid-run has its tasks retried by Ray.

A batch that fails as a whole (its worker process died more times than Ray retries, say)
is played again one match per task, and a match that still fails is an error of that match
(:meth:`Job.failed`), so one bad match never stops a run. Closing the stream (an interrupt,
an error in the caller) cancels the work under way.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Generator
from contextlib import closing
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar, cast

from unomas.errors import SettingsError

if TYPE_CHECKING:  # pools load when made: a run in this process needs none of them
    from concurrent.futures import Future

    from pebble import ProcessPool

__all__ = [
    "BACKENDS",
    "RAY_INSTALL",
    "Backend",
    "BackendUnavailable",
    "BatchFailed",
    "Job",
    "LocalRunner",
    "Runner",
    "batch_size",
    "drive",
    "play",
    "play_batch",
]

BACKENDS = ("local", "ray")
RAY_INSTALL = "pip install 'unomas[ray]'"

BATCH = 32
"""The most matches in one task: enough that a Ray task's overhead is a small share of its
work (``benchmarks/scale.py`` measures it), few enough that work spreads over the workers."""

TASKS_PER_WORKER = 4
"""Batches per worker at least, when the run is small enough that full batches would leave
workers idle; also the batches in flight (or finished, waiting for an earlier one) per worker."""

LOCAL_RETRIES = 3
"""Times a match may kill its worker process, played alone, before it has failed for good."""

R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)


class Job(Protocol[R_co]):
    """What a run plays: match ``number`` from the run's settings and seed alone."""

    def play(self, number: int) -> R_co:
        """The result of match ``number``."""
        ...

    def failed(self, number: int, reason: str) -> R_co:
        """The result of a match that could not be played at all (its task kept failing)."""
        ...


class BackendUnavailable(SettingsError):
    """The chosen backend cannot be used here (its extra is not installed)."""


class BatchFailed(Exception):
    """A batch whose task failed for good (not a bot error: those are results)."""


def play_batch(job: Job[R], start: int, stop: int) -> list[R]:
    """Play matches ``start`` to ``stop - 1`` of a run: the work of one task, on any backend."""
    return [job.play(number) for number in range(start, stop)]


@dataclass(frozen=True, slots=True)
class Backend:
    """Where to play: ``name`` is ``local`` or ``ray`` (see the module's documentation)."""

    name: str = "local"
    jobs: int | None = None
    """Worker processes (local; default 1) or the CPUs of a local Ray instance (default: all)."""
    address: str | None = None
    """The Ray cluster to join (``ray`` only; without it a local instance is started)."""
    batch: int | None = None
    """Matches per task (default: :func:`batch_size`)."""

    def __post_init__(self) -> None:
        if self.name not in BACKENDS:
            raise SettingsError("setup.unknown_backend", name=repr(self.name), known=", ".join(BACKENDS))
        if self.jobs is not None and self.jobs < 1:
            raise SettingsError("setup.at_least_one", name="jobs", value=self.jobs)
        if self.batch is not None and self.batch < 1:
            raise SettingsError("setup.at_least_one", name="batch", value=self.batch)
        if self.address is not None and self.name != "ray":
            raise SettingsError("setup.address_not_ray")
        if self.address is not None and self.jobs is not None:
            raise SettingsError("setup.jobs_on_cluster")


def batch_size(games: int, workers: int, limit: int = BATCH) -> int:
    """Matches per task: at most ``limit``, and small enough to give each worker several tasks.

    >>> batch_size(100_000, 2), batch_size(40, 2), batch_size(3, 8)
    (32, 5, 1)
    """
    return max(1, min(limit, games // (TASKS_PER_WORKER * workers)))


class Runner(Protocol[R]):
    """A backend at work: starts batches and reports the finished ones."""

    workers: int

    def submit(self, start: int, stop: int) -> object:
        """Start playing matches ``start`` to ``stop - 1``; a handle for :meth:`finished`."""
        ...

    def finished(self, handles: list[object]) -> list[tuple[object, list[R] | BatchFailed]]:
        """Wait until at least one of ``handles`` is done; each done one with its results."""
        ...

    def close(self, handles: list[object]) -> None:
        """Stop: cancel the batches ``handles`` still under way, let go of the workers."""
        ...


def play(job: Job[R], games: int, backend: Backend | None = None) -> Generator[R, None, None]:
    """The results of matches 0 to ``games - 1`` of ``job``, in match order, as they finish.

    Raises :class:`BackendUnavailable` when the backend cannot be used (Ray missing, no
    cluster at the address).
    """
    backend = backend or Backend()
    runner: Runner[R]
    if backend.name == "ray":
        try:
            from unomas.runs.backends.ray import RayRunner
        except ImportError as error:
            raise BackendUnavailable("setup.no_ray", install=RAY_INSTALL) from error
        runner = RayRunner(job, backend.jobs, backend.address)
    elif (backend.jobs or 1) > 1 and games > 1:
        runner = LocalRunner(job, min(backend.jobs or 1, games))
    else:
        for number in range(games):  # one by one, so each counts as soon as it ends
            yield job.play(number)
        return
    size = backend.batch or batch_size(games, runner.workers)
    with closing(drive(runner, job, games, size)) as results:
        yield from results


def drive(runner: Runner[R], job: Job[R], games: int, size: int) -> Generator[R, None, None]:
    """Keep the runner busy with batches and yield their results in match order."""
    window = TASKS_PER_WORKER * runner.workers
    waiting = deque((start, min(start + size, games)) for start in range(0, games, size))
    pending: dict[object, tuple[int, int]] = {}
    ready: dict[int, R] = {}
    following = 0
    try:
        while following < games:
            while waiting and len(pending) + len(ready) // size < window:
                start, stop = waiting.popleft()
                pending[runner.submit(start, stop)] = (start, stop)
            for handle, outcome in runner.finished(list(pending)):
                start, stop = pending.pop(handle)
                if isinstance(outcome, BatchFailed):
                    if stop - start > 1:
                        # Played again one match per task, to find the failing match.
                        waiting.extendleft((number, number + 1) for number in reversed(range(start, stop)))
                        continue
                    outcome = [job.failed(start, str(outcome))]
                for number, result in enumerate(outcome, start):
                    ready[number] = result  # by number: a batch played again replaces
            while following in ready:
                yield ready.pop(following)
                following += 1
    finally:
        runner.close(list(pending))


@dataclass(slots=True, eq=False)
class _LocalBatch(Generic[R]):
    """A batch handed to the local runner (a handle: compared and hashed by identity)."""

    start: int
    stop: int
    future: Future[list[R]] | None = None
    """Its play in the pool."""
    deaths: int = 0
    """Times its worker process died while it was played."""


class LocalRunner(Generic[R]):
    """Batches in a :class:`pebble.ProcessPool` of ``workers`` processes of this machine
    (started by spawn).

    Pebble tells which batch a worker process was playing when it died
    (:class:`pebble.ProcessExpired`) and starts a new process. A batch of several matches
    whose worker died has failed, so that :func:`drive` plays its matches again one per
    task; a single match is played again, alone in its task, until its worker process has
    died :data:`LOCAL_RETRIES` times, and has then failed for good. No other batch is
    blamed, and the results are the same as on any backend. Should pebble give the pool up
    (it may, when it cannot tell whose process died), a new pool plays the batches it lost.
    """

    def __init__(self, job: Job[R], workers: int) -> None:
        self.job = job
        self.workers = workers
        self.pool = self._pool()

    def _pool(self) -> ProcessPool:
        import multiprocessing

        from pebble import ProcessPool

        return ProcessPool(max_workers=self.workers, context=multiprocessing.get_context("spawn"))

    def submit(self, start: int, stop: int) -> object:
        batch: _LocalBatch[R] = _LocalBatch(start, stop)
        self._start(batch)
        return batch

    def _start(self, batch: _LocalBatch[R]) -> None:
        if not self.pool.active:
            self._stop()
            self.pool = self._pool()
        batch.future = self.pool.schedule(play_batch, args=(self.job, batch.start, batch.stop))

    def finished(self, handles: list[object]) -> list[tuple[object, list[R] | BatchFailed]]:
        from concurrent.futures import FIRST_COMPLETED, wait
        from concurrent.futures.process import BrokenProcessPool

        from pebble import ProcessExpired

        batches = {b.future: b for b in cast(list[_LocalBatch[R]], handles) if b.future is not None}
        done, _ = wait(batches, return_when=FIRST_COMPLETED)
        outcomes: list[tuple[object, list[R] | BatchFailed]] = []
        for future in done:
            batch = batches[future]
            try:
                outcomes.append((batch, future.result()))
            except ProcessExpired:
                batch.deaths += 1
                if batch.stop - batch.start > 1:
                    outcomes.append((batch, BatchFailed("its worker process died")))
                elif batch.deaths >= LOCAL_RETRIES:
                    failure = BatchFailed(f"its worker process died each of the {batch.deaths} times it was played")
                    outcomes.append((batch, failure))
                else:
                    self._start(batch)
            except BrokenProcessPool:  # lost with the pool, through no fault of its own
                self._start(batch)
            except Exception as error:  # the batch itself failed (not a bot: those are results)
                outcomes.append((batch, BatchFailed(f"{type(error).__name__}: {error}")))
        return outcomes

    def close(self, handles: list[object]) -> None:
        if handles:
            # Stopped early (an interrupt, an error): the batches under way are dropped too.
            self._stop()
        else:
            self.pool.close()
            self.pool.join()

    def _stop(self) -> None:
        """Stop the pool at once, ending its worker processes."""
        self.pool.stop()
        self.pool.join()
