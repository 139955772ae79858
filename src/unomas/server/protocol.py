"""The messages between browser and server, validated with pydantic, and the refusals' codes.

HTTP: ``POST /api/rooms`` takes a :class:`RoomSetup`, ``POST /api/rooms/{code}/join`` a
:class:`JoinRequest`. WebSocket ``/ws/{code}``: the client's first message is a
:class:`Hello` (with its seat's token, or none to watch), then :class:`Start` (the host,
in the lobby) and :class:`Act` (an action, any time, with the ``ply`` of the view it
answers). Anything else, too long, or not JSON gets an ``error`` message and changes nothing.

The server sends ``room`` (seats, status, commitment), ``update`` (the events of one
change redacted for the receiver, their narration, its view, and ``ref`` echoed to the
sender of the action; the first update after a hello also carries ``history``: the whole
match so far as that connection may see it, the latest changes up to a limit), ``presence``
(``seat``, ``connected``, ``away``: a seat's player came, left or is away; the whole room is
sent only on a hello),
``over`` (``record``, ``scores``, ``reason``: ``target``, or ``move_limit`` for a match
ended after ``limit`` actions) and ``error`` messages, all JSON objects with a ``type``.
An ``error`` with code ``seat.taken_over``, ``hello.late`` or ``server.restarting`` is the
connection's last message before the server closes it.

Every refusal is an :class:`~unomas.errors.UnoError` with a stable code; the server sends
``{"type": "error", "code", "params", "message", "ref"}`` over the WebSocket (``ref``: the
refused action's) and ``{"error": {"code", "params", "message"}}`` over HTTP, with the
status of :data:`ERRORS`. ``message`` is English; a page shows the code's words in its
reader's language (:func:`unomas.i18n.error_text`, or the ``errors`` of ``/api/i18n/{lang}``)
and never reads the message. The codes, and their params:

========================  ======  ===========================================================
code                      HTTP    when (params)
========================  ======  ===========================================================
``room.not_found``        404     no room by that code (``room``)
``room.full``             409     every seat is taken
``room.started``          409     joining, or starting, once the game has started
``room.not_host``         403     someone else than the host starts the game
``room.not_playing``      409     an action in the lobby
``room.over``             409     an action once the match is over
``room.not_over``         409     the record of a game still in play (revealed at its end)
``room.capacity``         503     the server holds as many rooms as it can (``limit``)
``seat.spectator``        403     a spectator's action
``seat.not_yours``        403     an action for another seat than the sender's (``seat``, ``asked``)
``auth.bad_token``        403     a hello with a token that holds no seat in this room
``hello.twice``           409     a second hello on one connection
``hello.first``           409     anything before the hello
``rate.limited``          429     too many messages (``rate``: per second)
``message.invalid``       422     not JSON, binary, an unknown type or a bad field (``field``:
                                  where, ``message`` for the message as a whole; ``reason``)
``message.too_long``      413     a message over :data:`MAX_MESSAGE` (``length``, ``limit``)
``body.too_large``        413     an HTTP body over the server's limit (``limit``: bytes)
``setup.invalid``         422     a room setup with a bad field, rules or bot seats (``field``, ``reason``)
``lang.unknown``          404     words asked for in a language without a catalog (``lang``)
``move.illegal``          409     an action the rules refuse now (``action``, ``reason``: the
                                  engine's English; ``reason_code``, when the engine gives one)
``move.stale``            409     an action answering a ply that has passed (``ply``, ``now``),
                                  even one the match's last move overtook
``store.unavailable``     503     the change could not be stored (the database is busy or
                                  failing): it was not made; try again
``seat.taken_over``       409     (to the older connection) a newer one took this seat over
``origin.forbidden``      403     a WebSocket or state-changing request from another site's page
``body.not_json``         415     a POST whose Content-Type is not ``application/json``
``room.watchers_full``    409     a spectator's hello in a room with as many as it takes (``limit``)
``client.limited``        429     too many rooms, look-ups or connections from one address
                                  (``retry_after``: seconds; HTTP sends ``Retry-After`` too)
``hello.late``            408     a connection that said no hello in time (then closed)
``server.restarting``     503     the server is shutting down (then closed): reconnect
``name.invalid``          422     a name nobody could read or that misleads: ``reason_code`` is
                                  ``name.invisible`` (no visible letter), ``name.bidi`` (a
                                  direction override), ``name.marks`` (combining marks stacked
                                  on one letter) or ``name.symbols`` (control characters, < >)
``name.taken``            409     someone in the room already has that name (``name``)
``rematch.early``         409     a rematch asked for before the match is over
========================  ======  ===========================================================

Names are NFC-normalised (:func:`clean_name`) and compared case-blind within a room.

After the match: each person opts in to a rematch with :class:`Rematch`; the ``room``
message lists who did (``rematch``). Once every person's seat has, the server makes a new
room with the same seats, rules and tokens, a new seed and commitment, and starts its
match; every connection of the old room is sent :class:`RematchMade` (and the old room's
``room`` message names it as ``next``). A seat's player sends :class:`React` (one of
:data:`REACTIONS`; one a second at most, more are refused as ``rate.limited``), and
everyone gets :class:`Reaction`. When the turn timer runs out,
everyone gets :class:`TimedOut` after the update of what the server did for the seat.
A ``presence`` message is a :class:`Presence`; the ``room`` message gives each seat's the
same way, and ``host``: the seat that may start (handed on when the host leaves the lobby).
The ``over`` message also carries ``winner`` and ``rounds`` (:class:`RoundResult` each);
so does the first update after a hello, once a round has ended.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, TypeAdapter, ValidationError, field_validator

from unomas.bots.levels import ROOM_LEVELS
from unomas.errors import SettingsError, UnoError
from unomas.rules import Rules

__all__ = [
    "ERRORS",
    "MAX_MESSAGE",
    "MAX_TARGET_SCORE",
    "REACTIONS",
    "Act",
    "ClientMessage",
    "Hello",
    "JoinRequest",
    "Move",
    "Presence",
    "React",
    "Reaction",
    "Refusal",
    "Rematch",
    "RematchMade",
    "RoomSetup",
    "RoundResult",
    "Start",
    "TimedOut",
    "clean_name",
    "invalid",
    "name_key",
    "parse_client_message",
]

MAX_MESSAGE = 2048
"""The longest message a client may send, in characters."""

MAX_TARGET_SCORE = 10_000
"""The highest target score a room may play to."""

ERRORS: dict[str, int] = {
    "room.not_found": 404,
    "room.full": 409,
    "room.started": 409,
    "room.not_host": 403,
    "room.not_playing": 409,
    "room.over": 409,
    "room.not_over": 409,
    "room.capacity": 503,
    "seat.spectator": 403,
    "seat.not_yours": 403,
    "auth.bad_token": 403,
    "hello.twice": 409,
    "hello.first": 409,
    "rate.limited": 429,
    "message.invalid": 422,
    "message.too_long": 413,
    "body.too_large": 413,
    "setup.invalid": 422,
    "lang.unknown": 404,
    "move.illegal": 409,
    "move.stale": 409,
    "store.unavailable": 503,
    "seat.taken_over": 409,
    "origin.forbidden": 403,
    "body.not_json": 415,
    "room.watchers_full": 409,
    "client.limited": 429,
    "hello.late": 408,
    "server.restarting": 503,
    "name.invalid": 422,
    "name.taken": 409,
    "rematch.early": 409,
}
"""Every code the server refuses with, and the HTTP status it answers with (see above)."""


class Refusal(UnoError):
    """A request the server refuses: its ``code`` (one of :data:`ERRORS`, given by each
    refusal) says why, its ``params`` fill in the details."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        assert code in ERRORS, f"undocumented error code {code!r}"
        super().__init__(message, code=code, **params)


