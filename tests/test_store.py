"""The store contract, held by both stores (SQLite, and PostgreSQL when one is given), and
their schema migrations; the PostgreSQL leases."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from store_support import database, postgres_dsn
from unomas import fairness
from unomas.server.protocol import RoomSetup
from unomas.server.rooms import Room, Settings
from unomas.server.storage import SQLITE_MIGRATIONS, Store, StoredRoom, StoreWriter, migrate, open_store

KINDS = ["sqlite", "postgres"]
BOTS = Settings(grace=0.01, bot_delay=0, window=0, round_pause=0)


@pytest.fixture(params=KINDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path) as where:
        yield where


def lobby(code: str) -> StoredRoom:
    return StoredRoom(code, {"name": "Ana"}, [{"name": "Ana", "token": "ab", "bot": None}], "lobby")


def test_rooms_are_kept_updated_loaded_in_order_and_forgotten(db: str) -> None:
    store = open_store(db)
    for code in ("ZZZ111", "AAA222", "MMM333"):
        store.save_room(lobby(code))
    store.save_room(StoredRoom("AAA222", {"name": "Eva"}, [], "lobby"))
    assert [room.code for room in store.load()] == ["ZZZ111", "AAA222", "MMM333"]  # the order they were made
    (only,) = store.load("AAA222")
    assert only.setup == {"name": "Eva"} and only.seats == [] and only.rounds == []
    store.forget("ZZZ111")
    assert [room.code for room in store.load()] == ["AAA222", "MMM333"]
    assert store.load("ZZZ111") == [] and store.finished_record("AAA222") is None
    store.probe()
    store.close()


def test_a_failing_call_in_a_batch_is_undone_alone(db: str) -> None:
    store = open_store(db)
    store.save_room(lobby("BATCH1"))
    failed = 0
    with store.batch():
        store.save_room(lobby("BATCH2"))
        try:
            store.append("NOSUCH", 0, [{"play": "r5"}], None)  # no such round: refused by the schema
        except Exception:
            failed += 1
        store.save_room(lobby("BATCH3"))
    assert failed == 1
    assert [room.code for room in store.load()] == ["BATCH1", "BATCH2", "BATCH3"]
    with contextlib.suppress(RuntimeError), store.batch():
        store.save_room(lobby("BATCH4"))
        raise RuntimeError("the batch fails as a whole")
    assert "BATCH4" not in [room.code for room in store.load()]
    store.close()


def played(store: Store, code: str, *, rounds: int) -> tuple[Room, dict[str, Any]]:
    """A room of bots on ``store`` played until ``rounds`` rounds in, then stopped; returns it
    and its record so far."""
    setup = RoomSetup(name="Ana", rules={"players": 3, "target_score": 500}, bots=[1, 2])

    async def play() -> Room:
        writer = StoreWriter(store)
        room, _ = await Room.create(setup, writer, BOTS, code)
        await room.start(0)
        deadline = time.monotonic() + 60
        while (game := room.game) is not None and game.log is not None and not game.is_over:
            if game.round >= rounds and len(game.log[-1].moves) >= 5:
                break
            assert time.monotonic() < deadline
            await asyncio.sleep(0.001)
        await room.close()
        await asyncio.to_thread(writer.close)  # every move made is stored
        return room

    room = asyncio.run(play())
    return room, room.full_record()


def test_every_move_is_stored_and_a_game_resumes_and_finishes_from_the_store(db: str) -> None:
    before, so_far = played(open_store(db), "STORED1", rounds=1)
    store = open_store(db)

    async def resume() -> dict[str, Any]:
        writer = StoreWriter(store)
        (stored,) = await writer(store.load, "STORED1")
        assert stored.status == "playing" and stored.seed is not None
        room = Room.restore(stored, writer, BOTS)
        assert room.game is not None and before.game is not None
        assert room.game.position() == before.game.position()  # every move told was stored
        done = asyncio.get_running_loop().create_future()
        room.on_over = done.set_result
        await asyncio.wait_for(done, 120)
        await room.close()
        record = await writer(store.finished_record, "STORED1")
        assert record is not None and record == room.record
        assert await writer(store.rounds, "STORED1", 0, len(record["rounds"])) == record["rounds"]
        await asyncio.to_thread(writer.close)
        return record

    record = asyncio.run(resume())
    played_rounds = len(so_far["rounds"]) - 1
    assert record["rounds"][:played_rounds] == so_far["rounds"][:played_rounds]
    assert fairness.verify(record).is_over
    assert open_store(db).load() == []  # a finished room is not resumed


def test_an_old_sqlite_database_is_upgraded_and_its_games_go_on(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite3"
    with contextlib.closing(sqlite3.connect(db, isolation_level=None)) as old:
        migrate(old, SQLITE_MIGRATIONS[:1], 0)  # the first schema, before snapshots
        old.execute("DROP TABLE schema_version")  # and before versions were noted
        old.execute(
            "INSERT INTO rooms (code, setup, seats, status) VALUES ('OLD001', '{\"name\":\"Ana\"}', '[]', 'lobby')"
        )
    store = open_store(db)
    assert [room.code for room in store.load()] == ["OLD001"]
    store.close()
    with contextlib.closing(sqlite3.connect(db)) as upgraded:
        assert upgraded.execute("SELECT version FROM schema_version").fetchall() == [(len(SQLITE_MIGRATIONS),)]
        assert "snapshot" in {row[1] for row in upgraded.execute("PRAGMA table_info(rounds)")}
    played(open_store(db), "OLD002", rounds=1)  # the upgraded database takes games with snapshots


def test_a_database_newer_than_the_server_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "new.sqlite3"
    open_store(db).close()
    with contextlib.closing(sqlite3.connect(db, isolation_level=None)) as newer:
        newer.execute("UPDATE schema_version SET version = 99")
    with pytest.raises(RuntimeError, match="newer"):
        open_store(db)


def test_an_old_postgres_database_is_upgraded_and_its_games_go_on() -> None:
    import psycopg

    from unomas.server.postgres import POSTGRES_MIGRATIONS

    with postgres_dsn() as dsn:
        with psycopg.connect(dsn, autocommit=True) as old:
            migrate(old, POSTGRES_MIGRATIONS[:1], 0)  # the first schema: no snapshots, no leases
            old.execute("INSERT INTO rooms (code, setup, seats, status) VALUES ('OLD001', '{}', '[]', 'lobby')")
        store = open_store(dsn)
        assert [room.code for room in store.load()] == ["OLD001"]
        store.close()
        with psycopg.connect(dsn) as upgraded:
            assert upgraded.execute("SELECT version FROM schema_version").fetchall() == [(len(POSTGRES_MIGRATIONS),)]
            assert upgraded.execute("SELECT count(*) FROM leases").fetchall() == [(0,)]
        played(open_store(dsn), "OLD002", rounds=1)


def test_a_room_is_leased_to_one_instance_taken_over_when_its_lease_lapses_and_fenced() -> None:
    from unomas.server.postgres import LeaseLost, PostgresStore

    with postgres_dsn() as dsn:
        one, two = PostgresStore(dsn, owner="one"), PostgresStore(dsn, owner="two")
        one.heartbeat(0.5)
        two.heartbeat(30)
        one.save_room(lobby("LEASE1"))  # made on one: its lease is one's
        assert one.heartbeat(0.5) == ({"LEASE1"}, set())
        assert two.acquire("LEASE1", ask=False) == "held"  # one is alive
        assert one.heartbeat(0.5) == ({"LEASE1"}, set())
        assert two.acquire("LEASE1") == "held"  # two asks for it
        assert one.heartbeat(0.5) == ({"LEASE1"}, {"LEASE1"})
        with pytest.raises(LeaseLost):
            two.save_room(lobby("LEASE1"))
        assert two.acquire("NOSUCH") == "gone"
        time.sleep(0.6)  # one stops renewing: its lease lapses
        assert two.acquire("LEASE1") == "mine"
        assert one.heartbeat(30) == (set(), set())  # one's rooms are no longer its own
        with pytest.raises(LeaseLost):
            one.save_room(lobby("LEASE1"))  # nor may it write into them
        two.release(["LEASE1"])
        assert one.acquire("LEASE1") == "mine"  # handed over at once
        assert one.orphans(10) == []  # a lobby is taken over only when someone comes for it
        one.close()
        two.close()


def test_an_instance_is_told_at_once_when_its_room_is_asked_for_and_when_a_room_is_let_go() -> None:
    from unomas.server.postgres import PostgresStore

    with postgres_dsn() as dsn:
        one, two = PostgresStore(dsn, owner="one"), PostgresStore(dsn, owner="two")
        notices: list[tuple[str, str | None, str]] = []
        one.listen(lambda *notice: notices.append(notice))  # (listening once it returns)
        one.heartbeat(30)
        two.heartbeat(30)
        one.save_room(lobby("TOLD01"))

        def told(count: int) -> list[tuple[str, str | None, str]]:
            deadline = time.monotonic() + 5
            while len(notices) < count:
                assert time.monotonic() < deadline, f"not told: {notices}"
                time.sleep(0.01)
            return notices

        assert two.acquire("TOLD01") == "held"
        assert told(1) == [("want", "one", "TOLD01")]
        one.release(["TOLD01"])
        assert told(2)[1] == ("free", None, "TOLD01")
        assert two.acquire("TOLD01") == "mine"
        import psycopg

        with psycopg.connect(dsn, autocommit=True) as admin:  # the listener's connection is lost
            listeners = "SELECT pid FROM pg_stat_activity WHERE application_name = 'unomas-listen'"
            admin.execute(f"SELECT pg_terminate_backend(pid) FROM ({listeners}) AS listening")
        deadline = time.monotonic() + 10
        while len(notices) < 3:  # it listens again a second later; asked until then
            assert time.monotonic() < deadline, "not told once listening again"
            two.release(["TOLD01"])
            assert two.acquire("TOLD01") == "mine"
            time.sleep(0.2)
        assert notices[-1] == ("free", None, "TOLD01")
        one.close()  # (the listener stops with the store)
        two.close()


def test_a_create_admitted_amid_a_batch_holds_no_lock_a_lease_s_writer_waits_for() -> None:
    import threading

    from unomas.server.postgres import PostgresStore

    with postgres_dsn() as dsn:
        one, two = PostgresStore(dsn, owner="one"), PostgresStore(dsn, owner="two")
        one.heartbeat(30)
        two.heartbeat(30)
        one.save_room(lobby("HOSTED"))
        admitted, asked = threading.Event(), threading.Event()
        failures: list[BaseException] = []

        def first() -> None:  # a create, then a write into a room of its own, in one batch
            with one.batch():
                assert one.admit("NEW001", "10.0.0.1", 8, None, (1.0, 10.0)) is None
                admitted.set()
                asked.wait(5)
                one.save_room(lobby("HOSTED"))  # (fenced: waits for the lease's row, which two locked)

        def second() -> None:  # asks for that room, then a create, in one batch
            admitted.wait(5)
            with two.batch():
                assert two.acquire("HOSTED") == "held"
                asked.set()
                assert two.admit("NEW002", "10.0.0.1", 8, None, (1.0, 10.0)) is None

        def catching(work: Any) -> None:
            try:
                work()
            except BaseException as error:  # (a deadlock PostgreSQL broke, or an assertion)
                failures.append(error)

        threads = [threading.Thread(target=catching, args=(work,)) for work in (first, second)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(20)
        assert failures == []
        assert one.heartbeat(30)[0] == {"HOSTED", "NEW001"} and two.heartbeat(30)[0] == {"NEW002"}
        one.close()
        two.close()
