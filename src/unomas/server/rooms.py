"""Rooms: the lobby, the seats and their tokens, and the game the server judges.

A :class:`Room` holds one :class:`~unomas.game.Game`. Every change goes the same way
(:meth:`Room._commit`): the move's record entries are appended to the store, the bots
are told, then every connection gets the events redacted for its seat and its own view.
Human actions arrive from any seat at any time (UNO, catch, jump-in out of turn); the
event loop handles them one at a time, in the order they arrive, each checked by
:meth:`Game.apply`. Bots (:class:`~unomas.match.BotSeats`) play the seats set up for
them and any player away longer than the grace period, until they come back.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from unomas import events as ev
from unomas import fairness, record
from unomas.actions import Action, Kind
from unomas.bots import make_bot
from unomas.errors import BotError, IllegalAction, NotationError
from unomas.events import Event, redact
from unomas.game import Game, Phase
from unomas.i18n import narrate
from unomas.match import BotSeats
from unomas.rules import Rules
from unomas.server.protocol import Move, RoomSetup
from unomas.server.storage import Store, StoredRoom

__all__ = ["Connection", "Room", "RoomError", "Settings", "hash_token", "new_code"]

log = logging.getLogger("unomas.server")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Room codes avoid letters and digits that look alike (I/1, O/0)."""


class RoomError(Exception):
    """A request the room refuses (full, started, not the host's, not your seat...)."""


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
    keep_empty_lobby: float = 3600.0
    """Seconds a room not yet started stays open with nobody connected; then it is forgotten."""


