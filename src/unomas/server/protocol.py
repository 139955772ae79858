"""The messages between browser and server, validated with pydantic.

HTTP: ``POST /api/rooms`` takes a :class:`RoomSetup`, ``POST /api/rooms/{code}/join`` a
:class:`JoinRequest`. WebSocket ``/ws/{code}``: the client's first message is a
:class:`Hello` (with its seat's token, or none to watch), then :class:`Start` (the host,
in the lobby) and :class:`Act` (an action, any time). Anything else, too long, or not
JSON gets an ``error`` message and changes nothing.

The server sends ``room`` (seats, status, commitment), ``update`` (the events of one
change redacted for the receiver, its view, and ``ref`` echoed to the sender of the
action), ``over`` and ``error`` messages, all JSON objects with a ``type``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, TypeAdapter, ValidationError, field_validator

from unomas.errors import SettingsError
from unomas.rules import Rules

__all__ = [
    "BOT_KINDS",
    "MAX_MESSAGE",
    "Act",
    "ClientMessage",
    "Hello",
    "JoinRequest",
    "Move",
    "RoomSetup",
    "Start",
    "describe",
    "parse_client_message",
]

MAX_MESSAGE = 2048
"""The longest message a client may send, in characters."""

BOT_KINDS = ("heuristic", "playfirst", "random")
"""The bots a room may seat: built-in and quick (never a program of the host's choosing)."""

Name = Annotated[str, Field(min_length=1, max_length=24, pattern=r"^[^\x00-\x1f<>]+$")]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class RoomSetup(_Strict):
    """A new room: the host's name, the rules, which seats bots play, the turn timer."""

    name: Name
    rules: dict[str, StrictInt | StrictBool] = Field(default_factory=dict, max_length=20)
    bots: list[StrictInt] = Field(default_factory=list, max_length=9)
    """Seats (1 to players-1) that bots play; seats nobody has joined at the start get bots too."""
    bot: Literal["heuristic", "playfirst", "random"] = "heuristic"
    turn_seconds: StrictInt = Field(default=0, ge=0, le=600)
    """Seconds a player has per turn; on expiry the server draws and passes for them (a starting
    colour is chosen by their stand-in bot). 0: no timer."""

    @field_validator("rules")
    @classmethod
    def _rules(cls, value: dict[str, int | bool]) -> dict[str, int | bool]:
        try:
            Rules.from_dict(value)
        except SettingsError as error:
            raise ValueError(str(error)) from None
        return value

    def game_rules(self) -> Rules:
        """The validated rules."""
        return Rules.from_dict(self.rules)

    def check_seats(self) -> None:
        """Raise ValueError if a bot seat is the host's, out of range or repeated."""
        players = self.game_rules().players
        if len(set(self.bots)) != len(self.bots):
            raise ValueError("bots: a seat is listed twice")
        for seat in self.bots:
            if not 1 <= seat < players:
                raise ValueError(f"bots: seat {seat} is not one of seats 1 to {players - 1}")


class JoinRequest(_Strict):
    """A player joining a room by name."""

    name: Name


class Hello(_Strict):
    """The first message on a WebSocket: a seat's token, or none to watch."""

    type: Literal["hello"]
    token: str | None = Field(default=None, min_length=8, max_length=64)
    lang: Literal["es", "en"] = "en"
    """The language of the narration this connection receives."""


class Start(_Strict):
    """The host starts the game."""

    type: Literal["start"]


class Move(_Strict):
    """An action, as a record's move (RECORD.md): one of the view's ``legal_actions``."""

    p: StrictInt
    a: Literal["play", "draw", "pass", "color", "challenge", "uno", "catch"]
    card: str | None = Field(default=None, max_length=4)
    color: str | None = Field(default=None, max_length=1)
    target: StrictInt | None = None
    uno: StrictBool = False

    def to_json(self) -> dict[str, Any]:
        """The move without its empty fields, as :meth:`Action.from_json` reads it."""
        return self.model_dump(exclude_none=True, exclude_defaults=True)


class Act(_Strict):
    """An action of the sender's seat; ``ref`` is echoed in the update it causes."""

    type: Literal["act"]
    action: Move
    ref: StrictInt | None = Field(default=None, ge=0, le=2**53)


ClientMessage = Annotated[Hello | Start | Act, Field(discriminator="type")]
_CLIENT = TypeAdapter(ClientMessage)


def parse_client_message(text: str) -> Hello | Start | Act:
    """The message in ``text``; raises ValueError saying what is wrong (too long, not
    JSON, unknown type, a bad field)."""
    if len(text) > MAX_MESSAGE:
        raise ValueError(f"message too long ({len(text)} characters; at most {MAX_MESSAGE})")
    try:
        return _CLIENT.validate_json(text)
    except ValidationError as error:
        raise ValueError(describe(error)) from None


def describe(error: ValidationError) -> str:
    """A short description of a validation error naming the first bad field."""
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    message = first["msg"].removeprefix("Value error, ")
    if first["type"] == "json_invalid":
        return f"not JSON: {first.get('ctx', {}).get('error', message)}"
    return f"{where}: {message}" if where else message
