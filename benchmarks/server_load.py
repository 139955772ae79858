"""Load on ``unomas serve``: N concurrent four-seat rooms played by WebSocket clients.

Starts the real server (its own process, a fresh SQLite database in a temporary folder)
on a loopback port, then keeps ``--rooms`` rooms in play at once for ``--seconds``: each
room's four seats are clients of :mod:`unomas.client.seat_client` that answer every view with
one of its legal actions after ``--think`` seconds (a person's pace; 0 hammers the
server), and a finished room is replaced by a new one. Prints the actions per second the
server judged and the latency of each action (from sending it to receiving the update it
caused, which includes storing it): p50, p99, max; and, measured just before, how late a
5 ms sleep wakes on this machine (on shared cores that lateness is in every figure).

    python benchmarks/server_load.py --rooms 200 --seconds 60 --think 0.5

``--hostile``: meanwhile one client (loopback, bounded in count and time, in a process of
its own, as from another machine) floods the server: watchers churning in and out of the
played rooms, a flood of room creations and look-ups of made-up codes, slow request heads
(slowloris: sockets from addresses 127.3.0.x that send a header line a second and never
finish) and room creations from many addresses (127.x.y.z, a new one each time, never
entering their rooms, past the server's ``--max-rooms``); the figures are those of the
honest rooms' actions, how many of the flood's requests were refused, how long the slow
heads lived, and what became of the many addresses' creates.

``--soak SECONDS``: play that long instead of ``--seconds``, and every ``--sample`` seconds
print the server's resident memory beside its open rooms, connections, actions so far and
the load average; at the end, the memory's growth per hour after the first sample (the
warm-up). Finished rooms close after ``--keep-finished`` seconds, so the rooms held reach a
steady number early and a flat memory means nothing leaks:

    python benchmarks/server_load.py --rooms 20 --soak 1800 --keep-finished 60

``--db postgresql://…``: the server keeps its games in that PostgreSQL database (the
``postgres`` extra) instead of a fresh SQLite file; ``--instances N`` with it: N servers
share the database behind HAProxy (``docs/haproxy.cfg``, the room code picking each room's
server) on ``--port``, the servers on the ports after it. Then the figures add the store's
calls per action, PostgreSQL's commits and rows written per action, and its CPU:

    python benchmarks/server_load.py --rooms 200 --db postgresql:///unomas --instances 2
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import multiprocessing
import os
import queue
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from unomas.client.seat_client import SeatClient
from unomas.server.collector import tend_collector

SEATS = 4


def post(base: str, path: str, body: dict[str, Any], origin: str) -> dict[str, Any]:
    request = urllib.request.Request(f"{base}{path}", data=json.dumps(body).encode(), method="POST")
    request.add_header("Content-Type", "application/json")
    request.add_header("X-Forwarded-For", origin)
    with urllib.request.urlopen(request, timeout=30) as response:
        answer: dict[str, Any] = json.loads(response.read())
        return answer


@dataclass
class Soak:
    """The server's memory, sampled through a long run."""

    pid: int
    every: float
    samples: list[tuple[float, float]] = field(default_factory=list)
    """(seconds into the run, MiB resident)."""

    def growth_per_hour(self, after: float = 0.0) -> float | None:
        """MiB per hour, the least-squares slope of the samples after the first (the warm-up)
        and after ``after`` seconds."""
        kept = [(t, m) for t, m in self.samples[1:] if t >= after]
        if len(kept) < 2:
            return None
        mean_t = statistics.fmean(t for t, _ in kept)
        mean_m = statistics.fmean(m for _, m in kept)
        spread = sum((t - mean_t) ** 2 for t, _ in kept)
        slope = sum((t - mean_t) * (m - mean_m) for t, m in kept) / spread
        return 3600 * slope


