"""Clients of ``unomas serve``'s rooms: every kind of player at one table.

:mod:`~unomas.client.links` names a room (its link or code) and keeps a seat's token;
:mod:`~unomas.client.remote` is the asyncio client of the room protocol (docs/protocol.md);
:mod:`~unomas.client.simple` its blocking face for scripts; :mod:`~unomas.client.seat`
seats a bot of any spec (``cmd:`` programs included) at a room. The server judges every
action: a client only ever sends one of the legal actions its seat's view lists.
Needs the ``server`` extra (websockets).
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
