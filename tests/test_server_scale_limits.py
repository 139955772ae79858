"""Per-address limits and the room capacity across several ``unomas serve`` instances on one
PostgreSQL database: a client spreading its requests over the instances is limited as if
they were one. Needs a PostgreSQL (``UNOMAS_TEST_POSTGRES``)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from contextlib import AsyncExitStack, contextmanager
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("psycopg")
import websockets

from server_support import get, post, running
from store_support import needs_postgres, postgres_dsn
from test_server_scale import instance, start
from unomas.server.rooms import Settings

pytestmark = needs_postgres

TWO = {"name": "Ana", "rules": {"players": 2}, "bots": [1]}


@contextmanager
def two_servers(settings: Settings) -> Iterator[tuple[str, str, str]]:
    """Two servers (in this process) sharing one fresh PostgreSQL database; yields their
    addresses and the database's DSN."""
    from unomas.server.postgres import PostgresStore

    with postgres_dsn() as dsn:
        one, two = PostgresStore(dsn, owner="one"), PostgresStore(dsn, owner="two")
        with running(one, settings) as first, running(two, settings) as second:
            yield first, second, dsn


def test_creating_rooms_on_both_instances_in_turn_is_limited_as_on_one() -> None:
    settings = Settings(bot_delay=0, window=0, create_rate=(0.01, 4), max_rooms_held=100)
    with two_servers(settings) as (first, second, _):
        answers = [post((first, second)[number % 2], "/api/rooms", TWO) for number in range(6)]
        assert [status for status, _ in answers] == [200, 200, 200, 200, 429, 429]
        assert answers[4][1]["error"]["code"] == "client.limited"
        assert answers[4][1]["error"]["params"]["retry_after"] >= 50  # a token every 100 s


def test_room_look_ups_on_both_instances_in_turn_are_limited_as_on_one() -> None:
    with two_servers(Settings(lookup_rate=(0.01, 6))) as (first, second, _):
        statuses = [get((first, second)[number % 2], "/api/rooms/NOSUCH2345")[0] for number in range(8)]
        assert statuses == [404] * 6 + [429, 429]  # code guesses spread over the instances


def test_max_rooms_holds_across_two_instances() -> None:
    limit = ("--max-rooms", "3")
    with postgres_dsn() as dsn, instance(dsn, "a", options=limit) as (one, _), instance(dsn, "b", options=limit) as b:
        two = b[0]
        for address in (one, two, one):  # three games in play, on both
            _, room = post(address, "/api/rooms", TWO)
            asyncio.run(start(f"ws://{address}/ws/{room['code']}", room["token"]))
        for address in (one, two):
            status, refused = post(address, "/api/rooms", TWO)
            assert (status, refused["error"]["code"]) == (503, "room.capacity")
            assert refused["error"]["params"]["limit"] == 3


def test_max_rooms_counts_every_instance_s_rooms_and_an_unattended_lobby_gives_way() -> None:
    with two_servers(Settings(bot_delay=0, window=0, max_rooms=2)) as (first, second, _):
        _, kept = post(first, "/api/rooms", TWO)
        _, left = post(second, "/api/rooms", TWO)  # a lobby nobody attends
        status, made = post(second, "/api/rooms", TWO)  # at the total: the lobby left gives way
        assert status == 200 and get(second, f"/api/rooms/{left['code']}")[0] == 404
        for address, room in ((first, kept), (second, made)):
            asyncio.run(start(f"ws://{address}/ws/{room['code']}", room["token"]))
        for address in (first, second):  # two games in play, one on each: no room for a third
            status, refused = post(address, "/api/rooms", TWO)
            assert (status, refused["error"]["code"]) == (503, "room.capacity")


async def opened(url: str) -> tuple[Any, dict[str, Any] | None]:
    """A spectator's WebSocket to ``url``, and the refusal it was sent (None: accepted, the
    room sent)."""
    socket = await websockets.connect(url)
    await socket.send(json.dumps({"type": "hello", "token": None}))
    first = json.loads(await asyncio.wait_for(socket.recv(), 10))
    return socket, first if first["type"] == "error" else None


