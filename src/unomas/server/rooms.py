"""Rooms: the lobby, the seats and their tokens, and the match the server judges.

A :class:`Room` plays its match through a :class:`~unomas.conductor.Conductor`, which
judges every action, decides whose decision it is and tells each seat what it may see.
Every seat has a bot behind it from the start: the bots' seats it plays, and it stands by
for each person (:meth:`Conductor.stand_in`) until they are away past the grace period.
Every change goes the same way (:meth:`Room._change`): the conductor applies it and its
listeners note what each connected seat hears; the move's record entries are appended to
the store; then every connection gets its seat's events and view. People's actions arrive
from any seat at any time (UNO, catch, jump-in out of turn) and are applied one at a time,
in the order they arrive; the room's driver task plays the bots, paced by the game's ply.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import random
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, NoReturn

from unomas import events as ev
from unomas import fairness, record
from unomas.actions import Action, Kind
from unomas.bots import make_bot
from unomas.conductor import BotPlayer, Conductor
from unomas.errors import BotError, NotationError, StaleAction
from unomas.events import Event
from unomas.game import Game, RoundLog
from unomas.i18n import narrate
from unomas.position import Position
from unomas.rules import Rules
from unomas.server.protocol import (
    REACTIONS,
    Move,
    Presence,
    Reaction,
    Refusal,
    RematchMade,
    RoomSetup,
    RoundResult,
    TimedOut,
    clean_name,
    name_key,
)
from unomas.server.storage import StoredRoom, StoreWriter

__all__ = ["HISTORY", "Connection", "Room", "Settings", "bot_name", "hash_token", "new_code"]

log = logging.getLogger("unomas.server")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Room codes avoid letters and digits that look alike (I/1, O/0)."""
CODE_LENGTH = 10

HISTORY = 500
"""The most changes of the match so far that a connection is sent on its hello (the latest)."""

TAKEN_OVER = 4409
"""The WebSocket close code of a connection whose seat a newer one took over."""

REACTION_GAP = 1.0
"""Seconds a seat waits between two quick reactions (more are refused as ``rate.limited``)."""

STORE_RETRY = 0.25
STORE_RETRY_MAX = 5.0
"""Seconds a room's bots wait before trying again while the store fails (doubling up to the max)."""


@dataclass(frozen=True, slots=True)
class Settings:
    """How the server paces and forgives."""

    grace: float = 30.0
    """Seconds a player may stay away before a bot plays for them."""
    bot_delay: float = 0.8
    """Seconds a bot waits before acting, so people can follow (0 in tests and benchmarks)."""
    round_pause: float = 3.0
    """Seconds between the end of a round and the next deal."""
    queue_limit: int = 1000
    """Messages waiting for one connection beyond which it is dropped as too slow."""
    keep_finished: float = 3600.0
    """Seconds a finished room stays open (its record is kept in the store for good)."""
    keep_empty_lobby: float = 600.0
    """Seconds a room not yet started stays open with nobody connected; then it is forgotten."""
    hello_timeout: float = 10.0
    """Seconds a new connection has to say hello; then it is closed."""
    max_watchers: int = 200
    """Spectators one room takes at once."""
    max_connections: int = 32
    """WebSocket connections one client address may hold at once."""
    create_rate: tuple[float, float] = (0.2, 10.0)
    """Rooms one client address may create: (per second, at once)."""
    lookup_rate: tuple[float, float] = (2.0, 30.0)
    """Room look-ups (info, join, connect) one client address may make: (per second, at once)."""
    max_match_actions: int = 20_000
    """Actions after which a match still not over is ended (recorded, the seed revealed, and
    the players told why): no room plays for ever."""
    trusted_proxies: frozenset[str] = frozenset()
    """Addresses of reverse proxies whose ``X-Forwarded-For`` names the real client."""
    allowed_origins: frozenset[str] = frozenset()
    """Origins (``https://host``) besides the server's own whose pages may use it."""
    freeze_every: float = 1.0
    """Seconds between two freezes of what the garbage collector tracks (see
    :mod:`unomas.server.collector`): its passes walk only what is newer."""
    collect_every: float = 600.0
    """Seconds between two full collections, frozen objects included (one pause of the
    process, some hundreds of milliseconds with thousands of connections)."""


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


