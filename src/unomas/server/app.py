"""The web application: HTTP for rooms and records, a WebSocket per player, static files.

``create_app(store)`` builds the Starlette app; ``serve`` runs it on uvicorn (what
``unomas serve`` calls). Routes:

* ``GET /`` and ``GET /r/{code}`` (the link to a room): the browser game (``/static/``: its
  ES modules, style, web app manifest, SVG and PNG icons, offline page; ``/favicon.ico``: the
  icon; ``/sw.js``: the service worker, at the root so it serves the whole site). Files and
  catalogs are revalidated by ETag (``no-cache``) and sent gzip-compressed;
* ``GET /api/i18n/{lang}``: the page's words, ``{catalog, switches, bots, errors}``: the
  gettext catalog as ``{msgid: text}`` (:func:`~unomas.i18n.catalog_json`), the house-rule
  switches of the create-room form (:func:`~unomas.i18n.switches.switches_json`), the bots
  a room may seat, and each error code's words (:func:`~unomas.i18n.error_messages`), with
  an ETag;
* ``POST /api/rooms``: create a room (:class:`~unomas.server.protocol.RoomSetup`) →
  ``{code, seat, token, link}``; ``POST /api/rooms/{code}/join`` (``{name}``) →
  ``{seat, token}``; ``GET /api/rooms/{code}``: the room as anyone may see it;
  ``GET /api/rooms/{code}/record``: a finished game's record, seed revealed;
* ``WS /ws/{code}``: play (see :mod:`unomas.server.protocol`);
* ``GET /healthz`` (JSON: up), ``GET /readyz`` (JSON: ready for players, not while
  draining or while the store fails) and ``GET /metrics`` (Prometheus,
  :mod:`unomas.server.metrics`; behind ``--metrics-token`` if set).

A refusal answers ``{"error": {code, params, message}}`` with the HTTP status of its code
(:data:`~unomas.error_codes.ERRORS`); nothing here reads an error's message.

Against hostile clients: per client address (the peer's, or ``X-Forwarded-For`` from a
trusted proxy only) rates for creating rooms and looking them up, and a cap on open
connections; a hello deadline; ``Origin`` checked on WebSockets and POSTs, JSON bodies
only; security headers on every response (:class:`SecurityHeaders`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import heapq
import ipaddress
import json
import logging
import math
import secrets
import signal
import time
from collections import Counter
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from unomas.bots.levels import ROOM_LEVELS
from unomas.error_codes import ERRORS
from unomas.errors import Refusal, UnoError
from unomas.i18n import LANGUAGES, bot_label, bot_slips, catalog_json, error_messages
from unomas.i18n.switches import switches_json
from unomas.rules import PRESETS, Rules
from unomas.server.collector import tend_collector
from unomas.server.metrics import CONTENT_TYPE, Metrics
from unomas.server.protocol import (
    Act,
    Hello,
    JoinRequest,
    LetGo,
    React,
    Rematch,
    RoomSetup,
    Start,
    invalid,
    parse_client_message,
)
from unomas.server.rooms import Connection, Room, Settings, memory_capacity, new_code
from unomas.server.storage import Leases, Store, StoreWriter, open_store
from unomas.server.transport import FILE_HEADROOM, Sockets, address_group, open_files, uvicorn_config

__all__ = ["PerClient", "RateLimit", "Server", "client_address", "create_app", "serve"]

STATIC = Path(__file__).parent / "static"
MAX_BODY = 4096
log = logging.getLogger("unomas.server")

PRESET_RULES: dict[str, dict[str, int | bool | str]] = {name: Rules.preset(name).to_dict() for name in PRESETS}
"""Each preset's settings (a house rule at its default left out), for the room form's presets."""


class RateLimit:
    """A token bucket: ``burst`` messages at once, ``rate`` per second after that."""

    def __init__(self, rate: float = 20.0, burst: float = 40.0) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.last = time.monotonic()

    def allow(self) -> bool:
        """Take one token if there is one."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def retry_after(self) -> int:
        """Whole seconds until a token is there again."""
        return max(1, math.ceil((1 - self.tokens) / self.rate))

    def full(self) -> bool:
        """Whether the bucket has filled up again (nothing to remember of its client)."""
        return self.tokens + (time.monotonic() - self.last) * self.rate >= self.burst


