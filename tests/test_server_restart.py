"""A real ``unomas serve`` killed mid-game and restarted on the same database resumes it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
import websockets

from server_support import free_port, get, post
from unomas import fairness
from unomas.server.client import SeatClient


@contextmanager
def serve(db: Path, port: int) -> Iterator[subprocess.Popen[bytes]]:
    """``unomas serve`` as its own process; killed (SIGKILL) on leaving if still alive."""
    command = [sys.executable, "-m", "unomas", "serve", "--port", str(port), "--db", str(db), "--bot-delay", "0"]
    process = subprocess.Popen([*command, "--grace", "60"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                get(f"127.0.0.1:{port}", "/api/rooms/NONE00")
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.1)
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(10)


async def look(url: str, token: str | None) -> dict[str, Any]:
    """Connect, say hello, and return the first update the server sends: the view, and the
    round so far as the connection may see it (without the time left on a turn)."""
    async with websockets.connect(url) as socket:
        await socket.send(json.dumps({"type": "hello", "token": token}))
        while True:
            message = json.loads(await asyncio.wait_for(socket.recv(), 10))
            if message["type"] == "update":
                return {"view": message["view"], "history": message["history"]}


async def commitment(url: str) -> str:
    async with websockets.connect(url) as socket:
        await socket.send(json.dumps({"type": "hello"}))
        message = json.loads(await asyncio.wait_for(socket.recv(), 10))
        return str(message["commitment"])


def test_a_killed_server_resumes_every_game_exactly(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    port = free_port()
    address = f"127.0.0.1:{port}"
    rules = {"players": 3, "target_score": 100, "jump_in": True, "stack_draw_two": True}
    # Only a few moves before the kill, so that the first round is still in play there.
    with serve(db, port) as process:
        _, room = post(address, "/api/rooms", {"name": "Ana", "rules": rules, "bots": [2]})
        _, beto = post(address, f"/api/rooms/{room['code']}/join", {"name": "Beto"})
        url = f"ws://{address}/ws/{room['code']}"
        tokens = [room["token"], beto["token"]]

        async def first_half() -> None:
            host = SeatClient(url, tokens[0], random.Random(1), stop_after=4)
            guest = asyncio.ensure_future(SeatClient(url, tokens[1], random.Random(2)).play())
            await host.play(start=True)  # leaves when it is the host's turn: the game waits there
            guest.cancel()
            await asyncio.gather(guest, return_exceptions=True)
            await asyncio.sleep(0.3)

        asyncio.run(first_half())
        before = [asyncio.run(look(url, token)) for token in [*tokens, None]]
        promised = asyncio.run(commitment(url))
        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)
    spectator = before[2]["view"]
    assert spectator["phase"] != "match_over", "the match ended before the kill: nothing to resume"
    assert sum(spectator["hand_sizes"]) > 0 and spectator["hand"] == []
    assert len(before[0]["history"]) == spectator["ply"] + 1  # the deal and every move of the first round
    with serve(db, port):
        after = [asyncio.run(look(url, token)) for token in [*tokens, None]]
        assert after == before  # every seat's view and story, the spectator's too, exactly as before the kill
        assert asyncio.run(commitment(url)) == promised

        async def second_half() -> list[dict[str, Any] | None]:
            host = SeatClient(url, tokens[0], random.Random(3))
            guest = SeatClient(url, tokens[1], random.Random(4))
            return list(await asyncio.wait_for(asyncio.gather(host.play(), guest.play()), 120))

        overs = asyncio.run(second_half())  # the resumed game is played to its end
        assert all(over is not None and over["scores"] for over in overs)
        status, finished = get(address, f"/api/rooms/{room['code']}/record")
        assert status == 200
        game = fairness.verify(finished)  # the deals, before and after the kill, came from the promised seed
        assert game.is_over and finished["shuffle"]["commitment"] == promised


def test_sigterm_tells_every_page_the_server_is_restarting_and_exits_cleanly(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    port = free_port()
    address = f"127.0.0.1:{port}"
    with serve(db, port) as process:
        _, room = post(address, "/api/rooms", {"name": "Ana", "rules": {"players": 2}})

        async def scenario() -> tuple[list[dict[str, Any]], int | None]:
            async with websockets.connect(f"ws://{address}/ws/{room['code']}") as socket:
                await socket.send(json.dumps({"type": "hello", "token": room["token"]}))
                told = [json.loads(await asyncio.wait_for(socket.recv(), 10))]
                process.send_signal(signal.SIGTERM)
                with contextlib.suppress(websockets.ConnectionClosed):
                    while True:
                        told.append(json.loads(await asyncio.wait_for(socket.recv(), 10)))
                return told, socket.close_code

        told, code = asyncio.run(scenario())
        # The page is told by the close code (1012, service restart); the server's own word
        # comes before it unless uvicorn closed the socket first.
        assert code == 1012
        restarting = [m for m in told if m["type"] == "error" and m.get("code") == "server.restarting"]
        assert restarting in ([], [told[-1]])
        # uvicorn shuts down gracefully, then lets SIGTERM end the process as it would have.
        assert process.wait(15) in (0, -signal.SIGTERM)
    # The room is still there after the restart.
    with serve(db, port):
        assert get(address, f"/api/rooms/{room['code']}")[0] == 200
