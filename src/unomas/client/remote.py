"""A seat of a room of ``unomas serve``, over the room protocol (docs/protocol.md).

:func:`create_room` and :func:`join_room` take a seat over HTTP and give its
:class:`~unomas.client.links.Ticket`; a :class:`RoomClient` connects with it (or with
none, to watch), says hello, and keeps what the server tells it: the room, the seat's
view (its hand, the table, its ``legal_actions``), every change's redacted events and
narration, the end of the match. :meth:`RoomClient.act` sends one of the view's legal
actions with the view's ply (the ply guard: an action that another seat's overtook is
refused as ``move.stale`` and changes nothing) and waits for the server's answer. A lost
connection is opened again with the same token, so the seat is kept; the first update
after it brings the view and the round so far.

The client never judges an action: the server does, and its refusals are raised as
:class:`Refused`, with the server's code and params.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import websockets
from websockets.exceptions import ConnectionClosed

from unomas.client.links import RoomLink, Ticket, origin
from unomas.error_codes import ERRORS
from unomas.errors import UnoError

__all__ = [
    "Change",
    "ConnectionLost",
    "Refused",
    "RoomClient",
    "create_room",
    "fetch_record",
    "join_room",
    "room_info",
    "seat_names",
]

log = logging.getLogger("unomas.client")

FINAL_CODES = frozenset({"seat.taken_over", "auth.bad_token", "room.not_found", "origin.forbidden"})
"""Refusals after which coming back with the same token cannot help: the client stops."""
RECONNECT_FIRST = 0.2
RECONNECT_MAX = 5.0
"""Seconds between attempts to connect again (doubling up to the max)."""
MAX_MESSAGE = 2**22
"""The longest message accepted from the server, in bytes (a first update carries a history)."""


class Refused(UnoError):
    """The server refused a request: its ``code`` and ``params`` are the server's (a code this
    client does not know is ``client.unknown_refusal``, with the server's ``code`` and ``message``)."""

    relayed = True

    @classmethod
    def from_json(cls, error: dict[str, Any]) -> Refused:
        """From an ``error`` message, or an HTTP answer's ``error`` object."""
        code = str(error.get("code"))
        if code not in ERRORS:
            return cls("client.unknown_refusal", code=code, message=str(error.get("message", "")))
        return cls(code, **dict(error.get("params") or {}))


class ConnectionLost(UnoError):
    """The connection closed before the server answered an action: look at the view again
    once connected (the action may or may not have been made)."""


@dataclass(frozen=True, slots=True)
class Change:
    """One change as the seat saw it: its events (JSON, redacted for the seat) and their narration."""

    events: list[dict[str, Any]]
    narration: list[str]


# ---------------------------------------------------------------------- HTTP


def seat_names(room: dict[str, Any]) -> list[str]:
    """Every seat's name as a ``room`` message gives them (a free seat: its number)."""
    return [taken["name"] if taken else f"{number}" for number, taken in enumerate(room["seats"])]


