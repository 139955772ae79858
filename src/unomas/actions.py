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
>>> Action.parse("1 play W B") == a
True
>>> Action.parse("0 catch @2")
Action('0 catch @2')
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import StrEnum
from typing import Any, NamedTuple

from unomas.cards import (
    COLOR_LETTERS,
    KINDS,
    TOKENS,
    Card,
    Color,
    card_token,
    parse_card,
    parse_color,
)
from unomas.errors import NotationError
from unomas.refusals import json_type


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

_DEFINED = frozenset({"card", "color", "target", "uno", "cards"})
"""Every field a move may carry, beyond ``p`` and ``a``: others are ignored (left for later forms)."""

_SEAT = re.compile(r"-?[0-9]+")
_TARGET = re.compile(r"@?(-?[0-9]+)")
_CARD_TOKENS = frozenset(TOKENS)


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

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"

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

    @classmethod
    def parse(cls, text: str) -> Action:
        """The action that :func:`str` writes as ``text``: ``SEAT KIND [CARD] [COLOUR]
        [@TARGET] [uno]``, in that order (``"1 play W+4 B"``, ``"0 catch @2"``; a bare
        ``2`` is read as ``@2``). Raises :class:`NotationError` for anything else; whether
        the action is legal is the game's to say.
        """
        words = text.split() if isinstance(text, str) else []
        if len(words) < 2 or not _SEAT.fullmatch(words[0]) or words[1] not in _KINDS:
            raise NotationError("notation.action_text", text=repr(text))
        kind = Kind(words[1])
        rest = words[2:]
        card: Card | None = None
        color: Color | None = None
        target: int | None = None
        if rest and rest[0] in _CARD_TOKENS:
            card = parse_card(rest.pop(0))
        if rest and len(rest[0]) == 1 and rest[0] in COLOR_LETTERS:
            color = parse_color(rest.pop(0))
        if rest and (seat := _TARGET.fullmatch(rest[0])):
            target = int(seat.group(1))
            rest.pop(0)
        uno = bool(rest) and rest[0] == "uno"
        if uno:
            rest.pop(0)
        if rest:
            raise NotationError("notation.action_text", text=repr(text))
        present = [name for name, value in (("card", card), ("color", color), ("target", target)) if value is not None]
        _check_fields(kind, [*present, *(["uno"] if uno else [])])
        _require(kind, Kind.PLAY, "card", card)
        _require(kind, Kind.COLOR, "color", color)
        _require(kind, Kind.CATCH, "target", target)
        return cls(int(words[0]), kind, card, color, target, uno)

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
            raise NotationError("notation.move_not_object", type=json_type(move))
        player = move.get("p")
        if not isinstance(player, int) or isinstance(player, bool):
            raise NotationError("notation.not_a_seat", field="p", value=repr(player))
        name = move.get("a")
        if name not in _KINDS:
            raise NotationError("notation.unknown_move", move=repr(name), known=", ".join(_KINDS))
        kind = Kind(name)
        _check_fields(kind, [field for field in move if field != "p" and field != "a"])
        card = parse_card(move["card"]) if "card" in move else None
        _require(kind, Kind.PLAY, "card", card)
        color = parse_color(move["color"]) if "color" in move else None
        _require(kind, Kind.COLOR, "color", color)
        target = move.get("target")
        if target is not None and (not isinstance(target, int) or isinstance(target, bool)):
            raise NotationError("notation.not_a_seat", field="target", value=repr(target))
        _require(kind, Kind.CATCH, "target", target)
        uno = move.get("uno", False)
        if not isinstance(uno, bool):
            raise NotationError("notation.not_a_flag", field="uno", value=repr(uno))
        return cls(player, kind, card, color, target, uno)


_KINDS = tuple(kind.value for kind in Kind)


def _check_fields(kind: Kind, names: Iterable[str]) -> None:
    """Refuse a field that does not belong to ``kind`` (fields unknown to every kind pass)."""
    allowed = _FIELDS[kind]
    for name in sorted(names):
        if name in _DEFINED and name not in allowed:
            raise NotationError("notation.misplaced_field", field=repr(name), kind=kind.value)


def _require(kind: Kind, needing: Kind, name: str, value: int | None) -> None:
    """Refuse a move of ``kind`` without its field ``name`` if ``needing`` kinds need it:
    a play its card, a colour choice its colour, a catch its target."""
    if kind is needing and value is None:
        raise NotationError("notation.missing_field", kind=kind.value, field=name)
