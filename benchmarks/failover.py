"""Failover time: two ``unomas serve`` instances on one PostgreSQL database behind HAProxy
(``docs/haproxy.cfg``); a game in play, its host killed (SIGKILL), and the seconds until a
player reconnecting through the proxy is sent the game again by the other instance, which
took the room over from the database. Repeated ``--kills`` times (the killed instance is
started again each time); prints each time, the median and the maximum.

    python benchmarks/failover.py --db postgresql:///unomas --kills 10 --lease-seconds 3
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import websockets

from limits import call
from server_load import proxy_config, wait_for


async def first_update(url: str, token: str, client: str, start: bool = False) -> None:
    """Connect as a seat from ``client`` (and start the game), until the first update arrives."""
    async with websockets.connect(url, open_timeout=5, additional_headers={"X-Forwarded-For": client}) as socket:
        await socket.send(json.dumps({"type": "hello", "token": token}))
        if start:
            await socket.send(json.dumps({"type": "start"}))
        while json.loads(await asyncio.wait_for(socket.recv(), 5))["type"] != "update":
            pass


def hosting(dsn: str, code: str) -> int:
    """The port of the instance holding ``code``'s lease (its name is ``failover-PORT``)."""
    import psycopg

    with psycopg.connect(dsn) as db:
        row = db.execute("SELECT owner FROM leases WHERE code = %s", (code,)).fetchone()
    assert row is not None, "the room has no lease"
    return int(str(row[0]).rsplit("-", 1)[1])


def reconnect(url: str, token: str, client: str) -> None:
    """Try again and again, as a page does, until the game is sent."""
    while True:
        try:
            asyncio.run(first_update(url, token, client))
            return
        except (OSError, TimeoutError, websockets.exceptions.WebSocketException):
            time.sleep(0.05)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", required=True, metavar="DSN", help="the PostgreSQL database the instances share")
    parser.add_argument("--kills", type=int, default=10)
    parser.add_argument("--lease-seconds", type=float, default=3.0)
    parser.add_argument("--port", type=int, default=8900, help="the proxy's port; the instances take the next two")
    args = parser.parse_args()
    ports = [args.port + 1, args.port + 2]

    def start(port: int) -> subprocess.Popen[bytes]:
        command = [sys.executable, "-m", "unomas", "serve", "--port", str(port), "--db", args.db]
        command += ["--instance", f"failover-{port}", "--lease-seconds", str(args.lease_seconds), "--grace", "60"]
        command += ["--trust-proxy", "127.0.0.1"]
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(f"http://127.0.0.1:{port}")
        return server

    servers = {port: start(port) for port in ports}
    times = []
    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / "haproxy.cfg"
        config.write_text(proxy_config(args.port, [f"127.0.0.1:{port}" for port in ports]))
        proxy = subprocess.Popen(["haproxy", "-db", "-f", str(config)], stderr=subprocess.DEVNULL)
        address = f"127.0.0.1:{args.port}"
        try:
            wait_for(f"http://{address}")
            for kill in range(args.kills):
                time.sleep(2.5)  # the proxy sees every instance up again
                client = f"10.9.{kill // 250}.{kill % 250 + 1}"
                room = call(address, "/api/rooms", client, {"name": "Ana", "rules": {"players": 2}, "bots": [1]})
                url = f"ws://{address}/ws/{room['code']}"
                asyncio.run(first_update(url, room["token"], client, start=True))
                host = hosting(args.db, room["code"])
                killed = time.perf_counter()
                os.kill(servers[host].pid, signal.SIGKILL)
                servers[host].wait(10)
                reconnect(url, room["token"], client)
                times.append(time.perf_counter() - killed)
                print(f"kill {kill + 1}: the game was back after {times[-1]:.2f} s", flush=True)
                servers[host] = start(host)
        finally:
            proxy.kill()
            for server in servers.values():
                server.kill()
                server.wait(10)
    print(
        f"failover over {len(times)} kills (lease {args.lease_seconds} s): median {statistics.median(times):.2f} s,"
        f" min {min(times):.2f} s, max {max(times):.2f} s"
    )


if __name__ == "__main__":
    main()