class Totals:
    """What every client measured."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.actions = 0
        self.errors = 0
        self.matches = 0
        self.codes: list[str] = []
        self.seats: list[SeatClient] = []
        """The seats playing now (their actions are added in when their match ends)."""
        self.steady: tuple[float, int] | None = None
        """The server's CPU seconds and the actions answered in steady play (see :func:`steady_play`)."""
        self.flood = {"watchers": 0, "creates": 0, "lookups": 0, "refused": 0, "unanswered": 0}
        self.slow = {"opened": 0, "closed by the server": 0, "longest lived (s)": 0}
        self.addresses = {"created": 0, "rooms held": 0, "capacity": 0, "other": 0}
        self.unanswered = 0
        """Honest requests and connections the server did not answer in time (timeouts)."""
        self.flood_cpu = 0.0
        """The hostile client's CPU seconds: its process shares the cores with the server."""

    def answered(self) -> int:
        """Actions answered so far, the seats playing now included."""
        return self.actions + sum(len(seat.latencies) for seat in self.seats)


FLOOD_LIMIT = 20_000
"""The most requests the hostile client makes in all (it stops at the end of the run too)."""


async def churn(ws: str, end: float, totals: Totals, codes: multiprocessing.Queue[str]) -> None:
    """Watchers coming and going in the rooms being played (their codes come from the honest
    clients' process), as fast as the server lets them."""
    import websockets

    while time.monotonic() < end and sum(totals.flood.values()) < FLOOD_LIMIT:
        with contextlib.suppress(queue.Empty):
            while True:
                totals.codes.append(codes.get_nowait())
        if not totals.codes:
            await asyncio.sleep(0.05)
            continue
        code = random.choice(totals.codes[-50:])
        try:
            async with websockets.connect(f"{ws}/ws/{code}") as socket:
                await socket.send(json.dumps({"type": "hello"}))
                answer = json.loads(await asyncio.wait_for(socket.recv(), 5))
                totals.flood["refused" if answer.get("type") == "error" else "watchers"] += 1
        except OSError:  # timeouts included
            totals.flood["unanswered"] += 1
        except websockets.ConnectionClosed:
            totals.flood["refused"] += 1


