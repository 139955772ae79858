"""The action table: every action of a seat as one integer, fixed for a player count.

The table depends only on the number of players ``n`` (not on the house rules), so one
policy network fits every variant with ``n`` seats; what the rules allow right now is
the action mask. Seats named in an action (a 7's swap target, a catch's target) are
written as an *offset* from the acting seat: offset ``k`` is seat ``(seat + k) % n``,
so offset 1 is the next seat clockwise. The ids, in order (``A = 120 + 9n`` in all):

========================  =========  ====================================================
ids                       count      action
========================  =========  ====================================================
plays, card kind by kind  112 + 8n   for each card kind 0–53 in kind order (see below)
``draw``                  1          draw (a turn's card, or a pending penalty)
``pass``                  1          pass, keeping a playable drawn card (or ending a run)
``challenge``             1          challenge the W+4 that started the penalty
``uno``                   1          call UNO (late: after the play that obliged it)
``catch`` offset 1…n-1    n - 1      catch the seat at that offset, who forgot UNO
``color`` R, Y, G, B      4          choose the colour of a starting Wild (the dealer)
``none``                  1          take no out-of-turn action (only out of turn)
========================  =========  ====================================================

The plays of one card kind come in a block, the UNO call varying fastest (without,
then with):

* a coloured card other than a 7: 2 ids (UNO call no / yes);
* a 7: ``2n`` ids, target offset major: offset 0 is a 7 with no target (``seven_zero`` and ``seven_swap``
  off, or a 7 going on to another under ``same_number_together``), offsets 1…n-1 name the seat to swap
  hands with (either on);
* ``W`` and ``W+4``: 8 ids, colour major (R, Y, G, B), then the UNO call.

With 2 players there are 138 ids, with 4 players 156.

**A layout for several table sizes.** ``action_table(n, slots=m)`` (``m >= n``, the
environments' ``max_players=m``) lays the ids out for ``m`` seats (``120 + 9m`` ids) while
the game has ``n``: the ids of offsets ``n`` … ``m-1`` (a 7's swap target, a catch) stand
for no action and are never open, so every table size up to ``m`` shares one id for each
action, and one policy plays them all.

>>> table = action_table(2)
>>> table.size, table.draw, table.none
(138, 128, 137)
>>> from unomas.cards import parse_card
>>> from unomas.actions import Action
>>> i = table.id(Action.play(1, parse_card("W+4"), color=2, uno=True))
>>> table.describe(i), str(table.action(1, i))
('play W+4 G uno', '1 play W+4 G uno')
"""

from __future__ import annotations

import functools
from typing import Final

from unomas.actions import Action, Kind
from unomas.cards import COLOR_LETTERS, KINDS, RANK_OF, WILD, card_token

__all__ = ["ActionTable", "action_table"]

_SEVEN: Final = 7


