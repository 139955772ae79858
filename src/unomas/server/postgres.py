"""The PostgreSQL store (the ``postgres`` extra): the store of several ``unomas serve``
instances at once, and the leases that give each room to one of them at a time.

It keeps what :class:`~unomas.server.storage.SQLiteStore` keeps, in the same tables, and
answers the same contract: each call is one transaction (a savepoint inside a batch), so a
move is committed before anyone is told of it. It runs on the store's thread like the
SQLite one, through psycopg 3's synchronous API; psycopg is the maintained driver that
offers both that and an asyncio one, where asyncpg has no synchronous API at all.

Leases (:class:`~unomas.server.storage.Leases`): a room not over has a row in ``leases``
naming the instance hosting it; each instance renews one row of its own in ``instances``
(its heartbeat), so renewing costs one statement however many rooms it hosts. A lease
whose instance has not renewed within its time may be taken by another instance, which
rebuilds the room from the store. Every write about a room checks, in its transaction,
that this instance still holds the room's lease (a paused instance whose rooms were taken
over cannot write into them). An instance asked for a room, and one waiting for a room
let go, are told at once by PostgreSQL's ``NOTIFY`` (:meth:`PostgresStore.listen`).

Limits across the instances: each room not over notes the client address that created it;
the rates of creating rooms and of looking them up are token buckets kept in ``buckets``
(one ``UPSERT`` a check); the WebSockets of each client are counted in ``connections``, one
row per instance and client, counted only while their instance's heartbeat lives; the total
of rooms is the count of leases held by live instances. A create checks all of that, and
takes its room's lease, in one transaction (:meth:`PostgresStore.admit`). These checks run
on a second connection, each in a transaction of its own, outside the batches of moves.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import threading
from collections.abc import Callable, Iterator
from typing import Any

import psycopg

from unomas.errors import Refusal
from unomas.server.storage import Leases, Store, StoredRoom, _dumps, _round, load_rooms, migrate

__all__ = ["CHANNEL", "POSTGRES_MIGRATIONS", "LeaseLost", "PostgresStore"]

log = logging.getLogger("unomas.server")

CHANNEL = "unomas_leases"
"""The ``NOTIFY`` channel of the leases: ``want OWNER CODE`` (an instance asks OWNER for
the room), ``free CODE`` (a room's lease was let go)."""

ADMIT_LOCK = 7264
"""The advisory lock that makes the rooms' creations, on every instance, one after another
(each counts the rooms held and takes its lease under it)."""


class LeaseLost(Exception):
    """A write about a room whose lease another instance holds now: nothing was written."""


class PostgresStore(Store, Leases):
    """The store in a PostgreSQL database (``postgresql://`` DSN); ``owner`` names this
    instance in the leases (None: one instance alone, no leases checked)."""

    def __init__(self, dsn: str, *, owner: str | None = None) -> None:
        self.owner = owner
        self._listener: threading.Thread | None = None
        self._listening = threading.Event()
        self._heard = threading.Event()
        """Set once the listener listens (no notice sent from then on is missed)."""
        self._dsn = dsn
        self._lock = threading.RLock()
        self._db = psycopg.connect(dsn, autocommit=True)
        self._side = psycopg.connect(dsn, autocommit=True)
        with self._db.transaction():
            # Two instances starting at once: one migrates, the other waits and finds it done.
            self._db.execute("SELECT pg_advisory_xact_lock(7263)")
            exists = self._db.execute("SELECT to_regclass('schema_version') IS NOT NULL").fetchone()
            row = self._db.execute("SELECT version FROM schema_version").fetchone() if exists and exists[0] else None
            migrate(self._db, POSTGRES_MIGRATIONS, 0 if row is None else int(row[0]))

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[psycopg.Connection[Any]]:
        """One call's statements in a transaction (a savepoint inside a batch)."""
        with self._lock, self._db.transaction():
            yield self._db

    @contextlib.contextmanager
    def _alone(self) -> Iterator[psycopg.Connection[Any]]:
        """A limit's statements in a transaction of their own, on a second connection, never
        in a batch: the locks they take (the admission's, a bucket's row) are held only for
        them, so no batch holding a lease's row can wait on them while they wait on it."""
        with self._lock, self._side.transaction():
            yield self._side

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        with self._transaction():
            yield

    def _fence(self, db: psycopg.Connection[Any], code: str) -> None:
        """Raise :class:`LeaseLost` unless this instance holds ``code``'s lease (kept
        held until the transaction ends: a takeover waits for the write)."""
        if self.owner is None:
            return
        row = db.execute("SELECT owner FROM leases WHERE code = %s FOR SHARE", (code,)).fetchone()
        if row is None or row[0] != self.owner:
            raise LeaseLost(f"room {code} is hosted by {None if row is None else row[0]}")

    def probe(self) -> None:
        with self._transaction() as db:
            db.execute("SELECT 1")

    def save_room(self, room: StoredRoom) -> None:
        with self._transaction() as db:
            if self.owner is not None:  # a new room is hosted where it is made
                db.execute(
                    "INSERT INTO leases (code, owner) VALUES (%s, %s) ON CONFLICT (code) DO NOTHING",
                    (room.code, self.owner),
                )
            self._fence(db, room.code)
            db.execute(  # (its creator, noted in its lease by admit, stays with the room)
                "INSERT INTO rooms (code, setup, seats, status, creator) VALUES"
                " (%s, %s, %s, %s, (SELECT creator FROM leases WHERE code = %s))"
                " ON CONFLICT (code) DO UPDATE SET setup = excluded.setup, seats = excluded.seats,"
                " status = excluded.status",
                (room.code, _dumps(room.setup), _dumps(room.seats), room.status, room.code),
            )

    def start_game(self, code: str, seats: list[dict[str, Any]], seed: bytes, first_round: dict[str, Any]) -> None:
        with self._transaction() as db:
            self._fence(db, code)
            db.execute(
                "UPDATE rooms SET seats = %s, seed = %s, status = 'playing' WHERE code = %s",
                (_dumps(seats), seed, code),
            )
            _insert_round(db, code, 0, first_round)

    def add_round(self, code: str, index: int, deal: dict[str, Any], snapshot: dict[str, Any]) -> None:
        with self._transaction() as db:
            self._fence(db, code)
            _insert_round(db, code, index, deal, snapshot)

    def append(self, code: str, index: int, entries: list[dict[str, Any]], result: dict[str, Any] | None) -> None:
        with self._transaction() as db:
            self._fence(db, code)
            with db.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO events (code, round, entry) VALUES (%s, %s, %s)",
                    [(code, index, _dumps(entry)) for entry in entries],
                )
            if result is not None:
                db.execute("UPDATE rounds SET result = %s WHERE code = %s AND idx = %s", (_dumps(result), code, index))

    def finish(self, code: str, record: dict[str, Any]) -> None:
        with self._transaction() as db:
            self._fence(db, code)
            db.execute("UPDATE rooms SET status = 'over', record = %s WHERE code = %s", (_dumps(record), code))
            db.execute("DELETE FROM leases WHERE code = %s", (code,))

    def forget(self, code: str) -> None:
        with self._transaction() as db:
            db.execute("DELETE FROM rooms WHERE code = %s AND status = 'lobby'", (code,))
            db.execute("DELETE FROM leases WHERE code = %s AND owner IS NOT DISTINCT FROM %s", (code, self.owner))

    def load(self, code: str | None = None) -> list[StoredRoom]:
        with self._transaction() as db:
            return load_rooms(db, "%s", "made", code)

    def rounds(self, code: str, start: int, stop: int) -> list[dict[str, Any]]:
        with self._transaction() as db:
            rounds = [
                _round(deal, result)
                for deal, result in db.execute(
                    "SELECT deal, result FROM rounds WHERE code = %s AND idx >= %s AND idx < %s ORDER BY idx",
                    (code, start, stop),
                ).fetchall()
            ]
            for index, event in db.execute(
                "SELECT round, entry FROM events WHERE code = %s AND round >= %s AND round < %s ORDER BY id",
                (code, start, stop),
            ).fetchall():
                rounds[index - start]["events"].append(json.loads(event))
        return rounds

    def finished_record(self, code: str) -> dict[str, Any] | None:
        with self._transaction() as db:
            row = db.execute("SELECT record FROM rooms WHERE code = %s AND status = 'over'", (code,)).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def close(self) -> None:
        self._listening.clear()
        if self._listener is not None:
            self._listener.join()
        with self._lock:
            self._db.close()
            self._side.close()

    # ------------------------------------------------------------------ leases

    def heartbeat(self, seconds: float) -> tuple[set[str], set[str]]:
        with self._transaction() as db:
            db.execute(
                "INSERT INTO instances (owner, until) VALUES (%s, now() + make_interval(secs => %s))"
                " ON CONFLICT (owner) DO UPDATE SET until = excluded.until",
                (self.owner, seconds),
            )
            rows = db.execute("SELECT code, wanted FROM leases WHERE owner = %s", (self.owner,)).fetchall()
        return {code for code, _ in rows}, {code for code, wanted in rows if wanted}

    def acquire(self, code: str, ask: bool = True) -> str:
        with self._transaction() as db:
            row = db.execute("SELECT status FROM rooms WHERE code = %s", (code,)).fetchone()
            if row is None or row[0] == "over":
                return "gone"
            taken = db.execute(
                "INSERT INTO leases (code, owner) VALUES (%s, %s) ON CONFLICT (code) DO UPDATE"
                " SET owner = excluded.owner, wanted = false WHERE leases.owner = excluded.owner OR NOT EXISTS"
                " (SELECT 1 FROM instances WHERE instances.owner = leases.owner AND until > now())"
                " RETURNING owner",
                (code, self.owner),
            ).fetchone()
            if taken is not None:
                return "mine"
            if ask:  # its host is told at once (and sees ``wanted`` at its next beat if not)
                db.execute(
                    "SELECT pg_notify(%s, 'want ' || owner || ' ' || code) FROM leases WHERE code = %s",
                    (CHANNEL, code),
                )
                db.execute("UPDATE leases SET wanted = true WHERE code = %s", (code,))
            return "held"

    def release(self, codes: list[str]) -> None:
        with self._transaction() as db:
            db.execute(
                "SELECT pg_notify(%s, 'free ' || code) FROM leases WHERE owner = %s AND code = ANY(%s)",
                (CHANNEL, self.owner, codes),
            )
            db.execute("DELETE FROM leases WHERE owner = %s AND code = ANY(%s)", (self.owner, codes))

    def admit(
        self, code: str, client: str | None, held: int | None, total: int | None, rate: tuple[float, float] | None
    ) -> Refusal | None:
        with self._alone() as db:
            db.execute("SELECT pg_advisory_xact_lock(%s)", (ADMIT_LOCK,))
            if client is not None and rate is not None:
                wait = _take(db, "create", client, *rate)
                if wait:
                    return Refusal("client.limited", retry_after=wait)
            if client is not None and held is not None:
                row = db.execute(
                    "SELECT count(*) FROM (SELECT code FROM rooms WHERE creator = %s AND status != 'over'"
                    " UNION SELECT code FROM leases JOIN instances USING (owner) WHERE creator = %s AND until > now())"
                    " AS held",
                    (client, client),
                ).fetchone()
                if row is not None and row[0] >= held:
                    return Refusal("client.rooms_held", limit=held)
            if total is not None:
                live = "SELECT count(*) FROM leases JOIN instances USING (owner) WHERE until > now()"
                row = db.execute(live).fetchone()
                if row is not None and row[0] >= total:
                    return Refusal("room.capacity", limit=total)
            db.execute("INSERT INTO leases (code, owner, creator) VALUES (%s, %s, %s)", (code, self.owner, client))
        return None

    def take(self, kind: str, client: str, rate: float, burst: float) -> int:
        with self._alone() as db:
            return _take(db, kind, client, rate, burst)

    def connect(self, client: str, limit: int) -> bool:
        with self._alone() as db:
            db.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (client,))
            row = db.execute(
                "SELECT COALESCE(sum(n), 0) FROM connections JOIN instances USING (owner)"
                " WHERE client = %s AND until > now()",
                (client,),
            ).fetchone()
            if row is not None and row[0] >= limit:
                return False
            db.execute(
                "INSERT INTO connections (owner, client, n) VALUES (%s, %s, 1)"
                " ON CONFLICT (owner, client) DO UPDATE SET n = connections.n + 1",
                (self.owner, client),
            )
        return True

    def disconnect(self, client: str) -> None:
        with self._alone() as db:
            db.execute("UPDATE connections SET n = n - 1 WHERE owner = %s AND client = %s", (self.owner, client))
            db.execute("DELETE FROM connections WHERE owner = %s AND client = %s AND n <= 0", (self.owner, client))

    def reset(self) -> None:
        with self._alone() as db:
            db.execute("DELETE FROM connections WHERE owner = %s", (self.owner,))

    def prune(self, seconds: float) -> None:
        with self._alone() as db:
            db.execute("DELETE FROM buckets WHERE at < clock_timestamp() - make_interval(secs => %s)", (seconds,))
            db.execute(  # (the WebSockets of instances gone for good count no more already)
                "DELETE FROM connections WHERE NOT EXISTS"
                " (SELECT 1 FROM instances WHERE instances.owner = connections.owner AND until > now())"
            )

    def listen(self, told: Callable[[str, str | None, str], object]) -> None:
        self._listening.set()
        self._listener = threading.Thread(target=self._listen, args=(told,), name="unomas-listen", daemon=True)
        self._listener.start()
        self._heard.wait(5)

    def _listen(self, told: Callable[[str, str | None, str], object]) -> None:
        """The listener's thread: its own connection, ``LISTEN`` on :data:`CHANNEL`, each
        notice handed to ``told`` (``want``, the owner asked, the code; ``free``, None, the
        code), until the store closes; a lost connection is made again a second later."""
        while self._listening.is_set():
            try:
                with psycopg.connect(self._dsn, autocommit=True, application_name="unomas-listen") as db:
                    db.execute(f"LISTEN {CHANNEL}")
                    self._heard.set()
                    while self._listening.is_set():
                        for notice in db.notifies(timeout=0.25):
                            kind, *rest = notice.payload.split(" ")
                            told(kind, rest[0] if kind == "want" else None, rest[-1])
            except psycopg.Error as error:
                log.warning("store: listening for the leases failed: %s", error)
                self._listening.wait(1.0)

    def orphans(self, limit: int) -> list[str]:
        with self._transaction() as db:
            rows = db.execute(
                "SELECT code FROM leases JOIN rooms USING (code) WHERE status = 'playing' AND NOT EXISTS"
                " (SELECT 1 FROM instances WHERE instances.owner = leases.owner AND until > now())"
                " ORDER BY code LIMIT %s",
                (limit,),
            ).fetchall()
        return [code for (code,) in rows]