Name = Annotated[str, Field(min_length=1, max_length=24)]
"""A player's name as sent; :func:`clean_name` then normalises it or refuses it."""

MAX_MARKS = 2
"""Combining marks one letter may carry (more is the "zalgo" text that spills over lines)."""

BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
"""Characters that turn the direction of the text around them: refused in names."""


def clean_name(name: str) -> str:
    """``name`` NFC-normalised and trimmed, or a ``name.invalid`` refusal whose ``reason_code``
    says why: control characters or ``<`` ``>`` (``name.symbols``), direction overrides
    (``name.bidi``), more than :data:`MAX_MARKS` combining marks on a letter (``name.marks``),
    or nothing visible (``name.invisible``: spaces, zero-width characters).

    >>> clean_name("  Jose\u0301 ")
    'José'
    """
    text = unicodedata.normalize("NFC", name).strip()
    if any(unicodedata.category(c) == "Cc" or c in "<>" for c in text):
        raise _bad_name("name.symbols", "control characters and < > are not allowed in a name")
    if any(c in BIDI_CONTROLS for c in text):
        raise _bad_name("name.bidi", "a name may not turn the direction of the text")
    marks = 0
    for c in text:
        marks = marks + 1 if unicodedata.combining(c) else 0
        if marks > MAX_MARKS:
            raise _bad_name("name.marks", f"at most {MAX_MARKS} combining marks on one letter")
    if not any(unicodedata.category(c)[0] in "LNPS" for c in text):
        raise _bad_name("name.invisible", "a name needs a visible letter, digit or sign")
    return text


