"""Rooms: the lobby, the seats and their tokens, the connections, and the match's messages.

A :class:`Room` seats people, programs and bots, then plays its match on a
:class:`~unomas.live.host.Host`, the one host of every live table: the host drives the
bots, paces them, gives every seat that is not a bot its reaction window, runs the turn
timer, stores each change (in the server's store, :class:`RoomStore`) and only then tells
the room (its :class:`~unomas.live.ports.Outbox`), which sends each connection its seat's
events, their narration in its language and its view. Every seat has a bot behind it from
the start: the bots' seats it plays, and it stands by for each person until they are away
past the grace period.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, NoReturn

from unomas import events as ev
from unomas import fairness, record
from unomas.actions import Action
from unomas.bots import make_bot
from unomas.errors import IllegalAction, Refusal, StaleAction
from unomas.game import Game
from unomas.i18n import narrate
from unomas.live.host import WINDOW, Host, Pacing, Story
from unomas.live.ports import Told
from unomas.rules import Rules
from unomas.server.names import clean_name, name_key
from unomas.server.protocol import (
    REACTIONS,
    Move,
    Presence,
    Reaction,
    RematchMade,
    RoomSetup,
    TimedOut,
)
from unomas.server.storage import StoredRoom, StoreWriter

__all__ = [
    "ROOM_COST",
    "Connection",
    "Room",
    "RoomStore",
    "Settings",
    "bot_name",
    "hash_token",
    "memory_capacity",
    "new_code",
]

log = logging.getLogger("unomas.server")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Room codes avoid letters and digits that look alike (I/1, O/0)."""
CODE_LENGTH = 10

TAKEN_OVER = 4409
"""The WebSocket close code of a connection whose seat a newer one took over."""

REACTION_GAP = 1.0
"""Seconds a seat waits between two quick reactions (more are refused as ``rate.limited``)."""


@dataclass(frozen=True, slots=True)
class Settings:
    """How the server paces and forgives."""

    grace: float = 30.0
    """Seconds a player may stay away before a bot plays for them."""
    bot_delay: float = 0.8
    """Seconds a bot waits before acting, so people can follow (0 in tests and benchmarks)."""
    window: float = WINDOW
    """Seconds every seat that is not a bot gets to react before a bot acts, in a room whose
    setup does not say (0 in tests and benchmarks)."""
    round_pause: float = 3.0
    """Seconds between the end of a round and the next deal."""
    queue_limit: int = 1000
    """Messages waiting for one connection beyond which it is dropped as too slow."""
    keep_finished: float = 3600.0
    """Seconds a finished room stays open (its record is kept in the store for good)."""
    keep_empty_lobby: float = 600.0
    """Seconds a room not yet started stays open once no seated person is connected
    (spectators do not count); then it is forgotten."""
    keep_unattended_match: float = 300.0
    """Seconds a match in play goes on with no seated person or program connected (its bots
    and stand-ins play every seat); then it is ended, recorded with no winner (``abandoned``),
    so that rooms everyone left stop costing the server."""
    keep_unvisited_lobby: float = 60.0
    """Seconds a room not yet started stays open if no seated person ever connected to it
    (created and left, as a flood of creates does); then it is forgotten."""
    max_rooms: int | None = None
    """Rooms the server holds at once, all the instances together if several share a
    PostgreSQL database (None: as many as half the memory holds on each, see
    :func:`memory_capacity`); at the limit a new room takes the place of the lobby empty the
    longest (no seated person connected), or is refused (``room.capacity``)."""
    max_rooms_held: int = 8
    """Rooms one client address (IPv6: /64) may hold at once, until they are over or forgotten."""
    hello_timeout: float = 10.0
    """Seconds a new connection has to say hello; then it is closed."""
    max_watchers: int = 200
    """Spectators one room takes at once."""
    max_connections: int = 32
    """WebSocket connections one client address may hold at once, on all the live instances together."""
    max_sockets: int = 64
    """Sockets of any kind (HTTP, WebSocket, silent) one client address (IPv6: /64) may hold
    open at once; past it a new one is answered ``429`` and closed."""
    max_header_bytes: int = 16 * 1024
    """Bytes a request's head (request line and headers) may take: more is ``431``."""
    max_headers: int = 100
    """Header lines a request may send: more is ``431``."""
    header_timeout: float = 10.0
    """Seconds a connection has to send a request's whole head; then it is closed."""
    body_timeout: float = 10.0
    """Seconds a request has to send its whole body; then it is refused (``408``)."""
    idle_timeout: int = 5
    """Seconds a keep-alive connection may stay idle between two requests; then it is closed."""
    create_rate: tuple[float, float] = (0.2, 10.0)
    """Rooms one client address may create (per second, at once); this rate and the next hold
    for all the instances together when several share a PostgreSQL database."""
    lookup_rate: tuple[float, float] = (2.0, 30.0)
    """Room look-ups (info, join, connect) one client address may make: (per second, at once)."""
    refusal_delay: float = 1.0
    """Seconds a client over one of these rates waits for its refusal (``client.limited``)."""
    max_match_actions: int = 20_000
    """Actions after which a match still not over is ended (recorded, the seed revealed, and
    the players told why): no room plays for ever."""
    trusted_proxies: frozenset[str] = frozenset()
    """Addresses of reverse proxies whose ``X-Forwarded-For`` names the real client."""
    allowed_origins: frozenset[str] = frozenset()
    """Origins (``https://host``) besides the server's own whose pages may use it."""
    metrics_token: str | None = None
    """A secret ``GET /metrics`` must present (``Authorization: Bearer …``); None: public."""
    allowed_hosts: frozenset[str] = frozenset({"localhost"})
    """Names a request's ``Host`` may give (addresses are always served): others are refused,
    so that a page whose name was rebound to this server's address reaches nothing."""
    freeze_every: float = 1.0
    """Seconds between two freezes of what the garbage collector tracks (see
    :mod:`unomas.server.collector`): its passes walk only what is newer."""
    collect_every: float = 600.0
    """Seconds between two full collections, frozen objects included (one pause of the
    process, some hundreds of milliseconds with thousands of connections)."""
    lease_seconds: float = 3.0
    """Seconds a room's lease outlives its instance's last heartbeat (several instances on
    one PostgreSQL database): how long a dead instance's rooms wait to be taken over."""