class PerClient:
    """A :class:`RateLimit` for each client address; :meth:`check` refuses with
    ``client.limited`` (and the seconds to wait) once a client has used its burst."""

    def __init__(self, rate: tuple[float, float], what: str) -> None:
        self.rate = rate
        self.what = what
        self.buckets: dict[str, RateLimit] = {}

    def check(self, client: str) -> None:
        bucket = self.buckets.get(client)
        if bucket is None:
            bucket = self.buckets[client] = RateLimit(*self.rate)
        if not bucket.allow():
            wait = bucket.retry_after()
            raise Refusal("client.limited", retry_after=wait)

    def prune(self) -> None:
        """Forget the clients whose buckets are full again (memory stays bounded)."""
        for client in [client for client, bucket in self.buckets.items() if bucket.full()]:
            del self.buckets[client]


def client_address(scope: Mapping[str, Any]) -> str:
    """The client as the per-client limits count it (:func:`~unomas.server.transport.address_group`):
    the peer's address, which uvicorn has taken from ``X-Forwarded-For`` if (and only if)
    the peer is a ``--trust-proxy`` address."""
    client = scope.get("client")
    return address_group(str(client[0])) if client else "unknown"


def same_origin(scope: Mapping[str, Any], headers: Mapping[str, str], allowed: frozenset[str]) -> bool:
    """Whether a request may change things: no ``Origin`` (not sent from a page), the
    server's own origin (its scheme too: an https page may not use the http server, nor
    the other way round), or one of ``allowed``."""
    origin = headers.get("origin")
    if origin is None:
        return True
    scheme = {"ws": "http", "wss": "https"}.get(scope["scheme"], scope["scheme"])
    parts = urlsplit(origin)
    return origin in allowed or (parts.scheme == scheme and parts.netloc == headers.get("host"))


@functools.lru_cache(maxsize=1024)
def host_allowed(host: str, allowed: frozenset[str]) -> bool:
    """Whether the ``Host`` header ``host`` names this server: an address (no page can
    rebind a name to one), or one of the ``allowed`` names (``--allowed-host``, the bound
    host, ``--public-url``'s).

    >>> names = frozenset({"localhost"})
    >>> host_allowed("localhost:8000", names), host_allowed("[::1]:8000", names), host_allowed("evil.example", names)
    (True, True, False)
    """
    try:
        name = urlsplit(f"//{host}").hostname
    except ValueError:
        return False
    if not name:
        return False
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return name in allowed
    return True


class AllowedHosts:
    """ASGI middleware: a request (or WebSocket) whose ``Host`` is a name not allowed is
    refused (``421``, ``host.unknown``) before anything is done: a page whose own name was
    rebound to this server's address (DNS rebinding) reaches nothing. Starlette's
    ``TrustedHostMiddleware`` would refuse the addresses and give no code."""

    def __init__(self, app: Any, allowed: frozenset[str]) -> None:
        self.app = app
        self.allowed = frozenset(name.lower() for name in allowed)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            host = next((bytes(v).decode("latin-1") for k, v in scope["headers"] if k == b"host"), "")
            if not host_allowed(host, self.allowed):
                await _error(Refusal("host.unknown", host=host[:100]))(scope, receive, send)
                return
        await self.app(scope, receive, send)


HEARTBEAT = 0.5
"""The most seconds between two heartbeats of an instance sharing its store: how long a
room asked for elsewhere may wait to be handed over if the notice (``NOTIFY``) that asks for
it, or that it was let go, is lost."""


