"""Handover time: two ``unomas serve`` instances on one PostgreSQL database (leases of 60 s,
so that no room ever moves because its lease lapsed: only a handover moves it). Each
repetition makes a game on the first instance, then measures the seconds until a player
connecting to the second is sent the game:

* ``asked``: the first instance is alive; the second asks it for the room, it hands it over;
* ``sigterm``: the first instance is sent SIGTERM just before the player connects to the
  second; it lets its rooms go as it stops (it is started again afterwards).

Prints each time, then the median, min and max of each.

    python benchmarks/handover.py --db postgresql:///unomas --times 10
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import statistics
import subprocess
import sys
import time
import urllib.request
from typing import Any

import websockets

from server_load import wait_for


def call(address: str, path: str, body: dict[str, Any], client: str) -> Any:
    """POST ``body`` as JSON from ``client`` (an address the server trusts us to name, so
    that the per-address limits never refuse the benchmark); the decoded answer."""
    request = urllib.request.Request(f"http://{address}{path}", data=json.dumps(body).encode(), method="POST")
    request.add_header("Content-Type", "application/json")
    request.add_header("X-Forwarded-For", client)
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


async def first_update(url: str, token: str, start: bool = False) -> None:
    """Connect as a seat (and start the game), until the first update arrives."""
    async with websockets.connect(url, open_timeout=10) as socket:
        await socket.send(json.dumps({"type": "hello", "token": token}))
        if start:
            await socket.send(json.dumps({"type": "start"}))
        while json.loads(await asyncio.wait_for(socket.recv(), 10))["type"] != "update":
            pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", required=True, metavar="DSN", help="the PostgreSQL database the instances share")
    parser.add_argument("--times", type=int, default=10)
    parser.add_argument("--port", type=int, default=8950, help="the first instance's port; the second takes the next")
    args = parser.parse_args()

    def start(port: int) -> subprocess.Popen[bytes]:
        command = [sys.executable, "-m", "unomas", "serve", "--port", str(port), "--db", args.db]
        command += ["--instance", f"handover-{port}", "--lease-seconds", "60", "--grace", "60"]
        command += ["--bot-delay", "0", "--window", "0", "--trust-proxy", "127.0.0.1"]
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(f"http://127.0.0.1:{port}")
        return server

    one, two = f"127.0.0.1:{args.port}", f"127.0.0.1:{args.port + 1}"
    first, second = start(args.port), start(args.port + 1)
    times: dict[str, list[float]] = {"asked": [], "sigterm": []}
    try:
        for repetition in range(args.times):
            for number, kind in enumerate(times):
                setup = {"name": "Ana", "rules": {"players": 2}, "bots": [1]}
                room = call(one, "/api/rooms", setup, f"10.0.{repetition}.{number + 1}")
                asyncio.run(first_update(f"ws://{one}/ws/{room['code']}", room["token"], start=True))
                time.sleep(0.3)  # the game settles (the bot's first moves stored)
                began = time.perf_counter()
                if kind == "sigterm":
                    first.send_signal(signal.SIGTERM)
                asyncio.run(first_update(f"ws://{two}/ws/{room['code']}", room["token"]))
                times[kind].append(time.perf_counter() - began)
                print(f"{repetition + 1} {kind}: {times[kind][-1] * 1000:.0f} ms", flush=True)
                if kind == "sigterm":
                    first.wait(20)
                    first = start(args.port)
    finally:
        for server in (first, second):
            server.kill()
            server.wait(10)
    for kind, measured in times.items():
        median, low, high = (1000 * value for value in (statistics.median(measured), min(measured), max(measured)))
        print(f"{kind} over {len(measured)}: median {median:.0f} ms, min {low:.0f} ms, max {high:.0f} ms")


if __name__ == "__main__":
    main()