ROOM_COST = 256 * 1024
"""Bytes one room in play costs the server, with its four WebSockets: about 200 KiB measured
(docs/scaling.md), rounded up for headroom."""


def memory_capacity(total: int | None = None) -> int:
    """How many rooms half of ``total`` bytes holds (None: the machine's memory, or the
    process's control group's limit if lower), so that a crowd creating rooms fills the
    room limit before it fills the memory."""
    if total is None:
        total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        with contextlib.suppress(OSError, ValueError):  # "max", or no cgroup v2 here
            total = min(total, int(Path("/sys/fs/cgroup/memory.max").read_text()))
    return max(1, total // 2 // ROOM_COST)


def new_code() -> str:
    """An unguessable room code: 50 random bits, too many to try in a room's lifetime."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def bot_name(seat: int) -> str:
    """The name of the bot in ``seat``: numbered as the page numbers seats, from 1."""
    return f"bot {seat + 1}"


RESERVED_NAMES = frozenset(name_key(bot_name(seat)) for seat in range(10))
"""Names a person may not take: the bots' (a bot may be seated later in any empty seat)."""


def hash_token(token: str) -> str:
    """What the store keeps of a seat's token: its SHA-256 (the token itself stays in the browser)."""
    return hashlib.sha256(token.encode()).hexdigest()


class Connection:
    """One WebSocket: its seat (None: a spectator) and the queue of messages to send.

    The room only ever puts messages in the queue, so a slow client never holds it up;
    one that falls ``queue_limit`` messages behind is closed.
    """

    def __init__(self, limit: int) -> None:
        self.seat: int | None = None
        self.lang = "en"
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.limit = limit
        self.dropped = False
        """Closing: it is sent nothing more, and what it sends is ignored."""
        self.told = True
        """Told the match so far (after its hello): it is sent every change from then on."""
        self.close_code = 1008
        self.close_reason = "too slow: too many messages waiting"

    def post(self, message: dict[str, Any]) -> None:
        """Queue a message; a connection too far behind gets a final None (close)."""
        if self.dropped:
            return
        if self.queue.qsize() >= self.limit:
            self.close()
            return
        self.queue.put_nowait(message)

    def close(self, code: int | None = None, reason: str = "", last: dict[str, Any] | None = None) -> None:
        """Close once the queue is sent (``last`` sent last), with this WebSocket close code."""
        if self.dropped:
            return
        if code is not None:
            self.close_code, self.close_reason = code, reason
        if last is not None:
            self.queue.put_nowait(last)
        self.dropped = True
        self.queue.put_nowait(None)


@dataclass(slots=True)
class Seat:
    """One seat: its player's name, the hash of its token (None for a bot), its bot spec."""

    name: str
    token: str | None = None
    bot: str | None = None
    connections: int = 0
    away: bool = False
    """Away past the grace period: a bot plays for them until they come back."""
    away_timer: asyncio.TimerHandle | None = field(default=None, repr=False)
    away_at: float | None = None
    """When (loop time) a bot starts playing for a person whose connection dropped."""
    program: bool = False
    """Taken by a program that joined (a bot of its own), not a person."""

    def stored(self) -> dict[str, Any]:
        return {"name": self.name, "token": self.token, "bot": self.bot, "program": self.program}


@dataclass(slots=True)
class RoomStore:
    """A room's match in the server's store (through its :class:`StoreWriter`), under the
    room's code: the :class:`~unomas.live.ports.MatchStore` of the room's host."""

    writer: StoreWriter
    code: str

    async def append(self, round: int, entries: list[dict[str, Any]], result: dict[str, Any] | None) -> None:
        await self.writer(self.writer.store.append, self.code, round, entries, result)
        self.writer.moves += 1

    async def add_round(self, round: int, deal: dict[str, Any], snapshot: dict[str, Any]) -> None:
        await self.writer(self.writer.store.add_round, self.code, round, deal, snapshot)

    async def rounds(self, start: int, stop: int) -> list[dict[str, Any]]:
        return await self.writer(self.writer.store.rounds, self.code, start, stop)

    async def finish(self, record: dict[str, Any]) -> None:
        await self.writer(self.writer.store.finish, self.code, record)


class Room:
    """One room: lobby, then a match played on a :class:`~unomas.live.host.Host`, then its record."""

    def __init__(self, code: str, setup: RoomSetup, store: StoreWriter, settings: Settings) -> None:
        self.code = code
        self.setup = setup
        self.rules: Rules = setup.game_rules()
        self.store = store
        self.settings = settings
        self.seats: list[Seat | None] = [None] * self.rules.players
        for seat in setup.bots:
            self.seats[seat] = Seat(bot_name(seat), bot=setup.bot)
        self.status = "lobby"
        self.host = 0
        """The seat that may start the match: the creator, or the next person once they leave the lobby."""
        self.host_gone = False
        """The host left the lobby with nobody else there: the next person to come is the host."""
        self.rematch: set[int] = set()
        """The seats whose players want a rematch (once the match is over)."""
        self.abandoned_match = False
        """The match was ended because everyone had left it (:meth:`end_if_deserted`)."""
        self.next_code: str | None = None
        """The rematch's room, once it is made."""
        self.on_rematch: Callable[[Room], Awaitable[str]] | None = None
        """Makes the rematch's room (the server's), returning its code."""
        self._reacted: dict[int, float] = {}
        """When (loop time) each seat last sent a reaction."""
        self.match: Host | None = None
        """The match's host, once it has started."""
        self.seed = b""
        self.record: dict[str, Any] | None = None
        self.connections: set[Connection] = set()
        self.watchers = 0
        """How many of the connections are spectators'."""
        self.on_over: Callable[[Room], None] | None = None
        self.on_vacated: Callable[[Room], None] | None = None
        """Told when the last seated person's connection leaves (the server's candidates for space)."""
        self.empty_since: float | None = asyncio.get_running_loop().time()
        """When the last seated person's connection left (loop time), None while one is
        connected (spectators do not count)."""
        self.visited = False
        """Whether a seated person has ever connected."""
        self._lock = asyncio.Lock()
        """Held while the seating changes (joining, starting, the rematch)."""

    @property
    def game(self) -> Game | None:
        """The match being played (None in the lobby)."""
        return None if self.match is None or self.match.conductor is None else self.match.game

    # ------------------------------------------------------------------ lobby

    @classmethod
    async def create(cls, setup: RoomSetup, store: StoreWriter, settings: Settings, code: str) -> tuple[Room, str]:
        """A new room with its host in seat 0; returns the room and the host's token (a
        room that cannot be stored is not made: ``store.unavailable``)."""
        setup.check_seats()
        room = cls(code, setup, store, settings)
        token = room._seat_player(0, room._new_name(setup.name))
        await store(store.store.save_room, room._stored_room())
        return room, token

    async def join(self, name: str, *, program: bool = False) -> tuple[int, str]:
        """Seat a new player in the first free seat (a program in a seat kept for programs
        first; a person never in one); returns the seat and its token."""
        async with self._lock:
            if self.status != "lobby":
                raise Refusal("room.started")
            kept = self.setup.programs
            free = [seat for seat, taken in enumerate(self.seats) if taken is None and (program or seat not in kept)]
            free.sort(key=lambda seat: seat not in kept)
            if not free:
                raise Refusal("room.full")
            token = self._seat_player(free[0], self._new_name(name), program=program)
            try:
                await self.store(self.store.store.save_room, self._stored_room())
            except Refusal:
                self.seats[free[0]] = None
                raise
        self._broadcast_room()
        return free[0], token

    def abandoned(self, now: float) -> bool:
        """Whether this is a lobby no seated person has been connected to for
        ``keep_empty_lobby`` (``keep_unvisited_lobby`` if none ever was)."""
        settings = self.settings
        keep = settings.keep_empty_lobby if self.visited else settings.keep_unvisited_lobby
        quiet = self.empty_since
        return self.status == "lobby" and quiet is not None and now - quiet >= keep

    def end_if_deserted(self, now: float) -> bool:
        """End the match in play if no seated person or program has been connected for
        ``keep_unattended_match`` seconds; whether it did."""
        quiet = self.empty_since
        deserted = quiet is not None and now - quiet >= self.settings.keep_unattended_match
        if self.status != "playing" or self.match is None or not deserted or self.abandoned_match:
            return False
        self.abandoned_match = True
        self.match.end()
        return True

    def unattended(self) -> bool:
        """Whether this is a lobby with no seated person connected (it may give way)."""
        return self.status == "lobby" and self.empty_since is not None

    @classmethod
    async def rematch_of(cls, old: Room, code: str) -> Room:
        """A new room for ``old``'s rematch: the same seats (names, tokens, bots), rules
        and host; its match started at once, with a new seed (and so a new commitment)."""
        room = cls(code, old.setup, old.store, old.settings)
        room.seats = [
            Seat(seat.name, token=seat.token, bot=seat.bot, program=seat.program) for seat in old._all_seats()
        ]
        room.host = old.host
        await room.store(room.store.store.save_room, room._stored_room())
        async with room._lock:
            await room._start()
        return room

    def _new_name(self, name: str) -> str:
        """``name`` made clean (:func:`~unomas.server.names.clean_name`), refused as
        ``name.taken`` if someone in the room (or a bot that may be seated) has it."""
        clean = clean_name(name)
        key = name_key(clean)
        if key in RESERVED_NAMES or any(seat is not None and name_key(seat.name) == key for seat in self.seats):
            raise Refusal("name.taken", name=clean)
        return clean

    def _seat_player(self, seat: int, name: str, *, program: bool = False) -> str:
        token = secrets.token_urlsafe(24)
        self.seats[seat] = Seat(name, token=hash_token(token), program=program)
        return token

    def seat_of(self, token: str) -> int | None:
        """The seat whose token this is, or None."""
        digest = hash_token(token)
        for number, seat in enumerate(self.seats):
            if seat is not None and seat.token is not None and secrets.compare_digest(seat.token, digest):
                return number
        return None

    async def start(self, seat: int | None) -> None:
        """The host starts the match; empty seats get bots, and the seating is fixed."""
        if seat != self.host:
            raise Refusal("room.not_host")
        async with self._lock:
            await self._start()

    async def _start(self) -> None:
        if self.status != "lobby":
            raise Refusal("room.started")
        lobby = list(self.seats)
        for number, taken in enumerate(self.seats):
            if taken is None:
                self.seats[number] = Seat(bot_name(number), bot=self.setup.bot)
        seed = fairness.new_seed()
        match = self._host(seed)
        game = match.begin()
        assert game.log is not None
        try:
            await self.store(
                self.store.store.start_game, self.code, self._stored_seats(), seed, record.round_json(game.log[0])
            )
        except Refusal:  # not stored, not started: the lobby as it was
            await match.close()
            self.seats = lobby
            raise
        self.match, self.seed = match, seed
        self.status = "playing"
        for number, player in enumerate(self._all_seats()):
            if player.bot is None and player.connections == 0:  # joined, then left: the grace period starts
                self._start_grace(number)
        self._broadcast_room()
        match.start({connection.seat for connection in self.connections})

    def _host(self, seed: bytes) -> Host:
        """The match's host: a bot behind every seat (the bots' seats it plays, the people's
        it stands by for until they are away past the grace period), the room as its outbox."""
        seats = self._all_seats()
        window = self.setup.window if self.setup.window is not None else self.settings.window
        pacing = Pacing(
            window=window,
            bot_delay=self.settings.bot_delay,
            round_pause=self.settings.round_pause,
            turn_seconds=self.setup.turn_seconds,
            max_actions=self.settings.max_match_actions,
        )
        return Host(
            self.rules,
            [partial(make_bot, seat.bot or self.setup.bot) for seat in seats],
            frozenset(number for number, seat in enumerate(seats) if seat.bot is None),
            store=RoomStore(self.store, self.code),
            outbox=self,
            pacing=pacing,
            secret=seed,
            names=[seat.name for seat in seats],
            fields={"bots": [number for number, seat in enumerate(seats) if seat.bot is not None]},
        )

    @classmethod
    def restore(cls, stored: StoredRoom, store: StoreWriter, settings: Settings) -> Room:
        """A room as stored; a game in play is replayed from its seed and record exactly."""
        room = cls(stored.code, RoomSetup.model_validate(stored.setup), store, settings)
        room.seats = [
            None if s is None else Seat(s["name"], token=s["token"], bot=s["bot"], program=s.get("program", False))
            for s in stored.seats
        ]
        room.status = stored.status
        if stored.status == "playing":
            assert stored.seed is not None
            room.seed = stored.seed
            room.match = room._host(stored.seed)
            # The bots are told the round in play again, so they know what they knew.
            room.match.restore(stored.rounds, stored.first_round, stored.snapshot)
            loop = asyncio.get_running_loop()
            for number, seat in enumerate(room._all_seats()):
                if seat.bot is None:  # nobody is connected yet: the grace period starts now
                    seat.away_timer = loop.call_later(settings.grace, room._mark_away, number)
            room.match.start()
        return room

    # ------------------------------------------------------------------ connections

    async def attach(self, connection: Connection, token: str | None, lang: str = "en") -> None:
        """A connection says hello: with a seat's token it plays that seat, else it watches.
        It is sent the room at once, then the match as stored: while a move is being
        stored, its first update waits for the store (and is sent nothing before it)."""
        connection.lang = lang
        if token is None and self.watchers >= self.settings.max_watchers:
            limit = self.settings.max_watchers
            raise Refusal("room.watchers_full", limit=limit)
        seat = None if token is None else self.seat_of(token)
        if token is not None and seat is None:
            raise Refusal("auth.bad_token")
        connection.seat = seat
        if seat is not None:
            player = self.seats[seat]
            assert player is not None
            for older in [other for other in self.connections if other.seat == seat]:
                self._take_over(older)
            player.connections += 1
            if player.away_timer is not None:
                player.away_timer.cancel()
                player.away_timer = player.away_at = None
            if player.away:
                player.away = False
                assert self.match is not None
                self.match.stand_in(seat, False)
        if seat is None:
            self.watchers += 1
        else:
            self._presence(seat)  # the others are told; this one gets the whole room
        match = self.match
        connection.told = match is None
        self.connections.add(connection)
        if seat is not None:
            self.empty_since = None
            self.visited = True
        if seat == self.host:
            self.host_gone = False
        elif self.host_gone and self.status == "lobby" and seat is not None:
            self._hand_on_host()  # the host left before anyone else came
        connection.post(self.room_message(seat))
        if match is None:  # (a start being stored: told once stored)
            return
        story = await match.sit(seat)
        if connection not in self.connections:  # closed meanwhile
            if not any(other.seat == seat for other in self.connections):
                match.leave(seat)
            return
        connection.told = True
        connection.post(self._first_update(story, lang))
        if self.status == "over" and self.record is not None:
            connection.post(self._over_message())
            if self.next_code is not None:
                connection.post(RematchMade(code=self.next_code).model_dump())

    def _take_over(self, older: Connection) -> None:
        """A newer connection plays ``older``'s seat now: the older is told, and closed."""
        refusal = Refusal("seat.taken_over")
        older.close(TAKEN_OVER, "seat taken over", {"type": "error", **refusal.to_json()})
        self.detach(older)

    def detach(self, connection: Connection) -> None:
        """A connection closed; a seat left with none is given the grace period."""
        if connection not in self.connections:
            return  # taken over: already gone
        self.connections.discard(connection)
        if connection.seat is None:
            self.watchers -= 1
        seat = connection.seat
        if self.empty_since is None and all(other.seat is None for other in self.connections):
            self.empty_since = asyncio.get_running_loop().time()
            if self.on_vacated is not None:
                self.on_vacated(self)
        if self.match is not None and not any(other.seat == seat for other in self.connections):
            self.match.leave(seat)
        if seat is None:
            return
        player = self.seats[seat]
        assert player is not None
        player.connections -= 1
        if player.connections == 0 and self.status == "playing":
            self._start_grace(seat)
        self._presence(seat)
        if player.connections == 0 and self.status == "lobby" and seat == self.host:
            self.host_gone = not self._hand_on_host()

    def _start_grace(self, seat: int) -> None:
        """A seat's person is gone: a bot plays for them once the grace period is over."""
        player = self.seats[seat]
        assert player is not None
        loop = asyncio.get_running_loop()
        player.away_at = loop.time() + self.settings.grace
        player.away_timer = loop.call_later(self.settings.grace, self._mark_away, seat)

    def _hand_on_host(self) -> bool:
        """The host left the lobby: the next person still connected (in seat order after
        the host's) may start the match now. False if nobody is there to take it."""
        count = len(self.seats)
        for step in range(1, count):
            seat = self.seats[(self.host + step) % count]
            if seat is not None and seat.bot is None and seat.connections > 0:
                self.host = (self.host + step) % count
                self.host_gone = False
                self._broadcast_room()
                return True
        return False

    def _presence_of(self, seat: int) -> Presence:
        player = self.seats[seat]
        assert player is not None
        grace = None
        if player.away_at is not None and not player.away:
            grace = max(0.0, round(player.away_at - asyncio.get_running_loop().time(), 1))
        return Presence(seat=seat, connected=player.connections > 0, away=player.away, grace_left=grace)

    def _presence(self, seat: int) -> None:
        """Tell everyone a seat's player came, left or is away: a small message the same
        for all, so a hello or a goodbye costs the others next to nothing."""
        message = self._presence_of(seat).message()
        for connection in self.connections:
            connection.post(message)

    def _mark_away(self, seat: int) -> None:
        player = self.seats[seat]
        assert player is not None and self.match is not None
        player.away_timer = player.away_at = None
        if player.connections == 0 and self.status == "playing":
            player.away = True
            self.match.stand_in(seat, True)
            self._presence(seat)

    # ------------------------------------------------------------------ play

    async def act(self, seat: int | None, move: Move, ref: int | None = None, ply: int | None = None) -> None:
        """A player's action, checked against the sender's seat, then judged, stored and
        told by the host (:class:`~unomas.errors.StaleAction` if its ply has passed; an
        action that cannot be stored is not made: ``store.unavailable``)."""
        if self.status == "lobby":
            raise Refusal("room.not_playing")
        if self.status != "playing" or self.match is None:
            self._refuse_closed(ply)
        if seat is None:
            raise Refusal("seat.spectator")
        if move.p != seat:
            raise Refusal("seat.not_yours", seat=seat, asked=move.p)
        action = Action.from_json(move.to_json())  # a NotationError is refused with its own code
        try:
            await self.match.act(seat, action, ply, ref)
        except IllegalAction as error:
            if error.code == "match.over":
                raise Refusal("room.over") from None
            raise

    def let_go(self, seat: int | None, ply: int | None = None) -> None:
        """A seat lets its out-of-turn chance (of ``ply``) go: the bots need not wait for it."""
        if seat is None:
            raise Refusal("seat.spectator")
        if self.match is not None and self.status == "playing":
            self.match.decline(seat, ply)

    async def want_rematch(self, seat: int | None) -> None:
        """A seat's player wants a rematch; once every person's seat does, it is made (by
        :attr:`on_rematch`) and everyone here is sent its code."""
        if seat is None:
            raise Refusal("seat.spectator")
        if self.status != "over":
            raise Refusal("rematch.early")
        self.rematch.add(seat)
        people = {number for number, player in enumerate(self._all_seats()) if player.bot is None}
        if people <= self.rematch and self.on_rematch is not None:
            async with self._lock:
                if self.next_code is None:
                    self.next_code = await self.on_rematch(self)
                    made = RematchMade(code=self.next_code).model_dump()
                    for connection in self.connections:
                        connection.post(made)
        self._broadcast_room()

    def react(self, seat: int | None, reaction: str) -> None:
        """A seat's quick reaction (one of :data:`~unomas.server.protocol.REACTIONS`), to everyone."""
        if seat is None:
            raise Refusal("seat.spectator")
        assert reaction in REACTIONS
        now = asyncio.get_running_loop().time()
        if now - self._reacted.get(seat, -REACTION_GAP) < REACTION_GAP:
            raise Refusal("rate.limited", rate=1 / REACTION_GAP)
        self._reacted[seat] = now
        message = Reaction(seat=seat, reaction=reaction).model_dump()
        for connection in self.connections:
            connection.post(message)

    def _refuse_closed(self, ply: int | None) -> NoReturn:
        """Refuse an action once the match is over: as stale if it answers a ply the last
        move overtook (a seat that acted while its rival played the last card has not
        failed), else as ``room.over``."""
        game = self.game
        if ply is not None and game is not None and ply != game.ply:
            raise StaleAction(ply, game.ply)
        raise Refusal("room.over")

    def full_record(self) -> dict[str, Any]:
        """The record so far; the seed is revealed only once the match is over."""
        assert self.match is not None
        return self.match.record()

    async def close(self) -> None:
        """Stop driving the game (the server is shutting down)."""
        for seat in self.seats:
            if seat is not None and seat.away_timer is not None:
                seat.away_timer.cancel()
        if self.match is not None:
            await self.match.close()

    # ------------------------------------------------------------------ the host's outbox

    def changed(self, told: Told) -> None:
        """Send every connection what its seat heard of the change just stored (the
        ``ref`` of its own action to the seat that made it)."""
        names = self._names()
        audience: dict[int | None, list[Connection]] = {}
        for connection in self.connections:
            if connection.told:  # (one whose hello waits for the store is told the match so far then)
                audience.setdefault(connection.seat, []).append(connection)
        for heard in told.heard:
            events = [ev.to_json(event) for event in heard.events]
            view = heard.view.to_json(rules=False)  # the rules are sent once, in the room message
            made: dict[str, dict[str, Any]] = {}
            for connection in audience.get(heard.seat, ()):
                message = made.get(connection.lang)
                if message is None:
                    narration = narrate(heard.events, names, connection.lang, heard.view.rules)
                    message = made[connection.lang] = _update(events, narration, view, told.turn_left, told.state)
                    if told.ref is not None and heard.seat == told.by:
                        message["ref"] = told.ref
                connection.post(message)

    def timed_out(self, seat: int) -> None:
        notice = TimedOut(seat=seat).model_dump()
        for connection in self.connections:
            connection.post(notice)

    def finished(self, record: dict[str, Any]) -> None:
        self.status = "over"
        self.record = record
        self._broadcast_room()
        for connection in self.connections:
            connection.post(self._over_message())
        if self.on_over is not None:
            self.on_over(self)

    # ------------------------------------------------------------------ messages

    def _all_seats(self) -> list[Seat]:
        seats = [seat for seat in self.seats if seat is not None]
        assert len(seats) == len(self.seats), "every seat is taken once the game has started"
        return seats

    def room_message(self, you: int | None) -> dict[str, Any]:
        """The room as everyone may see it, and which seat the receiver plays."""
        seats = [
            None
            if seat is None
            else {"name": seat.name, "bot": seat.bot is not None, "program": seat.program}
            | self._presence_of(number).message()
            for number, seat in enumerate(self.seats)
        ]
        for seat in seats:
            if seat is not None:
                del seat["type"], seat["seat"]
        message: dict[str, Any] = {
            "type": "room",
            "code": self.code,
            "status": self.status,
            "you": you,
            "host": self.host,
            "seats": seats,
            "rules": self.rules.to_dict(),
            "turn_seconds": self.setup.turn_seconds,
            "window": self.setup.window if self.setup.window is not None else self.settings.window,
            "bot": self.setup.bot,
            "rematch": sorted(self.rematch),
            "programs": self.setup.programs,
        }
        if self.next_code is not None:
            message["next"] = self.next_code
        if self.seed:
            message["commitment"] = fairness.commitment_of(self.seed)
        return message

    def _broadcast_room(self) -> None:
        for connection in self.connections:
            connection.post(self.room_message(connection.seat))

    def _first_update(self, story: Story, lang: str) -> dict[str, Any]:
        """What a connection gets on its hello: its view, the match so far as its seat saw
        it (at most :data:`~unomas.live.host.HISTORY` changes, the latest) and the rounds played."""
        names = self._names()
        history = [
            {"events": [ev.to_json(event) for event in seen], "narration": narrate(seen, names, lang, story.view.rules)}
            for seen in story.history
        ]
        view = story.view.to_json(rules=False)
        first = _update([], [], view, story.turn_left, story.state) | {"history": history}
        assert self.match is not None
        rounds = self.match.standings()
        if rounds:
            first["rounds"] = rounds
        return first

    def _names(self) -> list[str]:
        return [seat.name if seat is not None else f"{number}" for number, seat in enumerate(self.seats)]

    def _over_message(self) -> dict[str, Any]:
        """The match is over: where its record is, the scores, who won (with teams, the
        winner's partners too), and why it ended (``target``:
        someone reached the target score; ``move_limit``: it ran too long, ``abandoned``:
        everyone had left it; no winner then)."""
        match = self.match
        game = self.game
        winner = None if game is None else game.winner
        return {
            "type": "over",
            "record": f"/api/rooms/{self.code}/record",
            "scores": self.record and self.record["scores"],
            "winner": winner,
            "winners": [] if game is None or winner is None else list(game.rules.winners(winner)),
            "rounds": [] if match is None else match.standings(),
            "reason": "target"
            if match is None or not match.ended_early()
            else "abandoned"
            if self.abandoned_match
            else "move_limit",
            "limit": self.settings.max_match_actions,
        }

    def _stored_seats(self) -> list[dict[str, Any]]:
        return [seat.stored() for seat in self._all_seats()]

    def _stored_room(self) -> StoredRoom:
        seats: list[Any] = [None if seat is None else seat.stored() for seat in self.seats]
        return StoredRoom(self.code, self.setup.model_dump(), seats, self.status)


def _update(
    events: list[dict[str, Any]], narration: list[str], view: dict[str, Any], turn_left: float | None, state: int
) -> dict[str, Any]:
    """An ``update`` message: a change's events as the receiver may see them, their
    narration, its view after it, the seconds left on the turn timer, and the state id."""
    return {
        "type": "update",
        "events": events,
        "narration": narration,
        "view": view,
        "turn_left": turn_left,
        "state": state,
    }