def name_key(name: str) -> str:
    """What two names must not share in one room: the name case-blind (``Ana`` and ``ANA``)."""
    return unicodedata.normalize("NFC", name.casefold())


def _bad_name(reason_code: str, reason: str) -> Refusal:
    return Refusal("name.invalid", f"name: {reason}", reason=reason, reason_code=reason_code)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class RoomSetup(_Strict):
    """A new room: the host's name, the rules, which seats bots play, the turn timer."""

    name: Name
    rules: dict[str, StrictInt | StrictBool] = Field(default_factory=dict, max_length=20)
    bots: list[StrictInt] = Field(default_factory=list, max_length=9)
    """Seats (1 to players-1) that bots play; seats nobody has joined at the start get bots too."""
    programs: list[StrictInt] = Field(default_factory=list, max_length=9)
    """Seats (1 to players-1) kept for programs (``unomas bot --join``): people join the others."""
    bot: str = "heuristic"
    """One of the levels a room may seat (:data:`unomas.bots.levels.ROOM_LEVELS`)."""
    turn_seconds: StrictInt = Field(default=0, ge=0, le=600)
    """Seconds a player has per turn; on expiry the server draws and passes for them (a starting
    colour is chosen by their stand-in bot). 0: no timer."""
    window: float | None = Field(default=None, ge=0, le=10, allow_inf_nan=False)
    """Seconds every seat that is not a bot gets to react (catch a missed UNO, call a late
    one, jump in) before a bot acts; None: the server's default (2.5)."""

    @field_validator("rules")
    @classmethod
    def _rules(cls, value: dict[str, int | bool]) -> dict[str, int | bool]:
        try:
            rules = Rules.from_dict(value)
        except SettingsError as error:
            raise ValueError(str(error)) from None
        if rules.target_score > MAX_TARGET_SCORE:
            raise ValueError(f"target_score must be at most {MAX_TARGET_SCORE} (a room's match must end)")
        return value

    @field_validator("bot")
    @classmethod
    def _bot(cls, value: str) -> str:
        if value not in ROOM_LEVELS:
            raise ValueError(f"a room seats the bots {', '.join(ROOM_LEVELS)}, not {value!r}")
        return value

    def game_rules(self) -> Rules:
        """The validated rules."""
        return Rules.from_dict(self.rules)

    def check_seats(self) -> None:
        """Refuse (``setup.invalid``) a bot seat that is the host's, out of range or repeated."""
        players = self.game_rules().players
        for field, seats in (("bots", self.bots), ("programs", self.programs)):
            if len(set(seats)) != len(seats):
                raise _bad_setup(field, "a seat is listed twice")
            for seat in seats:
                if not 1 <= seat < players:
                    raise _bad_setup(field, f"seat {seat} is not one of seats 1 to {players - 1}")
        if set(self.bots) & set(self.programs):
            raise _bad_setup("programs", "a seat is kept for a program and played by a bot")


def _bad_setup(field: str, reason: str) -> Refusal:
    return Refusal("setup.invalid", f"{field}: {reason}", field=field, reason=reason)


