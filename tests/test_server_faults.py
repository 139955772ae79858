"""The server when its store fails: a write that fails is undone and said, the lock is
released on every path, a locked or slow database holds up no other room, and play goes
on once the store is back."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
import websockets

from server_support import free_port, get, post, running
from unomas import fairness
from unomas.client.seat_client import SeatClient
from unomas.errors import Refusal
from unomas.server.rooms import Settings
from unomas.server.storage import SQLiteStore, StoredRoom, StoreWriter


class Faulty:
    """A SQLite connection whose statements starting with ``fail`` (``BEGIN IMMEDIATE``,
    ``COMMIT``, an ``INSERT``…) raise while armed, those whose parameters ``only`` accepts."""

    def __init__(self, db: Any) -> None:
        self.db = db
        self.fail: str | None = None
        self.only: Callable[[Any], bool] = lambda parameters: True
        self.commits = 0

    def execute(self, sql: str, *args: Any) -> Any:
        self.commits += sql == "COMMIT"
        if self.fail is not None and sql.startswith(self.fail) and self.only(args[0] if args else ()):
            raise __import__("sqlite3").OperationalError(f"injected: {sql} failed")
        return self.db.execute(sql, *args)

    def executemany(self, sql: str, rows: Any) -> Any:
        if self.fail is not None and sql.startswith(self.fail):
            raise __import__("sqlite3").OperationalError(f"injected: {sql} failed")
        return self.db.executemany(sql, rows)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)


def faulty_store(path: str | Path = ":memory:", **options: Any) -> tuple[SQLiteStore, Faulty]:
    store = SQLiteStore(path, **options)
    faults = Faulty(store._db)
    store._db = faults
    return store, faults


def in_time(call: Any, seconds: float = 5.0) -> Any:
    """``call()`` in a thread; fails (instead of hanging) if it has not returned in time."""
    outcome: list[Any] = []
    thread = threading.Thread(target=lambda: outcome.append(call()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert outcome, "the call hung"
    return outcome[0]


ROOM = StoredRoom("ROOM", {"name": "Ana"}, [{"name": "Ana", "token": None, "bot": None}], "lobby")


@pytest.mark.parametrize("statement", ["BEGIN", "COMMIT"])
def test_a_failed_transaction_releases_the_lock_and_leaves_nothing_behind(statement: str) -> None:
    store, faults = faulty_store()
    faults.fail = statement
    with pytest.raises(Exception, match="injected"):
        store.save_room(ROOM)
    faults.fail = None
    assert in_time(store.load) == []  # nothing of the failed write was kept (and the lock is free)
    in_time(lambda: store.save_room(ROOM))  # the next write neither hangs nor fails
    assert [room.code for room in in_time(store.load)] == ["ROOM"]


def test_calls_waiting_together_are_stored_in_one_batch_and_fail_alone_or_all_together() -> None:
    store, faults = faulty_store()
    writer = StoreWriter(store)
    lobby = [StoredRoom(f"ROOM{n:02}", {"name": "Ana"}, [], "lobby") for n in range(50)]

    async def scenario() -> None:
        await asyncio.gather(*(writer(store.save_room, room) for room in lobby))
        assert faults.commits < len(lobby) / 2  # a commit for many calls, not one each
        # One call of a batch failing is undone alone; the others are stored.
        faults.fail, faults.only = "INSERT INTO rooms", lambda parameters: parameters[0] == "LATE02"
        late = [StoredRoom(f"LATE{n:02}", {"name": "Ana"}, [], "lobby") for n in range(5)]
        outcomes = await asyncio.gather(*(writer(store.save_room, room) for room in late), return_exceptions=True)
        assert [isinstance(outcome, Refusal) for outcome in outcomes] == [False, False, True, False, False]
        codes = {room.code for room in await writer(store.load)}
        assert {room.code for room in late} & codes == {"LATE00", "LATE01", "LATE03", "LATE04"}
        # A batch whose commit fails stores none of its calls, and each is told so.
        faults.fail, faults.only = "COMMIT", lambda parameters: True
        lost = [StoredRoom(f"LOST{n:02}", {"name": "Ana"}, [], "lobby") for n in range(5)]
        outcomes = await asyncio.gather(*(writer(store.save_room, room) for room in lost), return_exceptions=True)
        assert all(isinstance(outcome, Refusal) and outcome.code == "store.unavailable" for outcome in outcomes)
        faults.fail = None
        assert {room.code for room in await writer(store.load)} == codes

    asyncio.run(scenario())
    in_time(writer.close)


async def host_on_turn(url: str, token: str) -> tuple[Any, dict[str, Any]]:
    """Connect the host of a two-seat room (a bot in seat 1), start, and wait for its turn."""
    socket = await websockets.connect(url)
    await socket.send(json.dumps({"type": "hello", "token": token}))
    await socket.send(json.dumps({"type": "start"}))
    while True:
        message = json.loads(await asyncio.wait_for(socket.recv(), 10))
        if message["type"] == "update":
            view = message["view"]
            if view["current"] == 0 and view["phase"] == "color":  # a starting Wild: the host chooses
                choose = {"type": "act", "action": view["legal_actions"][0], "ply": view["ply"]}
                await socket.send(json.dumps(choose))
            elif view["current"] == 0 and view["phase"] in ("turn", "penalty") and turn_moves(view):
                return socket, view


async def answer(socket: Any, ref: int) -> dict[str, Any]:
    """The update or error that answers the action ``ref``."""
    while True:
        message = json.loads(await asyncio.wait_for(socket.recv(), 10))
        if message.get("ref") == ref:
            return dict(message)


def turn_moves(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for m in view["legal_actions"] if m["p"] == 0 and m["a"] not in ("uno", "catch")]


def turn_move(view: dict[str, Any]) -> dict[str, Any]:
    return turn_moves(view)[0]


def test_a_move_the_store_refuses_is_not_made_and_its_sender_may_try_again() -> None:
    store, faults = faulty_store()
    with running(store, Settings(grace=30, bot_delay=0, window=0, round_pause=0)) as address:
        _, room = post(address, "/api/rooms", {"name": "Ana", "rules": {"players": 2, "target_score": 0}, "bots": [1]})
        url = f"ws://{address}/ws/{room['code']}"

        async def scenario() -> None:
            socket, view = await host_on_turn(url, room["token"])
            before = [r.rounds for r in store.load()]
            move = turn_move(view)
            for statement in ("BEGIN", "COMMIT"):
                faults.fail = statement
                await socket.send(json.dumps({"type": "act", "action": move, "ref": 1, "ply": view["ply"]}))
                refused = await answer(socket, 1)
                assert refused["type"] == "error" and refused["code"] == "store.unavailable"
                faults.fail = None
                assert [r.rounds for r in store.load()] == before  # not stored...
            # ...and not made: the same action answering the same ply is taken once the store is back.
            await socket.send(json.dumps({"type": "act", "action": move, "ref": 2, "ply": view["ply"]}))
            taken = await answer(socket, 2)
            assert taken["type"] == "update" and taken["view"]["ply"] == view["ply"] + 1
            assert [r.rounds for r in store.load()] != before
            await socket.close()

        asyncio.run(scenario())
        # The room plays on to its end; its record is whole.
        over = asyncio.run(asyncio.wait_for(SeatClient(url, room["token"], random.Random(1)).play(), 60))
        assert over is not None
        status, record = get(address, f"/api/rooms/{room['code']}/record")
        assert status == 200 and record["winner"] is not None


HOLD = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
sys.stdin.read()
db.execute("ROLLBACK")
"""


