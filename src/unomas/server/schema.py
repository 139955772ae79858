"""The room protocol as a JSON Schema, generated from the pydantic models.

The client's messages and the HTTP bodies a client sends are the models of
:mod:`unomas.server.protocol` (what the server validates them with); the server's messages
and HTTP answers are described here, and the test suite holds them to what a real server
sends. ``docs/protocol.schema.json`` is this module's output, checked against the models by
a test; regenerate it with one command::

    python -m unomas.server.schema > docs/protocol.schema.json
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel, StrictBool, StrictInt, StrictStr
from pydantic.json_schema import models_json_schema

from unomas.error_codes import ERRORS
from unomas.events import EVENT_KINDS
from unomas.server import protocol
from unomas.server.protocol import Move

__all__ = [
    "PROTOCOL",
    "CreatedRoom",
    "ErrorMessage",
    "HttpError",
    "JoinedRoom",
    "OverMessage",
    "RoomMessage",
    "ServerMessage",
    "UpdateMessage",
    "protocol_schema",
]

PROTOCOL = "unomas-room/1"
"""The protocol's name and version: a change that an existing client could misread gets a new one."""


class _Sent(BaseModel):
    """A message the server sends: every field it writes, nothing else."""

    model_config = ConfigDict(extra="forbid")


class Seat(_Sent):
    """One taken seat as everyone may see it."""

    name: str
    bot: bool
    """Played by a bot of the server (not a person nor a program that joined)."""
    program: bool
    """Taken by a program that joined (``unomas bot --join``), not a person."""
    connected: bool
    away: bool
    """Away past the grace period: a bot plays for them until they come back."""
    grace_left: float | None = None
    """Seconds before a bot plays for a player whose connection dropped during the match."""


class RoomMessage(_Sent):
    """The room: sent on a hello and whenever the seating or status changes (also the
    answer of ``GET /api/rooms/{code}``, with ``you`` null)."""

    type: Literal["room"]
    code: str
    status: Literal["lobby", "playing", "over"]
    you: StrictInt | None
    """The receiver's seat; null for a spectator."""
    host: StrictInt
    seats: list[Seat | None]
    """One per seat; null for a seat nobody has taken yet."""
    rules: dict[str, StrictInt | StrictBool | StrictStr]
    """Every setting of the match (RULES.md), by name."""
    turn_seconds: StrictInt
    window: float
    """Seconds every seat that is not a bot gets to react before a bot acts (catch, late UNO, jump-in)."""
    programs: list[StrictInt]
    """The seats the host kept for programs (people join the others)."""
    bot: str
    """The level of the server's bots (:data:`unomas.bots.levels.ROOM_LEVELS`)."""
    rematch: list[StrictInt]
    """Once the match is over: the seats whose players asked to play again."""
    next: str | None = None
    """Once every person asked: the code of the rematch's room (the seats' tokens hold there)."""
    commitment: str | None = None
    """Once the game has started: the SHA-256 of the shuffle seed, revealed in the record at the end."""


class ShownHand(_Sent):
    seat: StrictInt
    hand: list[str]


class View(_Sent):
    """What the receiver's seat may know now (:meth:`unomas.view.View.to_json` less ``rules``)."""

    seat: StrictInt | None
    round: StrictInt
    ply: StrictInt
    """Actions applied so far: an ``act`` names the ply of the view it answers."""
    dealer: StrictInt
    phase: Literal["color", "turn", "drawn", "penalty", "run", "round_over", "match_over"]
    current: StrictInt
    hand: list[str]
    hand_sizes: list[StrictInt]
    top: str
    color: Literal["R", "Y", "G", "B"] | None
    direction: Literal[1, -1]
    pile_size: StrictInt
    discard: list[str]
    penalty: StrictInt
    challengeable: bool
    accused: StrictInt | None
    drawn: str | None
    uno_pending: StrictInt | None
    shown_hand: ShownHand | None
    partners: list[StrictInt]
    """The other seats of the receiver's team (house rule ``teams``; empty without)."""
    partner_hands: list[ShownHand]
    """Under ``team_view``: each partner's seat and cards (empty otherwise)."""
    scores: list[StrictInt]
    """Each seat's total; with teams every member holds its team's total."""
    winner: StrictInt | None
    legal_actions: list[Move]
    """Everything this seat may do now, each variant written out; sending one verbatim is legal."""


class Event(BaseModel):
    """One event as the receiver may see it: ``event`` names its kind, the other keys are
    its fields (:func:`unomas.events.to_json`); hidden cards are null."""

    model_config = ConfigDict(extra="allow")

    event: Literal[EVENT_KINDS]  # type: ignore[valid-type]


