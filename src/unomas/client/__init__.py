"""The client library of ``unomas serve``'s rooms: the room protocol, below every player of a room.

:mod:`~unomas.client.links` names a room (its link or code) and keeps a seat's token;
:mod:`~unomas.client.remote` is the asyncio client of the room protocol (docs/protocol.md);
:mod:`~unomas.client.simple` its blocking face for scripts; :mod:`~unomas.client.decode`
reads a seat's view and events back into the engine's values; :mod:`~unomas.client.seat_client`
is a simple player for tests and the load benchmark. The players of a room stand on it: a
bot (:mod:`unomas.bots.room`), a person's terminal (:mod:`unomas.tui.remote`,
:mod:`unomas.tui.remote_plain`), an agent (:mod:`unomas.agents.tables`); it imports only
the engine, and words nothing for a screen. The server judges every action: a client only
ever sends one of the legal actions its seat's view lists. Needs the ``server`` extra
(websockets).
"""

from __future__ import annotations

from unomas.client.links import DEFAULT_SERVER, LinkError, RoomLink, Ticket
from unomas.client.remote import (
    Change,
    ConnectionLost,
    Refused,
    RoomClient,
    create_room,
    fetch_record,
    join_room,
    room_info,
)
from unomas.client.simple import SimpleSeat

__all__ = [
    "DEFAULT_SERVER",
    "Change",
    "ConnectionLost",
    "LinkError",
    "Refused",
    "RoomClient",
    "RoomLink",
    "SimpleSeat",
    "Ticket",
    "create_room",
    "fetch_record",
    "join_room",
    "room_info",
]
