"""The Ray backend: batches of matches as Ray tasks. The one module of unomas that imports Ray.

Without an address a local Ray instance is started (and stopped at the end); with one, the
cluster there is joined (``auto`` finds the one this machine belongs to). A driver that has
already connected Ray itself keeps its connection, and the address is not used. Every node
must have the same unomas installed (``pip install 'unomas[ray]'``), and a ``cmd:`` bot's
program must exist on every node.

A task lost with its worker process or node is retried by Ray (``MAX_RETRIES`` times); a bot
that fails raises nothing out of its task (the match result says so), so task retries are
for lost workers alone.
"""

from __future__ import annotations

import os
import socket
from typing import TYPE_CHECKING, Generic, TypeVar

import ray
from ray.exceptions import RayError, RayTaskError

from unomas.runs.backends import BackendUnavailable, BatchFailed, Job, play_batch

if TYPE_CHECKING:
    from ray._private.worker import RemoteFunction2

__all__ = ["MAX_RETRIES", "RayRunner"]

MAX_RETRIES = 8
"""How often Ray plays a task again whose worker died (a node lost, a process killed)."""

OBJECT_STORE_BYTES = 128 * 1024 * 1024
"""The object store of a local instance: results are small, and so is this."""

CONNECT_SECONDS = 5.0
"""How long the cluster's address may take to accept a connection."""

POLL_SECONDS = 0.5
"""The longest wait in Ray without looking at signals (so Ctrl-C is seen at once)."""

R = TypeVar("R")


class RayRunner(Generic[R]):
    """Batches as Ray tasks on a local instance of ``cpus`` CPUs, or on the cluster at ``address``."""

    def __init__(self, job: Job[R], cpus: int | None, address: str | None) -> None:
        self.owned = not ray.is_initialized()
        if self.owned:
            if address is None:
                os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
                ray.init(
                    address="local", num_cpus=cpus, include_dashboard=False, object_store_memory=OBJECT_STORE_BYTES
                )
            else:
                _check_reachable(address)
                ray.init(address=address)
        self.workers = max(1, int(ray.cluster_resources().get("CPU", 1)))  # type: ignore[no-untyped-call]
        self.job = ray.put(job)
        self.task: RemoteFunction2[list[R], Job[R], int, int] = ray.remote(
            num_cpus=1, max_retries=MAX_RETRIES, retry_exceptions=False
        )(play_batch)

    def submit(self, start: int, stop: int) -> object:
        return self.task.remote(self.job, start, stop)

    def finished(self, handles: list[object]) -> list[tuple[object, list[R] | BatchFailed]]:
        refs: list[ray.ObjectRef[list[R]]] = handles  # type: ignore[assignment]
        done: list[ray.ObjectRef[list[R]]] = []
        while not done:
            done, _ = ray.wait(refs, num_returns=1, timeout=POLL_SECONDS)
        done, _ = ray.wait(refs, num_returns=len(refs), timeout=0)  # every one done by now
        results: list[tuple[object, list[R] | BatchFailed]] = []
        for ref in done:
            try:
                results.append((ref, ray.get(ref)))
            except RayError as error:
                results.append((ref, BatchFailed(_describe(error))))
        return results

    def close(self, handles: list[object]) -> None:
        for ref in handles:
            ray.cancel(ref, force=True)
        if self.owned:
            ray.shutdown()


def _check_reachable(address: str) -> None:
    """Refuse at once an address where no cluster answers (Ray itself would retry for minutes)."""
    if address == "auto":
        return
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not host or not port.isdigit():
        raise BackendUnavailable("setup.bad_ray_address", address=repr(address))
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_SECONDS).close()
    except OSError as error:
        raise BackendUnavailable("setup.no_ray_cluster", address=address, detail=str(error.strerror or error)) from None


def _describe(error: RayError) -> str:
    """What went wrong: the exception raised in the task, else the first line of Ray's error."""
    cause = error.cause if isinstance(error, RayTaskError) else None
    if isinstance(cause, BaseException):
        return f"{type(cause).__name__}: {cause}"
    lines = [line for line in str(error).splitlines() if line.strip()]
    return f"{type(error).__name__}: {lines[0] if lines else 'the task failed'}"
