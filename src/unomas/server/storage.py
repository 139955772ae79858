"""Where rooms and games live: a small interface and its SQLite implementation.

A game is stored as its record (RECORD.md): each round's deal, then every move's entries
appended in a transaction of their own as it happens, the secret seed beside it (never
in the record until the game is over). Each round after the first is stored with a
snapshot of the match just before its deal (the position and the shuffles' random state),
so :meth:`Store.load` gives back, to resume each room exactly, only the rounds from the
last snapshot on: a restart replays the round in play, not the whole match. The earlier
rounds stay stored for the record (:meth:`Store.rounds`). Another store only has to
implement the same methods.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import queue
import sqlite3
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import platformdirs

from unomas.errors import Refusal

__all__ = ["Leases", "SQLiteStore", "Store", "StoreWriter", "StoredRoom", "default_db_path", "open_store"]

log = logging.getLogger("unomas.server")
T = TypeVar("T")


def default_db_path() -> Path:
    """The default database: ``unomas.sqlite3`` in the user's data folder."""
    return Path(platformdirs.user_data_dir("unomas", appauthor=False)) / "unomas.sqlite3"


@dataclass(slots=True)
class StoredRoom:
    """A room as stored: its setup, seats and status, and its game's record so far."""

    code: str
    setup: dict[str, Any]
    seats: list[dict[str, Any]]
    """Per seat: ``name``, ``token`` (the SHA-256 of its secret token; null for a bot), ``bot``."""
    status: str
    """``lobby``, ``playing`` or ``over``."""
    seed: bytes | None = None
    rounds: list[dict[str, Any]] = field(default_factory=list)
    """The record's rounds from ``first_round`` on (deal, events, result once over)."""
    first_round: int = 0
    """The index in the match of ``rounds[0]``: the last round stored with a snapshot."""
    snapshot: dict[str, Any] | None = None
    """The match just before ``rounds[0]`` was dealt (None: the first round, dealt from the seed)."""


class Store(ABC):
    """The storage of a server: rooms, and each game's record appended move by move."""

    @abstractmethod
    def save_room(self, room: StoredRoom) -> None:
        """Create or update a room's setup, seats and status (not its rounds)."""

    @abstractmethod
    def start_game(self, code: str, seats: list[dict[str, Any]], seed: bytes, first_round: dict[str, Any]) -> None:
        """The host started: the final seating, the secret seed and the first deal, at once."""

    @abstractmethod
    def add_round(self, code: str, index: int, deal: dict[str, Any], snapshot: dict[str, Any]) -> None:
        """A new round was dealt (``deal``: dealer, hands, pile, events so far); ``snapshot``
        is the match just before the deal, where a restart takes it up again."""

    @abstractmethod
    def append(self, code: str, index: int, entries: list[dict[str, Any]], result: dict[str, Any] | None) -> None:
        """A move's record entries (with the round's result if it ended the round)."""

    @abstractmethod
    def finish(self, code: str, record: dict[str, Any]) -> None:
        """The match is over: keep its full record."""

    @abstractmethod
    def forget(self, code: str) -> None:
        """Delete a room that never started (an abandoned lobby)."""

    @abstractmethod
    def load(self, code: str | None = None) -> list[StoredRoom]:
        """Every room not yet over (or only the one by ``code``, if it is not over), with its
        rounds from the last snapshot on, to resume after a restart or a takeover."""

    @abstractmethod
    def rounds(self, code: str, start: int, stop: int) -> list[dict[str, Any]]:
        """The rounds ``start`` to ``stop`` (excluded) of a room's game, as its record has them."""

    @abstractmethod
    def finished_record(self, code: str) -> dict[str, Any] | None:
        """The record of a finished game, or None if there is no finished game by that code."""

    @abstractmethod
    def close(self) -> None:
        """Release the store."""

    @abstractmethod
    def probe(self) -> None:
        """Raise unless the store takes writes just now (what ``/readyz`` asks once a call
        has failed)."""

    def batch(self) -> contextlib.AbstractContextManager[None]:
        """``with``: the calls made inside in one transaction where the store can, each still
        succeeding or failing alone, none kept unless the whole batch is (an error leaving
        the ``with`` undoes them all). This one makes each call on its own."""
        return contextlib.nullcontext()


def open_store(db: str | Path, *, owner: str | None = None) -> Store:
    """The store ``--db`` names: a ``postgresql://`` DSN (the ``postgres`` extra; ``owner``
    is this instance's name in the rooms' leases), or else the path of a SQLite file."""
    if str(db).startswith(("postgresql://", "postgres://")):
        from unomas.server.postgres import PostgresStore

        return PostgresStore(str(db), owner=owner)
    return SQLiteStore(db)


