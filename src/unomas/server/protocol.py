"""The messages between browser and server, validated with pydantic.

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
``over`` (``record``, ``scores``, ``reason``: ``target``, ``abandoned`` for a match everyone
left, or ``move_limit`` for a match
ended after ``limit`` actions) and ``error`` messages, all JSON objects with a ``type``.
An ``error`` with code ``seat.taken_over``, ``hello.late`` or ``server.restarting`` is the
connection's last message before the server closes it.

Every refusal is an :class:`~unomas.errors.UnoError` with one registered code
(:data:`unomas.error_codes.ERRORS`, which gives its HTTP status and its words); the server
sends ``{"type": "error", "code", "params", "message", "ref"}`` over the WebSocket (``ref``:
the refused action's) and ``{"error": {"code", "params", "message"}}`` over HTTP.
``message`` is English; a page shows the code's words in its reader's language
(:func:`unomas.i18n.error_text`, or the ``errors`` of ``/api/i18n/{lang}``) and never reads
the message. ``docs/protocol.md`` lists the server's own codes (the kind ``Refusal``); an
action the rules refuse is refused with the engine's own code (``move.not_your_turn``…).

Names are NFKC-normalised and compared by their confusable skeleton within a room
(:mod:`unomas.server.names`).

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

from typing import Annotated, Any, Literal, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
    field_validator,
)

from unomas.bots.levels import ROOM_LEVELS
from unomas.errors import Refusal, UnoError
from unomas.rules import SETTING_HELP, Rules

__all__ = [
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
    "Rematch",
    "RematchMade",
    "RoomSetup",
    "RoundResult",
    "Start",
    "TimedOut",
    "invalid",
    "parse_client_message",
]

MAX_MESSAGE = 2048
"""The longest message a client may send, in characters."""

MAX_TARGET_SCORE = 10_000
"""The highest target score a room may play to."""

Name = Annotated[str, Field(min_length=1, max_length=24)]
"""A player's name as sent; :func:`~unomas.server.names.clean_name` then normalises it or refuses it."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class RoomSetup(_Strict):
    """A new room: the host's name, the rules, which seats bots play, the turn timer."""

    name: Name
    rules: dict[str, StrictInt | StrictBool | StrictStr] = Field(default_factory=dict, max_length=len(SETTING_HELP))
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
    def _rules(cls, value: dict[str, int | bool | str]) -> dict[str, int | bool | str]:
        rules = Rules.from_dict(value)  # a SettingsError is a ValueError: invalid() raises it as it is
        if rules.target_score > MAX_TARGET_SCORE:
            raise Refusal("setup.target_score_max", limit=MAX_TARGET_SCORE)
        return value

    @field_validator("bot")
    @classmethod
    def _bot(cls, value: str) -> str:
        if value not in ROOM_LEVELS:
            raise Refusal("setup.room_level", known=", ".join(ROOM_LEVELS), value=repr(value))
        return value

    def game_rules(self) -> Rules:
        """The validated rules."""
        return Rules.from_dict(self.rules)

    def check_seats(self) -> None:
        """Refuse a bot seat that is the host's, out of range or repeated (``setup.seat_twice``,
        ``setup.bot_seat``, ``setup.program_and_bot``)."""
        players = self.game_rules().players
        for field, seats in (("bots", self.bots), ("programs", self.programs)):
            if len(set(seats)) != len(seats):
                raise Refusal("setup.seat_twice", field=field)
            for seat in seats:
                if not 1 <= seat < players:
                    raise Refusal("setup.bot_seat", field=field, seat=seat, last=players - 1)
        if set(self.bots) & set(self.programs):
            raise Refusal("setup.program_and_bot")


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
    """One round of the standings: who won it, the points, everyone's totals after it, and
    each hand's cards left with what each scored (the winner's empty)."""

    model_config = ConfigDict(extra="forbid")

    round: int
    winner: int
    points: int
    scores: list[int]
    hands: list[list[tuple[str, int]]]


def parse_client_message(text: str) -> Hello | Start | Act | Rematch | React | LetGo:
    """The message in ``text``; a :class:`Refusal` says what is wrong (``message.too_long``,
    or ``message.invalid``: not JSON, an unknown type, a bad field)."""
    if len(text) > MAX_MESSAGE:
        raise Refusal("message.too_long", length=len(text), limit=MAX_MESSAGE)
    try:
        return _CLIENT.validate_json(text)
    except ValidationError as error:
        raise invalid(error) from None


def invalid(error: ValidationError, code: str = "message.invalid") -> UnoError:
    """The refusal of a message pydantic rejected: the unomas error a validator raised (a
    bad rule, say), or ``code`` naming the first bad field (``message`` for the message as a
    whole: not JSON, say) with pydantic's own account of what is wrong as ``reason``."""
    first = error.errors()[0]
    raised = first.get("ctx", {}).get("error")
    if isinstance(raised, UnoError):
        return raised
    where = ".".join(str(part) for part in first["loc"])
    if first["type"] in ("union_tag_invalid", "union_tag_not_found"):
        where = "type"  # no such type of message, or none given
    reason = first["msg"].removeprefix("Value error, ")
    if first["type"] == "json_invalid":
        return Refusal(
            "message.invalid", field="message", reason=f"not JSON: {first.get('ctx', {}).get('error', reason)}"
        )
    return Refusal(code, field=where or "message", reason=reason)