def _take(db: psycopg.Connection[Any], kind: str, client: str, rate: float, burst: float) -> int:
    """Take a token from ``client``'s bucket of ``kind`` (``burst`` at once, ``rate`` a
    second after that): 0, or the whole seconds until a token is there (nothing taken).
    One statement when a token is there, the bucket's refill reckoned in it."""
    refill = "LEAST(%(burst)s, buckets.tokens + extract(epoch FROM clock_timestamp() - buckets.at) * %(rate)s)"
    given = {"kind": kind, "client": client, "rate": rate, "burst": float(burst)}
    taken = db.execute(
        "INSERT INTO buckets (kind, client, tokens, at) VALUES (%(kind)s, %(client)s, %(burst)s - 1, clock_timestamp())"
        f" ON CONFLICT (kind, client) DO UPDATE SET tokens = {refill} - 1, at = clock_timestamp()"
        f" WHERE {refill} >= 1 RETURNING tokens",
        given,
    ).fetchone()
    if taken is not None:
        return 0
    row = db.execute(f"SELECT {refill} FROM buckets WHERE kind = %(kind)s AND client = %(client)s", given).fetchone()
    tokens = 0.0 if row is None else float(row[0])
    return max(1, math.ceil((1 - tokens) / rate))


def _insert_round(
    db: psycopg.Connection[Any], code: str, index: int, deal: dict[str, Any], snapshot: dict[str, Any] | None = None
) -> None:
    """A round's deal (and the snapshot before it); its chance events go to the events."""
    header = {key: deal[key] for key in ("dealer", "hands", "pile")} | {"events": []}
    db.execute(
        "INSERT INTO rounds (code, idx, deal, snapshot) VALUES (%s, %s, %s, %s)",
        (code, index, _dumps(header), None if snapshot is None else _dumps(snapshot)),
    )
    if deal["events"]:
        with db.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO events (code, round, entry) VALUES (%s, %s, %s)",
                [(code, index, _dumps(event)) for event in deal["events"]],
            )