class Leases(ABC):
    """A store shared by several instances: each room not over is hosted by one of them at
    a time, which holds its lease (the ``owner`` named); a lease lapses when its instance
    stops renewing its heartbeat, and another instance may then take the room over. It
    also keeps the per-address limits and the total of rooms across the instances."""

    owner: str | None

    @abstractmethod
    def heartbeat(self, seconds: float) -> tuple[set[str], set[str]]:
        """This instance is alive for ``seconds`` more; returns the codes of the rooms whose
        leases it holds, and those of them another instance asked for."""

    @abstractmethod
    def acquire(self, code: str, ask: bool = True) -> str:
        """Take ``code``'s lease if it is free, lapsed or ours: ``mine``; ``held`` by a live
        instance (which, if ``ask``, is asked to hand it over); ``gone`` (no such room, or it
        is over)."""

    @abstractmethod
    def release(self, codes: list[str]) -> None:
        """Give these rooms' leases up (the instance is stopping, or was asked)."""

    @abstractmethod
    def admit(
        self, code: str, client: str | None, held: int | None, total: int | None, rate: tuple[float, float] | None
    ) -> Refusal | None:
        """A new room ``code`` by ``client`` (None: a rematch): within its create ``rate``
        (per second, at once), the rooms it holds below ``held`` and all the instances' rooms
        below ``total`` (None: not counted), its lease is taken here, noting its creator;
        else nothing is, and the refusal is returned. Creations on every instance are
        admitted one after another, so no limit is passed by two at once."""

    @abstractmethod
    def take(self, kind: str, client: str, rate: float, burst: float) -> int:
        """Take a token from ``client``'s bucket of ``kind``, shared by the instances
        (``burst`` at once, ``rate`` a second after that): 0, or the seconds to wait."""

    @abstractmethod
    def connect(self, client: str, limit: int) -> bool:
        """Count a WebSocket of ``client`` here, unless it holds ``limit`` already on the
        live instances (False then)."""

    @abstractmethod
    def disconnect(self, client: str) -> None:
        """One WebSocket of ``client`` here closed."""

    @abstractmethod
    def reset(self) -> None:
        """This instance starts: the WebSockets it counted before it (re)started are gone."""

    @abstractmethod
    def prune(self, seconds: float) -> None:
        """Forget the buckets untouched for ``seconds`` (full again), and the WebSockets
        counted by instances no longer alive."""

    @abstractmethod
    def listen(self, told: Callable[[str, str | None, str], object]) -> None:
        """Be told, on a thread of the store's, when an instance asks for a room
        (``told("want", owner, code)``) and when a room's lease is let go (``told("free",
        None, code)``), until the store closes; returns once listening."""

    @abstractmethod
    def orphans(self, limit: int) -> list[str]:
        """Up to ``limit`` games in play whose host's leases lapsed (it died)."""