def knock(base: str, path: str, body: dict[str, Any] | None) -> str:
    """One request of the flood: ``served``, ``refused`` (429) or ``unanswered`` in time."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{base}{path}", data=data, method="GET" if body is None else "POST")
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=10):
            return "served"
    except urllib.error.HTTPError as error:
        return "refused" if error.code == 429 else "served"
    except OSError:  # timeouts included
        return "unanswered"


async def flood(base: str, end: float, totals: Totals) -> None:
    """Room creations and look-ups of made-up codes, one after another."""
    while time.monotonic() < end and sum(totals.flood.values()) < FLOOD_LIMIT:
        creating = random.random() < 0.5
        path, body = ("/api/rooms", {"name": "flood"}) if creating else ("/api/rooms/ZZZZZZZZZZ", None)
        outcome = await asyncio.to_thread(knock, base, path, body)
        if outcome == "served":
            outcome = "creates" if creating else "lookups"
        totals.flood[outcome] += 1


async def slow_heads(host: str, port: int, end: float, totals: Totals) -> None:
    """Slowloris: sockets from addresses of their own, each sending a header line a second
    and never the end of its head; how long the server lets each live."""

    async def one(source: str) -> None:
        opened = time.monotonic()
        totals.slow["opened"] += 1
        try:
            reader, writer = await asyncio.open_connection(host, port, local_addr=(source, 0))
        except OSError:
            return
        try:
            writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            while time.monotonic() < end:
                await writer.drain()
                with contextlib.suppress(TimeoutError):
                    if not await asyncio.wait_for(reader.read(4096), 1.0):
                        totals.slow["closed by the server"] += 1
                        break
                writer.write(b"X-Slow: 1\r\n")
        except OSError:
            totals.slow["closed by the server"] += 1
        finally:
            lived = round(time.monotonic() - opened)
            totals.slow["longest lived (s)"] = max(totals.slow["longest lived (s)"], lived)
            writer.close()

    while time.monotonic() < end:
        await asyncio.gather(*(one(f"127.3.0.{n}") for n in range(1, 101)))


async def many_addresses(host: str, port: int, end: float, totals: Totals) -> None:
    """Room creations from many loopback addresses, a new one each time (no forwarded
    header: the server sees each as a client of its own), none entering its room."""
    body = json.dumps({"name": "flood"}).encode()
    head = b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    request = head + b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body) + body
    n = 0
    while time.monotonic() < end and sum(totals.addresses.values()) < FLOOD_LIMIT:
        n += 1
        source = f"127.{4 + n // 65536 % 250}.{n // 256 % 256}.{n % 256 or 1}"
        try:
            reader, writer = await asyncio.open_connection(host, port, local_addr=(source, 0))
            writer.write(request)
            answer = await asyncio.wait_for(reader.read(), 10)
            writer.close()
            status = int(answer.split(b" ", 2)[1])
        except (OSError, ValueError, IndexError):
            status = 0
        what = {200: "created", 429: "rooms held", 503: "capacity"}.get(status, "other")
        totals.addresses[what] += 1


async def room_slot(base: str, ws: str, think: float, end: float, totals: Totals, rng: random.Random) -> None:
    """Keep one room in play until ``end``: a new match whenever one is over."""
    while time.monotonic() < end:
        rules = {"players": SEATS, "target_score": 0}
        # Each room's people come from addresses of their own, through the (trusted) loopback proxy.
        origin = f"10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"
        try:
            host = await asyncio.to_thread(post, base, "/api/rooms", {"name": "host", "rules": rules}, origin)
            code = host["code"]
            tokens = [host["token"]]
            for n in range(1, SEATS):
                joined = await asyncio.to_thread(post, base, f"/api/rooms/{code}/join", {"name": f"p{n}"}, origin)
                tokens.append(joined["token"])
        except OSError:  # not answered in time: try again
            totals.unanswered += 1
            await asyncio.sleep(1.0)
            continue
        totals.codes.append(code)
        forwarded = {"X-Forwarded-For": origin}
        clients = [
            SeatClient(
                f"{ws}/ws/{code}", token, random.Random(rng.random()), think=think, headers=forwarded, keep=False
            )
            for token in tokens
        ]

        async def host_start(client: SeatClient) -> Any:
            await asyncio.sleep(0.5)  # the others say hello first
            return await client.play(start=True)

        totals.seats += clients
        tasks = [asyncio.ensure_future(host_start(clients[0]))]
        tasks += [asyncio.ensure_future(c.play()) for c in clients[1:]]
        remaining = end - time.monotonic()
        done, pending = await asyncio.wait(tasks, timeout=max(remaining, 0.1))
        failed = sum(not t.cancelled() and t.exception() is not None for t in done)  # (a handshake timed out)
        totals.unanswered += failed
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        for client in clients:
            totals.seats.remove(client)
            totals.latencies.extend(client.latencies)
            totals.actions += len(client.latencies)
            totals.errors += len(client.errors)
        if not pending and not failed:
            totals.matches += 1


async def hostile_client(
    base: str, ws: str, end: float, codes: multiprocessing.Queue[str]
) -> dict[str, dict[str, int]]:
    """The flood, from a process of its own (as from another machine: it does not slow the
    honest clients down where they measure); what it counted."""
    totals = Totals()
    host, port = base.removeprefix("http://").rsplit(":", 1)
    flooding = [churn(ws, end, totals, codes) for _ in range(4)] + [flood(base, end, totals) for _ in range(2)]
    flooding += [slow_heads(host, int(port), end, totals), many_addresses(host, int(port), end, totals)]
    await asyncio.gather(*flooding)
    return {"flood": totals.flood, "slow heads": totals.slow, "many addresses": totals.addresses}


def run_hostile_client(base: str, ws: str, end: float, codes: multiprocessing.Queue[str], out: Any) -> None:
    figures: dict[str, Any] = asyncio.run(hostile_client(base, ws, end, codes))
    used = resource.getrusage(resource.RUSAGE_SELF)
    figures["cpu"] = used.ru_utime + used.ru_stime
    out.put(figures)


async def share_codes(totals: Totals, codes: multiprocessing.Queue[str], end: float) -> None:
    """Tell the hostile client the codes of the rooms being played, as they are made."""
    told = 0
    while time.monotonic() < end:
        for code in totals.codes[told:]:
            codes.put(code)
        told = len(totals.codes)
        await asyncio.sleep(0.5)


async def steady_play(server_pids: list[int], end: float, totals: Totals) -> None:
    """The server's CPU per action once every room is in play: from now to ``end``, none of
    the first rooms' creation, joins and connections (later ones, as matches end, count)."""
    before, answered = cpu_seconds(server_pids), totals.answered()
    await asyncio.sleep(max(end - time.monotonic(), 0.0))
    after = cpu_seconds(server_pids)
    if before is not None and after is not None:
        totals.steady = (after - before, totals.answered() - answered)


