"""The cost of the per-address limits: one ``unomas serve`` (its own process) on a fresh
SQLite file, or on ``--db postgresql://…`` where the limits are kept in the database for
every instance at once. Measures, over ``--times`` of each, the store calls (``/healthz``)
and the milliseconds (median) of a room's creation, of a room look-up (``GET
/api/rooms/CODE``) and of a WebSocket opened and closed; each from an address of its own
(``X-Forwarded-For`` from a trusted proxy), so that no limit refuses the benchmark.

    python benchmarks/limits.py --times 200
    python benchmarks/limits.py --times 200 --db postgresql:///unomas
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import websockets

from server_load import wait_for


def call(address: str, path: str, client: str, body: dict[str, Any] | None = None) -> Any:
    """GET, or POST ``body`` as JSON, from ``client``; the decoded answer."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"http://{address}{path}", data=data, method="GET" if body is None else "POST")
    request.add_header("Content-Type", "application/json")
    request.add_header("X-Forwarded-For", client)
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


async def open_and_close(url: str, client: str) -> None:
    """A WebSocket accepted (a hello answered), then closed."""
    async with websockets.connect(url, additional_headers={"X-Forwarded-For": client}) as socket:
        await socket.send(json.dumps({"type": "hello", "token": None}))
        await asyncio.wait_for(socket.recv(), 10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", help="a PostgreSQL DSN (default: a fresh SQLite file)")
    parser.add_argument("--times", type=int, default=200)
    parser.add_argument("--port", type=int, default=8970)
    args = parser.parse_args()
    address = f"127.0.0.1:{args.port}"
    with tempfile.TemporaryDirectory() as folder:
        db = args.db or str(Path(folder) / "limits.sqlite3")
        command = [sys.executable, "-m", "unomas", "serve", "--port", str(args.port), "--db", db]
        command += ["--instance", "limits", "--trust-proxy", "127.0.0.1", "--max-rooms", str(4 * args.times)]
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_for(f"http://{address}")
            codes: list[str] = []

            def create(number: int) -> None:
                setup = {"name": "Ana", "rules": {"players": 2}, "bots": [1]}
                codes.append(call(address, "/api/rooms", f"10.1.{number // 250}.{number % 250 + 1}", setup)["code"])

            def look_up(number: int) -> None:
                call(address, f"/api/rooms/{codes[number]}", f"10.2.{number // 250}.{number % 250 + 1}")

            def connect(number: int) -> None:
                client = f"10.3.{number // 250}.{number % 250 + 1}"
                asyncio.run(open_and_close(f"ws://{address}/ws/{codes[number]}", client))

            what: list[tuple[str, Callable[[int], None]]] = [
                ("create", create),
                ("look-up", look_up),
                ("websocket", connect),
            ]
            for name, step in what:
                calls = call(address, "/healthz", "10.9.0.1")["store"]["calls"]
                seconds = []
                for number in range(args.times):
                    began = time.perf_counter()
                    step(number)
                    seconds.append(time.perf_counter() - began)
                time.sleep(0.5)  # (a WebSocket's close is counted just after it)
                # The look-ups of /healthz are no store calls; the heartbeats are (2 a second).
                calls = call(address, "/healthz", "10.9.0.1")["store"]["calls"] - calls
                print(
                    f"{name}: {calls / args.times:.2f} store calls each (heartbeats included),"
                    f" median {statistics.median(seconds) * 1000:.1f} ms",
                    flush=True,
                )
        finally:
            server.kill()
            server.wait(10)


if __name__ == "__main__":
    main()
