"""Load on ``unomas serve``: N concurrent four-seat rooms played by WebSocket clients.

Starts the real server (its own process, a fresh SQLite database in a temporary folder)
on a loopback port, then keeps ``--rooms`` rooms in play at once for ``--seconds``: each
room's four seats are clients of :mod:`unomas.server.client` that answer every view with
one of its legal actions after ``--think`` seconds (a person's pace; 0 hammers the
server), and a finished room is replaced by a new one. Prints the actions per second the
server judged and the latency of each action (from sending it to receiving the update it
caused, which includes storing it): p50, p99, max.

    python benchmarks/server_load.py --rooms 200 --seconds 60 --think 0.5
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from unomas.server.client import SeatClient

SEATS = 4


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(f"{base}{path}", data=json.dumps(body).encode(), method="POST")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=30) as response:
        answer: dict[str, Any] = json.loads(response.read())
        return answer


class Totals:
    """What every client measured."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.actions = 0
        self.errors = 0
        self.matches = 0


async def room_slot(base: str, ws: str, think: float, end: float, totals: Totals, rng: random.Random) -> None:
    """Keep one room in play until ``end``: a new match whenever one is over."""
    while time.monotonic() < end:
        rules = {"players": SEATS, "target_score": 0}
        host = await asyncio.to_thread(post, base, "/api/rooms", {"name": "host", "rules": rules})
        code = host["code"]
        tokens = [host["token"]]
        for n in range(1, SEATS):
            joined = await asyncio.to_thread(post, base, f"/api/rooms/{code}/join", {"name": f"p{n}"})
            tokens.append(joined["token"])
        clients = [SeatClient(f"{ws}/ws/{code}", token, random.Random(rng.random()), think=think) for token in tokens]

        async def host_start(client: SeatClient) -> Any:
            await asyncio.sleep(0.5)  # the others say hello first
            return await client.play(start=True)

        tasks = [asyncio.ensure_future(host_start(clients[0]))]
        tasks += [asyncio.ensure_future(c.play()) for c in clients[1:]]
        remaining = end - time.monotonic()
        _, pending = await asyncio.wait(tasks, timeout=max(remaining, 0.1))
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        for client in clients:
            totals.latencies.extend(client.latencies)
            totals.actions += len(client.latencies)
            totals.errors += len(client.errors)
        if not pending:
            totals.matches += 1


async def run(base: str, ws: str, rooms: int, seconds: float, think: float, seed: int) -> Totals:
    totals = Totals()
    rng = random.Random(seed)
    end = time.monotonic() + seconds
    slots = []
    for _ in range(rooms):
        slots.append(asyncio.ensure_future(room_slot(base, ws, think, end, totals, random.Random(rng.random()))))
        await asyncio.sleep(min(0.02, seconds / max(rooms, 1) / 10))  # ramp up, not all in one instant
    await asyncio.gather(*slots)
    return totals


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a process so far (Linux), or None elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


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
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "load.sqlite3"
        command = [sys.executable, "-m", "unomas", "serve", "--port", str(args.port), "--db", str(db)]
        server = subprocess.Popen([*command, "--bot-delay", "0"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base, ws = f"http://127.0.0.1:{args.port}", f"ws://127.0.0.1:{args.port}"
        try:
            for _ in range(300):
                try:
                    urllib.request.urlopen(f"{base}/api/rooms/NONE00", timeout=1)
                except urllib.error.HTTPError:
                    break
                except OSError:
                    time.sleep(0.1)
            started = time.monotonic()
            server_cpu = cpu_seconds(server.pid)
            client_cpu = time.process_time()
            totals = asyncio.run(run(base, ws, args.rooms, args.seconds, args.think, args.seed))
            elapsed = time.monotonic() - started
            server_after = cpu_seconds(server.pid)
            client_cpu = time.process_time() - client_cpu
        finally:
            server.terminate()
            server.wait(30)
    lat = totals.latencies
    print(f"rooms {args.rooms} x {SEATS} seats, think {args.think} s, {elapsed:.1f} s")
    print(f"matches finished {totals.matches}, actions {totals.actions}, refused (races) {totals.errors}")
    print(f"actions/s {totals.actions / elapsed:.0f}")
    if server_cpu is not None and server_after is not None and totals.actions:
        used = server_after - server_cpu
        print(
            f"server CPU {used:.1f} s ({100 * used / elapsed:.0f} % of one core), {1000 * used / totals.actions:.2f} ms"
            f" per action; clients' CPU {client_cpu:.1f} s"
        )
    if lat:
        print(
            f"latency ms: p50 {1000 * statistics.median(lat):.1f}  p99 {1000 * percentile(lat, 0.99):.1f}"
            f"  max {1000 * max(lat):.1f}"
        )


if __name__ == "__main__":
    main()