class SQLiteStore(Store):
    """The embedded store: one SQLite file in WAL mode, one transaction per change.

    WAL with ``synchronous=NORMAL`` keeps every committed move through a killed process;
    the connection is shared by the server's threads under a lock. A write that waits
    more than ``busy_timeout`` seconds for another process's lock fails (and is undone).
    """

    def __init__(self, path: str | Path, *, busy_timeout: float = 5.0) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._batching: int | None = None
        """The thread whose batch holds the transaction open (its calls are savepoints in it)."""
        self._db: Any = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None, timeout=busy_timeout)
        """The connection (``Any``: a test may wrap it to inject faults)."""
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        with _Transaction(self._db, self._lock) as db:
            migrate(db, SQLITE_MIGRATIONS, _sqlite_version(db))

    def _transaction(self) -> _Transaction | _Savepoint:
        """One call's statements: a transaction, or a savepoint in the batch this thread holds."""
        if self._batching == threading.get_ident():
            return _Savepoint(self._db)
        return _Transaction(self._db, self._lock)

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        with _Transaction(self._db, self._lock):
            self._batching = threading.get_ident()
            try:
                yield
            finally:
                self._batching = None

    def probe(self) -> None:
        """Take the write lock and let it go: raises if the database is locked or broken."""
        with self._transaction():
            pass

    def save_room(self, room: StoredRoom) -> None:
        with self._transaction() as db:
            db.execute(
                "INSERT INTO rooms (code, setup, seats, status) VALUES (?, ?, ?, ?)"
                " ON CONFLICT(code) DO UPDATE SET setup = excluded.setup, seats = excluded.seats,"
                " status = excluded.status",
                (room.code, _dumps(room.setup), _dumps(room.seats), room.status),
            )

    def start_game(self, code: str, seats: list[dict[str, Any]], seed: bytes, first_round: dict[str, Any]) -> None:
        with self._transaction() as db:
            db.execute(
                "UPDATE rooms SET seats = ?, seed = ?, status = 'playing' WHERE code = ?", (_dumps(seats), seed, code)
            )
            _insert_round(db, code, 0, first_round)

    def add_round(self, code: str, index: int, deal: dict[str, Any], snapshot: dict[str, Any]) -> None:
        with self._transaction() as db:
            _insert_round(db, code, index, deal, snapshot)

    def append(self, code: str, index: int, entries: list[dict[str, Any]], result: dict[str, Any] | None) -> None:
        with self._transaction() as db:
            db.executemany(
                "INSERT INTO events (code, round, entry) VALUES (?, ?, ?)",
                [(code, index, _dumps(entry)) for entry in entries],
            )
            if result is not None:
                db.execute("UPDATE rounds SET result = ? WHERE code = ? AND idx = ?", (_dumps(result), code, index))

    def finish(self, code: str, record: dict[str, Any]) -> None:
        with self._transaction() as db:
            db.execute("UPDATE rooms SET status = 'over', record = ? WHERE code = ?", (_dumps(record), code))

    def forget(self, code: str) -> None:
        with self._transaction() as db:
            db.execute("DELETE FROM rooms WHERE code = ? AND status = 'lobby'", (code,))

    def load(self, code: str | None = None) -> list[StoredRoom]:
        with self._transaction() as db:
            return load_rooms(db, "?", "rowid", code)

    def rounds(self, code: str, start: int, stop: int) -> list[dict[str, Any]]:
        with self._transaction() as db:
            rounds = [
                _round(deal, result)
                for deal, result in db.execute(
                    "SELECT deal, result FROM rounds WHERE code = ? AND idx >= ? AND idx < ? ORDER BY idx",
                    (code, start, stop),
                )
            ]
            for index, event in db.execute(
                "SELECT round, entry FROM events WHERE code = ? AND round >= ? AND round < ? ORDER BY id",
                (code, start, stop),
            ):
                rounds[index - start]["events"].append(json.loads(event))
        return rounds

    def finished_record(self, code: str) -> dict[str, Any] | None:
        with self._transaction() as db:
            row = db.execute("SELECT record FROM rooms WHERE code = ? AND status = 'over'", (code,)).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def close(self) -> None:
        with self._lock:
            self._db.close()


class StoreWriter:
    """The store as the event loop uses it: every call runs on one thread of its own, in the
    order made, and is awaited, so a slow or locked disk never holds up the loop (nor any
    other room than the one waiting). A call that fails raises ``store.unavailable``.

    The calls waiting when the thread comes to them are made in one batch
    (:meth:`Store.batch`: one transaction, each call in a savepoint of its own), so a busy
    server pays one commit, and one wake-up of the loop, for many moves; each call still
    succeeds or fails alone, and none is answered before its batch is committed."""

    BATCH = 256
    """The most calls in one batch."""

    def __init__(self, store: Store, observe: Callable[[float], None] | None = None) -> None:
        self.store = store
        self.observe = observe
        """Told each call's seconds (the metrics' histogram)."""
        self.moves = 0
        """Moves stored (counted by the rooms)."""
        self.calls = 0
        self.failures = 0
        self.failing = False
        """Whether the last call failed."""
        self.seconds = 0.0
        """Total seconds the calls took, queueing included (for the metrics)."""
        self.pending = 0
        self._queue: queue.SimpleQueue[_Call | None] = queue.SimpleQueue()
        self._closed = False
        self._thread = threading.Thread(target=self._work, name="unomas-store", daemon=True)
        self._thread.start()

    async def __call__(self, method: Callable[..., T], *args: Any) -> T:
        """``method(*args)`` (one of the store's) on the store's thread."""
        started = time.perf_counter()
        self.pending += 1
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[T] = loop.create_future()
        if self._closed:  # (shutting down: no thread will answer)
            answer.set_exception(RuntimeError("the store is closed"))
        else:
            self._queue.put(_Call(partial(method, *args), answer, loop))
        try:
            result = await answer
        except Exception as error:
            self.failures += 1
            self.failing = True
            log.warning("store: %s failed: %s", getattr(method, "__name__", method), error)
            raise Refusal("store.unavailable") from error
        else:
            self.failing = False
            return result
        finally:
            self.pending -= 1
            self.calls += 1
            seconds = time.perf_counter() - started
            self.seconds += seconds
            if self.observe is not None:
                self.observe(seconds)

    def _work(self) -> None:
        """The store's thread: make the calls waiting, in batches, until told to stop."""
        while True:
            first = self._queue.get()
            if first is None:
                return
            calls = [first]
            stopping = False
            while len(calls) < self.BATCH:
                try:
                    waiting = self._queue.get_nowait()
                except queue.Empty:
                    break
                if waiting is None:
                    stopping = True
                    break
                calls.append(waiting)
            self._settle(calls, self._made(calls))
            if stopping:
                return

    def _made(self, calls: list[_Call]) -> list[tuple[bool, Any]]:
        """Each call's outcome, (True, result) or (False, error), once its batch is over."""
        outcomes: list[tuple[bool, Any]] = []
        try:
            with self.store.batch():
                for call in calls:
                    try:
                        outcomes.append((True, call.make()))
                    except _BatchLost:
                        raise
                    except Exception as error:  # this call alone is undone
                        outcomes.append((False, error))
        except Exception as error:  # the batch could not begin or be committed: none of it is stored
            return [(False, error)] * len(calls)
        return outcomes

    @staticmethod
    def _settle(calls: list[_Call], outcomes: list[tuple[bool, Any]]) -> None:
        """Hand each outcome to its caller, on the caller's loop (one wake-up for them all)."""
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], bool, Any]]] = {}
        for call, (made, value) in zip(calls, outcomes, strict=True):
            by_loop.setdefault(call.loop, []).append((call.answer, made, value))
        for loop, answers in by_loop.items():
            with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits any more
                loop.call_soon_threadsafe(_answer, answers)

    def close(self) -> None:
        """Finish the calls under way, then release the store."""
        self._closed = True
        self._queue.put(None)
        self._thread.join()
        self.store.close()


