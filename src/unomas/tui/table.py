"""What the game screen plays: one seat at a table, local or a room of ``unomas serve``.

The screen draws a :class:`Table`'s view of its seat, narrates the events the seat hears,
offers exactly the legal actions the view lists and hands the chosen one to :meth:`Table.act`.
Both kinds are live tables on a :class:`~unomas.live.host.Host`, whose changes arrive while
:meth:`Table.follow` runs: a :class:`~unomas.tui.session.Session` is one played here (its
host on the screen's event loop, the record file its store), a
:class:`~unomas.tui.remote.RemoteTable` a room's seat (the server's host judges, paces
the bots and deals). Nothing here knows a rule: the view's ``legal_actions`` are the only
actions there are.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Protocol

from unomas.actions import Action
from unomas.cards import Card
from unomas.conductor import Listener
from unomas.errors import UnoError
from unomas.events import Event
from unomas.rules import Rules
from unomas.view import View

__all__ = ["RECONNECTING", "Table"]

RECONNECTING = "client.reconnecting"
"""The code of :meth:`Table.trouble` while a lost connection is opened again: the screen
offers no move meanwhile (it could not be sent)."""


class Table(Protocol):
    """One seat of a match, as the game screen plays it."""

    @property
    def names(self) -> list[str]:
        """Every seat's name, in seat order."""

    @property
    def rules(self) -> Rules: ...

    sort_hand: bool
    """Whether the screen shows the hand sorted (the person toggles it)."""

    @property
    def local(self) -> bool:
        """Whether the match is played here (saved as it goes, to resume), not at a room
        of a server (where a bot plays the seat of a person who left)."""

    def view(self) -> View:
        """The seat's view now: its hand, the public table, its legal actions."""

    @property
    def history(self) -> list[tuple[Action | None, list[Event]]]:
        """What the seat heard so far, each change's action (None where it is not told)
        and its events."""

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Tell ``listener`` every later change as the seat may see it; returns how to stop."""

    def new_cards(self) -> Counter[Card]:
        """The cards the seat got since its last action (drawn, or a swapped hand)."""

    def chance_open(self) -> bool:
        """Whether an out-of-turn chance of the seat holds the bots back (the reaction window)
        until it is let go."""

    def let_go(self) -> None:
        """Let the seat's out-of-turn chance go: the bots need not wait for it any more."""

    def act(self, action: Action) -> None:
        """Take one of the view's legal actions; a refusal is told by :meth:`trouble`."""

    def next_round(self) -> None:
        """Go on once the person has read a round's summary."""

    def news(self) -> list[UnoError]:
        """What happened at the table beyond the game since last asked (another person lost
        the connection, came back, left to a bot): told in the narration."""

    def trouble(self) -> UnoError | None:
        """What to tell the person instead of the prompt, if anything: a refusal of their
        last action that came later, a connection being restored."""

    async def follow(self, changed: Callable[[], None]) -> None:
        """Call ``changed`` after every change told and every refusal, until the match is over."""

    async def close(self) -> None:
        """Leave the table (a local match stops, saved as it stands)."""
