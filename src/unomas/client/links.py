"""Where a room is and which seat is ours: a room's link or code, and the seat's ticket.

A room is named by the link the host shares (``https://HOST/r/CODE``), by its WebSocket
address (``wss://HOST/ws/CODE``) or by its code alone with the server beside it. A seat
is held by its secret token, given once when the seat is taken: a :class:`Ticket` keeps
it, in memory or in a small JSON file, so a client that lost its connection, or a
program started again, comes back to the same seat.

>>> link = RoomLink.parse("http://127.0.0.1:8000/r/abcd2345ef")
>>> link.code, link.http, link.websocket
('ABCD2345EF', 'http://127.0.0.1:8000', 'ws://127.0.0.1:8000/ws/ABCD2345EF')
>>> RoomLink.parse("ABCD2345EF", server="https://uno.example.org").link
'https://uno.example.org/r/ABCD2345EF'
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import asdict, dataclass
from pathlib import Path
from urllib.parse import urlsplit

from unomas.errors import UnoError

NAME_LIMIT = 24
"""The longest name a room seats (longer ones are cut short before joining)."""

__all__ = ["DEFAULT_SERVER", "LinkError", "RoomLink", "Ticket", "origin"]

DEFAULT_SERVER = "http://127.0.0.1:8000"
"""The server a bare room code is looked for on: ``unomas serve``'s default address."""

_CODE = re.compile(r"^[A-Za-z0-9]{4,32}$")
_PATH = re.compile(r"^/(?:r|ws|api/rooms)/([A-Za-z0-9]{4,32})/?$")


class LinkError(UnoError):
    """Not a room's link nor its code."""


def origin(server: str) -> str:
    """A server's HTTP origin from its address (``host:port`` is taken as ``http://host:port``)."""
    parts = urlsplit(server if "://" in server else f"http://{server}")
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise LinkError("link.invalid", text=server)
    return f"{parts.scheme}://{parts.netloc}"


@dataclass(frozen=True, slots=True)
class RoomLink:
    """A room of a server: the server's HTTP origin and the room's code."""

    http: str
    """``http://host:port`` or ``https://host``, without a trailing slash."""
    code: str

    @classmethod
    def parse(cls, text: str, *, server: str = DEFAULT_SERVER) -> RoomLink:
        """The room ``text`` names: a link (``/r/CODE``, ``/ws/CODE``), or a code on ``server``."""
        text = text.strip()
        if _CODE.fullmatch(text):
            return cls(origin(server), text.upper())
        parts = urlsplit(text)
        match = _PATH.fullmatch(parts.path)
        if parts.scheme not in ("http", "https", "ws", "wss") or not parts.netloc or match is None:
            raise LinkError("link.invalid", text=text)
        scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
        return cls(f"{scheme}://{parts.netloc}", match.group(1).upper())

    @property
    def websocket(self) -> str:
        """The room's WebSocket address (``ws://`` or ``wss://``)."""
        return f"ws{self.http.removeprefix('http')}/ws/{self.code}"

    @property
    def link(self) -> str:
        """The link people open in a browser."""
        return f"{self.http}/r/{self.code}"


@dataclass(frozen=True, slots=True)
class Ticket:
    """A seat held: the room, the seat and its secret token (whoever has it plays the seat)."""

    http: str
    code: str
    seat: int
    token: str

    @property
    def room(self) -> RoomLink:
        return RoomLink(self.http, self.code)

    def save(self, path: Path) -> None:
        """Write the ticket to ``path``, readable by its owner alone (it holds the seat)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".tmp")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w") as file:
            json.dump(asdict(self), file)
        temporary.replace(path)

    @classmethod
    def load(cls, path: Path) -> Ticket | None:
        """The ticket kept at ``path``, or None if there is none (or it is unreadable)."""
        try:
            data = json.loads(path.read_text())
            return cls(str(data["http"]), str(data["code"]), int(data["seat"]), str(data["token"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None
