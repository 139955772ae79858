"""A seat of a room for scripts, without asyncio: python-chess's ``SimpleEngine`` shape.

:class:`SimpleSeat` runs a :class:`~unomas.client.remote.RoomClient` on an event loop of
its own thread; every method blocks until the server has answered::

    with SimpleSeat.join("http://127.0.0.1:8000/r/ABCD2345EF", "Ana") as seat:
        while (view := seat.wait_turn(timeout=60)) is not None:
            seat.act(view["legal_actions"][0])
        print(seat.over)
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

from unomas.client.links import RoomLink, Ticket
from unomas.client.remote import Change, RoomClient, create_room, join_room
from unomas.errors import UnoError

__all__ = ["SimpleSeat"]

_T = TypeVar("_T")


class SimpleSeat:
    """A blocking seat (or spectator) of a room; close it, or use it as a context manager."""

    def __init__(
        self, room: RoomLink, ticket: Ticket | None = None, *, lang: str = "en", timeout: float = 15.0
    ) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="unomas-client", daemon=True)
        self._thread.start()
        self.timeout = timeout
        self.client = RoomClient(room, None if ticket is None else ticket.token, lang=lang)
        self.ticket = ticket
        try:
            self._run(self.client.connect(timeout))
        except BaseException:
            self.close()
            raise

    @classmethod
    def join(cls, link: str, name: str, *, lang: str = "en", server: str | None = None) -> SimpleSeat:
        """Take the next free seat of the room at ``link`` (or a code on ``server``) and connect."""
        room = RoomLink.parse(link) if server is None else RoomLink.parse(link, server=server)
        return cls(room, join_room(room, name), lang=lang)

    @classmethod
    def create(cls, server: str, name: str, *, lang: str = "en", **setup: Any) -> SimpleSeat:
        """Create a room on ``server`` as its host (seat 0) and connect; :attr:`link` is its link."""
        ticket, _ = create_room(server, name, **setup)
        return cls(ticket.room, ticket, lang=lang)

    def _run(self, coroutine: Coroutine[Any, Any, _T], timeout: float | None = None) -> _T:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    @property
    def link(self) -> str:
        return self.client.link.link

    @property
    def view(self) -> dict[str, Any] | None:
        return self.client.view

    @property
    def room(self) -> dict[str, Any] | None:
        return self.client.room

    @property
    def over(self) -> dict[str, Any] | None:
        return self.client.over

    @property
    def changes(self) -> list[Change]:
        return list(self.client.changes)

    @property
    def notices(self) -> list[UnoError]:
        """What the other seats' people did (:attr:`RoomClient.notices`)."""
        return list(self.client.notices)

    def start(self) -> None:
        """Start the match (the host)."""
        self._run(self.client.start())

    def wait_turn(self, timeout: float | None = None) -> dict[str, Any] | None:
        """The view once this seat is to decide; None once the match is over or after ``timeout``."""
        return self._run(self.client.wait_turn(timeout))

    @property
    def updates(self) -> int:
        """How many updates (views) the server has sent so far."""
        return self.client.updates

    def wait_change(self, timeout: float | None = None, *, since: int | None = None) -> bool:
        """Wait for an update after the first ``since`` (by default: the next one) or the
        end; False if ``timeout`` passed first."""
        before = self.client.updates if since is None else since
        return self._run(self.client.wait_for(lambda: self.client.updates != before, timeout))

    def wait_over(self, timeout: float | None = None) -> dict[str, Any] | None:
        return self._run(self.client.wait_over(timeout))

    def act(self, action: dict[str, Any], *, ply: int | None = None) -> dict[str, Any]:
        """Send one of the view's legal actions and return the update it caused (a
        refusal raises :class:`~unomas.client.remote.Refused`)."""
        return self._run(self.client.act(action, ply=ply))

    def close(self) -> None:
        """Close the connection and stop the thread."""
        if self.loop.is_running():
            asyncio.run_coroutine_threadsafe(self.client.close(), self.loop).result(10)
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(10)
        self.loop.close()

    def __enter__(self) -> SimpleSeat:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