@dataclass(slots=True)
class _Call:
    """A store call waiting for the store's thread, and where to answer it."""

    make: Callable[[], Any]
    answer: asyncio.Future[Any]
    loop: asyncio.AbstractEventLoop


def _answer(answers: list[tuple[asyncio.Future[Any], bool, Any]]) -> None:
    """On the loop: each waiting caller gets its result or its error (unless it gave up)."""
    for future, made, value in answers:
        if future.done():
            continue
        if made:
            future.set_result(value)
        else:
            future.set_exception(value)


class _Savepoint:
    """``with``, inside a batch: the statements of one call, undone alone if it fails."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> sqlite3.Connection:
        self._db.execute("SAVEPOINT call")
        return self._db

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        if kind is not None:
            if not self._db.in_transaction:  # SQLite undid the whole transaction (a full or broken disk)
                raise _BatchLost("the batch's transaction was undone")
            self._db.execute("ROLLBACK TO call")
        self._db.execute("RELEASE call")


class _BatchLost(Exception):
    """A call's failure undid its whole batch: every call of it fails."""


class _Transaction:
    """``with``: hold the lock and run the statements in one transaction (rolled back on error)."""

    def __init__(self, db: sqlite3.Connection, lock: threading.Lock) -> None:
        self._db = db
        self._lock = lock

    def __enter__(self) -> sqlite3.Connection:
        self._lock.acquire()
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except BaseException:  # the database is busy or broken: nothing was begun
            self._lock.release()
            raise
        return self._db

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        try:
            if kind is None:
                try:
                    self._db.execute("COMMIT")
                except BaseException:  # not committed: undo it all, so the next write starts clean
                    _rollback(self._db)
                    raise
            else:
                _rollback(self._db)
        finally:
            self._lock.release()


def _rollback(db: sqlite3.Connection) -> None:
    """End the transaction in progress, if one still is."""
    if db.in_transaction:
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")


def _insert_round(
    db: sqlite3.Connection, code: str, index: int, deal: dict[str, Any], snapshot: dict[str, Any] | None = None
) -> None:
    """A round's deal (and the snapshot before it); the chance events that come with it
    (returns) go to the events."""
    header = {key: deal[key] for key in ("dealer", "hands", "pile")} | {"events": []}
    db.execute(
        "INSERT INTO rounds (code, idx, deal, snapshot) VALUES (?, ?, ?, ?)",
        (code, index, _dumps(header), None if snapshot is None else _dumps(snapshot)),
    )
    db.executemany(
        "INSERT INTO events (code, round, entry) VALUES (?, ?, ?)", [(code, index, _dumps(e)) for e in deal["events"]]
    )


def _round(deal: str, result: str | None) -> dict[str, Any]:
    """A stored round as the record has it: dealer, hands, pile, events (to fill), result."""
    entry: dict[str, Any] = json.loads(deal)
    if result is not None:
        entry["result"] = json.loads(result)
    return entry


