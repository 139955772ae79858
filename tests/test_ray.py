"""The Ray backend on a real two-node cluster on this machine: same results, faults, interrupts.

The module starts the cluster itself (``ray start --head`` and one ``ray start --address``,
each in the foreground) and stops those two nodes at the end, no other Ray of the machine.
It needs the ``ray`` extra and is skipped without it; ``-m "not ray"`` leaves it out.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from codes import raises_code

ray = pytest.importorskip("ray")

from unomas.cli import app  # noqa: E402
from unomas.rules import Rules  # noqa: E402
from unomas.runs.backends import Backend, BackendUnavailable, play  # noqa: E402
from unomas.runs.tournament import TournamentInterrupted, TournamentResult, run_tournament  # noqa: E402

pytestmark = pytest.mark.ray

SHORT = Rules(players=3, target_score=100)
ONE_ROUND = Rules(players=2, target_score=0)
QUIET = {
    "RAY_USAGE_STATS_ENABLED": "0",
    "RAY_AUTH_MODE": "disabled",
    # A lost node is noticed in about a second rather than half a minute.
    "RAY_health_check_initial_delay_ms": "0",
    "RAY_health_check_period_ms": "300",
    "RAY_health_check_timeout_ms": "300",
    "RAY_health_check_failure_threshold": "3",
}
STORE = str(80 * 1024 * 1024)


@dataclass(frozen=True)
class Cluster:
    address: str
    worker_port: int
    """The node manager port of the worker node, by which its raylet is found."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_node(*args: str) -> subprocess.Popen[bytes]:
    """A Ray node in the foreground (``ray start --block``): stopping the process stops the node.

    Only the nodes started here are stopped at the end, never another Ray on this machine.
    """
    ray_bin = str(Path(sys.executable).with_name("ray"))
    return subprocess.Popen(
        [ray_bin, "start", "--block", *args],
        env=os.environ | QUIET,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def wait_for_cpus(address: str, cpus: int) -> None:
    """Wait until the cluster at ``address`` has ``cpus`` CPUs."""
    ray.init(address=address)
    try:
        deadline = time.monotonic() + 120
        while ray.cluster_resources().get("CPU", 0) < cpus:
            assert time.monotonic() < deadline, "the cluster did not come up"
            time.sleep(0.2)
    finally:
        ray.shutdown()


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    """A head node and a worker node of one CPU each, on this machine."""
    saved = {name: os.environ.get(name) for name in QUIET}
    os.environ.update(QUIET)
    head = free_port()
    worker = free_port()
    common = ("--num-cpus=1", f"--object-store-memory={STORE}", "--disable-usage-stats")
    nodes = [start_node("--head", f"--port={head}", "--include-dashboard=false", *common)]
    try:
        nodes.append(start_node(f"--address=127.0.0.1:{head}", f"--node-manager-port={worker}", *common))
        wait_for_cpus(f"127.0.0.1:{head}", 2)
        yield Cluster(f"127.0.0.1:{head}", worker)
    finally:
        for node in reversed(nodes):
            node.terminate()
            try:
                node.wait(timeout=60)
            except subprocess.TimeoutExpired:
                node.kill()
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def figures(result: TournamentResult) -> dict[str, Any]:
    """The results without the timing figures (which depend on the machine)."""
    data = result.to_json()
    for bot in data["bots"]:
        del bot["seconds_per_decision"]
    return data


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200", "NO_COLOR": "1"})


# ---------------------------------------------------------------- same answer everywhere


def test_a_tournament_on_the_cluster_gives_the_local_results(cluster: Cluster, tmp_path: Path) -> None:
    specs = ["heuristic", "playfirst", "random"]
    local = run_tournament(SHORT, specs, 24, seed="c", records=tmp_path / "local.jsonl")
    remote = run_tournament(
        SHORT, specs, 24, seed="c", backend="ray", address=cluster.address, batch=2, records=tmp_path / "ray.jsonl"
    )
    assert figures(remote) == figures(local)
    assert [m.summary and m.summary.scores for m in remote.matches] == [
        m.summary and m.summary.scores for m in local.matches
    ]
    assert (tmp_path / "ray.jsonl").read_text() == (tmp_path / "local.jsonl").read_text()


CRASHING_BOT = """
import json, sys
seat = None
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        seat = message["seat"]
        print(json.dumps({"type": "ready", "name": "crasher"}), flush=True)
    elif message["type"] == "act":
        if seat == 0:
            sys.exit(3)
        print(json.dumps({"type": "action", "action": message["view"]["legal_actions"][0]}), flush=True)
    elif message["type"] == "react":
        print(json.dumps({"type": "action", "action": None}), flush=True)
    elif message["type"] == "bye":
        break
"""


def test_a_bot_that_crashes_in_a_task_is_an_error_of_its_match(cluster: Cluster, tmp_path: Path) -> None:
    script = tmp_path / "crasher.py"
    script.write_text(CRASHING_BOT, encoding="utf-8")
    specs = [f"cmd:{sys.executable} {script}", "playfirst"]
    local = run_tournament(ONE_ROUND, specs, 4, seed=2)
    remote = run_tournament(ONE_ROUND, specs, 4, seed=2, backend="ray", address=cluster.address, batch=1)
    assert [e.match for e in remote.errors] == [0, 2]
    assert all(e.seat == 0 and e.reason for e in remote.errors)
    assert remote.errors == local.errors
    assert figures(remote) == figures(local)


@dataclass(frozen=True, slots=True)
class Doomed:
    """A job whose match 5 raises out of its task (shipped to the workers by value)."""

    def play(self, number: int) -> str:
        if number == 5:
            raise RuntimeError("doomed")
        return f"match {number}"

    def failed(self, number: int, reason: str) -> str:
        return f"match {number} failed: {reason}"


def test_a_task_that_fails_for_good_costs_only_its_match(cluster: Cluster) -> None:
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    try:
        results = list(play(Doomed(), 9, Backend("ray", address=cluster.address, batch=3)))
    finally:
        ray.cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
    assert results[:5] == [f"match {k}" for k in range(5)]
    assert results[5] == "match 5 failed: RuntimeError: doomed"
    assert results[6:] == [f"match {k}" for k in range(6, 9)]


# ---------------------------------------------------------------- faults


def raylet(port: int) -> int:
    """The process id of the raylet whose node manager listens on ``port``."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                args = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if args[0].endswith(b"/raylet") and f"--node_manager_port={port}".encode() in args:
                return int(entry.name)
    raise AssertionError(f"no raylet on port {port}")


def children(parent: int) -> dict[int, str]:
    """The processes whose parent is ``parent``, with their names."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                name = (entry / "cmdline").read_bytes().split(b"\0")[0].decode()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == parent:
                found[int(entry.name)] = name
    return found


def test_killing_a_worker_node_mid_run_loses_nothing_and_counts_nothing_twice(cluster: Cluster) -> None:
    games = 600
    specs = ["playfirst", "random"]
    local = run_tournament(ONE_ROUND, specs, games, seed="fault")
    killed: dict[int, str] = {}
    seen: list[int] = []

    def kill_the_worker_node(done: int, total: int) -> None:
        seen.append(done)
        if done >= games // 4 and not killed:
            node = raylet(cluster.worker_port)
            killed.update({node: "raylet"} | children(node))
            for pid in killed:
                os.kill(pid, signal.SIGKILL)

    started = time.monotonic()
    remote = run_tournament(
        ONE_ROUND,
        specs,
        games,
        seed="fault",
        backend="ray",
        address=cluster.address,
        batch=10,
        progress=kill_the_worker_node,
    )
    # The node was at work when it was killed: it had a worker process beside its agents.
    assert any("Agent" not in name for pid, name in killed.items() if name != "raylet"), killed
    assert seen == list(range(1, games + 1))
    assert len(remote.matches) == games and [m.number for m in remote.matches] == list(range(games))
    assert sum(bot.matches for bot in remote.bots) == 2 * games
    assert figures(remote) == figures(local)
    assert time.monotonic() - started < 120


def test_an_interrupt_cancels_the_tasks_and_keeps_the_matches_before_it(cluster: Cluster) -> None:
    def interrupt(done: int, total: int) -> None:
        if done == 30:
            raise KeyboardInterrupt

    with pytest.raises(TournamentInterrupted) as stopped:
        run_tournament(
            ONE_ROUND,
            ["playfirst", "random"],
            400,
            seed="i",
            backend="ray",
            address=cluster.address,
            progress=interrupt,
        )
    partial = stopped.value.result
    assert len(partial.matches) == 30 and partial.interrupted
    whole = run_tournament(ONE_ROUND, ["playfirst", "random"], 30, seed="i")
    assert figures(partial)["bots"] == figures(whole)["bots"]
    assert figures(partial)["matches"] == figures(whole)["matches"] == 30


# ---------------------------------------------------------------- the command line


def test_an_address_where_no_cluster_answers_is_refused_at_once() -> None:
    address = f"127.0.0.1:{free_port()}"
    with raises_code(BackendUnavailable, "setup.no_ray_cluster", address=address):
        run_tournament(ONE_ROUND, ["playfirst", "random"], 2, backend="ray", address=address)
    result = run("tournament", "--bots", "playfirst,random", "--backend", "ray", "--address", "nowhere")
    assert result.exit_code == 2
    assert "bad Ray address 'nowhere'" in " ".join(result.output.split())


def test_cli_on_the_cluster_and_on_a_local_ray_instance(cluster: Cluster, tmp_path: Path) -> None:
    outputs = []
    for where in (("--backend", "local"), ("--backend", "ray", "--address", cluster.address)):
        out = tmp_path / "results.json"
        records = tmp_path / "records.jsonl"
        args = (
            "--bots",
            "heuristic,random",
            "--games",
            "8",
            "--seed",
            "x",
            "--out",
            str(out),
            "--records",
            str(records),
        )
        result = run("tournament", *args, *where)
        assert result.exit_code == 0, result.output
        data = json.loads(out.read_text(encoding="utf-8"))
        for bot in data["bots"]:
            del bot["seconds_per_decision"]
        outputs.append((data, records.read_text(encoding="utf-8")))
    assert outputs[0] == outputs[1]
    simulated = []
    for where in (("--backend", "local"), ("--backend", "ray", "--jobs", "1")):
        records = tmp_path / "simulated.jsonl"
        result = run("simulate", "--games", "5", "--seed", "y", "--records", str(records), *where)
        assert result.exit_code == 0, result.output
        simulated.append(records.read_text(encoding="utf-8"))
    assert simulated[0] == simulated[1]
    assert not ray.is_initialized()
