"""Actions: what a player does, as values that round-trip through record moves.

An action's JSON form is the move of a record (RECORD.md):

>>> from unomas.cards import BLUE, parse_card
>>> a = Action.play(1, parse_card("W"), color=BLUE)
>>> a.to_json()
{'p': 1, 'a': 'play', 'card': 'W', 'color': 'B'}
>>> Action.from_json(a.to_json()) == a
True
>>> str(a)
'1 play W B'
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, NamedTuple

from unomas.cards import (
    COLOR_LETTERS,
    KINDS,
    Card,
    Color,
    card_token,
    parse_card,
    parse_color,
)
from unomas.errors import NotationError


class Kind(StrEnum):
    """The kinds of action, named as in records."""

    PLAY = "play"
    DRAW = "draw"
    PASS = "pass"
    COLOR = "color"
    CHALLENGE = "challenge"
    UNO = "uno"
    CATCH = "catch"


PLAY, DRAW, PASS, COLOR, CHALLENGE, UNO, CATCH = Kind

_FIELDS = {
    Kind.PLAY: {"card", "color", "target", "uno"},
    Kind.DRAW: {"cards"},
    Kind.PASS: set(),
    Kind.COLOR: {"color"},
    Kind.CHALLENGE: set(),
    Kind.UNO: set(),
    Kind.CATCH: {"target"},
}
"""The fields each kind of move may carry in a record, beyond ``p`` and ``a``."""


class Action(NamedTuple):
    """One action by seat ``player``.

    ``card`` is set for plays; ``color`` for a wild play and the starting colour;
    ``target`` for a 7 under ``seven_zero`` and for a catch; ``uno`` calls UNO with a play.
    """

    player: int
    kind: Kind
    card: Card | None = None
    color: Color | None = None
    target: int | None = None
    uno: bool = False

    @classmethod
    def play(
        cls, player: int, card: Card, *, color: Color | None = None, target: int | None = None, uno: bool = False
    ) -> Action:
        return cls(player, Kind.PLAY, card, color, target, uno)

    @classmethod
    def draw(cls, player: int) -> Action:
        return cls(player, Kind.DRAW)

    @classmethod
    def pass_(cls, player: int) -> Action:
        return cls(player, Kind.PASS)

    @classmethod
    def choose_color(cls, player: int, color: Color) -> Action:
        return cls(player, Kind.COLOR, color=color)

    @classmethod
    def challenge(cls, player: int) -> Action:
        return cls(player, Kind.CHALLENGE)

    @classmethod
    def call_uno(cls, player: int) -> Action:
        return cls(player, Kind.UNO)

    @classmethod
    def catch(cls, player: int, target: int) -> Action:
        return cls(player, Kind.CATCH, target=target)

    def __str__(self) -> str:
        parts = [str(self.player), str(self.kind)]
        if self.card is not None:
            parts.append(card_token(self.card) if self.card in range(KINDS) else repr(self.card))
        if self.color is not None:
            parts.append(COLOR_LETTERS[self.color] if self.color in range(4) else repr(self.color))
        if self.target is not None:
            parts.append(f"@{self.target}")
        if self.uno:
            parts.append("uno")
        return " ".join(parts)

    def to_json(self) -> dict[str, Any]:
        """The record move of this action (without a draw's ``cards``)."""
        move: dict[str, Any] = {"p": self.player, "a": self.kind.value}
        if self.card is not None:
            move["card"] = card_token(self.card)
        if self.color is not None:
            move["color"] = COLOR_LETTERS[self.color]
        if self.target is not None:
            move["target"] = self.target
        if self.uno:
            move["uno"] = True
        return move

    @classmethod
    def from_json(cls, move: Any) -> Action:
        """The action of a record move; raises :class:`NotationError` naming a bad field.

        Only the form is checked here (types, known fields); whether the action is legal,
        and whether a ``color`` or ``target`` belongs to the card, is the game's to say.
        A draw's ``cards`` field is accepted and ignored here (the replay checks it).
        """
        if not isinstance(move, dict):
            raise NotationError(f"a move must be an object, not {type(move).__name__}")
        player = move.get("p")
        if not isinstance(player, int) or isinstance(player, bool):
            raise NotationError(f"move field 'p' must be a seat number, not {player!r}")
        try:
            kind = Kind(str(move.get("a")))
        except ValueError:
            raise NotationError(
                f"unknown move {move.get('a')!r} (moves are {', '.join(k.value for k in Kind)})"
            ) from None
        extra = sorted(set(move) - {"p", "a"} - _FIELDS[kind])
        defined = {"p", "a", "card", "color", "target", "uno", "cards"}
        misplaced = [name for name in extra if name in defined]
        if misplaced:
            raise NotationError(f"field {misplaced[0]!r} does not belong to a {kind.value} move")
        card = parse_card(move["card"]) if "card" in move else None
        if kind is Kind.PLAY and card is None:
            raise NotationError("a play move needs a 'card'")
        color = parse_color(move["color"]) if "color" in move else None
        if kind is Kind.COLOR and color is None:
            raise NotationError("a color move needs a 'color'")
        target = move.get("target")
        if target is not None and (not isinstance(target, int) or isinstance(target, bool)):
            raise NotationError(f"move field 'target' must be a seat number, not {target!r}")
        if kind is Kind.CATCH and target is None:
            raise NotationError("a catch move needs a 'target'")
        uno = move.get("uno", False)
        if not isinstance(uno, bool):
            raise NotationError(f"move field 'uno' must be true or false, not {uno!r}")
        return cls(player, kind, card, color, target, uno)