class Server:
    """The rooms of one server process and the store behind them."""

    def __init__(self, store: Store, settings: Settings, rate: tuple[float, float]) -> None:
        self.metrics = Metrics(self)
        self.store = StoreWriter(store, self.metrics.store_seconds.observe)
        """Every store call goes through its one thread, off the event loop."""
        self.settings = settings
        self.rate = rate
        self.rooms: dict[str, Room] = {}
        self._vacant: list[tuple[float, str]] = []
        """A heap of (empty since, code): the lobbies that may make space (:meth:`_vacated`)."""
        self.max_rooms = settings.max_rooms or memory_capacity()
        """Rooms held at once (:attr:`Settings.max_rooms`, or as many as the memory holds)."""
        self.creates = PerClient(settings.create_rate, "rooms created")
        self.lookups = PerClient(settings.lookup_rate, "room look-ups")
        self.sockets: Counter[str] = Counter()
        """Open WebSocket connections per client address."""
        self.held: Counter[str] = Counter()
        """Rooms not over per client address that created them."""
        self.creators: dict[str, str] = {}
        """The client address that created each room not over (restored rooms have none)."""
        self.open_sockets = Sockets()
        """Open sockets of every kind per client address (counted by the HTTP layer)."""
        self.draining = False
        """Going down (SIGTERM): not ready for new players."""
        self.leases = store if isinstance(store, Leases) and store.owner is not None else None
        """The rooms' leases, when several instances share the store (else every room is ours)."""
        self._adopting: dict[str, asyncio.Future[Room | None]] = {}
        """The rooms being taken over from the store just now, by code."""
        self._freed: dict[str, asyncio.Event] = {}
        """Set when the room by that code, waited for here, is let go by its host (``NOTIFY``)."""
        self._handing: set[asyncio.Future[None]] = set()
        """The rooms being handed over on another instance's asking (``NOTIFY``)."""
        self._keeper: asyncio.Task[None] | None = None
        self._sweeper: asyncio.Task[None]
        self._collector: asyncio.Task[None]
        self.loop: asyncio.AbstractEventLoop | None = None

    def client(self, scope: Mapping[str, Any]) -> str:
        return client_address(scope)

    def guard(self, request: Request) -> None:
        """Refuse a state-changing request from another site's page, or one not in JSON."""
        if not same_origin(request.scope, request.headers, self.settings.allowed_origins):
            raise Refusal("origin.forbidden")
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise Refusal("body.not_json")

    async def look_up(self, scope: Mapping[str, Any], code: str) -> Room:
        """The room by ``code``, for a client within its look-up rate; with leases, a room
        hosted by no live instance, or by one that hands it over, is taken over here."""
        await self.check_lookup(self.client(scope))
        room = self.rooms.get(code.upper())
        if room is None and self.leases is not None:
            room = await self.adopt(code.upper())
        if room is None:
            raise Refusal("room.not_found", room=code)
        return room

    async def check_lookup(self, client: str) -> None:
        """A room look-up by ``client``, within its rate here and, with leases, on every
        instance (``client.limited``); a flood is refused here before it costs the store."""
        self.lookups.check(client)
        if self.leases is not None:
            wait = await self.store(self.leases.take, "lookup", client, *self.settings.lookup_rate)
            if wait:
                raise Refusal("client.limited", retry_after=wait)

    async def adopt(self, code: str, *, ask: bool = True) -> Room | None:
        """Host ``code`` here, rebuilt from the store, once its lease is ours (None: there is
        no such room, or it is over); each room is taken over once however many ask (see
        :meth:`_take_over` for ``ask``)."""
        waiting = self._adopting.get(code)
        if waiting is None:
            waiting = self._adopting[code] = asyncio.ensure_future(self._take_over(code, ask=ask))
            waiting.add_done_callback(lambda _: self._adopting.pop(code, None))
        return await asyncio.shield(waiting)

    async def _take_over(self, code: str, *, ask: bool = True) -> Room | None:
        """Ask for ``code``'s lease until it is ours (its host hands it over, or its lease
        lapses), then restore the room; ``server.restarting`` if that takes too long. Not
        ``ask``ing: take it if it is free or lapsed, else leave it (None)."""
        assert self.leases is not None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.settings.lease_seconds + 2
        try:
            while True:
                # (waited on from before asking: a room let go meanwhile is not missed)
                freed = self._freed[code] = asyncio.Event()
                answer = await self.store(self.leases.acquire, code, ask)
                if answer == "gone" or (answer == "held" and not ask):
                    return None
                if answer == "mine":
                    return await self._restore(code)
                if loop.time() > deadline:
                    raise Refusal("server.restarting")
                with contextlib.suppress(TimeoutError):  # told when its host lets it go; asked again anyway
                    await asyncio.wait_for(freed.wait(), HEARTBEAT)
        finally:
            self._freed.pop(code, None)

    async def _restore(self, code: str) -> Room | None:
        """The room ``code``, whose lease is ours now, hosted here (None: over just now)."""
        room = self.rooms.get(code)
        if room is not None:
            return room
        stored = await self.store(self.store.store.load, code)
        if not stored:
            return None
        room = Room.restore(stored[0], self.store, self.settings)
        self._add(room)
        log.info("room %s taken over", code)
        return room

    def _told(self, kind: str, owner: str | None, code: str) -> None:
        """On the loop, a notice of the leases: a room of ours asked for elsewhere is handed
        over now; a room waited for here, let go, is asked for again now."""
        if kind == "want" and self.leases is not None and owner == self.leases.owner:
            room = self.rooms.get(code)
            if room is not None and room.status != "over":
                handing = asyncio.ensure_future(self._hand_over(room))
                self._handing.add(handing)
                handing.add_done_callback(self._handing.discard)
        elif kind == "free" and code in self._freed:
            self._freed[code].set()

    async def _keep_leases(self) -> None:
        """Renew this instance's heartbeat; hand over the rooms another instance asks for
        (or whose lease is lost), and take over the games whose host died."""
        assert self.leases is not None
        while True:
            try:
                before = {code for code, room in self.rooms.items() if room.status != "over"}
                held, wanted = await self.store(self.leases.heartbeat, self.settings.lease_seconds)
                for code in before:
                    room = self.rooms.get(code)
                    if room is not None and (code not in held or code in wanted):
                        await self._hand_over(room)
                for code in await self.store(self.leases.orphans, 100):
                    try:
                        await self.adopt(code, ask=False)  # (another instance quicker: it is theirs)
                    except Exception:  # one broken room must not keep the others (nor the heartbeat) down
                        log.exception("room %s could not be taken over", code)
            except UnoError:  # the store fails just now: the next beat tries again
                pass
            await asyncio.sleep(min(self.settings.lease_seconds / 3, HEARTBEAT))

    async def _hand_over(self, room: Room) -> None:
        """Stop hosting ``room``: its pages are told to reconnect (they reach the instance
        taking it over), its writes under way finish, then its lease is let go."""
        assert self.leases is not None
        if self.rooms.get(room.code) is not room:  # (handed over already: told twice)
            return
        del self.rooms[room.code]
        self._release(room.code)
        notice = Refusal("server.restarting")
        for connection in list(room.connections):
            connection.close(1012, "room moving", {"type": "error", **notice.to_json()})
        await room.close()
        await self.store(self.leases.release, [room.code])
        log.info("room %s handed over", room.code)

    async def start(self) -> None:
        """Bring back every stored room; games in play resume where they were."""
        self.loop = asyncio.get_running_loop()
        if self.leases is None:
            stored_rooms = await self.store(self.store.store.load)
        else:  # this instance's own rooms (it was restarted); the others' stay theirs
            held, _ = await self.store(self.leases.heartbeat, self.settings.lease_seconds)
            await self.store(self.leases.reset)
            loop = self.loop
            await self.store(self.leases.listen, lambda *notice: loop.call_soon_threadsafe(self._told, *notice))
            stored_rooms = [room for room in await self.store(self.store.store.load) if room.code in held]
            self._keeper = self.loop.create_task(self._keep_leases())
        for stored in stored_rooms:
            try:
                self._add(Room.restore(stored, self.store, self.settings))
            except Exception:  # one broken room must not keep the others down
                log.exception("room %s could not be restored", stored.code)
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_abandoned_lobbies())
        # What lives a while (modules, rooms, connections) is frozen out of the garbage
        # collector's passes, which would otherwise pause every room for longer and longer.
        settings = self.settings
        self._collector = self.loop.create_task(tend_collector(settings.freeze_every, settings.collect_every))

    async def _sweep_abandoned_lobbies(self) -> None:
        """Forget the lobbies nobody came back to and end the matches everyone left, so rooms
        never pile up in memory."""
        loop = asyncio.get_running_loop()
        settings = self.settings
        while True:
            keep = (settings.keep_empty_lobby, settings.keep_unvisited_lobby, settings.keep_unattended_match)
            await asyncio.sleep(min(60.0, *(seconds / 2 for seconds in keep)))
            now = loop.time()
            for room in list(self.rooms.values()):
                room.end_if_deserted(now)
            self.creates.prune()
            self.lookups.prune()
            if self.leases is not None:  # the shared buckets full again
                with contextlib.suppress(UnoError):
                    full = max(burst / rate for rate, burst in (settings.create_rate, settings.lookup_rate))
                    await self.store(self.leases.prune, full)
            self.open_sockets.prune()
            self._prune_vacant()
            for room in [room for room in self.rooms.values() if room.abandoned(now)]:
                await self._forget(room)

    async def _forget(self, room: Room) -> None:
        """Drop a lobby: its spectators are closed, it is gone from memory and the store."""
        del self.rooms[room.code]
        self._release(room.code)
        for connection in list(room.connections):
            connection.close(
                4404, "room closed", {"type": "error", **Refusal("room.not_found", room=room.code).to_json()}
            )
        await room.close()
        with contextlib.suppress(Refusal):  # the store is failing: forgotten next time it works
            await self.store(self.store.store.forget, room.code)

    async def _make_space(self) -> None:
        """At :attr:`~unomas.server.rooms.Settings.max_rooms`, forget the lobby with no
        seated person connected for the longest, or refuse (``room.capacity``)."""
        limit = self.max_rooms
        if len(self.rooms) < limit:
            return
        vacant = self._vacant
        while vacant:  # the earliest entry still true (entries go stale as people come and go)
            since, code = heapq.heappop(vacant)
            room = self.rooms.get(code)
            if room is not None and room.unattended() and room.empty_since == since:
                await self._forget(room)
                return
        raise Refusal("room.capacity", limit=limit)

    def _vacated(self, room: Room) -> None:
        """``room``'s last seated person left (or it was just made): a candidate for
        :meth:`_make_space`, which then finds the lobby empty the longest without looking
        at every room (a flood at the limit would otherwise cost a pass over them all per
        create). Stale entries are dropped there, and by :meth:`_prune_vacant`."""
        if room.empty_since is not None:
            heapq.heappush(self._vacant, (room.empty_since, room.code))

    def _prune_vacant(self) -> None:
        """Rebuild the candidates from the rooms once stale entries outnumber them (memory
        stays bounded however often people come and go)."""
        if len(self._vacant) > 2 * len(self.rooms) + 64:
            self._vacant = [
                (since, code)
                for code, room in self.rooms.items()
                if room.unattended() and (since := room.empty_since) is not None
            ]
            heapq.heapify(self._vacant)

    def _release(self, code: str) -> None:
        """``code`` no longer counts among the rooms its creator holds."""
        creator = self.creators.pop(code, None)
        if creator is not None:
            self.held[creator] -= 1
            if not self.held[creator]:
                del self.held[creator]

    def _add(self, room: Room) -> None:
        self.rooms[room.code] = room
        room.on_over = self._finished
        room.on_rematch = self._rematch
        room.on_vacated = self._vacated
        self._vacated(room)

    async def _rematch(self, room: Room) -> str:
        """Make ``room``'s rematch: a new room with its seats, its match started."""
        await self._make_space()
        code = new_code()
        while code in self.rooms:
            code = new_code()
        await self._admit(code, None)
        self._add(await Room.rematch_of(room, code))
        return code

    async def _admit(self, code: str, client: str | None) -> None:
        """With leases, admit a new room ``code`` across the instances (its creator's rate
        and rooms held, the total of ``--max-rooms``) and take its lease: at the total, a
        lobby of ours nobody attends is forgotten to make space, as alone."""
        if self.leases is None:
            return
        settings = self.settings
        held = None if client is None else settings.max_rooms_held
        rate = None if client is None else settings.create_rate
        while True:
            refusal = await self.store(self.leases.admit, code, client, held, settings.max_rooms, rate)
            if refusal is None:
                return
            unattended = [room for room in self.rooms.values() if room.unattended()]
            if refusal.code != "room.capacity" or not unattended:
                raise refusal
            await self._forget(min(unattended, key=lambda room: room.empty_since or 0.0))

    def _finished(self, room: Room) -> None:
        """A finished room closes after a while; its record stays in the store."""
        self._release(room.code)
        loop = asyncio.get_running_loop()
        loop.call_later(self.settings.keep_finished, self.rooms.pop, room.code, None)

    def restarting(self) -> None:
        """The server is going down (SIGTERM): every connection is told, then closed; the
        pages reconnect once it is back; ``/readyz`` says it is draining."""
        self.draining = True
        notice = Refusal("server.restarting")
        for room in self.rooms.values():
            for connection in list(room.connections):
                connection.close(1012, "server restarting", {"type": "error", **notice.to_json()})

    async def stop(self) -> None:
        """Stop the rooms; the writes under way finish before the store is closed."""
        self._sweeper.cancel()
        self._collector.cancel()
        if self._keeper is not None:
            self._keeper.cancel()
        for room in self.rooms.values():
            await room.close()
        if self.leases is not None:  # the rooms are handed over at once, to whoever asks
            with contextlib.suppress(UnoError):
                await self.store(self.leases.release, list(self.rooms))
        self.store.close()

    # ------------------------------------------------------------------ HTTP

    async def create_room(self, request: Request) -> Response:
        try:
            self.guard(request)
            client = self.client(request.scope)
            self.creates.check(client)
            if self.held[client] >= self.settings.max_rooms_held:
                raise Refusal("client.rooms_held", limit=self.settings.max_rooms_held)
            body = await _body(request, self.settings.body_timeout)
            try:
                setup = RoomSetup.model_validate_json(body)
            except ValidationError as error:
                raise invalid(error, "setup.invalid") from None
            await self._make_space()
            code = new_code()
            while code in self.rooms:
                code = new_code()
            await self._admit(code, client)
            try:
                room, token = await Room.create(setup, self.store, self.settings, code)
            except UnoError:
                if self.leases is not None:  # its lease is let go
                    with contextlib.suppress(UnoError):
                        await self.store(self.store.store.forget, code)
                raise
        except UnoError as error:
            return await self.refuse(error)
        self._add(room)
        self.creators[code] = client
        self.held[client] += 1
        link = str(request.url_for("room_page", code=code))
        return JSONResponse({"code": code, "seat": 0, "token": token, "link": link})

    async def join_room(self, request: Request) -> Response:
        try:
            self.guard(request)
            room = await self.look_up(request.scope, request.path_params["code"])
            body = await _body(request, self.settings.body_timeout)
            try:
                join = JoinRequest.model_validate_json(body)
            except ValidationError as error:
                raise invalid(error) from None
            seat, token = await room.join(join.name, program=join.program)
        except UnoError as error:
            return await self.refuse(error)
        return JSONResponse({"code": room.code, "seat": seat, "token": token})

    async def refuse(self, error: UnoError) -> JSONResponse:
        """A refusal over HTTP, counted for the metrics; a client over its rate waits
        ``refusal_delay`` for it (:meth:`slow_down`)."""
        self.metrics.refusals[error.code] += 1
        await self.slow_down(error)
        return _error(error)

    async def slow_down(self, error: UnoError) -> None:
        """Hold a ``client.limited`` refusal for ``refusal_delay`` seconds, as nginx's
        ``limit_req`` holds excess requests: a client flooding from one address then gets a
        few refusals a second per socket (its sockets are capped) instead of thousands,
        and the server spends its time on the players."""
        if error.code == "client.limited" and self.settings.refusal_delay > 0:
            await asyncio.sleep(self.settings.refusal_delay)

    async def metrics_page(self, request: Request) -> Response:
        """``GET /metrics``: the Prometheus text format (:mod:`unomas.server.metrics`), to
        the holder of ``--metrics-token`` if one is set."""
        token = self.settings.metrics_token
        if token is not None:
            given = request.headers.get("authorization", "")
            if not secrets.compare_digest(given.encode(), f"Bearer {token}".encode()):
                return await self.refuse(Refusal("metrics.token"))
        return Response(self.metrics.text(), media_type=CONTENT_TYPE)

    async def ready(self, request: Request) -> Response:
        """``GET /readyz``: whether to send players here (``503`` while the server drains
        or the store fails: once a write has failed, the store is asked again)."""
        reason = None
        if self.draining:
            reason = "draining"
        elif self.store.failing:
            try:
                await asyncio.wait_for(self.store(self.store.store.probe), 5)
            except (UnoError, TimeoutError):
                reason = "store"
        return JSONResponse({"ready": reason is None, "reason": reason}, status_code=503 if reason else 200)

    async def health(self, request: Request) -> Response:
        """``GET /healthz``: up, with the rooms, WebSocket connections, sockets of every kind
        (those of a trusted proxy not counted) and the store's writes so far."""
        store = self.store
        return JSONResponse(
            {
                "ok": True,
                "rooms": len(self.rooms),
                "connections": sum(self.sockets.values()),
                "sockets": self.open_sockets.total(),
                "store": {"calls": store.calls, "failures": store.failures, "pending": store.pending},
            }
        )

    async def room_info(self, request: Request) -> Response:
        try:
            room = await self.look_up(request.scope, request.path_params["code"])
        except UnoError as error:
            return await self.refuse(error)
        return JSONResponse(room.room_message(None))

    async def room_record(self, request: Request) -> Response:
        code = request.path_params["code"].upper()
        try:
            await self.check_lookup(self.client(request.scope))
        except UnoError as error:
            return await self.refuse(error)
        room = self.rooms.get(code)
        try:
            finished = room.record if room is not None else await self.store(self.store.store.finished_record, code)
        except UnoError as error:
            return await self.refuse(error)
        if finished is None:
            if room is None:
                return await self.refuse(Refusal("room.not_found", room=code))
            return await self.refuse(Refusal("room.not_over"))
        return JSONResponse(finished, headers={"Content-Disposition": f'attachment; filename="unomas-{code}.json"'})

    # ------------------------------------------------------------------ WebSocket

    async def play(self, websocket: WebSocket) -> None:
        client = self.client(websocket.scope)
        await websocket.accept()
        try:
            if not same_origin(websocket.scope, websocket.headers, self.settings.allowed_origins):
                raise Refusal("origin.forbidden")
            if self.sockets[client] >= self.settings.max_connections:
                raise Refusal("client.limited", retry_after=5)
            room = await self.look_up(websocket.scope, websocket.path_params["code"])
            if self.leases is not None and not await self.store(
                self.leases.connect, client, self.settings.max_connections
            ):  # counted on every instance
                raise Refusal("client.limited", retry_after=5)
        except UnoError as error:
            await self.slow_down(error)
            await websocket.send_text(json.dumps({"type": "error", **error.to_json()}))
            await websocket.close(4404 if error.code == "room.not_found" else 4000 + ERRORS[error.code].status)
            return
        self.sockets[client] += 1
        try:
            await self._play(websocket, room)
        finally:
            self.sockets[client] -= 1
            if not self.sockets[client]:
                del self.sockets[client]
            if self.leases is not None:
                with contextlib.suppress(UnoError):
                    await self.store(self.leases.disconnect, client)

    async def _play(self, websocket: WebSocket, room: Room) -> None:
        connection = Connection(self.settings.queue_limit)
        sender = asyncio.get_running_loop().create_task(_send_loop(websocket, connection))
        limit = RateLimit(*self.rate)
        attached = False
        deadline = asyncio.get_running_loop().time() + self.settings.hello_timeout
        try:
            while True:
                try:
                    wait = None if attached else deadline - asyncio.get_running_loop().time()
                    async with asyncio.timeout(wait):
                        message = await websocket.receive()
                except TimeoutError:
                    late = Refusal("hello.late")
                    connection.close(4408, "no hello", {"type": "error", **late.to_json()})
                    break
                if message["type"] == "websocket.disconnect" or connection.dropped:
                    break
                text = message.get("text")
                ref = None
                allowed = limit.allow()  # every message counts, the malformed ones too
                try:
                    if text is None:
                        raise Refusal("message.binary")
                    try:
                        parsed = parse_client_message(text)
                    except Refusal:
                        if allowed:
                            raise
                        parsed = None
                    if isinstance(parsed, Act):
                        ref = parsed.ref  # a refusal names the action it answers, so the sender can go on
                    if not allowed or parsed is None:
                        raise Refusal("rate.limited", rate=limit.rate)
                    if isinstance(parsed, Hello):
                        if attached:
                            raise Refusal("hello.twice")
                        await room.attach(connection, parsed.token, parsed.lang)
                        attached = True
                    elif not attached:
                        raise Refusal("hello.first")
                    elif isinstance(parsed, Start):
                        await room.start(connection.seat)
                    elif isinstance(parsed, Rematch):
                        await room.want_rematch(connection.seat)
                    elif isinstance(parsed, React):
                        room.react(connection.seat, parsed.reaction)
                    elif isinstance(parsed, LetGo):
                        room.let_go(connection.seat, parsed.ply)
                    else:
                        assert isinstance(parsed, Act)
                        await room.act(connection.seat, parsed.action, ref, parsed.ply)
                except UnoError as error:
                    reply: dict[str, Any] = {"type": "error", **error.to_json()}
                    if ref is not None:
                        reply["ref"] = ref
                    connection.post(reply)
                    self.metrics.refusals[error.code] += 1
        except WebSocketDisconnect:
            pass
        finally:
            if attached:
                room.detach(connection)
            if connection.dropped:  # its last words and its close are queued: let them go out
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(sender), 5)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sender