class JoinRequest(_Strict):
    """A player joining a room by name; ``program``: a program (a bot of its own), which
    takes a seat kept for programs first."""

    name: Name
    program: StrictBool = False


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
    """An action of the sender's seat; ``ref`` is echoed in the update it causes (and in
    its refusal). ``ply``: the view's ply the action answers; if the game has moved on
    since, the action is refused (``move.stale``) and changes nothing."""

    type: Literal["act"]
    action: Move
    ref: StrictInt | None = Field(default=None, ge=0, le=2**53)
    ply: StrictInt | None = Field(default=None, ge=0, le=2**53)


ReactionName = Literal["good_game", "nice", "oops", "hurry", "thanks", "laugh", "wow", "uno"]
REACTIONS: tuple[str, ...] = get_args(ReactionName)
"""The quick reactions a seat may send: a fixed set the page words in each language (no
free text, nothing to moderate)."""


class Rematch(_Strict):
    """A seat's player, once the match is over, opts in to a rematch."""

    type: Literal["rematch"]


class React(_Strict):
    """A seat's player sends everyone a quick reaction."""

    type: Literal["react"]
    reaction: ReactionName


class LetGo(_Strict):
    """A seat lets its out-of-turn chance go (a catch, a late UNO, a jump-in): the bots,
    which wait the reaction window for it, need not wait any more."""

    type: Literal["let_go"]
    ply: StrictInt | None = None
    """The ply of the view whose chance is let go: once the game has moved on, nothing is let go."""


ClientMessage = Annotated[Hello | Start | Act | Rematch | React | LetGo, Field(discriminator="type")]
_CLIENT = TypeAdapter(ClientMessage)


class Presence(BaseModel):
    """A seat's player came, left or is away (sent to everyone). ``grace_left``: seconds
    before a bot plays for a player whose connection dropped during the match (left out
    otherwise)."""

    model_config = ConfigDict(extra="forbid")

    type: Literal["presence"] = "presence"
    seat: int
    connected: bool
    away: bool
    grace_left: float | None = None

    def message(self) -> dict[str, Any]:
        """The message as sent (``grace_left`` only where it applies)."""
        return self.model_dump(exclude_none=True)


class RematchMade(BaseModel):
    """The rematch is made: the new room's code (the seats' tokens hold there too)."""

    model_config = ConfigDict(extra="forbid")

    type: Literal["rematch"] = "rematch"
    code: str


class Reaction(BaseModel):
    """A seat's quick reaction, to everyone."""

    model_config = ConfigDict(extra="forbid")

    type: Literal["reaction"] = "reaction"
    seat: int
    reaction: str


class TimedOut(BaseModel):
    """The turn timer ran out for ``seat``: the server acted for it (drew, and passed if it
    could; or had its bot choose a starting colour)."""

    model_config = ConfigDict(extra="forbid")

    type: Literal["timeout"] = "timeout"
    seat: int


class RoundResult(BaseModel):
    """One round of the standings: who won it, the points, everyone's totals after it."""

    model_config = ConfigDict(extra="forbid")

    round: int
    winner: int
    points: int
    scores: list[int]


def parse_client_message(text: str) -> Hello | Start | Act | Rematch | React | LetGo:
    """The message in ``text``; a :class:`Refusal` says what is wrong (``message.too_long``,
    or ``message.invalid``: not JSON, an unknown type, a bad field)."""
    if len(text) > MAX_MESSAGE:
        raise Refusal(
            "message.too_long",
            f"message too long ({len(text)} characters; at most {MAX_MESSAGE})",
            length=len(text),
            limit=MAX_MESSAGE,
        )
    try:
        return _CLIENT.validate_json(text)
    except ValidationError as error:
        raise invalid(error) from None


def invalid(error: ValidationError, code: str = "message.invalid") -> Refusal:
    """The refusal of a message pydantic rejected, naming its first bad field (``message``
    for the message as a whole: not JSON, say) and what is wrong with it."""
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    if first["type"] in ("union_tag_invalid", "union_tag_not_found"):
        where = "type"  # no such type of message, or none given
    reason = first["msg"].removeprefix("Value error, ")
    if first["type"] == "json_invalid":
        reason = f"not JSON: {first.get('ctx', {}).get('error', reason)}"
        return Refusal("message.invalid", reason, field="message", reason=reason)
    return Refusal(code, f"{where}: {reason}" if where else reason, field=where or "message", reason=reason)