class ActionTable:
    """The dense action ids of an ``players``-seat game, built once (see :func:`action_table`).

    ``actions[seat][id]`` is the :class:`~unomas.actions.Action` an id stands for when
    ``seat`` takes it (``None`` for the ``none`` id); :meth:`id` maps back.
    """

    __slots__ = (
        "actions",
        "catch_base",
        "challenge",
        "color_base",
        "draw",
        "layout",
        "none",
        "pass_",
        "play_base",
        "players",
        "size",
        "slots",
        "uno",
    )

    def __init__(self, players: int, slots: int | None = None) -> None:
        self.players = players
        self.slots = slots = players if slots is None else slots
        """The seats the ids are laid out for (``players`` or more: see the module)."""
        # (kind, card, colour, offset, uno) per id; offset is relative to the acting seat
        layout: list[tuple[Kind | None, int | None, int | None, int | None, bool]] = []
        play_base: list[int] = []
        for card in range(KINDS):
            play_base.append(len(layout))
            if card >= WILD:
                layout.extend((Kind.PLAY, card, color, None, uno) for color in range(4) for uno in (False, True))
            elif RANK_OF[card] == _SEVEN:
                layout.extend((Kind.PLAY, card, None, offset, uno) for offset in range(slots) for uno in (False, True))
            else:
                layout.extend((Kind.PLAY, card, None, None, uno) for uno in (False, True))
        self.play_base: tuple[int, ...] = tuple(play_base)
        self.draw = len(layout)
        layout.append((Kind.DRAW, None, None, None, False))
        self.pass_ = len(layout)
        layout.append((Kind.PASS, None, None, None, False))
        self.challenge = len(layout)
        layout.append((Kind.CHALLENGE, None, None, None, False))
        self.uno = len(layout)
        layout.append((Kind.UNO, None, None, None, False))
        self.catch_base = len(layout) - 1
        """The id of a catch at offset ``k`` is ``catch_base + k`` (k = 1…n-1)."""
        layout.extend((Kind.CATCH, None, None, offset, False) for offset in range(1, slots))
        self.color_base = len(layout)
        layout.extend((Kind.COLOR, None, color, None, False) for color in range(4))
        self.none = len(layout)
        layout.append((None, None, None, None, False))
        self.size = len(layout)
        assert self.size == 120 + 9 * slots
        self.layout = tuple(layout)
        """What each id stands for: (kind, card, colour, target offset, UNO call); kind None for ``none``."""

        actions: list[tuple[Action | None, ...]] = []
        for seat in range(players):
            row: list[Action | None] = []
            for kind, kind_card, color_, offset, uno in layout:
                if kind is None or (offset is not None and offset >= players):
                    row.append(None)  # ``none``, or an offset past the table's seats
                    continue
                target: int | None = None
                if offset is not None and (kind is Kind.CATCH or offset > 0):
                    target = (seat + offset) % players
                row.append(Action(seat, kind, kind_card, color_, target, uno))
            actions.append(tuple(row))
        self.actions: tuple[tuple[Action | None, ...], ...] = tuple(actions)

    def id(self, action: Action) -> int:
        """The id of an action; KeyError if the table has none for it (a bad seat, card…)."""
        try:
            action_id = self.fast_id(action.player, action)
            if self.actions[action.player][action_id] == action:
                return action_id
        except (IndexError, TypeError):
            pass
        raise KeyError(action)

    def fast_id(self, seat: int, action: Action) -> int:
        """The id of ``seat``'s ``action``, computed from its fields without checking them
        all: for actions known to be in the table (the engine's legal actions); :meth:`id`
        checks. KeyError if a field the id needs is missing."""
        _, kind, card, color, target, uno = action
        call = 1 if uno else 0
        if kind is Kind.PLAY and card is not None:
            base = self.play_base[card]
            if card >= WILD and color is not None:
                return base + 2 * color + call
            if RANK_OF[card] == _SEVEN:
                return base + 2 * (0 if target is None else (target - seat) % self.players) + call
            return base + call
        if kind is Kind.DRAW:
            return self.draw
        if kind is Kind.PASS:
            return self.pass_
        if kind is Kind.CHALLENGE:
            return self.challenge
        if kind is Kind.UNO:
            return self.uno
        if kind is Kind.CATCH and target is not None:
            return self.catch_base + (target - seat) % self.players
        if kind is Kind.COLOR and color is not None:
            return self.color_base + color
        raise KeyError(action)

    def action(self, seat: int, action_id: int) -> Action | None:
        """The action ``seat`` takes with ``action_id`` (``None``: the ``none`` id, or an
        offset past the table's seats, which is never open)."""
        return self.actions[seat][action_id]

    def describe(self, action_id: int) -> str:
        """An id in words, seat-independent (targets as offsets: ``play R7 @+1``)."""
        kind, card, color, offset, uno = self.layout[action_id]
        if kind is None:
            return "none"
        parts = [str(kind)]
        if card is not None:
            parts.append(card_token(card))
        if color is not None:
            parts.append(COLOR_LETTERS[color])
        if offset:
            parts.append(f"@+{offset}")
        if uno:
            parts.append("uno")
        return " ".join(parts)


@functools.cache
def action_table(players: int, slots: int | None = None) -> ActionTable:
    """The action table of a ``players``-seat game laid out for ``slots`` seats (default
    ``players``; see the module), built once for each."""
    if not 2 <= players <= 10:
        raise ValueError(f"players must be 2 to 10, not {players}")
    if slots is not None and not players <= slots <= 10:
        raise ValueError(f"max_players must be {players} to 10, not {slots}")
    return ActionTable(players, slots)
