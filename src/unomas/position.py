"""A position: the whole state of a match at one moment, as a value.

:class:`Position` is the one list of the fields that make up a game's state (what
:meth:`Game.position <unomas.game.Game.position>` reads and :meth:`Game.from_position
<unomas.game.Game.from_position>` builds a game from), in the role FEN plays for chess: it
compares, hashes and round-trips through JSON with cards as tokens. "None" is ``None``
throughout (no colour chosen yet, no drawn card, no seat to catch), never ``-1``, as in
the game's own attributes and in every view.

The rules are not part of a position: they are the match's settings, the same for every
position of it, kept once by the game (and once in a record's header); a position is read
under rules given beside it. A :class:`~unomas.view.View` is one seat's redaction of a
position.

>>> from unomas.game import Game
>>> from unomas.rules import Rules
>>> game = Game(Rules(players=2, target_score=0), seed=1)
>>> position = game.position()
>>> Position.from_json(position.to_json()) == position
True
>>> Game.from_position(game.rules, position).position() == position
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, TypeVar

from unomas.cards import COLOR_LETTERS, Card, Color, card_token, parse_card, parse_color
from unomas.errors import NotationError
from unomas.refusals import json_type

__all__ = ["Phase", "Position"]

_T = TypeVar("_T")


class Phase(IntEnum):
    """What the game waits for."""

    COLOR = 0
    """The dealer chooses the colour of a starting Wild."""
    TURN = 1
    """The player on turn plays or draws."""
    DRAWN = 2
    """The player on turn drew a playable card: plays it or passes."""
    PENALTY = 3
    """The player on turn faces a draw penalty: draws it, stacks, or challenges."""
    RUN = 4
    """``same_number_together``: the player on turn played a number card and holds another
    of that number: plays one (any colour) or passes, ending the turn."""
    ROUND_OVER = 5
    """The round is over; :meth:`Game.start_round <unomas.game.Game.start_round>` deals the next."""
    MATCH_OVER = 6


@dataclass(frozen=True, slots=True, kw_only=True)
class Position:
    """The state of a match at one moment: every hand, both piles and the table."""

    round: int = 0
    """The round in play, from 0."""
    ply: int = 0
    """How many actions the match has applied so far."""
    dealer: int = 0
    """The seat that dealt this round (``round`` modulo the players)."""
    hands: tuple[tuple[Card, ...], ...]
    """Every seat's cards, in the order they came into the hand."""
    pile: tuple[Card, ...]
    """The draw pile, top first."""
    discard: tuple[Card, ...]
    """The discard pile, top last (never empty)."""
    color: Color | None
    """The colour in play; None while the dealer has not chosen one for a starting Wild."""
    direction: int = 1
    """1 clockwise, -1 counter-clockwise."""
    current: int
    """The seat on turn (the dealer while choosing the starting colour)."""
    phase: Phase = Phase.TURN
    penalty: int = 0
    """The draw penalty the seat on turn faces (0 if none)."""
    challengeable: bool = False
    """Whether that penalty comes from a W+4 that may be challenged."""
    accused: int | None = None
    """Who played the W+4 a challenge would accuse (None if none was played this turn)."""
    accused_guilty: bool = False
    """Whether that player held a card of the colour in play before it (a challenge wins)."""
    drawn: Card | None = None
    """The playable card the seat on turn just drew, in the DRAWN phase."""
    uno_pending: int | None = None
    """The seat that must call UNO and may be caught until the next turn action."""
    shown: tuple[int, int, tuple[Card, ...]] | None = None
    """(challenger, challenged, hand) after a challenge, until the next turn action."""
    scores: tuple[int, ...]
    """Every seat's score in the match so far."""
    winner: int | None = None
    """The match winner once the match is over."""

    def to_json(self) -> dict[str, Any]:
        """The position with cards as tokens, colours as letters, the phase by name."""
        shown = self.shown
        return {
            "round": self.round,
            "ply": self.ply,
            "dealer": self.dealer,
            "hands": [_tokens(hand) for hand in self.hands],
            "pile": _tokens(self.pile),
            "discard": _tokens(self.discard),
            "color": None if self.color is None else COLOR_LETTERS[self.color],
            "direction": self.direction,
            "current": self.current,
            "phase": self.phase.name.lower(),
            "penalty": self.penalty,
            "challengeable": self.challengeable,
            "accused": self.accused,
            "accused_guilty": self.accused_guilty,
            "drawn": None if self.drawn is None else card_token(self.drawn),
            "uno_pending": self.uno_pending,
            "shown": None
            if shown is None
            else {"challenger": shown[0], "challenged": shown[1], "hand": _tokens(shown[2])},
            "scores": list(self.scores),
            "winner": self.winner,
        }

    @classmethod
    def from_json(cls, data: Any) -> Position:
        """The position of :meth:`to_json`'s form; raises :class:`NotationError` naming a
        field that is missing or of the wrong form. Whether the position makes sense (108
        cards, seats that exist) is checked by :meth:`Game.from_position
        <unomas.game.Game.from_position>`, under its rules."""
        if not isinstance(data, dict):
            raise NotationError("notation.position_not_object", type=json_type(data))
        known = {field.name for field in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise NotationError("notation.position_unknown_field", field=repr(unknown[0]))
        missing = sorted(known - set(data))
        if missing:
            raise NotationError("notation.position_missing_field", field=repr(missing[0]))
        shown = _field(data, "shown", _shown, none=True)
        return cls(
            round=_field(data, "round", _integer),
            ply=_field(data, "ply", _integer),
            dealer=_field(data, "dealer", _integer),
            hands=tuple(_field(data, "hands", _list_of(_cards))),
            pile=_field(data, "pile", _cards),
            discard=_field(data, "discard", _cards),
            color=_field(data, "color", parse_color, none=True),
            direction=_field(data, "direction", _integer),
            current=_field(data, "current", _integer),
            phase=_field(data, "phase", _phase),
            penalty=_field(data, "penalty", _integer),
            challengeable=_field(data, "challengeable", _boolean),
            accused=_field(data, "accused", _integer, none=True),
            accused_guilty=_field(data, "accused_guilty", _boolean),
            drawn=_field(data, "drawn", parse_card, none=True),
            uno_pending=_field(data, "uno_pending", _integer, none=True),
            shown=shown,
            scores=tuple(_field(data, "scores", _list_of(_integer))),
            winner=_field(data, "winner", _integer, none=True),
        )


def _tokens(cards: Sequence[Card]) -> list[str]:
    return [card_token(c) for c in cards]


class _Bad(Exception):
    """A value of the wrong form, caught by :func:`_field` to name the field."""


def _field(data: dict[str, Any], name: str, read: Callable[[Any], _T], *, none: bool = False) -> Any:
    """``data[name]`` read by ``read`` (None allowed if ``none``), or a NotationError naming it."""
    value = data[name]
    if none and value is None:
        return None
    try:
        return read(value)
    except (_Bad, NotationError):
        raise NotationError("notation.position_bad_field", field=repr(name), value=repr(value)) from None


def _integer(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _Bad
    return value


def _boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise _Bad
    return value


def _list_of(read: Callable[[Any], _T]) -> Callable[[Any], list[_T]]:
    def read_list(value: Any) -> list[_T]:
        if not isinstance(value, list):
            raise _Bad
        return [read(item) for item in value]

    return read_list


def _cards(value: Any) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise _Bad
    return tuple(parse_card(token) for token in value)


def _phase(value: Any) -> Phase:
    if not isinstance(value, str) or value != value.lower() or value.upper() not in Phase.__members__:
        raise _Bad
    return Phase[value.upper()]


def _shown(value: Any) -> tuple[int, int, tuple[Card, ...]]:
    if not isinstance(value, dict) or set(value) != {"challenger", "challenged", "hand"}:
        raise _Bad
    return _integer(value["challenger"]), _integer(value["challenged"]), _cards(value["hand"])
