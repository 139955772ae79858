"""The web application: HTTP for rooms and records, a WebSocket per player, static files.

``create_app(store)`` builds the Starlette app; ``serve`` runs it on uvicorn (what
``unomas serve`` calls). Routes:

* ``GET /`` and ``GET /r/{code}`` (the link to a room): the browser game;
* ``GET /api/i18n/{lang}``: the page's words, ``{catalog, switches}``: the gettext catalog
  as ``{msgid: text}`` (:func:`~unomas.i18n.catalog_json`) and the house-rule switches of
  the create-room form (:func:`~unomas.i18n.switches.switches_json`);
* ``POST /api/rooms``: create a room (:class:`~unomas.server.protocol.RoomSetup`) →
  ``{code, seat, token, link}``; ``POST /api/rooms/{code}/join`` (``{name}``) →
  ``{seat, token}``; ``GET /api/rooms/{code}``: the room as anyone may see it;
  ``GET /api/rooms/{code}/record``: a finished game's record, seed revealed;
* ``WS /ws/{code}``: play (see :mod:`unomas.server.protocol`).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from unomas.i18n import LANGUAGES, bot_label, catalog_json
from unomas.i18n.switches import switches_json
from unomas.server.protocol import (
    BOT_KINDS,
    Act,
    Hello,
    JoinRequest,
    RoomSetup,
    Start,
    describe,
    parse_client_message,
)
from unomas.server.rooms import Connection, Room, RoomError, Settings, new_code
from unomas.server.storage import SQLiteStore, Store

__all__ = ["RateLimit", "Server", "create_app", "serve"]

STATIC = Path(__file__).parent / "static"
MAX_BODY = 4096
MAX_ROOMS = 5000
log = logging.getLogger("unomas.server")


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


class Server:
    """The rooms of one server process and the store behind them."""

    def __init__(self, store: Store, settings: Settings, rate: tuple[float, float]) -> None:
        self.store = store
        self.settings = settings
        self.rate = rate
        self.rooms: dict[str, Room] = {}
        self._sweeper: asyncio.Task[None]

    def room(self, code: str) -> Room:
        room = self.rooms.get(code.upper())
        if room is None:
            raise RoomError(f"no room {code!r}")
        return room

    async def start(self) -> None:
        """Bring back every stored room; games in play resume where they were."""
        for stored in self.store.load():
            try:
                self._add(Room.restore(stored, self.store, self.settings))
            except Exception:  # one broken room must not keep the others down
                log.exception("room %s could not be restored", stored.code)
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_abandoned_lobbies())

    async def _sweep_abandoned_lobbies(self) -> None:
        """Forget the lobbies nobody came back to, so rooms never pile up in memory."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(min(60.0, self.settings.keep_empty_lobby / 2))
            now = loop.time()
            for room in [room for room in self.rooms.values() if room.abandoned(now)]:
                del self.rooms[room.code]
                self.store.forget(room.code)

    def _add(self, room: Room) -> None:
        self.rooms[room.code] = room
        room.on_over = self._finished

    def _finished(self, room: Room) -> None:
        """A finished room closes after a while; its record stays in the store."""
        loop = asyncio.get_running_loop()
        loop.call_later(self.settings.keep_finished, self.rooms.pop, room.code, None)

    async def stop(self) -> None:
        self._sweeper.cancel()
        for room in self.rooms.values():
            await room.close()
        self.store.close()

    # ------------------------------------------------------------------ HTTP

    async def create_room(self, request: Request) -> Response:
        try:
            setup = RoomSetup.model_validate_json(await _body(request))
            if len(self.rooms) >= MAX_ROOMS:
                raise RoomError("the server holds as many rooms as it can; try again later")
            code = new_code()
            while code in self.rooms:
                code = new_code()
            room, token = Room.create(setup, self.store, self.settings, code)
        except ValidationError as error:
            return _error(describe(error), 422)
        except (ValueError, RoomError) as error:
            return _error(str(error), 422)
        self._add(room)
        link = str(request.url_for("room_page", code=code))
        return JSONResponse({"code": code, "seat": 0, "token": token, "link": link})

    async def join_room(self, request: Request) -> Response:
        try:
            room = self.room(request.path_params["code"])
            join = JoinRequest.model_validate_json(await _body(request))
            seat, token = room.join(join.name)
        except ValidationError as error:
            return _error(describe(error), 422)
        except RoomError as error:
            return _error(str(error), 404 if str(error).startswith("no room") else 409)
        except ValueError as error:
            return _error(str(error), 413)
        return JSONResponse({"code": room.code, "seat": seat, "token": token})

    async def room_info(self, request: Request) -> Response:
        try:
            room = self.room(request.path_params["code"])
        except RoomError as error:
            return _error(str(error), 404)
        return JSONResponse(room.room_message(None))

    async def room_record(self, request: Request) -> Response:
        code = request.path_params["code"].upper()
        room = self.rooms.get(code)
        finished = room.record if room is not None else self.store.finished_record(code)
        if finished is None:
            if room is None:
                return _error(f"no room {code!r}", 404)
            return _error("the game is not over: its record (and seed) are revealed at the end", 409)
        return JSONResponse(finished, headers={"Content-Disposition": f'attachment; filename="unomas-{code}.json"'})

    # ------------------------------------------------------------------ WebSocket

    async def play(self, websocket: WebSocket) -> None:
        await websocket.accept()
        try:
            room = self.room(websocket.path_params["code"])
        except RoomError as error:
            await websocket.send_text(json.dumps({"type": "error", "message": str(error)}))
            await websocket.close(4404)
            return
        connection = Connection(self.settings.queue_limit)
        sender = asyncio.get_running_loop().create_task(_send_loop(websocket, connection))
        limit = RateLimit(*self.rate)
        attached = False
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                ref = None
                allowed = limit.allow()  # every message counts, the malformed ones too
                try:
                    if text is None:
                        raise ValueError("messages are JSON text, not binary")
                    try:
                        parsed = parse_client_message(text)
                    except ValueError:
                        if allowed:
                            raise
                        parsed = None
                    if isinstance(parsed, Act):
                        ref = parsed.ref  # a refusal names the action it answers, so the sender can go on
                    if not allowed or parsed is None:
                        raise ValueError("too many messages: slow down")
                    if isinstance(parsed, Hello):
                        if attached:
                            raise RoomError("this connection has already said hello")
                        room.attach(connection, parsed.token, parsed.lang)
                        attached = True
                    elif not attached:
                        raise RoomError("say hello first (with your seat's token, or none to watch)")
                    elif isinstance(parsed, Start):
                        room.start(connection.seat)
                    else:
                        assert isinstance(parsed, Act)
                        room.act(connection.seat, parsed.action, ref)
                except (ValueError, RoomError) as error:
                    reply: dict[str, Any] = {"type": "error", "message": str(error)}
                    if ref is not None:
                        reply["ref"] = ref
                    connection.post(reply)
        except WebSocketDisconnect:
            pass
        finally:
            if attached:
                room.detach(connection)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sender