def new_code() -> str:
    """A short, unguessable room code."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))


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

    def post(self, message: dict[str, Any]) -> None:
        """Queue a message; a connection too far behind gets a final None (close)."""
        if self.dropped:
            return
        if self.queue.qsize() >= self.limit:
            self.dropped = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(message)


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

    def stored(self) -> dict[str, Any]:
        return {"name": self.name, "token": self.token, "bot": self.bot}


class Room:
    """One room: lobby, then a match judged by the server, then its record."""

    def __init__(self, code: str, setup: RoomSetup, store: Store, settings: Settings) -> None:
        self.code = code
        self.setup = setup
        self.rules: Rules = setup.game_rules()
        self.store = store
        self.settings = settings
        self.seats: list[Seat | None] = [None] * self.rules.players
        for seat in setup.bots:
            self.seats[seat] = Seat(f"bot {seat}", bot=setup.bot)
        self.status = "lobby"
        self.game: Game | None = None
        self.bots: BotSeats | None = None
        self.seed = b""
        self.record: dict[str, Any] | None = None
        self.connections: set[Connection] = set()
        self.version = 0
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._timer_key: tuple[int, int] | None = None
        self._turns = 0
        """Turn actions and deals so far: a new one starts a new turn for the timer."""
        self.deadline: float | None = None
        self.on_over: Callable[[Room], None] | None = None
        self.empty_since: float | None = asyncio.get_running_loop().time()
        """When the last connection left (loop time), None while someone is connected."""

    # ------------------------------------------------------------------ lobby

    @classmethod
    def create(cls, setup: RoomSetup, store: Store, settings: Settings, code: str) -> tuple[Room, str]:
        """A new room with its host in seat 0; returns the room and the host's token."""
        setup.check_seats()
        room = cls(code, setup, store, settings)
        token = room._seat_player(0, setup.name)
        store.save_room(room._stored())
        return room, token

    def join(self, name: str) -> tuple[int, str]:
        """Seat a new player in the first free seat; returns the seat and its token."""
        if self.status != "lobby":
            raise RoomError("the game has already started: seating can no longer change")
        free = [seat for seat, taken in enumerate(self.seats) if taken is None]
        if not free:
            raise RoomError("the room is full")
        token = self._seat_player(free[0], name)
        self.store.save_room(self._stored())
        self._broadcast_room()
        return free[0], token

    def abandoned(self, now: float) -> bool:
        """Whether this is a lobby nobody has been connected to for ``keep_empty_lobby``."""
        quiet = self.empty_since
        return self.status == "lobby" and quiet is not None and now - quiet >= self.settings.keep_empty_lobby

    def _seat_player(self, seat: int, name: str) -> str:
        token = secrets.token_urlsafe(24)
        self.seats[seat] = Seat(name, token=hash_token(token))
        return token

    def seat_of(self, token: str) -> int | None:
        """The seat whose token this is, or None."""
        digest = hash_token(token)
        for number, seat in enumerate(self.seats):
            if seat is not None and seat.token is not None and secrets.compare_digest(seat.token, digest):
                return number
        return None

    def start(self, seat: int | None) -> None:
        """The host starts the match; empty seats get bots, and the seating is fixed."""
        if seat != 0:
            raise RoomError("only the host (seat 0) can start the game")
        if self.status != "lobby":
            raise RoomError("the game has already started")
        for number, taken in enumerate(self.seats):
            if taken is None:
                self.seats[number] = Seat(f"bot {number}", bot=self.setup.bot)
        self.seed = fairness.new_seed()
        self._seat_bots()
        self.game = game = Game(self.rules, seed=self.seed)
        assert game.log is not None
        self.store.start_game(self.code, self._stored_seats(), self.seed, record.round_json(game.log[0]))
        self.status = "playing"
        self._tell(game.round_start_events)
        loop = asyncio.get_running_loop()
        for number, player in enumerate(self._all_seats()):
            if player.bot is None and player.connections == 0:  # joined, then left: the grace period starts
                player.away_timer = loop.call_later(self.settings.grace, self._mark_away, number)
        self._broadcast_room()
        self._broadcast(None, game.round_start_events)
        self._launch()

    def _seat_bots(self) -> None:
        """Seat a bot behind every seat (the away players' stand-ins included)."""
        bots = [make_bot(seat.bot or self.setup.bot) for seat in self._all_seats()]
        self.bots = BotSeats(self.rules, bots, [random.Random() for _ in bots])

    @classmethod
    def restore(cls, stored: StoredRoom, store: Store, settings: Settings) -> Room:
        """A room as stored; a game in play is replayed from its seed and record exactly."""
        room = cls(stored.code, RoomSetup.model_validate(stored.setup), store, settings)
        room.seats = [None if s is None else Seat(s["name"], token=s["token"], bot=s["bot"]) for s in stored.seats]
        room.status = stored.status
        if stored.status == "playing":
            assert stored.seed is not None
            room.seed = stored.seed
            partial = {"rules": room.rules.to_dict(), "rounds": stored.rounds}
            room._seat_bots()
            # The bots are told the game again as it replays, so they know what they knew.
            room.game = fairness.replay_seeded(partial, room.seed, on_events=lambda action, caused: room._tell(caused))
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
        if token is not None:
            seat = self.seat_of(token)
            if seat is None:
                raise RoomError("unknown token: this browser holds no seat in this room")
            connection.seat = seat
            player = self.seats[seat]
            assert player is not None
            player.connections += 1
            if player.away_timer is not None:
                player.away_timer.cancel()
                player.away_timer = None
            if player.away:
                player.away = False
                self._wake.set()
        self.connections.add(connection)
        self.empty_since = None
        self._broadcast_room()
        if self.game is not None:
            connection.post(self._update(connection.seat, connection.lang, [], None))
        if self.status == "over" and self.record is not None:
            connection.post(self._over_message())

    def detach(self, connection: Connection) -> None:
        """A connection closed; a seat left with none is given the grace period."""
        self.connections.discard(connection)
        if not self.connections:
            self.empty_since = asyncio.get_running_loop().time()
        if connection.seat is None:
            return
        player = self.seats[connection.seat]
        assert player is not None
        player.connections -= 1
        if player.connections == 0 and self.status == "playing":
            loop = asyncio.get_running_loop()
            player.away_timer = loop.call_later(self.settings.grace, self._mark_away, connection.seat)
        self._broadcast_room()

    def _mark_away(self, seat: int) -> None:
        player = self.seats[seat]
        assert player is not None
        player.away_timer = None
        if player.connections == 0 and self.status == "playing":
            player.away = True
            self._broadcast_room()
            self._wake.set()

    # ------------------------------------------------------------------ play

    def act(self, seat: int | None, move: Move, ref: int | None) -> None:
        """A player's action: checked against the sender's seat and the rules, then applied."""
        if self.status != "playing" or self.game is None:
            raise RoomError("the game is not being played" if self.status == "lobby" else "the game is over")
        if seat is None:
            raise RoomError("spectators cannot act")
        if move.p != seat:
            raise RoomError(f"you play seat {seat}, not seat {move.p}")
        try:
            action = Action.from_json(move.to_json())
            caused = self.game.apply(action)
        except (IllegalAction, NotationError) as error:
            raise RoomError(str(error)) from None
        self._commit(action, caused, ref, seat)

    def _commit(self, action: Action, caused: list[Event], ref: int | None = None, by: int | None = None) -> None:
        """Store, tell the bots, tell everyone; then let the bots and the timer look again."""
        game = self.game
        assert game is not None and game.log is not None
        result = game.log[-1].result
        self.store.append(
            self.code,
            game.round,
            record.move_entries(action, caused),
            None if result is None else {"winner": result.winner, "points": result.points},
        )
        self._tell(caused)
        self._broadcast(action, caused, ref, by)

    def _deal(self) -> None:
        game = self.game
        assert game is not None and game.log is not None
        caused = game.start_round()
        self.store.add_round(self.code, game.round, record.round_json(game.log[-1]))
        self._tell(caused)
        self._broadcast(None, caused)

    def _tell(self, caused: list[Event]) -> None:
        assert self.bots is not None
        self.bots.tell(caused)

    def _bot_seats(self) -> list[int]:
        return [number for number, seat in enumerate(self._all_seats()) if seat.bot is not None or seat.away]

    def _launch(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._drive(), name=f"room {self.code}")
        self._task.add_done_callback(_report_crash)

    async def _drive(self) -> None:
        """Play the bots' seats whenever the game waits for one; deal rounds; finish."""
        game = self.game
        bots = self.bots
        assert game is not None and bots is not None
        while not game.is_over:
            if game.round_over:
                await asyncio.sleep(self.settings.round_pause)
                self._deal()
                continue
            version = self.version
            seats = self._bot_seats()
            action = bots.react(game, seats)
            if action is None and game.current in seats:
                action = bots.checked(game.current, bots.ask(game, game.current, react=False))
            if action is None:
                self._wake.clear()
                await self._wake.wait()
                continue
            if self.settings.bot_delay:
                await asyncio.sleep(self.settings.bot_delay)
                if self.version != version:
                    continue  # someone acted meanwhile: think again
            self._commit(action, bots.apply(game, action.player, action))
            await asyncio.sleep(0)
        self._finish()

    def _reset_timer(self) -> None:
        """Start the turn timer when a new turn (seat, phase) begins for a person."""
        if not self.setup.turn_seconds or self.game is None:
            return
        game = self.game
        key = (game.round, self._turns)
        if key == self._timer_key:
            return
        self._timer_key = key
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.deadline = None
        if game.round_over or game.current in self._bot_seats():
            return
        loop = asyncio.get_running_loop()
        self.deadline = loop.time() + self.setup.turn_seconds
        self._timer = loop.call_later(self.setup.turn_seconds, self._expire, key)

    def _expire(self, key: tuple[int, int]) -> None:
        """Time is up for the seat on turn: it draws (and passes if it may)."""
        self._timer = None
        game = self.game
        if game is None or self._timer_key != key or game.round_over or game.is_over:
            return
        seat = game.current
        if game.phase is Phase.COLOR:  # nothing to draw: the seat's stand-in bot chooses the colour
            assert self.bots is not None
            action = self.bots.checked(seat, self.bots.ask(game, seat, react=False))
            self._commit(action, self.bots.apply(game, seat, action))
            return
        for kind in (Kind.DRAW, Kind.PASS):
            legal = [a for a in game.legal_actions(seat) if a.kind is kind]
            if legal:
                self._commit(legal[0], game.apply(legal[0]))

    def _finish(self) -> None:
        game = self.game
        assert game is not None
        if self._timer is not None:
            self._timer.cancel()
        self.status = "over"
        self.record = self.full_record()
        self.store.finish(self.code, self.record)
        assert self.bots is not None
        self.bots.close()
        self._broadcast_room()
        for connection in self.connections:
            connection.post(self._over_message())
        if self.on_over is not None:
            self.on_over(self)

    def full_record(self) -> dict[str, Any]:
        """The record so far; the seed is revealed only once the match is over."""
        game = self.game
        assert game is not None
        shuffle = fairness.reveal(self.seed) if game.is_over else fairness.commit(self.seed)
        seats = self._all_seats()
        return record.to_json(
            game,
            names=[seat.name for seat in seats],
            **{fairness.FIELD: shuffle, "bots": [n for n, seat in enumerate(seats) if seat.bot is not None]},
        )

    async def close(self) -> None:
        """Stop driving the game (the server is shutting down)."""
        if self._timer is not None:
            self._timer.cancel()
        for seat in self.seats:
            if seat is not None and seat.away_timer is not None:
                seat.away_timer.cancel()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self.bots is not None and self.status == "playing":
            self.bots.close()

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
            else {"name": seat.name, "bot": seat.bot is not None, "connected": seat.connections > 0, "away": seat.away}
            for seat in self.seats
        ]
        message: dict[str, Any] = {
            "type": "room",
            "code": self.code,
            "status": self.status,
            "you": you,
            "host": 0,
            "seats": seats,
            "rules": self.rules.to_dict(),
            "turn_seconds": self.setup.turn_seconds,
        }
        if self.seed:
            message["commitment"] = fairness.commitment_of(self.seed)
        return message

    def _broadcast_room(self) -> None:
        self.version += 1
        for connection in self.connections:
            connection.post(self.room_message(connection.seat))

    def _broadcast(
        self, action: Action | None, caused: list[Event], ref: int | None = None, by: int | None = None
    ) -> None:
        self.version += 1
        self._wake.set()
        if action is None or action.kind not in (Kind.UNO, Kind.CATCH):
            self._turns += 1
        self._reset_timer()
        made: dict[tuple[int | None, str], dict[str, Any]] = {}
        for connection in self.connections:
            key = (connection.seat, connection.lang)
            if key not in made:
                made[key] = self._update(connection.seat, connection.lang, caused, None)
            message = made[key]
            if ref is not None and connection.seat == by:
                message = message | {"ref": ref}
            connection.post(message)

    def _update(self, seat: int | None, lang: str, caused: list[Event], ref: int | None) -> dict[str, Any]:
        """One change as ``seat`` may see it: redacted events, their narration, its view."""
        game = self.game
        assert game is not None
        remaining = None
        if self.deadline is not None:
            remaining = max(0.0, round(self.deadline - asyncio.get_running_loop().time(), 1))
        seen = [redact(event, seat) for event in caused]
        view = game.view(seat).to_json()
        del view["rules"]  # sent once, in the room message
        message: dict[str, Any] = {
            "type": "update",
            "events": [ev.to_json(event) for event in seen],
            "narration": narrate(seen, self._names(), lang),
            "view": view,
            "turn_left": remaining,
        }
        if ref is not None:
            message["ref"] = ref
        return message

    def _names(self) -> list[str]:
        return [seat.name if seat is not None else f"{number}" for number, seat in enumerate(self.seats)]

    def _over_message(self) -> dict[str, Any]:
        return {
            "type": "over",
            "record": f"/api/rooms/{self.code}/record",
            "scores": self.record and self.record["scores"],
        }

    def _stored_seats(self) -> list[dict[str, Any]]:
        return [seat.stored() for seat in self._all_seats()]

    def _stored(self) -> StoredRoom:
        seats: list[Any] = [None if seat is None else seat.stored() for seat in self.seats]
        return StoredRoom(self.code, self.setup.model_dump(), seats, self.status)


def _report_crash(task: asyncio.Task[None]) -> None:
    """A room's driver should never fail; if it does (a bot error), say so in the log."""
    if not task.cancelled() and task.exception() is not None:
        error = task.exception()
        level = logging.ERROR if not isinstance(error, BotError) else logging.WARNING
        log.log(level, "room %s stopped: %s", task.get_name(), error, exc_info=error)