async def run(
    base: str,
    ws: str,
    rooms: int,
    seconds: float,
    think: float,
    seed: int,
    hostile: bool,
    soak: Soak | None,
    server_pids: list[int],
) -> Totals:
    totals = Totals()
    rng = random.Random(seed)
    end = time.monotonic() + seconds
    # The clients' process tends its collector as the server does (unomas.server.collector):
    # its full passes over thousands of seats' connections would otherwise be in every figure.
    collector = asyncio.ensure_future(tend_collector(freeze_every=1.0, collect_every=600.0))
    slots = []
    if soak is not None:
        slots.append(asyncio.ensure_future(sample_memory(base, soak.pid, soak.every, end, soak.samples)))
    flooder = None
    if hostile:
        spawn = multiprocessing.get_context("spawn")
        codes: multiprocessing.Queue[str] = spawn.Queue()
        counted: multiprocessing.Queue[dict[str, Any]] = spawn.Queue()
        flooder = spawn.Process(target=run_hostile_client, args=(base, ws, end, codes, counted))
        flooder.start()
        slots.append(asyncio.ensure_future(share_codes(totals, codes, end)))
    for _ in range(rooms):
        slots.append(asyncio.ensure_future(room_slot(base, ws, think, end, totals, random.Random(rng.random()))))
        await asyncio.sleep(min(0.02, seconds / max(rooms, 1) / 10))  # ramp up, not all in one instant
    await asyncio.sleep(min(5.0, seconds / 4))  # the last rooms' seats connect
    slots.append(asyncio.ensure_future(steady_play(server_pids, end, totals)))
    await asyncio.gather(*slots)
    collector.cancel()
    if flooder is not None:
        figures = await asyncio.to_thread(counted.get, timeout=60)
        totals.flood, totals.slow, totals.addresses = (figures[k] for k in ("flood", "slow heads", "many addresses"))
        totals.flood_cpu = figures["cpu"]
        flooder.join(10)
    return totals


def event_loop_runner() -> Callable[[Coroutine[Any, Any, Totals]], Totals]:
    """uvloop's runner where it is installed (the server's extra brings it, and the server
    runs on it): the clients then take less of the cores the server shares with them."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run
    return uvloop.run


def resident_mib(pid: int) -> float | None:
    """The resident memory of a process in MiB (Linux), or None elsewhere."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    kib = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), None)
    return None if kib is None else kib / 1024


def server_figures(base: str) -> dict[str, float]:
    """Rooms, connections and actions stored so far, from the server's ``/metrics``."""
    with urllib.request.urlopen(f"{base}/metrics", timeout=10) as response:
        text = response.read().decode()
    figures: dict[str, float] = {}
    for line in text.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        name, value = line.rsplit(" ", 1)
        figures[name] = float(value)
    rooms = sum(value for name, value in figures.items() if name.startswith("unomas_rooms{"))
    return {
        "rooms": rooms,
        "connections": figures.get("unomas_connections", 0.0),
        "actions": figures.get("unomas_actions_total", 0.0),
    }


async def sample_memory(base: str, pid: int, every: float, end: float, samples: list[tuple[float, float]]) -> None:
    """Every ``every`` seconds until ``end``: print and keep (seconds in, MiB resident)."""
    started = time.monotonic()
    while True:
        await asyncio.sleep(min(every, max(end - time.monotonic(), 0.0)))
        rss = resident_mib(pid)
        if rss is None:
            return
        try:
            figures = await asyncio.to_thread(server_figures, base)
        except OSError:
            figures = {"rooms": math.nan, "connections": math.nan, "actions": math.nan}
        elapsed = time.monotonic() - started
        samples.append((elapsed, rss))
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
        print(
            f"  {elapsed:7.0f} s  RSS {rss:7.1f} MiB  rooms {figures['rooms']:5.0f}"
            f"  connections {figures['connections']:5.0f}  actions {figures['actions']:8.0f}  load {load}",
            flush=True,
        )
        if time.monotonic() >= end:
            return