async def _send_loop(websocket: WebSocket, connection: Connection) -> None:
    """Send the connection's queued messages in order; None closes it (too slow)."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        while True:
            message = await connection.queue.get()
            if message is None:
                await websocket.close(connection.close_code, connection.close_reason)
                return
            await websocket.send_text(json.dumps(message, separators=(",", ":")))


async def _body(request: Request, deadline: float) -> bytes:
    """The request's body, refused past :data:`MAX_BODY` bytes or ``deadline`` seconds."""
    body = b""
    try:
        async with asyncio.timeout(deadline):
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_BODY:
                    raise Refusal("body.too_large", limit=MAX_BODY)
    except TimeoutError:
        raise Refusal("body.late", seconds=deadline) from None
    return body


def _error(error: UnoError) -> JSONResponse:
    """A refusal over HTTP: ``{"error": {code, params, message}}``, the status by its code
    (and ``Retry-After`` when it says when to come back)."""
    wait = error.params.get("retry_after")
    headers = None if wait is None else {"Retry-After": str(wait)}
    return JSONResponse({"error": error.to_json()}, status_code=ERRORS[error.code].status, headers=headers)


SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self';"
        b" frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'",
    ),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), payment=(), usb=()"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
"""Sent with every HTTP response: the page runs only its own script and style, in no frame."""