def test_websockets_per_address_count_on_every_live_instance() -> None:
    settings = Settings(bot_delay=0, window=0, max_connections=3, lookup_rate=(100.0, 100.0), lease_seconds=0.6)
    with two_servers(settings) as (first, second, dsn):
        rooms = [f"ws://{address}/ws/{post(address, '/api/rooms', TWO)[1]['code']}" for address in (first, second)]

        async def scenario() -> None:
            async with AsyncExitStack() as stack:
                for url in (rooms[0], rooms[1], rooms[0]):
                    socket, refused = await opened(url)
                    stack.push_async_callback(socket.close)
                    assert refused is None
                socket, refused = await opened(rooms[1])  # the fourth, on the instance holding one
                await socket.close()
                assert refused is not None and refused["code"] == "client.limited"
                assert socket.close_code == 4429
            # All closed: the count falls back on both (told a moment after each close).
            deadline = time.monotonic() + 5
            while True:
                socket, refused = await opened(rooms[1])
                await socket.close()
                if refused is None:
                    break
                assert time.monotonic() < deadline, "closed WebSockets still counted"
                await asyncio.sleep(0.1)

        asyncio.run(scenario())
        # An instance that dies holding WebSockets: they count until its heartbeat lapses.
        import psycopg

        from unomas.server.postgres import PostgresStore

        dead = PostgresStore(dsn, owner="dead")
        dead.heartbeat(0.6)
        assert [dead.connect("127.0.0.1", 3) for _ in range(4)] == [True, True, True, False]

        async def refused_then_accepted() -> None:
            socket, refused = await opened(rooms[0])
            await socket.close()
            assert refused is not None and refused["code"] == "client.limited"
            await asyncio.sleep(0.7)
            socket, refused = await opened(rooms[0])
            await socket.close()
            assert refused is None

        asyncio.run(refused_then_accepted())
        dead.prune(60)  # its rows go too
        with psycopg.connect(dsn) as db:
            assert db.execute("SELECT owner FROM connections").fetchall() == []  # (none open on the live ones)
        dead.close()


def test_the_shared_buckets_refill_and_are_pruned() -> None:
    from unomas.server.postgres import PostgresStore

    with postgres_dsn() as dsn:
        store = PostgresStore(dsn, owner="one")
        assert [store.take("lookup", "10.0.0.1", 10.0, 2) for _ in range(3)] == [0, 0, 1]
        time.sleep(0.15)  # a token back
        assert store.take("lookup", "10.0.0.1", 10.0, 2) == 0
        assert store.take("lookup", "10.0.0.2", 10.0, 2) == 0  # every address its own bucket
        store.prune(60)
        assert store.take("lookup", "10.0.0.1", 10.0, 2) == 1  # (not pruned: still in use)
        time.sleep(0.2)
        store.prune(0.1)
        assert [store.take("lookup", "10.0.0.1", 0.01, 2) for _ in range(3)] == [0, 0, 100]  # full again
        store.close()


def test_a_create_refused_after_its_admission_lets_its_lease_go() -> None:
    with two_servers(Settings(bot_delay=0, window=0, max_rooms_held=1)) as (first, _, _):
        _, refused = post(first, "/api/rooms", {**TWO, "bots": [0]})  # the host's seat: refused
        assert refused["error"]["code"] == "setup.bot_seat"
        assert post(first, "/api/rooms", TWO)[0] == 200  # its admission does not count as a room held


def test_the_sweeps_forget_the_shared_buckets_once_full_again() -> None:
    settings = Settings(  # the buckets full again in 10 ms; a sweep every 0.1 s
        create_rate=(100.0, 1.0),
        lookup_rate=(100.0, 1.0),
        keep_empty_lobby=0.2,
        keep_unvisited_lobby=0.2,
        keep_unattended_match=0.2,
    )
    with two_servers(settings) as (first, _, dsn):
        import psycopg

        assert get(first, "/api/rooms/NOSUCH2345")[0] == 404
        with psycopg.connect(dsn, autocommit=True) as db:
            assert db.execute("SELECT kind FROM buckets").fetchall() == [("lookup",)]
            deadline = time.monotonic() + 5
            while db.execute("SELECT kind FROM buckets").fetchall():
                assert time.monotonic() < deadline, "the bucket was never forgotten"
                time.sleep(0.05)
