"""What a live match's :class:`~unomas.live.host.Host` talks to: its store and its outbox.

The host decides; its ports remember and tell. A :class:`MatchStore` keeps the match as it
goes (the server's room store, the terminal's record file, memory for an agent's table),
and a move is stored before anyone hears of it. An :class:`Outbox` takes what each seat
hears of every stored change (a room's connections, a terminal screen, an agent's news).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from unomas import record as records
from unomas.actions import Action
from unomas.errors import Refusal
from unomas.events import Event
from unomas.view import View

__all__ = [
    "STORE_UNAVAILABLE",
    "Heard",
    "MatchStore",
    "MemoryStore",
    "Outbox",
    "RecordFile",
    "StoreUnavailable",
    "Told",
]

STORE_UNAVAILABLE = "store.unavailable"
"""The code of a store's failure: the change was not made."""


class StoreUnavailable(Refusal):
    """The store could not keep a change just now: it was not made, and nobody heard of it."""


class MatchStore(Protocol):
    """Where a live match is kept as it goes: each move's record entries, each later
    round's deal (with a snapshot of the match just before it), the final record. A
    failure raises an error whose code is :data:`STORE_UNAVAILABLE`."""

    async def append(self, round: int, entries: list[dict[str, Any]], result: dict[str, Any] | None) -> None:
        """Keep one move's entries (RECORD.md's events) in ``round``, with the round's result if it ended it."""

    async def add_round(self, round: int, deal: dict[str, Any], snapshot: dict[str, Any]) -> None:
        """Keep a newly dealt round (its record JSON without events) and the match just before it."""

    async def rounds(self, start: int, stop: int) -> list[dict[str, Any]]:
        """The stored rounds ``start`` to ``stop`` (a match rebuilt from a snapshot lacks them)."""

    async def finish(self, record: dict[str, Any]) -> None:
        """Keep the finished match's record."""


@dataclass(slots=True)
class MemoryStore:
    """A store in memory: an agent's local table, or a test's (``failing`` makes it fail)."""

    moves: list[tuple[int, list[dict[str, Any]]]] = field(default_factory=list)
    deals: list[dict[str, Any]] = field(default_factory=list)
    record: dict[str, Any] | None = None
    failing: bool = False

    def _check(self) -> None:
        if self.failing:
            raise StoreUnavailable(STORE_UNAVAILABLE)

    async def append(self, round: int, entries: list[dict[str, Any]], result: dict[str, Any] | None) -> None:
        self._check()
        self.moves.append((round, entries))

    async def add_round(self, round: int, deal: dict[str, Any], snapshot: dict[str, Any]) -> None:
        self._check()
        self.deals.append(deal)

    async def rounds(self, start: int, stop: int) -> list[dict[str, Any]]:
        raise AssertionError("a match kept in memory is never rebuilt from a snapshot")

    async def finish(self, record: dict[str, Any]) -> None:
        self._check()
        self.record = record


class RecordFile:
    """A match kept as its record (RECORD.md) in one file: the terminal game's store.

    ``start`` is the record so far (a new match's first deal, or a saved match read back).
    After each change the whole record is written anew beside the file and renamed over
    it, so a crash or a full disk leaves the last complete record; a write that fails
    changes nothing (:class:`StoreUnavailable`)."""

    def __init__(self, path: Path, start: dict[str, Any]) -> None:
        self.path = path
        self.data = start

    def create(self) -> None:
        """Write the record as it starts (before the match is driven)."""
        self._write(records.dumps(self.data))

    async def append(self, round: int, entries: list[dict[str, Any]], result: dict[str, Any] | None) -> None:
        played = self.data["rounds"][round]
        kept = len(played["events"])
        played["events"].extend(entries)
        if result is not None:
            played["result"] = result
            self.data["scores"][result["winner"]] += result["points"]

        def undo() -> None:
            del played["events"][kept:]
            if result is not None:
                del played["result"]
                self.data["scores"][result["winner"]] -= result["points"]

        await self._keep(undo)

    async def add_round(self, round: int, deal: dict[str, Any], snapshot: dict[str, Any]) -> None:
        self.data["rounds"].append(deal)
        await self._keep(self.data["rounds"].pop)

    async def rounds(self, start: int, stop: int) -> list[dict[str, Any]]:
        rounds: list[dict[str, Any]] = self.data["rounds"][start:stop]
        return rounds

    async def finish(self, record: dict[str, Any]) -> None:
        before, self.data = self.data, record
        await self._keep(lambda: setattr(self, "data", before))

    async def _keep(self, undo: Callable[[], object]) -> None:
        """Write the record as it now stands; if that fails, ``undo`` the change first."""
        try:
            await asyncio.to_thread(self._write, records.dumps(self.data))
        except StoreUnavailable:
            undo()
            raise

    def _write(self, text: str) -> None:
        partial = self.path.with_suffix(".part")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            partial.write_text(text + "\n", encoding="utf-8")
            partial.replace(self.path)
        except OSError as error:
            raise StoreUnavailable(STORE_UNAVAILABLE) from error


@dataclass(frozen=True, slots=True)
class Heard:
    """One stored change as one seat heard it (``seat`` None: a spectator): the action
    (None for a deal), its events redacted for the seat, and the seat's view after it."""

    seat: int | None
    action: Action | None
    events: list[Event]
    view: View


@dataclass(frozen=True, slots=True)
class Told:
    """What one stored change tells its audience: what each listened seat heard, the
    host's state id after it, the seconds left on the turn timer, and which seat's action
    it answers (``by``, with the ``ref`` that seat gave it)."""

    heard: list[Heard]
    state: int
    turn_left: float | None
    by: int | None = None
    ref: int | None = None


class Outbox(Protocol):
    """Who hears a live match: told each stored change, a turn timer's expiry, the end."""

    def changed(self, told: Told) -> None:
        """A change was stored: deliver what each seat heard."""

    def timed_out(self, seat: int) -> None:
        """The turn timer ran out for ``seat``: the host acted for it."""

    def finished(self, record: dict[str, Any]) -> None:
        """The match is over (its record stored)."""