HSTS = (b"strict-transport-security", b"max-age=31536000")
"""Sent over TLS (ours, or a trusted proxy's that says ``X-Forwarded-Proto: https``): the
browser comes back over https only for a year."""


CACHED = ("/static/", "/api/i18n/", "/sw.js")
"""The paths a browser may keep and revalidate (``no-cache``, with an ETag): the page's files,
its catalogs, its service worker. Everything else is not kept (``no-store``)."""


class SecurityHeaders:
    """ASGI middleware: every response gets :data:`SECURITY_HEADERS`, :data:`HSTS` over TLS,
    and a ``Cache-Control``: the paths in :data:`CACHED` are revalidated (``no-cache``),
    everything else is not kept (``no-store``)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        cache = b"no-cache" if scope["path"].startswith(CACHED) else b"no-store"
        secure = [HSTS] if scope["scheme"] == "https" else []

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"cache-control"]
                message["headers"] = [*kept, *SECURITY_HEADERS, *secure, (b"cache-control", cache)]
            await send(message)

        await self.app(scope, receive, send_with_headers)


GZIP_FROM = 500
"""Responses from this many bytes are sent gzip-compressed to a browser that accepts it."""


@functools.cache
def _words(lang: str) -> tuple[bytes, str]:
    """A language's catalog for the page as JSON, and its ETag (the same words, the same tag:
    a browser that has them is answered 304)."""
    bots = [{"spec": spec, "label": bot_label(spec, lang), "slips": bot_slips(spec, lang)} for spec in ROOM_LEVELS]
    words = {
        "catalog": catalog_json(lang),
        "switches": switches_json(lang),
        "bots": bots,
        "presets": PRESET_RULES,
        "errors": error_messages(lang),
    }
    body = json.dumps(words, ensure_ascii=False, separators=(",", ":")).encode()
    return body, f'"{hashlib.sha256(body).hexdigest()[:20]}"'


def create_app(
    store: Store, settings: Settings | None = None, *, rate: tuple[float, float] = (20.0, 40.0)
) -> Starlette:
    """The application over ``store``; ``rate`` is each connection's (messages/s, burst)."""
    server = Server(store, settings or Settings(), rate)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def favicon(request: Request) -> Response:
        return FileResponse(STATIC / "icon.svg", media_type="image/svg+xml")

    async def manifest(request: Request) -> Response:
        return FileResponse(STATIC / "manifest.webmanifest", media_type="application/manifest+json")

    async def service_worker(request: Request) -> Response:
        return FileResponse(STATIC / "sw.js", media_type="text/javascript")

    async def words(request: Request) -> Response:
        lang = request.path_params["lang"]
        if lang not in LANGUAGES:
            return _error(Refusal("lang.unknown", lang=lang))
        body, etag = _words(lang)
        if etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers={"ETag": etag})
        return Response(body, media_type="application/json", headers={"ETag": etag})

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await server.start()
        yield
        await server.stop()

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/r/{code}", index, name="room_page"),
            Route("/favicon.ico", favicon),
            Route("/static/manifest.webmanifest", manifest),
            Route("/sw.js", service_worker),
            Route("/api/i18n/{lang}", words),
            Route("/healthz", server.health),
            Route("/readyz", server.ready),
            Route("/metrics", server.metrics_page),
            Route("/api/rooms", server.create_room, methods=["POST"]),
            Route("/api/rooms/{code}", server.room_info),
            Route("/api/rooms/{code}/join", server.join_room, methods=["POST"]),
            Route("/api/rooms/{code}/record", server.room_record),
            WebSocketRoute("/ws/{code}", server.play),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
        middleware=[
            Middleware(AllowedHosts, allowed=server.settings.allowed_hosts),
            Middleware(SecurityHeaders),
            Middleware(GZipMiddleware, minimum_size=GZIP_FROM),
        ],
    )
    app.state.server = server
    return app