def cpu_seconds(pids: list[int]) -> float | None:
    """User + system CPU seconds of processes so far, summed (Linux), or None elsewhere."""
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def postgres_figures(dsn: str) -> tuple[list[int], float, float]:
    """The processes of the PostgreSQL server behind ``dsn`` on this machine (its postmaster
    and every child: backends, WAL writer...), and its database's commits and rows written so far."""
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as db:
        row = db.execute(
            "SELECT pg_backend_pid(), xact_commit, tup_inserted + tup_updated + tup_deleted"
            " FROM pg_stat_database WHERE datname = current_database()"
        ).fetchone()
    assert row is not None
    backend, commits, rows = row
    postmaster = int(Path(f"/proc/{backend}/stat").read_text().rsplit(")", 1)[1].split()[1])
    children = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == postmaster:
                children.append(int(stat.parent.name))
    return [postmaster, *children], float(commits), float(rows)


def store_calls(addresses: list[str]) -> int:
    """The store calls the servers made so far (their ``/healthz``)."""
    total = 0
    for address in addresses:
        with urllib.request.urlopen(f"http://{address}/healthz", timeout=10) as response:
            total += int(json.loads(response.read())["store"]["calls"])
    return total


def wait_for(base: str) -> None:
    """Until ``base`` answers (at most 30 s)."""
    for _ in range(300):
        try:
            urllib.request.urlopen(f"{base}/healthz", timeout=1)
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.1)


def proxy_config(port: int, servers: list[str]) -> str:
    """``docs/haproxy.cfg`` listening on ``port`` in front of ``servers`` (addresses)."""
    config = (Path(__file__).parent.parent / "docs" / "haproxy.cfg").read_text()
    # Every client of the benchmark comes from the loopback: the proxy's per-address limits
    # are left out (the servers count each client by the address it names).
    dropped = ("server ", "stick-table", "http-request track-sc0", "http-request deny")
    lines = [line for line in config.splitlines() if not line.strip().startswith(dropped)]
    lines += [f"    server s{number} {address}" for number, address in enumerate(servers)]
    return "\n".join(lines).replace("127.0.0.1:8000", f"127.0.0.1:{port}") + "\n"


