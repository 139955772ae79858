"""The table an agent sits at: a local match against bots, or a seat of a server's room.

Both faces give the same things: the seat's :class:`~unomas.view.View` (its legal actions
the engine's), what happened since the agent last looked (the events as the seat may see
them, and their narration), an action taken with the ply of the view it answers, a wait
for the seat's next decision, and the match's record once it is over.
"""

from __future__ import annotations

import asyncio
import contextlib
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from unomas import events as ev
from unomas import fairness
from unomas.actions import Action
from unomas.bots import make_bot
from unomas.client import ConnectionLost, RoomClient, RoomLink, fetch_record, join_room
from unomas.client.decode import view_from_json
from unomas.client.remote import seat_names
from unomas.errors import UnoError
from unomas.i18n import narrate
from unomas.live.host import WINDOW, Host, Pacing
from unomas.live.ports import MemoryStore, Told
from unomas.rules import Rules
from unomas.view import View

__all__ = ["LocalTable", "News", "RemoteTable", "Table"]

NOT_OVER = "the match is not over: its record (and seed) are revealed at the end"


@dataclass
class News:
    """What the seat heard since it last looked: the events (JSON) and their narration."""

    events: list[dict[str, Any]] = field(default_factory=list)
    narration: list[str] = field(default_factory=list)

    def add(self, events: list[dict[str, Any]], narration: list[str]) -> None:
        self.events += events
        self.narration += narration


class Table(ABC):
    """One seat of one match, as an agent plays it."""

    seat: int
    rules: Rules
    news: News

    @property
    @abstractmethod
    def names(self) -> list[str]:
        """Every seat's name."""

    @abstractmethod
    def view(self) -> View | None:
        """The seat's view now (None before the match has started)."""

    @property
    @abstractmethod
    def over(self) -> bool:
        """Whether the match is over."""

    let_go_at: int | None = None
    """The ply at which the seat let its out-of-turn chance go."""

    def waiting(self) -> bool:
        """Whether the seat has legal actions now (its turn, or an out-of-turn chance it has not let go)."""
        view = self.view()
        return view is not None and bool(view.legal_actions) and view.ply != self.let_go_at

    async def let_go(self) -> None:
        """Let an out-of-turn chance go: the bots need not wait for this seat any more."""
        view = self.view()
        if view is not None and view.current != self.seat:
            self.let_go_at = view.ply
            await self._let_go(view.ply)

    @abstractmethod
    async def act(self, action: Action, ply: int) -> None:
        """Take ``action`` (one of the view's legal actions) answering the view of ``ply``;
        a refusal raises an :class:`~unomas.errors.UnoError` with its code."""

    @abstractmethod
    async def wait(self, timeout: float) -> bool:
        """Wait until the seat has legal actions (True) or the match is over, or ``timeout``."""

    def take_news(self) -> News:
        news, self.news = self.news, News()
        return news

    @abstractmethod
    async def _let_go(self, ply: int) -> None:
        """Tell the host the chance of ``ply`` is let go."""

    @abstractmethod
    async def record(self) -> dict[str, Any]:
        """The match's record (RECORD.md); a room's only once it is over."""

    @abstractmethod
    async def close(self) -> None:
        """Leave the table."""


class LocalTable(Table):
    """A match in this process on a :class:`~unomas.live.host.Host`, kept in memory: the
    agent at seat 0, bots of the given specs at the others. The bots wait the reaction
    window whenever the agent may catch, call UNO late or jump in, as at every live table;
    the record is given once the match is over. Open it on a running event loop."""

    def __init__(
        self,
        rules: Rules,
        bots: list[str],
        name: str,
        lang: str,
        seed: str | None = None,
        *,
        window: float = WINDOW,
        bot_delay: float = 0.0,
    ) -> None:
        assert len(bots) == rules.players - 1, "one bot spec for each seat but the agent's"
        self.seat = 0
        self.rules = rules
        self.lang = lang
        self._names = [name, *(f"{spec.split(':')[0]} {seat}" for seat, spec in enumerate(bots, start=1))]
        self.news = News()
        self._changed = asyncio.Event()
        secret = fairness.table_secret(seed)
        self.host = Host(
            rules,
            [None, *(partial(make_bot, spec) for spec in bots)],
            frozenset({0}),
            store=MemoryStore(),
            outbox=self,
            pacing=Pacing(window=window, bot_delay=bot_delay, round_pause=0.0),
            secret=secret,
            names=self._names,
            fields={"bots": list(range(1, rules.players))},
        )
        self.host.begin()
        self.host.start([0])

    # the host's outbox
    def changed(self, told: Told) -> None:
        for heard in told.heard:
            if heard.seat == self.seat:
                self.news.add(
                    [ev.to_json(event) for event in heard.events],
                    narrate(heard.events, self.names, self.lang, heard.view.rules),
                )
        self._changed.set()

    def timed_out(self, seat: int) -> None:
        """(A local table runs no turn timer.)"""

    def finished(self, record: dict[str, Any]) -> None:
        self._changed.set()

    @property
    def names(self) -> list[str]:
        return self._names

    def view(self) -> View:
        return self.host.game.view(self.seat)

    @property
    def over(self) -> bool:
        return self.host.over

    async def act(self, action: Action, ply: int) -> None:
        await self.host.act(self.seat, action, ply)

    async def _let_go(self, ply: int) -> None:
        self.host.decline(self.seat, ply)

    async def wait(self, timeout: float) -> bool:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not (self.over or self.waiting()):
            left = end - loop.time()
            if left <= 0:
                return False
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), left)
        return self.waiting()

    async def record(self) -> dict[str, Any]:
        if not self.over:
            raise UnoError("match.not_over")
        return self.host.record()

    async def close(self) -> None:
        await self.host.close()


class RemoteTable(Table):
    """A seat of a room of ``unomas serve``, taken as a program's (a seat the host kept for
    programs first), over :class:`~unomas.client.RoomClient`."""

    def __init__(self, client: RoomClient, lang: str) -> None:
        self.client = client
        self.lang = lang
        self.news = News()
        assert client.room is not None and client.seat is not None
        self.seat = client.seat
        self.rules = Rules.from_dict(client.room["rules"])

    @classmethod
    async def join(cls, link: str, name: str, lang: str, server: str | None = None) -> RemoteTable:
        room = RoomLink.parse(link) if server is None else RoomLink.parse(link, server=server)
        ticket = await asyncio.to_thread(join_room, room, name, program=True)
        client = RoomClient.of(ticket, lang=lang)
        await client.connect()
        return cls(client, lang)

    @property
    def names(self) -> list[str]:
        room = self.client.room
        assert room is not None
        return seat_names(room)

    def view(self) -> View | None:
        sent = self.client.view
        return None if sent is None else view_from_json(sent, self.rules)

    @property
    def over(self) -> bool:
        return self.client.over is not None

    def take_news(self) -> News:
        while not self.client.inbox.empty():
            change = self.client.inbox.get_nowait()
            self.news.add(change.events, change.narration)
        return super().take_news()

    async def act(self, action: Action, ply: int) -> None:
        with contextlib.suppress(ConnectionLost):  # connected again: the next view says what happened
            await self.client.act(action.to_json(), ply=ply)

    async def wait(self, timeout: float) -> bool:
        return await self.client.wait_for(self.waiting, timeout)

    async def _let_go(self, ply: int) -> None:
        await self.client.let_go(ply)

    async def record(self) -> dict[str, Any]:
        if self.client.over is None:
            raise UnoError("match.not_over")
        return await asyncio.to_thread(fetch_record, self.client.link)

    async def close(self) -> None:
        await self.client.close()