class Room:
    """One room: lobby, then a match played through a :class:`Conductor`, then its record."""

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
        self.next_code: str | None = None
        """The rematch's room, once it is made."""
        self.on_rematch: Callable[[Room], Awaitable[str]] | None = None
        """Makes the rematch's room (the server's), returning its code."""
        self._reacted: dict[int, float] = {}
        """When (loop time) each seat last sent a reaction."""
        self.conductor: Conductor | None = None
        self.seed = b""
        self.record: dict[str, Any] | None = None
        self.connections: set[Connection] = set()
        self.watchers = 0
        """How many of the connections are spectators'."""
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._timer_key: tuple[int, int] | None = None
        self.deadline: float | None = None
        self.on_over: Callable[[Room], None] | None = None
        self.empty_since: float | None = asyncio.get_running_loop().time()
        """When the last connection left (loop time), None while someone is connected."""
        self._listening: dict[int | None, Callable[[], None]] = {}
        """How to stop the conductor's listener of each seat (None: the spectators) that a
        connection plays or watches."""
        self._chores: set[asyncio.Task[None]] = set()
        """Changes the turn timer started, running."""
        self._heard: list[tuple[int | None, list[Event], dict[str, Any]]] = []
        """What each listened seat heard of the change being made (with its view after it),
        sent once the change is stored."""
        self._stored = 0
        """The game's ply when its last move was stored."""
        self._stored_rounds = 0
        """How many of the rounds in the game's log are stored (their deals)."""
        self._first_round = 0
        """The index in the match of the game's first logged round: a match restored from a
        snapshot has the rounds since that one alone in its log; the earlier are in the store."""
        self._snapshot: dict[str, Any] | None = None
        """The match just before that round's deal (None: round 0, dealt from the seed)."""
        self._earlier: list[dict[str, Any]] = []
        """The record's rounds before that one, read from the store when the match ends."""
        self.epoch = 0
        """How many times the match was rebuilt from the store."""
        self._lock = asyncio.Lock()
        """Held through each change and its storing: one change at a time, and none seen
        by anyone before it is stored."""

    @property
    def game(self) -> Game | None:
        """The match being played (None in the lobby)."""
        return None if self.conductor is None else self.conductor.game

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
                raise Refusal("room.started", "the game has already started: seating can no longer change")
            kept = self.setup.programs
            free = [seat for seat, taken in enumerate(self.seats) if taken is None and (program or seat not in kept)]
            free.sort(key=lambda seat: seat not in kept)
            if not free:
                raise Refusal("room.full", "the room is full")
            token = self._seat_player(free[0], self._new_name(name), program=program)
            try:
                await self.store(self.store.store.save_room, self._stored_room())
            except Refusal:
                self.seats[free[0]] = None
                raise
        self._broadcast_room()
        return free[0], token

    def abandoned(self, now: float) -> bool:
        """Whether this is a lobby nobody has been connected to for ``keep_empty_lobby``."""
        quiet = self.empty_since
        return self.status == "lobby" and quiet is not None and now - quiet >= self.settings.keep_empty_lobby

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
        """``name`` made clean (:func:`~unomas.server.protocol.clean_name`), refused as
        ``name.taken`` if someone in the room (or a bot that may be seated) has it."""
        clean = clean_name(name)
        key = name_key(clean)
        if key in RESERVED_NAMES or any(seat is not None and name_key(seat.name) == key for seat in self.seats):
            raise Refusal("name.taken", f"someone in this room is already called {clean!r}", name=clean)
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
            raise Refusal("room.not_host", "only the host can start the game")
        async with self._lock:
            await self._start()

    async def _start(self) -> None:
        if self.status != "lobby":
            raise Refusal("room.started", "the game has already started")
        lobby = list(self.seats)
        for number, taken in enumerate(self.seats):
            if taken is None:
                self.seats[number] = Seat(bot_name(number), bot=self.setup.bot)
        self.seed = fairness.new_seed()
        conductor = self._conduct(Game(self.rules, seed=self.seed))
        game = conductor.game
        assert game.log is not None
        try:
            await self.store(
                self.store.store.start_game, self.code, self._stored_seats(), self.seed, record.round_json(game.log[0])
            )
        except Refusal:  # not stored, not started: the lobby as it was
            conductor.close()
            self.seats, self.conductor, self.seed = lobby, None, b""
            raise
        self._stored_rounds = 1
        self.status = "playing"
        for number, player in enumerate(self._all_seats()):
            if player.bot is None and player.connections == 0:  # joined, then left: the grace period starts
                self._start_grace(number)
        self._broadcast_room()
        for connection in self.connections:
            self._listen(connection.seat)
        for seat in self._listening:  # the deal, told before anyone listened, as each seat saw it
            self._hear(seat, None, conductor.history(seat)[-1][1])
        self._flush()
        self._launch()

    def _conduct(self, game: Game) -> Conductor:
        """The match's conductor on ``game``, a bot behind every seat: the bots' seats it
        plays, the people's it stands by for (until they are away past the grace period)."""
        seats = self._all_seats()
        players = [BotPlayer(make_bot(seat.bot or self.setup.bot)) for seat in seats]
        conductor = Conductor(game, players, rngs=[random.Random() for _ in seats], ask_external=False)
        for number, seat in enumerate(seats):
            if seat.bot is None:
                conductor.stand_in(number, False)
        self.conductor = conductor
        self._stored = game.ply
        self._stored_rounds = 0 if game.log is None else len(game.log)
        return conductor

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
            room._first_round, room._snapshot = stored.first_round, stored.snapshot
            # The bots are told the round in play again, so they know what they knew.
            room._conduct(room._replay(stored.rounds))
            loop = asyncio.get_running_loop()
            for number, seat in enumerate(room._all_seats()):
                if seat.bot is None:  # nobody is connected yet: the grace period starts now
                    seat.away_timer = loop.call_later(settings.grace, room._mark_away, number)
            room._reset_timer()
            room._launch()
        return room

    # ------------------------------------------------------------------ connections

    def attach(self, connection: Connection, token: str | None, lang: str = "en") -> None:
        """A connection says hello: with a seat's token it plays that seat, else it watches."""
        connection.lang = lang
        if token is None and self.watchers >= self.settings.max_watchers:
            limit = self.settings.max_watchers
            raise Refusal("room.watchers_full", "this room has as many spectators as it takes", limit=limit)
        if token is not None:
            seat = self.seat_of(token)
            if seat is None:
                raise Refusal("auth.bad_token", "unknown token: this browser holds no seat in this room")
            connection.seat = seat
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
                assert self.conductor is not None
                self.conductor.stand_in(seat, False)
        if connection.seat is None:
            self.watchers += 1
        else:
            self._presence(connection.seat)  # the others are told; this one gets the whole room
        self.connections.add(connection)
        self.empty_since = None
        if connection.seat == self.host:
            self.host_gone = False
        elif self.host_gone and self.status == "lobby" and connection.seat is not None:
            self._hand_on_host()  # the host left before anyone else came
        connection.post(self.room_message(connection.seat))
        if self.conductor is not None and self.status != "lobby":  # (a start being stored: told once stored)
            self._listen(connection.seat)
            connection.post(self._first_update(connection.seat, connection.lang))
        if self.status == "over" and self.record is not None:
            connection.post(self._over_message())
            if self.next_code is not None:
                connection.post(RematchMade(code=self.next_code).model_dump())

    def _take_over(self, older: Connection) -> None:
        """A newer connection plays ``older``'s seat now: the older is told, and closed."""
        refusal = Refusal("seat.taken_over", "this seat is now played from another connection")
        older.close(TAKEN_OVER, "seat taken over", {"type": "error", **refusal.to_json()})
        self.detach(older)

    def detach(self, connection: Connection) -> None:
        """A connection closed; a seat left with none is given the grace period."""
        if connection not in self.connections:
            return  # taken over: already gone
        self.connections.discard(connection)
        if connection.seat is None:
            self.watchers -= 1
        if not self.connections:
            self.empty_since = asyncio.get_running_loop().time()
        seat = connection.seat
        if seat in self._listening and not any(other.seat == seat for other in self.connections):
            self._listening.pop(seat)()
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
        assert player is not None and self.conductor is not None
        player.away_timer = player.away_at = None
        if player.connections == 0 and self.status == "playing":
            player.away = True
            self.conductor.stand_in(seat, True)
            self._presence(seat)
            self._wake.set()

    # ------------------------------------------------------------------ play

    async def act(self, seat: int | None, move: Move, ref: int | None = None, ply: int | None = None) -> None:
        """A player's action, checked against the sender's seat and (by the conductor) the
        rules and the ply it answers (:class:`~unomas.errors.StaleAction` if that has passed).
        An action that cannot be stored is not made (``store.unavailable``)."""
        if self.status == "lobby":
            raise Refusal("room.not_playing", "the game is not being played")
        if self.status != "playing" or self.conductor is None:
            self._refuse_closed(ply)
        if seat is None:
            raise Refusal("seat.spectator", "spectators cannot act")
        if move.p != seat:
            raise Refusal("seat.not_yours", f"you play seat {seat}, not seat {move.p}", seat=seat, asked=move.p)
        try:
            action = Action.from_json(move.to_json())
        except NotationError as error:
            raise Refusal("message.invalid", f"action: {error}", field="action", reason=str(error)) from None
        await self._change(lambda conductor: conductor.act(action, ply=ply), ref, seat, ply=ply)

    async def want_rematch(self, seat: int | None) -> None:
        """A seat's player wants a rematch; once every person's seat does, it is made (by
        :attr:`on_rematch`) and everyone here is sent its code."""
        if seat is None:
            raise Refusal("seat.spectator", "spectators cannot act")
        if self.status != "over":
            raise Refusal("rematch.early", "the match is not over yet: a rematch comes after it")
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
            raise Refusal("seat.spectator", "spectators cannot act")
        assert reaction in REACTIONS
        now = asyncio.get_running_loop().time()
        if now - self._reacted.get(seat, -REACTION_GAP) < REACTION_GAP:
            raise Refusal("rate.limited", "one reaction a second at most", rate=1 / REACTION_GAP)
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
        raise Refusal("room.over", "the game is over")

    async def _change(
        self,
        change: Callable[[Conductor], object],
        ref: int | None = None,
        by: int | None = None,
        *,
        ply: int | None = None,
    ) -> None:
        """Make a change through the conductor (its listeners note what each seat hears),
        store the moves it applied, then tell everyone; ``ref`` goes to seat ``by``, and
        ``ply`` is the one a seat's action answers. A change the store refuses is undone
        (:meth:`_rebuild`) and nobody hears of it."""
        async with self._lock:
            conductor = self.conductor
            if self.status != "playing" or conductor is None:
                self._refuse_closed(ply)
            game = conductor.game
            before = game.ply
            try:
                change(conductor)
            finally:  # a move applied is stored and told, even if a bot failed to hear of it
                if game.ply != before:
                    await self._store_moves()
                    self._flush(ref, by)

    async def _store_moves(self) -> None:
        """Append the moves applied since the last stored one (with the round's result);
        if the store fails, go back to what it holds."""
        game = self.game
        assert game is not None and game.log is not None
        new = game.ply - self._stored
        played = game.log[-1]
        try:
            for number, (action, caused) in enumerate(played.moves[len(played.moves) - new :]):
                result = played.result if number == new - 1 else None
                summary = None if result is None else {"winner": result.winner, "points": result.points}
                await self.store(
                    self.store.store.append, self.code, game.round, record.move_entries(action, caused), summary
                )
                self._stored += 1
                self.store.moves += 1
        except Refusal:
            self._rebuild()
            raise

    def _replay(self, rounds: list[dict[str, Any]]) -> Game:
        """The match replayed from where its log starts (the seed's first deal, or the
        snapshot before a later one) through ``rounds``, the record's rounds from there."""
        if self._snapshot is None:
            return fairness.replay_seeded({"rules": self.rules.to_dict(), "rounds": rounds}, self.seed)
        shuffles = random.Random()
        version, state, gauss = self._snapshot["rng"]
        shuffles.setstate((version, tuple(state), gauss))
        game = Game.from_position(self.rules, Position.from_json(self._snapshot["position"]), rng=shuffles)
        game.log = []  # a history from this round on (the earlier rounds are in the store)
        return fairness.replay_from(game, rounds)

    def _rebuild(self) -> None:
        """Make the match what the store holds again (after a write failed): replayed from
        where its log starts and the moves stored, as a restarted server would; the changes
        not stored were heard by nobody and are forgotten, and every bot is told the round again."""
        old = self.conductor
        assert old is not None and old.game.log is not None
        logged = old.game.log
        start_ply = old.game.ply - sum(len(played.moves) for played in logged)
        rounds = logged[: self._stored_rounds]
        kept = self._stored - start_ply - sum(len(played.moves) for played in rounds[:-1])
        last = rounds[-1]
        if kept < len(last.moves):
            rounds[-1] = RoundLog(last.dealer, last.deal, last.moves[:kept])
        old.close()
        conductor = self._conduct(self._replay([record.round_json(played) for played in rounds]))
        for number, player in enumerate(self._all_seats()):
            if player.away:
                conductor.stand_in(number, True)
        listening, self._listening, self._heard = list(self._listening), {}, []
        for seat in listening:
            self._listen(seat)
        self.epoch += 1
        self._wake.set()

    async def _deal(self) -> None:
        async with self._lock:
            conductor = self.conductor
            assert conductor is not None and conductor.game.log is not None
            snapshot = _snapshot(conductor.game)
            conductor.deal()
            try:
                await self.store(
                    self.store.store.add_round,
                    self.code,
                    conductor.game.round,
                    record.round_json(conductor.game.log[-1]),
                    snapshot,
                )
            except Refusal:
                self._rebuild()
                raise
            self._stored_rounds += 1
            self._flush()

    def _launch(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._drive(), name=f"room {self.code}")
        self._task.add_done_callback(_report_crash)

    async def _drive(self) -> None:
        """Play the seats bots play whenever the conductor's sequence comes to one, each
        after ``bot_delay``, paced by the game's ply alone: an action that someone else's
        overtook meanwhile is thought again. Deal the rounds; finish the match. While the
        store fails, wait and try again (the match is what the store holds)."""
        backoff = STORE_RETRY
        while True:
            conductor = self.conductor
            assert conductor is not None
            game = conductor.game
            try:
                if game.is_over or game.ply >= self.settings.max_match_actions:
                    await self._finish()
                    return
                if game.round_over:
                    await asyncio.sleep(self.settings.round_pause)
                    await self._deal()
                elif not await self._bot_turn(conductor):
                    continue
            except Refusal as error:
                if error.code != "store.unavailable":
                    raise
                await asyncio.sleep(backoff)
                backoff = min(2 * backoff, STORE_RETRY_MAX)
                continue
            backoff = STORE_RETRY
            await asyncio.sleep(0)

    async def _bot_turn(self, conductor: Conductor) -> bool:
        """Let the bot whose decision it is act (after its delay); False if nobody did."""
        ply = conductor.game.ply
        action = conductor.propose()
        if action is None:  # a person decides now: wait for a change
            self._wake.clear()
            await self._wake.wait()
            return False
        if self.settings.bot_delay:
            await asyncio.sleep(self.settings.bot_delay)
            if not conductor.playing[action.player]:
                return False  # the seat's person came back meanwhile

        def apply(now: Conductor) -> object:
            if now is not conductor:  # proposed to a match since rebuilt from the store
                raise StaleAction(ply, now.game.ply)
            return now.act(action, ply=ply)

        try:
            await self._change(apply)
        except StaleAction:
            return False  # someone acted meanwhile: think again
        return True

    def _turn_key(self) -> tuple[int, int]:
        """The turn in play: the round, and the index in it of its last turn action (an UNO
        call or a catch starts no new turn; -1: the deal)."""
        game = self.game
        assert game is not None and game.log is not None
        moves = game.log[-1].moves
        last = len(moves) - 1
        while last >= 0 and moves[last][0].kind in (Kind.UNO, Kind.CATCH):
            last -= 1
        return game.round, last

    def _reset_timer(self) -> None:
        """Start the turn timer when a new turn begins for a person."""
        conductor = self.conductor
        if not self.setup.turn_seconds or conductor is None:
            return
        key = self._turn_key()
        if key == self._timer_key:
            return
        self._timer_key = key
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.deadline = None
        game = conductor.game
        if game.round_over or conductor.playing[game.current]:
            return
        loop = asyncio.get_running_loop()
        self.deadline = loop.time() + self.setup.turn_seconds
        self._timer = loop.call_later(self.setup.turn_seconds, self._expire, key)

    def _expire(self, key: tuple[int, int]) -> None:
        """Time is up for the seat on turn: the conductor draws (and passes) for it."""
        self._timer = None
        conductor = self.conductor
        if conductor is None or self._timer_key != key or conductor.game.round_over:
            return
        task = asyncio.get_running_loop().create_task(self._time_out(key))
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    async def _time_out(self, key: tuple[int, int]) -> None:
        taken: list[Action] = []

        def time_out(conductor: Conductor) -> object:
            if self._timer_key != key or conductor.game.round_over:
                return None  # the seat acted meanwhile
            taken.extend(conductor.time_out())
            return taken

        try:
            await self._change(time_out)
        except Refusal as error:
            if error.code not in ("store.unavailable", "room.over"):
                raise
            self._timer_key = None  # not stored: the turn (and its timer) starts again
            self._reset_timer()
            return
        if taken:
            notice = TimedOut(seat=taken[0].player).model_dump()
            for connection in self.connections:
                connection.post(notice)

    async def _finish(self) -> None:
        assert self.conductor is not None
        if self._timer is not None:
            self._timer.cancel()
        if len(self._earlier) < self._first_round:  # restored from a snapshot: the rounds before it
            self._earlier = await self.store(self.store.store.rounds, self.code, 0, self._first_round)
        final = self.full_record()
        await self.store(self.store.store.finish, self.code, final)
        self.status = "over"
        self.record = final
        self.conductor.close()
        self._broadcast_room()
        for connection in self.connections:
            connection.post(self._over_message())
        if self.on_over is not None:
            self.on_over(self)

    def full_record(self) -> dict[str, Any]:
        """The record so far; the seed is revealed only once the match is over. (A match
        restored from a snapshot has its earlier rounds read from the store first.)"""
        game = self.game
        assert game is not None
        assert len(self._earlier) == self._first_round, "the rounds before the snapshot are read first"
        over = game.is_over or game.ply >= self.settings.max_match_actions
        shuffle = fairness.reveal(self.seed) if over else fairness.commit(self.seed)
        seats = self._all_seats()
        made = record.to_json(
            game,
            names=[seat.name for seat in seats],
            **{fairness.FIELD: shuffle, "bots": [n for n, seat in enumerate(seats) if seat.bot is not None]},
        )
        made["rounds"][:0] = self._earlier
        return made

    async def close(self) -> None:
        """Stop driving the game (the server is shutting down)."""
        if self._timer is not None:
            self._timer.cancel()
        for seat in self.seats:
            if seat is not None and seat.away_timer is not None:
                seat.away_timer.cancel()
        for task in [self._task, *self._chores]:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        if self.conductor is not None and self.status == "playing":
            self.conductor.close()

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

    def _listen(self, seat: int | None) -> None:
        """Have the conductor tell this room every change as ``seat`` sees it (once a seat)."""
        if self.conductor is not None and seat not in self._listening:
            self._listening[seat] = self.conductor.listen(seat, partial(self._hear, seat))

    def _hear(self, seat: int | None, action: Action | None, seen: list[Event]) -> None:
        """Note a change as ``seat`` saw it, with its view right after: sent by :meth:`_flush`."""
        assert self.conductor is not None
        self._heard.append((seat, seen, self._view(seat)))

    def _view(self, seat: int | None) -> dict[str, Any]:
        assert self.conductor is not None
        return self.conductor.view(seat).to_json(rules=False)  # the rules are sent once, in the room message

    def _flush(self, ref: int | None = None, by: int | None = None) -> None:
        """Send every connection what its seat heard of the change just stored (``ref`` to
        seat ``by``: its own action's answer); then the bots and the timer look again."""
        heard, self._heard = self._heard, []
        self._wake.set()
        self._reset_timer()
        remaining = self._turn_left()
        names = self._names()
        audience: dict[int | None, list[Connection]] = {}
        for connection in self.connections:
            audience.setdefault(connection.seat, []).append(connection)
        for seat, seen, view in heard:
            events = [ev.to_json(event) for event in seen]
            made: dict[str, dict[str, Any]] = {}
            for connection in audience.get(seat, ()):
                message = made.get(connection.lang)
                if message is None:
                    narration = narrate(seen, names, connection.lang)
                    message = made[connection.lang] = _update(events, narration, view, remaining)
                    if ref is not None and seat == by:
                        message["ref"] = ref
                connection.post(message)

    def _first_update(self, seat: int | None, lang: str) -> dict[str, Any]:
        """What a connection gets on its hello: its view, the match so far as its seat saw
        it (the conductor's :meth:`~unomas.conductor.Conductor.history` for that seat, at
        most :data:`HISTORY` changes, the latest) and the rounds played."""
        conductor = self.conductor
        assert conductor is not None
        names = self._names()
        history = [
            {"events": [ev.to_json(event) for event in seen], "narration": narrate(seen, names, lang)}
            for _, seen in conductor.history(seat)[-HISTORY:]
        ]
        first = _update([], [], self._view(seat), self._turn_left()) | {"history": history}
        rounds = self._rounds()
        if rounds:
            first["rounds"] = rounds
        return first

    def _rounds(self) -> list[dict[str, Any]]:
        """The standings: each round ended so far, as :class:`~unomas.server.protocol.RoundResult`."""
        game = self.game
        if game is None or game.log is None:
            return []
        scores = [0] * self.rules.players
        rounds = []
        for number, played in enumerate(game.log):
            result = played.result
            if result is None:
                continue
            scores[result.winner] += result.points
            rounds.append(RoundResult(round=number, winner=result.winner, points=result.points, scores=list(scores)))
        return [result.model_dump() for result in rounds]

    def _turn_left(self) -> float | None:
        if self.deadline is None:
            return None
        return max(0.0, round(self.deadline - asyncio.get_running_loop().time(), 1))

    def _names(self) -> list[str]:
        return [seat.name if seat is not None else f"{number}" for number, seat in enumerate(self.seats)]

    def _over_message(self) -> dict[str, Any]:
        """The match is over: where its record is, the scores, and why it ended (``target``:
        someone reached the target score; ``move_limit``: it ran too long, no winner)."""
        game = self.game
        finished = game is None or game.is_over
        return {
            "type": "over",
            "record": f"/api/rooms/{self.code}/record",
            "scores": self.record and self.record["scores"],
            "winner": None if game is None else game.winner,
            "rounds": self._rounds(),
            "reason": "target" if finished else "move_limit",
            "limit": self.settings.max_match_actions,
        }

    def _stored_seats(self) -> list[dict[str, Any]]:
        return [seat.stored() for seat in self._all_seats()]

    def _stored_room(self) -> StoredRoom:
        seats: list[Any] = [None if seat is None else seat.stored() for seat in self.seats]
        return StoredRoom(self.code, self.setup.model_dump(), seats, self.status)


def _update(
    events: list[dict[str, Any]], narration: list[str], view: dict[str, Any], turn_left: float | None
) -> dict[str, Any]:
    """An ``update`` message: a change's events as the receiver may see them, their
    narration, its view after it, and the seconds left on the turn timer."""
    return {"type": "update", "events": events, "narration": narration, "view": view, "turn_left": turn_left}


def _snapshot(game: Game) -> dict[str, Any]:
    """The match between two rounds as a restart takes it up: its position and the state of
    its seeded random source (which deals the next round)."""
    shuffles = game.rng
    assert isinstance(shuffles, random.Random), "a room's game shuffles with its seeded source"
    return {"position": game.position().to_json(), "rng": shuffles.getstate()}


def _report_crash(task: asyncio.Task[None]) -> None:
    """A room's driver should never fail; if it does (a bot error), say so in the log."""
    if not task.cancelled() and task.exception() is not None:
        error = task.exception()
        level = logging.ERROR if not isinstance(error, BotError) else logging.WARNING
        log.log(level, "room %s stopped: %s", task.get_name(), error, exc_info=error)
