"""The observation: what one seat may know, as a flat ``float32`` vector built from its View.

:func:`encode` reads a :class:`~unomas.view.View` and nothing else, so it cannot carry
hidden information: other hands and the draw pile's order never reach it. The
environments write the same vector without building a View each step
(:meth:`unomas.rl.driver.Driver.observation`, through the same writer; the tests hold the
two equal). Seats are
written relative to the observing seat (offset ``k`` is seat ``(seat + k) % n``: offset 0
is the observer, offset 1 the next seat clockwise), as in the action table. Counts are
raw (not scaled); ``high`` gives each element's bound. The slices, in order, for ``n``
players (``size = 303 + 7n``):

===================  ======  ==============================================================
slice                size    meaning
===================  ======  ==============================================================
``hand``             54      own cards: how many of each card kind (0–4)
``top``              54      the top card of the discard pile, one-hot by kind
``color``            4       the colour in play, one-hot R Y G B (zeros: starting colour not chosen)
``phase``            4       one-hot: choose a colour, turn, play or pass (a drawn card, a run), penalty
``on_turn``          1       1 if the observer is the seat on turn (else its decision is out of turn)
``direction``        1       1 clockwise, 0 counter-clockwise
``penalty``          1       the draw penalty the seat on turn faces (0–32)
``challengeable``    1       1 if that penalty is a W+4 that may be challenged
``drawn``            54      the playable card the observer just drew, one-hot (zeros: none)
``discard``          54      cards seen played: the discard pile (since the last reshuffle) by kind
``shown``            54      after the observer challenged: the challenged hand, by kind
``shown_seat``       n       whose hand that is, one-hot by offset
``pile_size``        1       cards left in the draw pile (0–108)
``hand_sizes``       n       every seat's card count, by offset
``uno_pending``      n       the seat that may be caught for not calling UNO, one-hot by offset
``current``          n       the seat on turn, one-hot by offset
``dealer``           n       the dealer of the round, one-hot by offset
``scores``           n       match scores, by offset (with teams, each member's is its team's)
``partners``         n       1 at the offset of each partner (house rule ``teams``): the same
                             for every seat, partners sitting opposite
``rules``            17      the switches, in RULES.md's order (challenge_wild_draw_four …
                             no_action_finish), then docs/house-rules.md's (reverse_deflect …
                             same_number_together, team_view), 1 when on
``settings``         3       players, hand_size, target_score
===================  ======  ==============================================================

Two options of the layout (and of the environments) serve one policy that plays several
settings. ``max_players=m`` lays every per-seat slice (``n`` wide above) out for ``m``
seats, the offsets ``n`` … ``m-1`` left 0, so the vector has the same size (``303 + 7m``)
for every table of up to ``m`` seats, as the action ids do (:mod:`unomas.rl.actions`).
``history=True`` appends a slice of ``4m`` items: for each seat by offset, the colours
R Y G B that were in play when it drew a card on its turn since its last play (1: it
drew on that colour), a seat's row cleared when it plays and when its hand is swapped
or passed on (``seven_zero``), every row at a new round: what card-game learners infer
from an opponent who could not, or would not, follow a colour.

>>> from unomas.game import Game
>>> from unomas.rules import Rules
>>> layout = ObservationLayout(Rules(players=2))
>>> layout.size, layout.slices["hand_sizes"]
(317, slice(285, 287, None))
>>> game = Game(Rules(players=2), seed=1)
>>> vector = encode(game.view(0), layout)
>>> int(vector[layout.slices["hand"]].sum()), [int(x) for x in vector[layout.slices["hand_sizes"]]]
(7, [7, 7])
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from unomas.cards import COPIES, DECK_SIZE, KINDS, POINTS
from unomas.errors import SettingsError
from unomas.rl.writer import ObservationWriter, discard_counts, slice_sizes
from unomas.rules import SWITCHES, Rules
from unomas.view import View

__all__ = ["SWITCHES", "ObservationLayout", "encode"]


MAX_PENALTY: Final = 8 * 2 + 4 * 4
"""Every +2 and W+4 stacked."""
MAX_ROUND_POINTS: Final = sum(POINTS[card] * COPIES[card] for card in range(KINDS))
"""Every card of the deck left in losing hands."""
MAX_PLAYERS: Final = 10
MAX_DEALT: Final = 99
"""The most cards the hands of a deal may hold (RULES.md: players × hand_size ≤ 99)."""


class ObservationLayout:
    """The slices and bounds of the observation vector for some rules (see the module)."""

    __slots__ = (
        "high",
        "history",
        "low",
        "offsets",
        "players",
        "rules",
        "size",
        "slices",
        "slots",
        "template",
        "writer",
    )

    def __init__(self, rules: Rules, *, max_players: int | None = None, history: bool = False) -> None:
        n = self.players = rules.players
        if max_players is not None and not n <= max_players <= MAX_PLAYERS:
            raise SettingsError("setup.max_players", players=n, limit=MAX_PLAYERS, value=max_players)
        m = self.slots = n if max_players is None else max_players
        """The seats the per-seat slices are laid out for (offsets ``n`` … ``m-1`` stay 0)."""
        self.history = history
        self.rules = rules
        copies = [float(c) for c in COPIES]
        bounds: dict[str, list[float]] = {  # the largest value of each item (1.0 if not named)
            "hand": copies,
            "penalty": [float(MAX_PENALTY)],
            "discard": copies,
            "shown": copies,
            "pile_size": [float(DECK_SIZE)],
            "hand_sizes": [float(DECK_SIZE)] * m,
            "scores": [float(rules.target_score + MAX_ROUND_POINTS)] * m,
            "settings": [float(MAX_PLAYERS), float(MAX_DEALT), float(rules.target_score)],
        }
        parts = [(name, bounds.get(name, [1.0] * size)) for name, size in slice_sizes(m, history)]
        self.slices: dict[str, slice] = {}
        self.offsets: dict[str, int] = {}
        high: list[float] = []
        for name, part in parts:
            self.offsets[name] = len(high)
            self.slices[name] = slice(len(high), len(high) + len(part))
            high.extend(part)
        self.size = len(high)
        self.high: npt.NDArray[np.float32] = np.array(high, dtype=np.float32)
        self.low: npt.NDArray[np.float32] = np.zeros(self.size, dtype=np.float32)
        switches = [float(getattr(rules, name)) for name in SWITCHES]
        template = [0.0] * self.size
        template[self.slices["rules"]] = switches
        partners = [float(offset in rules.partners(0)) for offset in range(m)]  # offset k of seat 0 is seat k
        template[self.slices["partners"]] = partners
        template[self.slices["settings"]] = [float(n), float(rules.hand_size), float(rules.target_score)]
        self.template = array("f", template)
        """The vector before a view is written in: zeros, and the rules switches."""
        self.writer = ObservationWriter(n, self.offsets, self.template.tobytes())


def encode(view: View, layout: ObservationLayout, history: Sequence[int] = ()) -> npt.NDArray[np.float32]:
    """The observation vector of a seat's view (a spectator's view is not accepted);
    ``history``, for a layout with the slice: each seat's colour bits
    (:attr:`unomas.rl.driver.Driver.history`), which a view does not hold."""
    seat = view.seat
    if seat is None:
        raise ValueError("an observation belongs to a seat, not a spectator")
    if layout.history and len(history) != layout.players:
        raise ValueError(f"a layout with history needs one entry per seat, not {len(history)}")
    shown_seat, shown = view.shown_hand if view.shown_hand is not None else (-1, ())
    vector = layout.writer.write(
        seat,
        list(view.hand),
        view.top,
        -1 if view.color is None else view.color,
        view.phase,
        view.current,
        view.direction,
        view.penalty,
        view.challengeable,
        -1 if view.drawn is None else view.drawn,
        discard_counts(view.discard),
        len(view.discard),
        shown_seat,
        list(shown),
        view.pile_size,
        list(view.hand_sizes),
        -1 if view.uno_pending is None else view.uno_pending,
        view.dealer,
        list(view.scores),
        list(history),
    )
    return np.frombuffer(vector, dtype=np.float32)
