"""The observation writer of the RL environments: a seat's knowledge as a ``float32`` vector.

Free of NumPy, so that ``setup.py`` compiles it with mypyc beside the engine (a build has
no NumPy); the environments wrap its ``bytearray`` buffers as NumPy arrays without
copying. It writes what it is given and decides nothing about who may see what: the
driver (:mod:`unomas.rl.driver`) gives it a seat's knowledge, and
:func:`unomas.rl.observation.encode` a seat's :class:`~unomas.view.View`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from unomas.cards import KINDS, Card
from unomas.rules import SWITCHES

__all__ = ["ObservationWriter", "discard_counts", "slice_sizes"]

_PHASES_SEEN: Final = 4
"""Phases 0–3 (choose a colour, turn, drawn card, penalty) have a one-hot entry; a round
or match that is over has none."""
_RUN: Final = 4
"""The run of ``same_number_together`` (:attr:`unomas.position.Phase.RUN`): shown as phase 2,
play a card or pass, as after a drawn card (docs/rl.md)."""
_PLAY_OR_PASS: Final = 2


def slice_sizes(slots: int, history: bool = False) -> list[tuple[str, int]]:
    """The slices of the observation vector in order, with their sizes, for ``slots`` seats
    (with the ``history`` slice or without)."""
    n = slots
    sizes = [
        ("hand", KINDS),
        ("top", KINDS),
        ("color", 4),
        ("phase", 4),
        ("on_turn", 1),
        ("direction", 1),
        ("penalty", 1),
        ("challengeable", 1),
        ("drawn", KINDS),
        ("discard", KINDS),
        ("shown", KINDS),
        ("shown_seat", n),
        ("pile_size", 1),
        ("hand_sizes", n),
        ("uno_pending", n),
        ("current", n),
        ("dealer", n),
        ("scores", n),
        ("partners", n),
        ("rules", len(SWITCHES)),
        ("settings", 3),
    ]
    if history:
        sizes.append(("history", 4 * n))
    return sizes


class _Vector:
    """One observation vector being kept up to date, and what its slices hold now.

    The writer changes only the items whose value differs from what the vector holds:
    from one observation of a seat to its next, most of the table stays as it was.
    """

    def __init__(self, template: bytes, players: int) -> None:
        self.data = bytearray(template)
        self.items = memoryview(self.data).cast("f")
        """The vector as ``float32`` items (a memoryview takes item writes faster than an array)."""
        self.hand = [0] * KINDS
        """The counts in the ``hand`` slice, by kind."""
        self.hand_cards: list[Card] = []
        """The cards counted there (every kind with a count other than 0 is among them)."""
        self.shown = [0] * KINDS
        self.shown_cards: list[Card] = []
        self.numbers = [-1] * (2 * players + 5)
        """The single-item numbers: on_turn, direction, penalty, challengeable, pile_size,
        then the hand sizes and the scores by offset (-1: not written yet, the item is 0)."""
        self.hots = [-1] * 8
        """The one-hot positions (-1: none): top, color, phase, drawn, shown_seat,
        uno_pending, current, dealer (offsets from the slice start)."""
        self.hand_sizes: list[int] = []
        """The hand sizes written, by seat (not by offset: as the writer is given them)."""
        self.scores: list[int] = []
        self.discard: memoryview[float] | None = None
        """The discard counts copied into the ``discard`` slice (kept alive, so that the
        identity check of :meth:`ObservationWriter.write` is sound)…"""
        self.discarded = -1
        """… and how many cards they counted then."""
        self.history = [0] * players
        """The colour bits written in the ``history`` slice, by seat."""


class ObservationWriter:
    """Writes the observation vectors of one layout (:class:`unomas.rl.observation.ObservationLayout`).

    ``offsets`` are the first index of each slice, ``template`` the vector before anything
    is written in (zeros and the rules switches). :meth:`write` makes a vector from
    scratch, or keeps one vector per seat up to date, changing only the items that differ
    from the seat's previous observation.
    """

    def __init__(self, players: int, offsets: dict[str, int], template: bytes) -> None:
        n = self.players = players
        self.template = template
        self._number_items = [offsets[name] for name in ("on_turn", "direction", "penalty", "challengeable")]
        self._number_items += [offsets["pile_size"]]
        self._number_items += [offsets["hand_sizes"] + k for k in range(n)]
        self._number_items += [offsets["scores"] + k for k in range(n)]
        self._hot_slices = [
            offsets[name]
            for name in ("top", "color", "phase", "drawn", "shown_seat", "uno_pending", "current", "dealer")
        ]
        self.hand = offsets["hand"]
        self.shown = offsets["shown"]
        self.discard = offsets["discard"]
        self.history = offsets.get("history", -1)
        """Where the ``history`` slice starts (-1: the layout has none)."""
        self._seats = [_Vector(template, n) for _ in range(n)]

    def write(
        self,
        seat: int,
        hand: list[Card],
        top: Card,
        color: int,
        phase: int,
        current: int,
        direction: int,
        penalty: int,
        challengeable: bool,
        drawn: Card,
        discard: memoryview[float],
        discarded: int,
        shown_seat: int,
        shown: list[Card],
        pile_size: int,
        hand_sizes: list[int],
        uno_pending: int,
        dealer: int,
        scores: list[int],
        history: list[int],
        keep: bool = False,
    ) -> bytearray:
        """The vector (``float32`` bytes) holding what ``seat`` knows (``-1``: no colour,
        drawn card, shown hand or seat to catch; ``discard``: the discard pile's counts by
        kind, as :func:`discard_counts` gives them, ``discarded`` cards in all; ``history``:
        the colour bits of each seat, bit ``c`` for colour ``c``, read if the layout has
        the slice).

        Without ``keep``, a new vector written from the template. With ``keep``, the seat's
        kept vector (see the class) brought up to date and returned itself: the caller
        copies what it keeps. Its discard counts are not copied again from the same buffer
        counting as many cards (the caller only ever adds cards to a buffer, or starts a
        new one).
        """
        vector = self._seats[seat] if keep else _Vector(self.template, self.players)
        n = self.players
        items = vector.items
        self._counts_into(items, self.hand, vector.hand, vector.hand_cards, hand)
        vector.hand_cards = hand[:]
        seen = phase < _PHASES_SEEN or phase == _RUN  # in play
        # each item is compared here and written only if it changed: most stay as they were
        hots = vector.hots
        if top != hots[0]:
            self._hot(vector, 0, top)
        if color != hots[1]:
            self._hot(vector, 1, color)
        position = (_PLAY_OR_PASS if phase == _RUN else phase) if seen else -1
        if position != hots[2]:
            self._hot(vector, 2, position)
        if drawn != hots[3]:
            self._hot(vector, 3, drawn)
        position = (shown_seat - seat) % n if shown_seat >= 0 else -1
        if position != hots[4]:
            self._hot(vector, 4, position)
        position = (uno_pending - seat) % n if uno_pending >= 0 else -1
        if position != hots[5]:
            self._hot(vector, 5, position)
        position = (current - seat) % n
        if position != hots[6]:
            self._hot(vector, 6, position)
        position = (dealer - seat) % n
        if position != hots[7]:
            self._hot(vector, 7, position)
        numbers = vector.numbers
        value = 1 if seen and current == seat else 0
        if value != numbers[0]:
            self._number(vector, 0, value)
        value = 1 if direction > 0 else 0
        if value != numbers[1]:
            self._number(vector, 1, value)
        if penalty != numbers[2]:
            self._number(vector, 2, penalty)
        value = 1 if challengeable else 0
        if value != numbers[3]:
            self._number(vector, 3, value)
        if pile_size != numbers[4]:
            self._number(vector, 4, pile_size)
        if hand_sizes != vector.hand_sizes:
            for k in range(n):
                self._number(vector, 5 + k, hand_sizes[(seat + k) % n])
            vector.hand_sizes = hand_sizes[:]
        if scores != vector.scores:
            for k in range(n):
                self._number(vector, 5 + n + k, scores[(seat + k) % n])
            vector.scores = scores[:]
        if discard is not vector.discard or discarded != vector.discarded:
            items[self.discard : self.discard + KINDS] = discard
            vector.discard = discard
            vector.discarded = discarded
        if shown_seat >= 0 or vector.shown_cards:
            self._counts_into(items, self.shown, vector.shown, vector.shown_cards, shown)
            vector.shown_cards = shown[:]
        if self.history >= 0 and history != vector.history:
            for k in range(n):
                bits = history[(seat + k) % n]
                base = self.history + 4 * k
                for color in range(4):
                    _put(items, base + color, (bits >> color) & 1)
            vector.history = history[:]
        return vector.data

    def _hot(self, vector: _Vector, k: int, position: int) -> None:
        """Move the 1 of one-hot slice ``k`` (see :attr:`_Vector.hots`) to ``position``."""
        start = self._hot_slices[k]
        last = vector.hots[k]
        if last >= 0:
            _put(vector.items, start + last, 0)
        if position >= 0:
            _put(vector.items, start + position, 1)
        vector.hots[k] = position

    def _number(self, vector: _Vector, k: int, value: int) -> None:
        """Make single-item number ``k`` (see :attr:`_Vector.numbers`) ``value``."""
        if value != vector.numbers[k]:
            _put(vector.items, self._number_items[k], value)
            vector.numbers[k] = value

    def _counts_into(
        self, items: memoryview[float], base: int, written: list[int], written_cards: list[Card], cards: list[Card]
    ) -> None:
        """Make the counts by kind in the slice at ``base`` those of ``cards``; ``written``
        holds the counts there now, of ``written_cards``.

        A hand mostly changes by a card played (removed from the list) and cards drawn
        (appended): then only those kinds are counted again.
        """
        m, size = len(written_cards), len(cards)
        same = 0
        while same < m and same < size and cards[same] == written_cards[same]:
            same += 1
        if same == m:  # cards were only added
            self._add(items, base, written, cards, same, 1)
            return
        if written_cards[same + 1 :] == cards[same : m - 1]:  # one card went, some may have come
            gone = written_cards[same]
            count = written[gone] - 1
            written[gone] = count
            _put(items, base + gone, count)
            self._add(items, base, written, cards, m - 1, 1)
            return
        self._add(items, base, written, written_cards, 0, -1)
        self._add(items, base, written, cards, 0, 1)

    def _add(
        self, items: memoryview[float], base: int, written: list[int], cards: list[Card], start: int, step: int
    ) -> None:
        """Count ``cards[start:]`` once more each (``step`` 1) or once less (-1) in the slice at ``base``."""
        for i in range(start, len(cards)):
            card = cards[i]
            count = written[card] + step
            written[card] = count
            _put(items, base + card, count)


_BOXED: Final = 512
_INDEXES: Final[list[Any]] = list(range(_BOXED))
_FLOATS: Final[list[Any]] = [float(value) for value in range(_BOXED)]
"""Python objects for the usual indexes and values of item writes, made once (typed ``Any``
so that the compiled build passes them as they are, where it would make a float, and an
int past 256, for every write)."""


def _put(items: memoryview[float], index: int, value: int) -> None:
    """``items[index] = value``, through the objects made once when there are some."""
    items[_INDEXES[index] if index < _BOXED else index] = _FLOATS[value] if 0 <= value < _BOXED else float(value)


def discard_counts(discard: Sequence[Card]) -> memoryview[float]:
    """How many of each card kind ``discard`` holds, as the observation's ``discard`` slice
    (``float32`` items over a new buffer)."""
    counts = memoryview(bytearray(4 * KINDS)).cast("f")
    for card in discard:
        counts[card] += 1.0
    return counts
