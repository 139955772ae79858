"""A real ``unomas serve`` killed mid-game and restarted on the same database resumes it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
import websockets

from server_support import free_port, get, post
from unomas import fairness, record
from unomas.client.seat_client import SeatClient
from unomas.server.protocol import RoomSetup
from unomas.server.rooms import Room, Settings
from unomas.server.storage import SQLiteStore, StoreWriter


@contextmanager
def serve(db: Path, port: int) -> Iterator[subprocess.Popen[bytes]]:
    """``unomas serve`` as its own process; killed (SIGKILL) on leaving if still alive."""
    command = [
        sys.executable,
        "-m",
        "unomas",
        "serve",
        "--port",
        str(port),
        "--db",
        str(db),
        "--bot-delay",
        "0",
        "--window",
        "0",
    ]
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


class FlakyStore(SQLiteStore):
    """A store whose next ``failing`` moves fail to be appended."""

    failing = 0

    def append(self, *args: Any) -> None:
        if self.failing:
            self.failing -= 1
            raise sqlite3.OperationalError("injected: the disk is full")
        super().append(*args)


async def played_until(room: Room, rounds: int) -> None:
    """Wait (bounded) until the room's match is ``rounds`` rounds in and a few moves into that one."""
    deadline = time.monotonic() + 60
    while True:
        game = room.game
        assert game is not None and game.log is not None and not game.is_over, "the match ended too soon"
        if game.round >= rounds and len(game.log[-1].moves) >= 5:
            return
        assert time.monotonic() < deadline, "the bots did not play that far in time"
        await asyncio.sleep(0.001)


def test_a_restart_replays_the_round_in_play_from_its_snapshot_and_keeps_the_record_whole(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    settings = Settings(grace=0.01, bot_delay=0, window=0, round_pause=0)  # the bots play every seat
    setup = RoomSetup(name="Ana", rules={"players": 3, "target_score": 2000}, bots=[1, 2])

    async def before_the_restart() -> tuple[Room, StoreWriter]:
        writer = StoreWriter(SQLiteStore(db))
        room, _ = await Room.create(setup, writer, settings, "SNAPSHOTS1")
        await room.start(0)
        await played_until(room, 4)
        await room.close()
        await asyncio.to_thread(writer.close)  # every move made is stored
        return room, writer

    async def after_the_restart(uninterrupted: Room) -> dict[str, Any]:
        store = FlakyStore(db)
        writer = StoreWriter(store)
        (stored,) = await writer(writer.store.load)
        game = uninterrupted.game
        assert game is not None and game.log is not None
        # Only the round in play is read and replayed: its deal's snapshot, then its moves.
        assert stored.first_round == game.round >= 4 and stored.snapshot is not None
        assert len(stored.rounds) == 1
        assert len([e for e in stored.rounds[0]["events"] if "chance" not in e]) == len(game.log[-1].moves)
        room = Room.restore(stored, writer, settings)
        restored = room.game
        assert restored is not None and restored.log is not None and len(restored.log) == 1
        # The restored match is the uninterrupted one: every card, the scores, the shuffles to come,
        # and what each seat has been told of the round.
        assert restored.position() == game.position()
        assert restored.rng.getstate() == game.rng.getstate()  # type: ignore[attr-defined]
        assert record.round_json(restored.log[0]) == record.round_json(game.log[-1])
        assert room.match is not None and uninterrupted.match is not None
        now, then = room.match.conductor, uninterrupted.match.conductor
        assert now is not None and then is not None
        for seat in (0, 1, 2, None):
            told, before = now.history(seat), then.history(seat)
            assert told == before[-len(told) :] and told[0][0] is None
        # Moves the store refuses take the restored match back to the store's, from the snapshot.
        store.failing = 3
        done = asyncio.get_running_loop().create_future()
        room.on_over = done.set_result
        await asyncio.wait_for(done, 120)  # the restored room plays its match to the end
        await room.close()
        assert writer.failures == 3 and room.match.epoch >= 1
        finished = await writer(writer.store.finished_record, room.code)
        assert finished is not None and finished == room.record
        # The moves stored one by one are the record's, every round of it.
        assert await writer(store.rounds, room.code, 0, len(finished["rounds"])) == finished["rounds"]
        await asyncio.to_thread(writer.close)
        return finished

    uninterrupted, _ = asyncio.run(before_the_restart())
    so_far = uninterrupted.full_record()
    finished = asyncio.run(after_the_restart(uninterrupted))
    # The record served is whole: the rounds before the snapshot, byte for byte as played before
    # the restart, the round in play as it began, and every deal from the committed seed.
    dump = partial(json.dumps, separators=(",", ":"))
    played = len(so_far["rounds"]) - 1
    assert dump(finished["rounds"][:played]) == dump(so_far["rounds"][:played])
    current, resumed = so_far["rounds"][played], finished["rounds"][played]
    assert resumed["events"][: len(current["events"])] == current["events"]
    assert {k: v for k, v in resumed.items() if k not in ("events", "result")} == {
        k: v for k, v in current.items() if k != "events"
    }
    assert fairness.verify(finished).is_over and finished["shuffle"]["commitment"] == so_far["shuffle"]["commitment"]


def test_a_database_from_before_snapshots_gains_them_and_its_games_resume_from_the_seed(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    settings = Settings(grace=0.01, bot_delay=0, window=0, round_pause=0)
    setup = RoomSetup(name="Ana", rules={"players": 2, "target_score": 500}, bots=[1])

    async def before() -> Room:
        writer = StoreWriter(SQLiteStore(db))
        room, _ = await Room.create(setup, writer, settings, "OLDSCHEMA1")
        await room.start(0)
        await played_until(room, 0)
        await room.close()
        await asyncio.to_thread(writer.close)
        return room

    played = asyncio.run(before())
    with contextlib.closing(sqlite3.connect(db)) as old:
        old.execute("ALTER TABLE rounds DROP COLUMN snapshot")  # as the database was before snapshots
        old.execute("DROP TABLE schema_version")  # (and before schema versions were noted)

    async def after() -> None:
        store = SQLiteStore(db)
        assert "snapshot" in {row[1] for row in store._db.execute("PRAGMA table_info(rounds)")}
        writer = StoreWriter(store)
        (stored,) = await writer(store.load)
        assert stored.first_round == 0 and stored.snapshot is None
        room = Room.restore(stored, writer, settings)
        assert room.game is not None and played.game is not None
        assert room.game.position() == played.game.position()
        await room.close()
        await asyncio.to_thread(writer.close)

    asyncio.run(after())