def load_rooms(db: Any, mark: str, order: str, code: str | None) -> list[StoredRoom]:
    """The rooms not over (or the one by ``code``), in the order of the column ``order``,
    from a DB-API connection whose parameters are written ``mark`` (SQLite's ``?``,
    PostgreSQL's ``%s``): what both stores' :meth:`Store.load` do, in the caller's transaction."""
    only, args = ("", ()) if code is None else (f" AND rooms.code = {mark}", (code,))
    rooms = {
        code: StoredRoom(code, json.loads(setup), json.loads(seats), status, None if seed is None else bytes(seed))
        for code, setup, seats, status, seed in db.execute(
            f"SELECT code, setup, seats, status, seed FROM rooms WHERE status != 'over'{only} ORDER BY {order}", args
        ).fetchall()
    }
    for code, index, snapshot in db.execute(
        "SELECT code, idx, snapshot FROM rounds JOIN rooms USING (code)"
        f" WHERE status != 'over'{only} AND idx = ({_LAST_SNAPSHOT})",
        args,
    ).fetchall():
        rooms[code].first_round, rooms[code].snapshot = index, json.loads(snapshot)
    for code, deal, result in db.execute(
        "SELECT code, deal, result FROM rounds JOIN rooms USING (code)"
        f" WHERE status != 'over'{only} AND idx >= COALESCE(({_LAST_SNAPSHOT}), 0) ORDER BY code, idx",
        args,
    ).fetchall():
        rooms[code].rounds.append(_round(deal, result))
    for code, index, event in db.execute(
        f"SELECT code, round, entry FROM events JOIN rooms USING (code) WHERE status != 'over'{only}"
        f" AND round >= COALESCE(({_LAST_SNAPSHOT.replace('rounds.code', 'events.code')}), 0)"
        " ORDER BY events.id",
        args,
    ).fetchall():
        stored = rooms[code]
        stored.rounds[index - stored.first_round]["events"].append(json.loads(event))
    return list(rooms.values())


def migrate(db: Any, migrations: list[list[str]], version: int) -> None:
    """Bring a database at schema ``version`` to the last one, in the caller's transaction:
    the statements of each migration after ``version`` (``migrations[0]`` makes version 1),
    then the version noted in ``schema_version``. A newer server so upgrades an older
    database when it opens it; an older server never meets a newer one's (see below)."""
    db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    if version > len(migrations):
        raise RuntimeError(f"the database's schema ({version}) is newer than this server's ({len(migrations)})")
    for statements in migrations[version:]:
        for statement in statements:
            db.execute(statement)
    if version < len(migrations):
        db.execute("DELETE FROM schema_version")
        db.execute(f"INSERT INTO schema_version (version) VALUES ({len(migrations)})")


def _sqlite_version(db: sqlite3.Connection) -> int:
    """The schema version of a SQLite database: noted, or (before it was) read off its tables."""
    tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "schema_version" in tables:
        row = db.execute("SELECT version FROM schema_version").fetchone()
        if row is not None:
            return int(row[0])
    if "rooms" not in tables:
        return 0
    columns = {row[1] for row in db.execute("PRAGMA table_info(rounds)")}
    return 2 if "snapshot" in columns else 1  # a database from before snapshots, or from before versions


_LAST_SNAPSHOT = "SELECT MAX(idx) FROM rounds AS later WHERE later.code = rounds.code AND later.snapshot IS NOT NULL"
"""The index of a room's last round stored with a snapshot (NULL if none is)."""


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


SQLITE_MIGRATIONS: list[list[str]] = [
    [  # 1: rooms, their rounds and their moves
        "CREATE TABLE IF NOT EXISTS rooms (code TEXT PRIMARY KEY, setup TEXT NOT NULL, seats TEXT NOT NULL,"
        " status TEXT NOT NULL, seed BLOB, record TEXT)",
        "CREATE TABLE IF NOT EXISTS rounds (code TEXT NOT NULL REFERENCES rooms(code), idx INTEGER NOT NULL,"
        " deal TEXT NOT NULL, result TEXT, PRIMARY KEY (code, idx))",
        "CREATE TABLE IF NOT EXISTS events (id INTEGER PRIMARY KEY, code TEXT NOT NULL, round INTEGER NOT NULL,"
        " entry TEXT NOT NULL, FOREIGN KEY (code, round) REFERENCES rounds(code, idx))",
        "CREATE INDEX IF NOT EXISTS events_by_round ON events (code, round)",
    ],
    ["ALTER TABLE rounds ADD COLUMN snapshot TEXT"],  # 2: each round's snapshot of the match before it
]
"""The SQLite schema, migration by migration (only ever appended to)."""