async def _send_loop(websocket: WebSocket, connection: Connection) -> None:
    """Send the connection's queued messages in order; None closes it (too slow)."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        while True:
            message = await connection.queue.get()
            if message is None:
                await websocket.close(1008, "too slow: too many messages waiting")
                return
            await websocket.send_text(json.dumps(message, separators=(",", ":")))


async def _body(request: Request) -> bytes:
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise ValueError(f"request body too large (at most {MAX_BODY} bytes)")
    return body


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def create_app(
    store: Store, settings: Settings | None = None, *, rate: tuple[float, float] = (20.0, 40.0)
) -> Starlette:
    """The application over ``store``; ``rate`` is each connection's (messages/s, burst)."""
    server = Server(store, settings or Settings(), rate)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def words(request: Request) -> Response:
        lang = request.path_params["lang"]
        if lang not in LANGUAGES:
            return _error(f"unknown language {lang!r} (languages are {', '.join(LANGUAGES)})", 404)
        bots = [{"spec": spec, "label": bot_label(spec, lang)} for spec in BOT_KINDS]
        return JSONResponse({"catalog": catalog_json(lang), "switches": switches_json(lang), "bots": bots})

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await server.start()
        # What is loaded by now (modules, classes, the restored rooms) lives as long as the
        # server: kept out of the collector's full passes, which then pause play for less.
        gc.freeze()
        yield
        await server.stop()

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/r/{code}", index, name="room_page"),
            Route("/api/i18n/{lang}", words),
            Route("/api/rooms", server.create_room, methods=["POST"]),
            Route("/api/rooms/{code}", server.room_info),
            Route("/api/rooms/{code}/join", server.join_room, methods=["POST"]),
            Route("/api/rooms/{code}/record", server.room_record),
            WebSocketRoute("/ws/{code}", server.play),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )
    app.state.server = server
    return app


def serve(host: str, port: int, db: Path, settings: Settings | None = None) -> None:
    """Run the server until interrupted (``unomas serve``)."""
    import uvicorn

    app = create_app(SQLiteStore(db), settings)
    uvicorn.run(app, host=host, port=port, ws_max_size=16 * 1024, log_level="info")