def _request(url: str, body: dict[str, Any] | None = None) -> Any:
    """The JSON answer of a server's HTTP API; a refusal raises :class:`Refused`, a server
    that cannot be reached ``client.unreachable``, one that answers no JSON
    ``client.not_a_server``."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="GET" if body is None else "POST")
    request.add_header("Content-Type", "application/json")
    parts = urllib.parse.urlsplit(url)
    server = f"{parts.scheme}://{parts.netloc}"
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as error:
        try:
            answer = json.loads(error.read())
        except ValueError:
            answer = {}
        if not isinstance(answer, dict) or not isinstance(answer.get("error"), dict):
            raise UnoError("client.not_a_server", server=server, status=error.code) from None
        raise Refused.from_json(answer["error"]) from None
    except OSError:  # refused, no such host, timed out: a URLError or the socket's own
        raise UnoError("client.unreachable", server=server) from None
    except ValueError:
        raise UnoError("client.not_a_server", server=server, status=200) from None


def create_room(server: str, name: str, **setup: Any) -> tuple[Ticket, str]:
    """Create a room on ``server`` (``http://host:port``) as its host, with the
    :class:`~unomas.server.protocol.RoomSetup` fields of ``setup``; the host's ticket and the link."""
    http = origin(server)
    answer = _request(f"{http}/api/rooms", {"name": name, **setup})
    return Ticket(http, answer["code"], answer["seat"], answer["token"]), answer["link"]


def join_room(link: RoomLink, name: str, *, program: bool = False) -> Ticket:
    """Take the next free seat of a room in its lobby (``program``: as a program, which
    takes a seat the host kept for programs first)."""
    answer = _request(f"{link.http}/api/rooms/{link.code}/join", {"name": name, "program": program})
    return Ticket(link.http, answer["code"], answer["seat"], answer["token"])


def room_info(link: RoomLink) -> dict[str, Any]:
    """The room as anyone may see it (its ``room`` message)."""
    return dict(_request(f"{link.http}/api/rooms/{link.code}"))


def fetch_record(link: RoomLink) -> dict[str, Any]:
    """The finished match's record (RECORD.md), its seed revealed."""
    return dict(_request(f"{link.http}/api/rooms/{link.code}/record"))


# ---------------------------------------------------------------------- WebSocket


def _presence_notice(seat: dict[str, Any], message: dict[str, Any]) -> UnoError | None:
    """What a ``presence`` message tells of a person's seat that was ``seat`` before: they
    lost the connection, came back, or are away (a bot plays for them); None: nothing new."""
    if seat["bot"]:
        return None
    if message["away"] and not seat.get("away"):
        return UnoError("presence.away", name=seat["name"])
    if seat.get("connected") and not message["connected"]:
        return UnoError("presence.lost", name=seat["name"])
    if not seat.get("connected") and message["connected"]:
        return UnoError("presence.back", name=seat["name"])
    return None


class RoomClient:
    """One connection to a room: a seat's (with its token) or a spectator's (without).

    Use it as ``async with RoomClient.of(ticket) as client:``; :meth:`wait_turn` and
    :meth:`act` play, :attr:`view` is the seat's latest view, :attr:`changes` every change
    heard (also queued on :attr:`inbox`; neither with ``keep_changes=False``), :attr:`over`
    the end of the match.
    """

    def __init__(
        self,
        room: RoomLink,
        token: str | None = None,
        *,
        lang: str = "en",
        reconnect: bool = True,
        headers: dict[str, str] | None = None,
        on_message: Callable[[dict[str, Any]], None] | None = None,
        keep_changes: bool = True,
    ) -> None:
        self.link = room
        self.token = token
        """The seat's secret token (None: watching)."""
        self.lang = lang
        self.reconnect = reconnect
        self.headers = headers or {}
        self.on_message = on_message
        """Called with every message as it arrives (a benchmark's clock, a test's log)."""
        self.keep_changes = keep_changes
        """Keep what is heard (a load generator holding thousands of seats keeps nothing)."""
        self.room: dict[str, Any] | None = None
        self.view: dict[str, Any] | None = None
        self.changes: list[Change] = []
        self.inbox: asyncio.Queue[Change] = asyncio.Queue()
        self.over: dict[str, Any] | None = None
        self.errors: list[dict[str, Any]] = []
        """Refusals that answered no action of ours (a bad hello, a rate limit)."""
        self.notices: list[UnoError] = []
        """What the other seats' people did: lost the connection, came back, left to a bot
        (codes ``presence.*``, each with the seat's ``name``)."""
        self.failed: Refused | None = None
        """The refusal that ended the connection for good (its seat taken over, a bad token)."""
        self.updates = 0
        """How many updates arrived (each brings a new view, a reconnection's first one too)."""
        self.state: int | None = None
        """The match's state id of the last update: the changes the server has stored."""
        self.connects = 0
        """How many times the connection was opened (1 + the reconnections)."""
        self._socket: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._changed = asyncio.Condition()
        self._pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._next_ref = 0
        self._closing = False
        self._connected = asyncio.Event()

    @classmethod
    def of(cls, ticket: Ticket, **options: Any) -> RoomClient:
        """The client of the seat ``ticket`` holds."""
        return cls(ticket.room, ticket.token, **options)

    @property
    def seat(self) -> int | None:
        """The seat played, as the server says (None: watching, or not connected yet)."""
        return None if self.room is None else self.room["you"]

    @property
    def connected(self) -> bool:
        """Whether the connection is open and the server has answered its hello."""
        return self._connected.is_set() and self._socket is not None

    @property
    def done(self) -> bool:
        """The match is over, or the connection is ended for good."""
        return self.over is not None or self.failed is not None or self._closing

    async def __aenter__(self) -> RoomClient:
        await self.connect()
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    async def connect(self, timeout: float = 15.0) -> None:
        """Connect and say hello; returns once the server has answered with the room."""
        self._reader = asyncio.get_running_loop().create_task(self._read_forever())
        waiter = asyncio.ensure_future(self._connected.wait())
        done, _ = await asyncio.wait({waiter, self._reader}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        waiter.cancel()
        if self.failed is not None:
            raise self.failed
        if self._reader in done:
            self._reader.result()
        if not done:
            await self.close()
            raise ConnectionLost("client.no_answer", seconds=f"{timeout:g}")

    async def close(self) -> None:
        """Close the connection (the seat stays ours: the server gives it the grace period)."""
        self._closing = True
        if self._socket is not None:
            with contextlib.suppress(Exception):
                await self._socket.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        self._fail_pending(ConnectionLost("client.closed"))
        await self._notify()

    async def drop(self) -> None:
        """Break the connection as a network fault would; the client connects again."""
        if self._socket is not None:
            await self._socket.close()

    # ------------------------------------------------------------------ reading

    async def _read_forever(self) -> None:
        pause = RECONNECT_FIRST
        while not self.done:
            try:
                async with websockets.connect(
                    self.link.websocket, max_size=MAX_MESSAGE, additional_headers=self.headers
                ) as socket:
                    self._socket = socket
                    self.connects += 1
                    await socket.send(json.dumps({"type": "hello", "token": self.token, "lang": self.lang}))
                    async for raw in socket:
                        await self._receive(json.loads(raw))
                        pause = RECONNECT_FIRST
            except (OSError, ConnectionClosed, TimeoutError) as error:
                log.info("connection to %s lost: %s", self.link.websocket, error)
            finally:
                self._socket = None
                self._connected.clear()
            self._fail_pending(ConnectionLost("client.connection_lost"))
            await self._notify()  # whoever shows the connection says it is being restored
            if not self.reconnect or self.done:
                break
            await asyncio.sleep(pause)
            pause = min(2 * pause, RECONNECT_MAX)
        if not self.done:
            self.failed = Refused("client.connection_lost")
        await self._notify()

    async def _receive(self, message: dict[str, Any]) -> None:
        if self.on_message is not None:
            self.on_message(message)
        kind = message.get("type")
        if kind == "room":
            self.room = message
            self._connected.set()
        elif kind == "update":
            self.updates += 1
            self.state = message.get("state")
            self.view = message["view"]
            if "history" in message:
                self._catch_up([Change(earlier["events"], earlier["narration"]) for earlier in message["history"]])
            if message["events"]:
                self._heard(Change(message["events"], message["narration"]))
            self._answer(message.get("ref"), result=message)
        elif kind == "presence" and self.room is not None:
            seat = self.room["seats"][message["seat"]]
            if seat is not None:
                notice = _presence_notice(seat, message) if message["seat"] != self.seat else None
                if notice is not None:
                    self.notices.append(notice)
                seat.update(connected=message["connected"], away=message["away"])
        elif kind == "over":
            self.over = message
        elif kind == "error":
            refusal = Refused.from_json(message)
            if not self._answer(message.get("ref"), error=refusal):
                self.errors.append(message)
            if refusal.code in FINAL_CODES:
                self.failed = refusal
                self._connected.set()
        await self._notify()

    def _catch_up(self, history: list[Change]) -> None:
        """The round so far, sent on a hello: it replaces what this client heard of the
        round (a reconnection), and only what is new goes to the inbox."""
        if not self.keep_changes:
            return
        heard = self.changes
        start = next(
            (n for n in range(len(heard) - 1, -1, -1) if any(e["event"] == "dealt" for e in heard[n].events)),
            len(heard),
        )
        self.changes = heard[:start] + history
        for change in self.changes[len(heard) :]:
            self.inbox.put_nowait(change)

    def _heard(self, change: Change) -> None:
        if not self.keep_changes:
            return
        self.changes.append(change)
        self.inbox.put_nowait(change)

    def _answer(self, ref: Any, *, result: dict[str, Any] | None = None, error: Refused | None = None) -> bool:
        future = self._pending.pop(ref, None) if isinstance(ref, int) else None
        if future is None or future.done():
            return False
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result or {})
        return True

    def _fail_pending(self, error: UnoError) -> None:
        pending, self._pending = self._pending, {}
        for future in pending.values():
            if not future.done():
                future.set_exception(error)

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    # ------------------------------------------------------------------ waiting and acting

    async def wait_for(self, ready: Callable[[], bool], timeout: float | None = None) -> bool:
        """Wait until ``ready()`` holds (True) or the match is over, the connection ended
        for good or ``timeout`` seconds passed (then ``ready()``)."""
        async with self._changed:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):  # (wait_for could swallow a cancellation)
                    await self._changed.wait_for(lambda: ready() or self.done)
        return ready()

    def my_decision(self) -> bool:
        """Whether the game waits for this seat now: it is on turn (or chooses the
        starting colour) and has legal actions."""
        view = self.view
        return bool(view and view["legal_actions"] and view["current"] == self.seat)

    async def wait_turn(self, timeout: float | None = None) -> dict[str, Any] | None:
        """The view once the game waits for this seat; None if the match ended or
        ``timeout`` passed first."""
        return self.view if await self.wait_for(self.my_decision, timeout) else None

    async def start(self) -> None:
        """Start the match (the host, in the lobby); refused with the server's code otherwise."""
        await self._send_and_wait({"type": "start"}, lambda: self.room is not None and self.room["status"] != "lobby")

    async def act(self, action: dict[str, Any], *, ply: int | None = None, timeout: float = 30.0) -> dict[str, Any]:
        """Send ``action`` (a move of the view's ``legal_actions``) answering ``ply`` (by
        default the ply of the latest view: the ply guard) and wait for the update it
        caused; a refusal raises :class:`Refused` (``move.stale``, ``move.illegal``…)."""
        if self.view is None:
            raise Refused("room.not_playing")
        ref = self._next_ref
        self._next_ref += 1
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[ref] = future
        message = {"type": "act", "action": action, "ref": ref, "ply": self.view["ply"] if ply is None else ply}
        try:
            await self._send(message)
            # Not asyncio.wait_for: when the answer came just as the caller was cancelled, it
            # returned the answer and the cancellation was lost (the caller played on).
            async with asyncio.timeout(timeout):
                return await future
        finally:
            self._pending.pop(ref, None)

    async def let_go(self, ply: int | None = None) -> None:
        """Let the seat's out-of-turn chance go (that of ``ply``, by default the latest
        view's): the bots need not wait the reaction window for it."""
        if self.view is None:
            return
        with contextlib.suppress(ConnectionLost):  # connected again: the window is over by then
            await self._send({"type": "let_go", "ply": self.view["ply"] if ply is None else ply})

    async def _send(self, message: dict[str, Any]) -> None:
        socket = self._socket
        if socket is None:
            raise ConnectionLost("client.not_connected")
        try:
            await socket.send(json.dumps(message))
        except ConnectionClosed:
            raise ConnectionLost("client.connection_lost") from None

    async def _send_and_wait(self, message: dict[str, Any], done: Callable[[], bool], timeout: float = 15.0) -> None:
        errors = len(self.errors)
        await self._send(message)
        if not await self.wait_for(lambda: done() or len(self.errors) > errors, timeout):
            if len(self.errors) > errors:
                raise Refused.from_json(self.errors[-1])
            raise ConnectionLost("client.no_answer", seconds=f"{timeout:g}")

    async def wait_over(self, timeout: float | None = None) -> dict[str, Any] | None:
        """The ``over`` message once the match is over (None if ``timeout`` passed first)."""
        await self.wait_for(lambda: self.over is not None, timeout)
        return self.over
