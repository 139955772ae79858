"""Cards, colours and the 108-card deck.

A card is a small integer, its *kind*: identical cards (the two ``R7``) are the same
kind, so a hand is a list of kinds. Kinds 0–51 are the coloured cards, ``13 * colour +
rank``; 52 is the Wild (``W``) and 53 the Wild Draw Four (``W+4``). Tokens are those of
the rules: ``R0`` … ``B9``, ``RS`` (Skip), ``RR`` (Reverse), ``R+2`` (Draw Two), ``W``,
``W+4``.

>>> parse_card("G+2") == card(GREEN, DRAW_TWO)
True
>>> card_token(WILD_DRAW_FOUR)
'W+4'
>>> [points(parse_card(t)) for t in ("Y7", "BS", "W")]
[7, 20, 50]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Final

from unomas.errors import NotationError

Card = int
"""A card kind, 0–53."""
Color = int
"""A colour, 0–3: red, yellow, green, blue."""

RED: Final = 0
YELLOW: Final = 1
GREEN: Final = 2
BLUE: Final = 3
COLORS: Final[tuple[Color, ...]] = (RED, YELLOW, GREEN, BLUE)
COLOR_LETTERS: Final = "RYGB"

SKIP: Final = 10
REVERSE: Final = 11
DRAW_TWO: Final = 12
"""Ranks of the action cards; ranks 0–9 are the numbers."""
WILD_RANK: Final = 13
WILD_DRAW_FOUR_RANK: Final = 14

WILD: Final = 52
WILD_DRAW_FOUR: Final = 53
KINDS: Final = 54

_RANK_SYMBOLS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2")


def card(color: Color, rank: int) -> Card:
    """The coloured card of ``color`` and ``rank`` (0–9, SKIP, REVERSE, DRAW_TWO)."""
    return 13 * color + rank


COLOR_OF: Final[tuple[int, ...]] = (*tuple(k // 13 for k in range(52)), -1, -1)
"""Colour of each kind; -1 for the wild cards."""
RANK_OF: Final[tuple[int, ...]] = (*tuple(k % 13 for k in range(52)), WILD_RANK, WILD_DRAW_FOUR_RANK)
POINTS: Final[tuple[int, ...]] = (*tuple(r if r < 10 else 20 for r in RANK_OF[:52]), 50, 50)
TOKENS: Final[tuple[str, ...]] = (*tuple(COLOR_LETTERS[k // 13] + _RANK_SYMBOLS[k % 13] for k in range(52)), "W", "W+4")
_BY_TOKEN = {token: kind for kind, token in enumerate(TOKENS)}

IS_WILD: Final[tuple[bool, ...]] = tuple(k >= 52 for k in range(KINDS))
IS_ACTION_OR_WILD: Final[tuple[bool, ...]] = tuple(RANK_OF[k] >= 10 for k in range(KINDS))
"""Skip, Reverse, Draw Two, Wild and Wild Draw Four: the cards ``no_action_finish`` bars."""
IS_DRAW_CARD: Final[tuple[bool, ...]] = tuple(k == WILD_DRAW_FOUR or RANK_OF[k] == DRAW_TWO for k in range(KINDS))

COPIES: Final[tuple[int, ...]] = tuple(4 if k >= 52 else (1 if k % 13 == 0 else 2) for k in range(KINDS))
"""How many cards of each kind the deck holds."""

DECK: Final[tuple[Card, ...]] = tuple(k for k in range(KINDS) for _ in range(COPIES[k]))
"""The 108 cards, in kind order."""
DECK_SIZE: Final = 108


def card_token(kind: Card) -> str:
    """The token of a card kind (``"R7"``, ``"W+4"``)."""
    return TOKENS[kind]


def parse_card(token: str) -> Card:
    """The card kind of a token; raises :class:`NotationError` naming a bad token."""
    try:
        return _BY_TOKEN[token]
    except (KeyError, TypeError):
        raise NotationError("notation.not_a_card", token=repr(token)) from None


def color_letter(color: Color) -> str:
    """The letter of a colour: ``R``, ``Y``, ``G`` or ``B``."""
    return COLOR_LETTERS[color]


def parse_color(letter: str) -> Color:
    """The colour of a letter ``R``/``Y``/``G``/``B``; raises :class:`NotationError`."""
    if isinstance(letter, str) and len(letter) == 1 and letter in COLOR_LETTERS:
        return COLOR_LETTERS.index(letter)
    raise NotationError("notation.not_a_color", letter=repr(letter))


def points(kind: Card) -> int:
    """What a card left in hand scores: face value, 20 for action cards, 50 for wilds."""
    return POINTS[kind]


def is_full_deck(cards: Iterable[Card]) -> bool:
    """Whether ``cards`` are exactly the 108 cards of the deck."""
    return Counter(cards) == _DECK_COUNTS


_DECK_COUNTS = Counter(DECK)