def wake_up_delays(seconds: float = 2.0, nap: float = 0.005) -> list[float]:
    """How late this process wakes from ``nap``-second sleeps: the machine's own share of any
    latency (on shared cores a busy machine delays every process, the server too)."""
    delays = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        started = time.perf_counter()
        time.sleep(nap)
        delays.append(time.perf_counter() - started - nap)
    return delays


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", type=int, default=200, help="concurrent four-seat rooms (default 200)")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to keep them playing (default 60)")
    parser.add_argument("--think", type=float, default=0.5, help="seconds each player waits before acting")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hostile", action="store_true", help="flood the server meanwhile (see above)")
    parser.add_argument("--soak", type=float, metavar="SECONDS", help="a long run sampling the server's memory")
    parser.add_argument("--sample", type=float, default=60.0, help="seconds between memory samples (default 60)")
    parser.add_argument("--max-rooms", type=int, default=5000, help="rooms the server holds at once (default 5000)")
    parser.add_argument("--keep-finished", type=float, default=3600.0, help="seconds a finished room stays open")
    parser.add_argument("--db", metavar="DSN", help="a PostgreSQL database instead of a fresh SQLite file")
    parser.add_argument("--instances", type=int, default=1, help="servers sharing --db behind HAProxy (default 1)")
    args = parser.parse_args()
    if args.instances > 1 and args.db is None:
        parser.error("--instances needs --db postgresql://...")
    seconds = args.seconds if args.soak is None else args.soak
    late = wake_up_delays()
    with tempfile.TemporaryDirectory() as folder:
        db = args.db or str(Path(folder) / "load.sqlite3")
        ports = [args.port] if args.instances == 1 else [args.port + 1 + n for n in range(args.instances)]
        servers = []
        for port in ports:
            command = [sys.executable, "-m", "unomas", "serve", "--port", str(port), "--db", db]
            # The loopback is a trusted proxy: each room's clients name their own address; the
            # flood comes from the loopback itself, one client.
            command += ["--bot-delay", "0", "--trust-proxy", "127.0.0.1", "--keep-finished", str(args.keep_finished)]
            command += ["--max-rooms", str(args.max_rooms), "--instance", f"load-{port}"]
            servers.append(subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        if args.instances > 1:
            config = Path(folder) / "haproxy.cfg"
            config.write_text(proxy_config(args.port, [f"127.0.0.1:{port}" for port in ports]))
            servers.append(subprocess.Popen(["haproxy", "-db", "-f", str(config)], stderr=subprocess.DEVNULL))
        base, ws = f"http://127.0.0.1:{args.port}", f"ws://127.0.0.1:{args.port}"
        pids = [server.pid for server in servers]
        try:
            for port in ports:
                wait_for(f"http://127.0.0.1:{port}")
            wait_for(base)
            database = postgres_figures(db) if args.db else None
            calls = store_calls([f"127.0.0.1:{port}" for port in ports])
            started = time.monotonic()
            server_cpu = cpu_seconds(pids)
            database_cpu = None if database is None else cpu_seconds(database[0])
            client_cpu = time.process_time()
            soak = None if args.soak is None else Soak(servers[0].pid, args.sample)
            totals = event_loop_runner()(
                run(base, ws, args.rooms, seconds, args.think, args.seed, args.hostile, soak, pids)
            )
            elapsed = time.monotonic() - started
            server_after = cpu_seconds(pids)
            client_cpu = time.process_time() - client_cpu
            calls = store_calls([f"127.0.0.1:{port}" for port in ports]) - calls
            if database is not None:
                later = postgres_figures(db)
                used = cpu_seconds(database[0])
                database_cpu = None if used is None or database_cpu is None else used - database_cpu
                commits, written = later[1] - database[1], later[2] - database[2]
        finally:
            for server in servers:
                server.terminate()
            for server in servers:
                server.wait(30)
    lat = totals.latencies
    print(f"rooms {args.rooms} x {SEATS} seats, think {args.think} s, {elapsed:.1f} s")
    print(f"matches finished {totals.matches}, actions {totals.actions}, refused (races) {totals.errors}")
    print(f"honest requests or connections not answered in time: {totals.unanswered}")
    print(f"actions/s {totals.actions / elapsed:.0f}; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        f"machine before the run: a 5 ms sleep woke late by p99 {1000 * percentile(late, 0.99):.1f} ms,"
        f" max {1000 * max(late):.1f} ms"
    )
    if args.hostile:
        print("flood: " + ", ".join(f"{what} {count}" for what, count in totals.flood.items()))
        print("slow heads: " + ", ".join(f"{what} {count}" for what, count in totals.slow.items()))
        print("many addresses' creates: " + ", ".join(f"{what} {count}" for what, count in totals.addresses.items()))
        print(f"the flood's own CPU (its process, on these same cores): {totals.flood_cpu:.1f} s")
    if server_cpu is not None and server_after is not None and totals.actions:
        used = server_after - server_cpu
        print(
            f"server CPU {used:.1f} s ({100 * used / elapsed:.0f} % of one core), {1000 * used / totals.actions:.2f} ms"
            f" per action; clients' CPU {client_cpu:.1f} s"
        )
    if totals.actions:
        print(f"store calls per action {calls / totals.actions:.2f}")
        if database is not None:
            print(
                f"PostgreSQL: commits per action {commits / totals.actions:.2f}, rows written per action"
                f" {written / totals.actions:.2f}"
                + ("" if database_cpu is None else f", CPU {1000 * database_cpu / totals.actions:.2f} ms per action")
            )
    if totals.steady is not None and totals.steady[1]:
        used, answered = totals.steady
        print(f"server CPU per action in steady play: {1000 * used / answered:.2f} ms ({answered} actions)")
    if lat:
        print(
            f"latency ms: p50 {1000 * statistics.median(lat):.1f}  p99 {1000 * percentile(lat, 0.99):.1f}"
            f"  max {1000 * max(lat):.1f}"
        )
    if soak is not None and soak.samples:
        first, last = soak.samples[0][1], soak.samples[-1][1]
        peak = max(m for _, m in soak.samples)
        print(f"server RSS: first sample {first:.1f} MiB, last {last:.1f} MiB, peak {peak:.1f} MiB")
        for what, after in (("after the first sample", 0.0), ("over the second half", seconds / 2)):
            growth = soak.growth_per_hour(after)
            if growth is not None:
                print(f"  growth {what}: {growth:+.1f} MiB/hour")


if __name__ == "__main__":
    main()