def test_a_database_locked_by_another_process_refuses_the_move_then_recovers(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    store = SQLiteStore(db, busy_timeout=0.2)
    with running(store, Settings(grace=30, bot_delay=0, window=0, round_pause=0)) as address:
        _, room = post(address, "/api/rooms", {"name": "Ana", "rules": {"players": 2, "target_score": 0}, "bots": [1]})
        url = f"ws://{address}/ws/{room['code']}"

        async def scenario() -> None:
            socket, view = await host_on_turn(url, room["token"])
            move = turn_move(view)
            holder = subprocess.Popen(
                [sys.executable, "-c", HOLD, str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
            )
            try:
                assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
                await socket.send(json.dumps({"type": "act", "action": move, "ref": 1, "ply": view["ply"]}))
                refused = await answer(socket, 1)
                assert refused["code"] == "store.unavailable"
                # Meanwhile the server answers anyone else at once.
                started = time.perf_counter()
                assert (await asyncio.to_thread(get, address, f"/api/rooms/{room['code']}"))[0] == 200
                assert time.perf_counter() - started < 1.0
            finally:
                assert holder.stdin is not None
                holder.stdin.close()
                holder.wait(10)
            await socket.send(json.dumps({"type": "act", "action": move, "ref": 2, "ply": view["ply"]}))
            assert (await answer(socket, 2))["type"] == "update"
            await socket.close()

        asyncio.run(scenario())


class SlowStore(SQLiteStore):
    """A slow disk: every move takes ``pause`` seconds to store."""

    pause = 0.15

    def append(self, *args: Any) -> None:
        time.sleep(self.pause)
        super().append(*args)


def test_a_slow_disk_holds_up_neither_the_server_nor_the_other_rooms() -> None:
    store = SlowStore(":memory:")
    with running(store, Settings(grace=0.01, bot_delay=0, window=0, round_pause=0)) as address:
        rooms = []
        for _ in range(2):  # bots play both seats once the host has left
            _, room = post(address, "/api/rooms", {"name": "Ana", "rules": {"players": 2}, "bots": [1]})
            rooms.append(room)

        async def scenario() -> None:
            for room in rooms:
                async with websockets.connect(f"ws://{address}/ws/{room['code']}") as socket:
                    await socket.send(json.dumps({"type": "hello", "token": room["token"]}))
                    await socket.send(json.dumps({"type": "start"}))
                    while json.loads(await asyncio.wait_for(socket.recv(), 5))["type"] != "update":
                        pass
            waits = []
            for _ in range(20):
                started = time.perf_counter()
                async with websockets.connect(f"ws://{address}/ws/{rooms[0]['code']}") as socket:
                    await socket.send(json.dumps({"type": "hello"}))
                    await asyncio.wait_for(socket.recv(), 5)
                waits.append(time.perf_counter() - started)
                await asyncio.sleep(0.05)
            assert sorted(waits)[-2] < SlowStore.pause / 2  # hellos are answered without waiting for the disk

        asyncio.run(scenario())
        time.sleep(1.0)
        plies = [len([e for r in stored.rounds for e in r["events"]]) for stored in store.load()]
        assert len(plies) == 2 and min(plies) >= 4  # both rooms went on playing, at the disk's pace


def test_a_newer_connection_on_a_seat_takes_it_over_and_the_older_is_told_and_closed() -> None:
    with running(SQLiteStore(":memory:"), Settings(grace=30, bot_delay=0, window=0, round_pause=0)) as address:
        _, room = post(address, "/api/rooms", {"name": "Ana", "rules": {"players": 2, "target_score": 0}, "bots": [1]})
        url = f"ws://{address}/ws/{room['code']}"

        async def scenario() -> None:
            older, view = await host_on_turn(url, room["token"])
            async with websockets.connect(url) as newer:
                await newer.send(json.dumps({"type": "hello", "token": room["token"]}))
                told = []
                with pytest.raises(websockets.ConnectionClosed):
                    while True:
                        told.append(json.loads(await asyncio.wait_for(older.recv(), 5)))
                assert told[-1]["type"] == "error" and told[-1]["code"] == "seat.taken_over"
                assert older.close_code == 4409
                # The newer one plays the seat, shown as connected once.
                while True:
                    message = json.loads(await asyncio.wait_for(newer.recv(), 5))
                    if message["type"] == "update":
                        break
                assert message["view"]["ply"] == view["ply"]
                await newer.send(json.dumps({"type": "act", "action": turn_move(view), "ref": 5, "ply": view["ply"]}))
                assert (await answer(newer, 5))["type"] == "update"
            status, info = get(address, f"/api/rooms/{room['code']}")
            assert status == 200 and info["seats"][0]["connected"] is False

        asyncio.run(scenario())


def test_a_join_or_a_start_the_store_refuses_leaves_the_lobby_as_it_was() -> None:
    store, faults = faulty_store()
    with running(store, Settings(grace=30, bot_delay=0, window=0, round_pause=0)) as address:
        _, room = post(address, "/api/rooms", {"name": "Ana", "rules": {"players": 3}})
        faults.fail = "BEGIN"
        status, answer = post(address, "/api/rooms", {"name": "Eve"})
        assert status == 503 and answer["error"]["code"] == "store.unavailable"
        status, answer = post(address, f"/api/rooms/{room['code']}/join", {"name": "Beto"})
        assert status == 503 and answer["error"]["code"] == "store.unavailable"
        url = f"ws://{address}/ws/{room['code']}"

        async def start() -> dict[str, Any]:
            async with websockets.connect(url) as socket:
                await socket.send(json.dumps({"type": "hello", "token": room["token"]}))
                await socket.send(json.dumps({"type": "start"}))
                while True:
                    message = json.loads(await asyncio.wait_for(socket.recv(), 5))
                    if message["type"] in ("error", "update"):
                        return dict(message)

        assert asyncio.run(start())["code"] == "store.unavailable"
        faults.fail = None
        assert get(address, f"/api/rooms/{room['code']}")[1]["status"] == "lobby"
        status, beto = post(address, f"/api/rooms/{room['code']}/join", {"name": "Beto"})
        assert status == 200 and beto["seat"] == 1  # the seat the failed join took is free again
        assert asyncio.run(start())["type"] == "update"


def store_failures(address: str) -> int:
    return int(get(address, "/healthz")[1]["store"]["failures"])


def wait_for(condition: Callable[[], bool], seconds: float = 30.0) -> None:
    """Poll ``condition`` (bounded in time) until it holds."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.02)


def finished_record(address: str, code: str, seconds: float = 60.0) -> dict[str, Any]:
    """The room's record once its match is over, asked for at the pace the server's
    look-up limit allows (a faster poll is refused as ``client.limited``)."""
    deadline = time.monotonic() + seconds
    while True:
        status, body = get(address, f"/api/rooms/{code}/record")
        if status == 200:
            return dict(body)
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.5)


def all_rounds(store: SQLiteStore, code: str) -> list[dict[str, Any]]:
    return store.rounds(code, 0, 1000)


def test_a_deal_the_store_refuses_is_dealt_again_from_the_same_shuffle_once_it_is_back() -> None:
    store, faults = faulty_store()
    with running(store, Settings(grace=0.01, bot_delay=0, window=0, round_pause=0)) as address:
        rules = {"players": 2, "target_score": 500}  # (no first round scores 500: a second deal comes)
        _, room = post(address, "/api/rooms", {"name": "Ana", "rules": rules, "bots": [1]})
        code = room["code"]
        faults.fail = "INSERT INTO rounds"
        faults.only = lambda parameters: parameters[3] is not None  # the deals after the first (with a snapshot)

        async def start() -> None:
            async with websockets.connect(f"ws://{address}/ws/{code}") as socket:
                await socket.send(json.dumps({"type": "hello", "token": room["token"]}))
                await socket.send(json.dumps({"type": "start"}))
                while json.loads(await asyncio.wait_for(socket.recv(), 5))["type"] != "update":
                    pass

        asyncio.run(start())  # the host leaves: bots play both seats
        wait_for(lambda: store_failures(address) >= 2, 90)  # the second deal failed, and failed again when retried
        rounds = all_rounds(store, code)
        assert len(rounds) == 1 and "result" in rounds[0]  # the first round is over and stored; no other
        assert get(address, f"/api/rooms/{code}")[1]["status"] == "playing"
        faults.fail = None
        finished = finished_record(address, code)
        assert len(finished["rounds"]) > 1
        fairness.verify(finished)  # the deal made again came from the seed, as the one refused had


def test_a_timer_move_the_store_refuses_is_not_made_and_the_timer_tries_again() -> None:
    store, faults = faulty_store()
    with running(store, Settings(grace=30, bot_delay=0, window=0, round_pause=0)) as address:
        setup = {"name": "Ana", "rules": {"players": 2, "target_score": 0}, "bots": [1], "turn_seconds": 1}
        _, room = post(address, "/api/rooms", setup)

        async def scenario() -> None:
            socket, view = await host_on_turn(f"ws://{address}/ws/{room['code']}", room["token"])
            faults.fail = "INSERT INTO events"  # the host waits: the timer's draw is refused
            failures = await asyncio.to_thread(store_failures, address)
            started = time.monotonic()
            while time.monotonic() - started < 2.5:  # two expiries at least
                with contextlib.suppress(TimeoutError):
                    message = json.loads(await asyncio.wait_for(socket.recv(), 0.2))
                    assert message["type"] != "update", "a move was made that was not stored"
            assert await asyncio.to_thread(store_failures, address) >= failures + 2
            faults.fail = None
            while True:  # the next expiry draws for the host, stored and told
                message = json.loads(await asyncio.wait_for(socket.recv(), 5))
                if message["type"] == "update":
                    break
            assert message["view"]["ply"] > view["ply"]
            drew = [e for e in message["events"] if e["event"] == "drew"]
            assert drew and drew[0]["player"] == 0
            (stored,) = store.load()
            assert any(e.get("a") == "draw" and e["p"] == 0 for e in stored.rounds[-1]["events"])
            await socket.close()

        asyncio.run(scenario())


def test_a_final_record_the_store_refuses_keeps_the_room_playing_until_it_is_stored() -> None:
    store, faults = faulty_store()
    with running(store, Settings(grace=0.01, bot_delay=0, window=0, round_pause=0)) as address:
        _, room = post(address, "/api/rooms", {"name": "Ana", "rules": {"players": 2, "target_score": 0}, "bots": [1]})
        code, url = room["code"], f"ws://{address}/ws/{room['code']}"
        faults.fail = "UPDATE rooms SET status = 'over'"

        async def play() -> None:
            host = asyncio.ensure_future(SeatClient(url, room["token"], random.Random(1)).play(start=True))
            # The match ends; its record fails to be stored, and fails again when retried.
            await asyncio.to_thread(wait_for, lambda: store_failures(address) >= 2)
            assert not host.done()  # the host was not told the match is over
            host.cancel()
            await asyncio.gather(host, return_exceptions=True)

        asyncio.run(play())
        assert get(address, f"/api/rooms/{code}/record")[0] == 409  # not over until the record is kept
        assert get(address, f"/api/rooms/{code}")[1]["status"] == "playing"

        async def watch() -> dict[str, Any]:
            async with websockets.connect(url) as socket:
                await socket.send(json.dumps({"type": "hello"}))
                faults.fail = None
                while True:
                    message = json.loads(await asyncio.wait_for(socket.recv(), 10))
                    if message["type"] == "over":
                        return dict(message)

        told = asyncio.run(watch())  # once the store is back, the record is kept and everyone told
        status, finished = get(address, f"/api/rooms/{code}/record")
        assert status == 200 and told["scores"] == finished["scores"]
        assert store.finished_record(code) == finished
        fairness.verify(finished)


class HeldStore(SQLiteStore):
    """A disk that, once armed, holds the next move's write until ``release`` is set, then fails it."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.armed = False
        self.holding = threading.Event()
        self.release = threading.Event()

    def append(self, *args: Any) -> None:
        if self.armed:
            self.armed = False
            self.holding.set()
            self.release.wait(10)
            raise OSError("injected: the disk failed")
        super().append(*args)


def test_a_hello_while_a_move_is_written_is_told_only_what_the_store_kept() -> None:
    """A spectator and the seat's own second connection say hello while the host's draw is
    being written; the write fails. Neither was sent the undone draw (the card, the ply),
    and nothing they were told came twice."""
    store = HeldStore(":memory:")
    with running(store, Settings(grace=30, bot_delay=0, window=0, round_pause=0)) as address:
        _, room = post(address, "/api/rooms", {"name": "Ana", "rules": {"players": 2, "target_score": 0}, "bots": [1]})
        url = f"ws://{address}/ws/{room['code']}"

        async def hello(token: str | None) -> Any:
            socket = await websockets.connect(url)
            await socket.send(json.dumps({"type": "hello", **({"token": token} if token else {})}))
            assert json.loads(await asyncio.wait_for(socket.recv(), 5))["type"] == "room"  # the room at once
            return socket

        async def scenario() -> None:
            ana, view = await host_on_turn(url, room["token"])
            draw = next(a for a in view["legal_actions"] if a["a"] == "draw")
            store.armed = True
            await ana.send(json.dumps({"type": "act", "action": draw, "ref": 7, "ply": view["ply"]}))
            assert await asyncio.to_thread(store.holding.wait, 5)
            late = [await hello(None), await hello(room["token"])]
            for socket in late:  # no update while the write is held (a presence, maybe)
                with pytest.raises(TimeoutError):
                    while json.loads(await asyncio.wait_for(socket.recv(), 0.3))["type"] == "presence":
                        pass
            store.release.set()
            for socket in late:
                while (first := json.loads(await asyncio.wait_for(socket.recv(), 5)))["type"] == "presence":
                    pass
                assert first["type"] == "update" and first["view"]["ply"] == view["ply"]
                assert first["state"] == view["ply"] + 1  # the deal and the stored moves: the draw not among them
                assert len(first["history"]) == len({json.dumps(step) for step in first["history"]})
            assert first["view"]["hand"] == view["hand"]  # the drawn card was never shown
            for socket in [ana, *late]:
                await socket.close()

        asyncio.run(scenario())


def test_a_hello_while_a_move_is_written_then_a_kill_learns_nothing_the_store_lost(tmp_path: Path) -> None:
    """A real ``unomas serve`` killed (SIGKILL) while the host's draw is being written (the
    database held by another process): the connection that said hello meanwhile was told
    the room alone, and after the restart the draw is neither in the hand nor the record."""
    import sqlite3

    from test_server_restart import look, serve

    db = tmp_path / "rooms.sqlite3"
    port = free_port()
    with serve(db, port) as process:
        address = f"127.0.0.1:{port}"
        _, room = post(address, "/api/rooms", {"name": "Ana", "rules": {"players": 2, "target_score": 0}, "bots": [1]})
        url = f"ws://{address}/ws/{room['code']}"

        async def scenario() -> tuple[dict[str, Any], list[dict[str, Any]]]:
            ana, view = await host_on_turn(url, room["token"])
            draw = next(a for a in view["legal_actions"] if a["a"] == "draw")
            holder = sqlite3.connect(db, isolation_level=None)
            holder.execute("BEGIN EXCLUSIVE")  # the server's next write waits for the database
            await ana.send(json.dumps({"type": "act", "action": draw, "ref": 3, "ply": view["ply"]}))
            await asyncio.sleep(0.3)
            again = await websockets.connect(url)
            await again.send(json.dumps({"type": "hello", "token": room["token"]}))
            told = []
            with contextlib.suppress(TimeoutError):
                while True:
                    told.append(json.loads(await asyncio.wait_for(again.recv(), 0.5)))
            os.kill(process.pid, signal.SIGKILL)
            process.wait(10)
            holder.execute("ROLLBACK")
            holder.close()
            return view, told

        view, told = asyncio.run(scenario())
    assert [message["type"] for message in told] == ["room"]  # no update of the unstored draw
    with serve(db, port):
        after = asyncio.run(look(f"ws://127.0.0.1:{port}/ws/{room['code']}", room["token"]))
    assert after["view"]["ply"] == view["ply"] and after["view"]["hand"] == view["hand"]