def serve(
    host: str,
    port: int,
    db: str | Path,
    settings: Settings | None = None,
    *,
    certfile: Path | None = None,
    keyfile: Path | None = None,
    instance: str | None = None,
) -> None:
    """Run the server until interrupted or terminated (``unomas serve``); with ``certfile``
    (and ``keyfile``) over TLS. On SIGTERM or SIGINT every page is told the server is
    restarting, the writes under way finish, and the store is closed. ``db`` is a SQLite
    file or a PostgreSQL DSN (:func:`~unomas.server.storage.open_store`); ``instance``
    names this server among those sharing a PostgreSQL database."""
    import uvicorn

    settings = settings or Settings()
    app = create_app(open_store(db, owner=instance), settings)
    server: Server = app.state.server

    class Graceful(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            loop = server.loop
            if loop is not None and not self.should_exit:
                loop.call_soon_threadsafe(server.restarting)
            super().handle_exit(sig, frame)
            # A SIGTERM is the ordinary way to stop: once uvicorn has shut down completely it
            # would raise the signal again (the process then dies of it); the exit is 0.
            if sig == signal.SIGTERM:
                self._captured_signals = [other for other in self._captured_signals if other != sig]

    config = uvicorn_config(
        app,
        host,
        port,
        server.open_sockets,
        settings,
        # Past this many connections and tasks uvicorn answers 503: the open files left over
        # stay for the store and the logs.
        limit_concurrency=max(16, open_files() - FILE_HEADROOM),
        log_level="info",
        ssl_certfile=None if certfile is None else str(certfile),
        ssl_keyfile=None if keyfile is None else str(keyfile),
    )
    Graceful(config).run()