class Change(_Sent):
    """One change of the round so far, as the receiver may see it."""

    events: list[Event]
    narration: list[str]


class UpdateMessage(_Sent):
    """A change: its events redacted for the receiver, their narration in the hello's
    language, and the receiver's view after it."""

    type: Literal["update"]
    events: list[Event]
    narration: list[str]
    view: View
    turn_left: float | None
    state: StrictInt
    """The match's state id: the number of changes stored (actions and deals). It moves on
    with every change and survives a restart: compare it, do not count updates."""
    """Seconds left on the turn timer; null without one."""
    ref: StrictInt | None = None
    """The ``ref`` of the receiver's own action that caused this change."""
    history: list[Change] | None = None
    """Only in the first update after a hello: the match so far (its latest changes)."""
    rounds: list[protocol.RoundResult] | None = None
    """Only in the first update after a hello, once a round has ended: the standings."""


class OverMessage(_Sent):
    """The match is over; the record (seed revealed) is at ``record``."""

    type: Literal["over"]
    record: str
    scores: list[StrictInt] | None
    winner: StrictInt | None
    """The seat that won; null for a match ended early (``move_limit``, ``abandoned``)."""
    winners: list[StrictInt]
    """The seats that won: the winner and, with teams, its partners (none when nobody won)."""
    rounds: list[protocol.RoundResult]
    """The standings: each round's winner, points and everyone's totals after it."""
    reason: Literal["target", "move_limit", "abandoned"]
    limit: StrictInt
    """The actions after which a match still in play is ended (``move_limit``)."""


class ErrorMessage(_Sent):
    """A refusal: nothing changed. ``message`` is English; show the code's words."""

    type: Literal["error"]
    code: Literal[tuple(ERRORS)]  # type: ignore[valid-type]
    params: dict[str, Any]
    message: str
    ref: StrictInt | None = None
    """The refused action's ``ref``."""


ServerMessage = Annotated[
    RoomMessage
    | UpdateMessage
    | protocol.Presence
    | OverMessage
    | ErrorMessage
    | protocol.RematchMade
    | protocol.Reaction
    | protocol.TimedOut,
    Field(discriminator="type"),
]
"""Every message the server sends on the room's WebSocket."""


class ClientMessages(RootModel[protocol.ClientMessage]):
    """Every message a client sends on the room's WebSocket."""


class ServerMessages(RootModel[ServerMessage]):
    """Every message the server sends on the room's WebSocket."""


class CreatedRoom(_Sent):
    """The answer of ``POST /api/rooms``: the room, the host's seat and its secret token."""

    code: str
    seat: StrictInt
    token: str
    link: str


class JoinedRoom(_Sent):
    """The answer of ``POST /api/rooms/{code}/join``: the seat taken and its secret token."""

    code: str
    seat: StrictInt
    token: str


class Refused(_Sent):
    code: Literal[tuple(ERRORS)]  # type: ignore[valid-type]
    params: dict[str, Any]
    message: str


class HttpError(_Sent):
    """Any refused HTTP request, with the status of its code in :data:`~unomas.error_codes.ERRORS`."""

    error: Refused


MODELS: tuple[type[BaseModel], ...] = (
    ClientMessages,
    ServerMessages,
    protocol.RoomSetup,
    protocol.JoinRequest,
    CreatedRoom,
    JoinedRoom,
    RoomMessage,
    HttpError,
)
"""The models whose schemas the document holds, by name, under ``$defs``."""


def protocol_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of every message and HTTP body of the protocol."""
    _, document = models_json_schema([(model, "validation") for model in MODELS], title=PROTOCOL)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://unomas.invalid/schema/{PROTOCOL}",
        "description": "The room protocol of `unomas serve` (docs/protocol.md): ClientMessages and "
        "ServerMessages on the WebSocket /ws/{code}, the bodies of POST /api/rooms (RoomSetup → "
        "CreatedRoom), POST /api/rooms/{code}/join (JoinRequest → JoinedRoom), GET /api/rooms/{code} "
        "(RoomMessage) and any refusal over HTTP (HttpError). Generated by "
        "`python -m unomas.server.schema`.",
        **document,
    }


def schema_text() -> str:
    """The schema as the checked-in file holds it."""
    return json.dumps(protocol_schema(), indent=2, ensure_ascii=False, sort_keys=True) + "\n"


if __name__ == "__main__":
    print(schema_text(), end="")