POSTGRES_MIGRATIONS: list[list[str]] = [
    [  # 1: rooms, their rounds and their moves (JSON kept as text: the record byte for byte)
        "CREATE TABLE rooms (code TEXT PRIMARY KEY, setup TEXT NOT NULL, seats TEXT NOT NULL,"
        " status TEXT NOT NULL, seed BYTEA, record TEXT, made BIGSERIAL)",
        "CREATE TABLE rounds (code TEXT NOT NULL REFERENCES rooms(code) ON DELETE CASCADE, idx INTEGER NOT NULL,"
        " deal TEXT NOT NULL, result TEXT, PRIMARY KEY (code, idx))",
        "CREATE TABLE events (id BIGSERIAL PRIMARY KEY, code TEXT NOT NULL, round INTEGER NOT NULL,"
        " entry TEXT NOT NULL, FOREIGN KEY (code, round) REFERENCES rounds(code, idx) ON DELETE CASCADE)",
        "CREATE INDEX events_by_round ON events (code, round)",
    ],
    ["ALTER TABLE rounds ADD COLUMN snapshot TEXT"],  # 2: each round's snapshot of the match before it
    [  # 3: the instances' heartbeats and the rooms' leases
        "CREATE TABLE instances (owner TEXT PRIMARY KEY, until TIMESTAMPTZ NOT NULL)",
        "CREATE TABLE leases (code TEXT PRIMARY KEY, owner TEXT NOT NULL, wanted BOOLEAN NOT NULL DEFAULT false)",
        "CREATE INDEX leases_by_owner ON leases (owner)",
    ],
    [  # 4: who created each room, for the limit of rooms one client holds across the instances
        "ALTER TABLE rooms ADD COLUMN creator TEXT",
        "CREATE INDEX rooms_by_creator ON rooms (creator) WHERE status != 'over'",
    ],
    [  # 5: the limits across the instances: rate buckets, WebSockets, each new room's creator in its lease
        "CREATE TABLE buckets (kind TEXT NOT NULL, client TEXT NOT NULL, tokens DOUBLE PRECISION NOT NULL,"
        " at TIMESTAMPTZ NOT NULL, PRIMARY KEY (kind, client))",
        "CREATE TABLE connections (owner TEXT NOT NULL, client TEXT NOT NULL, n INTEGER NOT NULL,"
        " PRIMARY KEY (owner, client))",
        "CREATE INDEX connections_by_client ON connections (client)",
        "ALTER TABLE leases ADD COLUMN creator TEXT",
        "CREATE INDEX leases_by_creator ON leases (creator) WHERE creator IS NOT NULL",
    ],
]
"""The PostgreSQL schema, migration by migration (only ever appended to)."""
