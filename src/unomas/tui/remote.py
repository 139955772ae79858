"""A room's seat as the game screen plays it: ``unomas play --join URL`` on the Textual screen.

:class:`RemoteTable` is a :class:`~unomas.tui.table.Table` over a connected
:class:`~unomas.client.remote.RoomClient`: its view is the one the server sent the seat
(read back into the engine's :class:`~unomas.view.View`, the legal actions the server's
list), its history the redacted events the seat heard, and an action goes to the server
with the ply of the view the screen showed (the ply guard). The server judges, paces its
bots and deals the rounds; a refusal or a connection being restored is told by
:meth:`RemoteTable.trouble`, by its code, in the reader's language by the screen.
Everything runs on the screen's own event loop: no thread, nothing blocks.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import Callable
from functools import partial

from unomas.actions import Action
from unomas.cards import Card
from unomas.client.decode import event_from_json, view_from_json
from unomas.client.remote import Change, ConnectionLost, Refused, RoomClient, seat_names
from unomas.conductor import Listener
from unomas.errors import UnoError
from unomas.events import Event
from unomas.rules import Rules
from unomas.tui.table import RECONNECTING
from unomas.view import View

__all__ = ["RemoteTable"]


class RemoteTable:
    """The seat of ``client`` (connected, its first view come) as a table of the game screen."""

    def __init__(self, client: RoomClient) -> None:
        if client.room is None or client.view is None:
            raise ConnectionLost("client.no_view")
        self.client = client
        self._rules = Rules.from_dict(client.room["rules"])
        self.sort_hand = True
        self.local = False
        self._listeners: list[Listener] = []
        self._decoded = (client.updates, view_from_json(client.view, self._rules))
        self._shown = self._decoded[1]
        """The view the screen last read: an action answers its ply."""
        self._before: Counter[Card] = Counter(self._shown.hand)
        self._refused: tuple[int, UnoError] | None = None
        """The last refusal of the person's action, and the ply of the view when it came
        (it is told until the game moves on or the person acts again)."""
        self._sending: set[asyncio.Task[None]] = set()
        self._letting: set[asyncio.Task[None]] = set()
        self._changed: Callable[[], None] = lambda: None
        self._let_go_at = -1
        """The ply whose out-of-turn chance the person let go."""
        self._noticed = 0
        """How many of the client's notices were told (those before the screen opened too)."""
        while not client.inbox.empty():  # told by :attr:`history`
            client.inbox.get_nowait()

    @property
    def names(self) -> list[str]:
        assert self.client.room is not None
        return seat_names(self.client.room)

    @property
    def rules(self) -> Rules:
        return self._rules

    def view(self) -> View:
        sent = self.client.view
        assert sent is not None
        if self._decoded[0] != self.client.updates:
            self._decoded = (self.client.updates, view_from_json(sent, self._rules))
        view = self._decoded[1]
        if view.round != self._shown.round:
            self._before = Counter(view.hand)  # a new deal: nothing of it is new
        self._shown = view
        return view

    @property
    def history(self) -> list[tuple[Action | None, list[Event]]]:
        return [(None, _events(change)) for change in self.client.changes]

    def listen(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def new_cards(self) -> Counter[Card]:
        return Counter(self.view().hand) - self._before

    def chance_open(self) -> bool:
        """Whether the seat has an out-of-turn chance it has not let go: the room's bots
        wait the reaction window for it."""
        view = self.view()
        return view.current != view.seat and bool(view.legal_actions) and view.ply != self._let_go_at

    def let_go(self) -> None:
        """Tell the room the seat lets its chance go, so its bots need not wait."""
        ply = self._shown.ply
        self._let_go_at = ply
        task = asyncio.get_running_loop().create_task(self._let_go(ply))
        self._letting.add(task)
        task.add_done_callback(self._letting.discard)

    async def _let_go(self, ply: int) -> None:
        with contextlib.suppress(ConnectionLost):  # connected again: the next view says what now
            await self.client.let_go(ply)

    def act(self, action: Action) -> None:
        """Send ``action`` with the ply of the view last shown; the server's answer comes
        later. While an action waits for its answer another is not sent (a key pressed
        twice is one action, not a second one refused as stale)."""
        if self._sending:
            return
        self._refused = None
        self._before = Counter(self._shown.hand)
        task = asyncio.get_running_loop().create_task(self._send(action, self._shown.ply))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _send(self, action: Action, ply: int) -> None:
        try:
            await self.client.act(action.to_json(), ply=ply)
        except Refused as refusal:
            assert self.client.view is not None
            self._refused = (self.client.view["ply"], refusal)
        except ConnectionLost:
            pass  # connected again, the view says what now (the action may have been made)
        self._changed()

    def next_round(self) -> None:
        """Nothing: the server deals the next round after its pause."""

    def news(self) -> list[UnoError]:
        notices = self.client.notices
        fresh, self._noticed = notices[self._noticed :], len(notices)
        return fresh

    def trouble(self) -> UnoError | None:
        client = self.client
        if client.failed is not None:
            return client.failed
        if not client.connected:
            return UnoError(RECONNECTING)
        if self._refused is not None and self._refused[0] == self.view().ply:
            return self._refused[1]
        return None

    async def follow(self, changed: Callable[[], None]) -> None:
        """Tell the listeners each change the seat hears and call ``changed`` after it,
        after each new view and each loss or return of the connection, until the match is
        over or the connection ends for good."""
        self._changed = changed
        client = self.client
        while True:
            state = (client.updates, client.connected, len(client.notices))
            while not client.inbox.empty():
                events = _events(client.inbox.get_nowait())
                for listener in list(self._listeners):
                    listener(None, events)
            changed()
            if client.done:
                return
            await client.wait_for(partial(self._news, state))

    def _news(self, state: tuple[int, bool, int]) -> bool:
        """Whether the seat heard a change, got a new view, lost or regained the connection
        or heard of another person since ``state`` (its updates, whether it was connected,
        its notices)."""
        client = self.client
        return (client.updates, client.connected, len(client.notices)) != state or not client.inbox.empty()

    async def close(self) -> None:
        """Nothing: the connection is its opener's to close (the seat stays theirs)."""


def _events(change: Change) -> list[Event]:
    return [event_from_json(event) for event in change.events]
