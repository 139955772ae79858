"""Several ``unomas serve`` instances on one PostgreSQL database: each room hosted by one of
them, taken over by another when its host is killed (kill -9) or asked for elsewhere, and
handed over at once on SIGTERM. Needs a PostgreSQL (``UNOMAS_TEST_POSTGRES``)."""

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
pytest.importorskip("psycopg")
import websockets

from server_support import free_port, get, post, proxy
from store_support import needs_postgres, postgres_dsn
from unomas.client.seat_client import SeatClient

pytestmark = needs_postgres


@contextmanager
def instance(
    dsn: str, name: str, *, lease: float = 2.0, options: tuple[str, ...] = ()
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``unomas serve --db DSN --instance NAME`` (and ``options``) as its own process; yields
    its address and process (killed on leaving if still alive)."""
    port = free_port()
    command = [sys.executable, "-m", "unomas", "serve", "--port", str(port), "--db", dsn, "--instance", name]
    settings = ["--lease-seconds", str(lease), "--bot-delay", "0", "--window", "0", "--grace", "60"]
    process = subprocess.Popen([*command, *settings, *options], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    address = f"127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                get(address, "/healthz")
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.1)
        yield address, process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(10)


async def look(url: str, token: str | None) -> dict[str, Any]:
    """The first update a connection is sent: the view, and the round so far as it may see it."""
    async with websockets.connect(url) as socket:
        await socket.send(json.dumps({"type": "hello", "token": token}))
        while True:
            message = json.loads(await asyncio.wait_for(socket.recv(), 20))
            if message["type"] == "update":
                return {"view": message["view"], "history": message["history"]}


async def start(url: str, token: str) -> None:
    """The host starts the game (and leaves once it is dealt)."""
    async with websockets.connect(url) as socket:
        await socket.send(json.dumps({"type": "hello", "token": token}))
        await socket.send(json.dumps({"type": "start"}))
        while json.loads(await asyncio.wait_for(socket.recv(), 20))["type"] != "update":
            pass


def game_room(address: str) -> tuple[str, list[str]]:
    """A room for two people and a bot, made on ``address``: its code and the people's tokens."""
    rules = {"players": 3, "target_score": 100, "jump_in": True}
    _, room = post(address, "/api/rooms", {"name": "Ana", "rules": rules, "bots": [2]})
    _, beto = post(address, f"/api/rooms/{room['code']}/join", {"name": "Beto"})
    return room["code"], [room["token"], beto["token"]]


def first_port(process: subprocess.Popen[bytes]) -> str:
    """The port an instance was started on (its command line's ``--port``)."""
    arguments = [str(argument) for argument in process.args]  # type: ignore[union-attr]
    return arguments[arguments.index("--port") + 1]


@pytest.mark.parametrize("through", ["direct", "proxy"])
def test_a_match_goes_on_on_another_instance_when_its_host_is_killed(through: str, tmp_path: Path) -> None:
    with postgres_dsn() as dsn, instance(dsn, "one") as (one, first), instance(dsn, "two") as (two, second):
        stack = contextlib.ExitStack()
        if through == "proxy":  # the players know the proxy alone; the room's code picks its instance
            one = two = stack.enter_context(proxy(tmp_path, [one, two]))
        code, tokens = game_room(one)

        async def on_the_first() -> list[SeatClient]:
            url = f"ws://{one}/ws/{code}"
            host = SeatClient(url, tokens[0], random.Random(1), stop_after=4)
            guest = SeatClient(url, tokens[1], random.Random(2))
            playing = asyncio.ensure_future(guest.play())
            await host.play(start=True)  # leaves on its turn: the game waits for it there
            playing.cancel()
            await asyncio.gather(playing, return_exceptions=True)
            return [host, guest]

        seats = asyncio.run(on_the_first())
        acknowledged = [m for seat in seats for m in seat.messages if m["type"] == "update" and "ref" in m]
        assert acknowledged, "no move was made on the first instance"
        before = [asyncio.run(look(f"ws://{one}/ws/{code}", token)) for token in [*tokens, None]]
        if through == "proxy":  # the instance the proxy sent the room to
            first = first if get(f"127.0.0.1:{first_port(first)}", "/healthz")[1]["rooms"] else second
        os.kill(first.pid, signal.SIGKILL)
        first.wait(10)
        url = f"ws://{two}/ws/{code}"
        # The second takes the room over once the first's lease lapses, rebuilt from the store:
        # every seat's view and story exactly as the first told it, nothing lost or told twice.
        assert [asyncio.run(look(url, token)) for token in [*tokens, None]] == before

        async def on_the_second() -> list[dict[str, Any] | None]:
            host = SeatClient(url, tokens[0], random.Random(3))
            guest = SeatClient(url, tokens[1], random.Random(4))
            return list(await asyncio.wait_for(asyncio.gather(host.play(), guest.play()), 120))

        assert all(over is not None and over["scores"] for over in asyncio.run(on_the_second()))
        status, finished = get(two, f"/api/rooms/{code}/record")
        assert status == 200
        told = before[2]["history"]  # what every page had been told on the first instance
        assert len(finished["rounds"][0]["events"]) >= len(told) - 1  # (the history starts with the deal)
        saved = tmp_path / "record.json"
        saved.write_text(json.dumps(finished))
        verified = subprocess.run(
            [sys.executable, "-m", "unomas", "replay", "--verify", str(saved)], capture_output=True, text=True
        )
        assert verified.returncode == 0, verified.stdout + verified.stderr
        stack.close()


def test_a_room_asked_for_elsewhere_is_handed_over_and_sigterm_hands_over_at_once() -> None:
    # Leases long enough that nothing here can wait for one to lapse: only handing over works.
    with postgres_dsn() as dsn, instance(dsn, "one", lease=60) as (one, first):
        with instance(dsn, "two", lease=60) as (two, second):
            code, tokens = game_room(one)
            asyncio.run(start(f"ws://{one}/ws/{code}", tokens[0]))
            on_one = asyncio.run(look(f"ws://{one}/ws/{code}", tokens[0]))
            assert asyncio.run(look(f"ws://{two}/ws/{code}", tokens[0])) == on_one  # two asked, one handed over
            assert get(two, "/healthz")[1]["rooms"] == 1
            assert get(one, "/healthz")[1]["rooms"] == 0
            second.send_signal(signal.SIGTERM)
            assert second.wait(20) == 0
        assert asyncio.run(look(f"ws://{one}/ws/{code}", tokens[1]))["view"]["seat"] == 1  # released at once
        assert get(one, "/healthz")[1]["rooms"] == 1
        first.send_signal(signal.SIGTERM)


def test_two_servers_in_one_process_hand_rooms_over_and_take_over_a_dead_ones_games() -> None:
    from server_support import running
    from unomas.server.postgres import PostgresStore
    from unomas.server.rooms import Settings

    settings = Settings(grace=60, bot_delay=0, window=0, round_pause=0, lease_seconds=0.6, max_rooms_held=1)
    with postgres_dsn() as dsn:
        one, two = PostgresStore(dsn, owner="one"), PostgresStore(dsn, owner="two")
        with running(one, settings) as first, running(two, settings) as second:
            code, tokens = game_room(first)
            # One room per client address, on every instance: the second is refused on the other.
            status, refused = post(second, "/api/rooms", {"name": "Ana", "rules": {"players": 2}, "bots": [1]})
            assert (status, refused["error"]["code"]) == (429, "client.rooms_held")
            asyncio.run(start(f"ws://{first}/ws/{code}", tokens[0]))
            seen = asyncio.run(look(f"ws://{first}/ws/{code}", tokens[1]))

            async def moved() -> tuple[dict[str, Any], int | None, dict[str, Any]]:
                """A page on the first server while the room is asked for on the second: what
                the first tells it, how its connection is closed, and what the second sends."""
                async with websockets.connect(f"ws://{first}/ws/{code}") as page:
                    await page.send(json.dumps({"type": "hello", "token": tokens[0]}))
                    while json.loads(await asyncio.wait_for(page.recv(), 10))["type"] != "update":
                        pass
                    there = await look(f"ws://{second}/ws/{code}", tokens[1])
                    told = []
                    with contextlib.suppress(websockets.exceptions.ConnectionClosed):
                        while True:
                            told.append(json.loads(await asyncio.wait_for(page.recv(), 10)))
                    return told[-1], page.close_code, there

            last, closed, there = asyncio.run(moved())
            assert there == seen  # handed over, as it was
            assert (last["code"], closed) == ("server.restarting", 1012)  # the page reconnects
            assert (get(first, "/healthz")[1]["rooms"], get(second, "/healthz")[1]["rooms"]) == (0, 1)
            assert get(first, "/api/rooms/NOSUCH1")[0] == 404  # no such room anywhere
            assert get(first, f"/api/rooms/{code}")[0] == 200  # and back again
        # A host that died holding the room: its lease lapses, and a live server takes the game over.
        import psycopg

        with psycopg.connect(dsn, autocommit=True) as db:
            db.execute("INSERT INTO instances (owner, until) VALUES ('dead', now() - interval '1 second')")
            db.execute("UPDATE leases SET owner = 'dead'")  # (stopping, the first let it go: it is the dead one's)
            db.execute("INSERT INTO leases (code, owner) SELECT code, 'dead' FROM rooms ON CONFLICT DO NOTHING")
        three = PostgresStore(dsn, owner="three")
        with running(three, settings) as third:
            deadline = time.monotonic() + 10
            while get(third, "/healthz")[1]["rooms"] != 1:
                assert time.monotonic() < deadline, "the dead server's game was not taken over"
                time.sleep(0.1)
            assert asyncio.run(look(f"ws://{third}/ws/{code}", tokens[1]))["view"]["seat"] == 1
