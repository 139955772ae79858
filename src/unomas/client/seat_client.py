"""A simple player of one seat of a room, on :class:`unomas.client.RoomClient`: for tests
and the load benchmark.

It chooses among the ``legal_actions`` of the view the server sent it, never deciding
legality itself; each action names the ply of that view, so one overtaken by another
seat's is refused as stale. Every message received is kept, and the arrival time of each
answer to an action, so tests can inspect all of them and the benchmark can measure how
long the server took to answer each action.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field
from typing import Any

from unomas.client import ConnectionLost, Refused, RoomClient, RoomLink

__all__ = ["SeatClient", "choose"]


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A simple player's move from ``view["legal_actions"]``, or None to wait.

    On its turn: a play (calling UNO when it may), else the first other action (draw,
    pass, colour, challenge). Out of turn: calls its own UNO, catches now and then.
    """
    legal: list[dict[str, Any]] = view["legal_actions"]
    seat = view["seat"]
    if not legal:
        return None
    for move in legal:
        if move["a"] == "uno":
            return move
    catches = [move for move in legal if move["a"] == "catch"]
    if catches and rng.random() < 0.5:
        return catches[0]
    if view["current"] != seat or view["phase"] in ("round_over", "match_over"):
        return None
    turn = [move for move in legal if move["a"] not in ("catch", "uno")]
    if not turn:
        return None
    plays = [move for move in turn if move["a"] == "play"]
    calls = [move for move in plays if move.get("uno")]
    plays = calls or plays
    if plays:
        return rng.choice(plays)
    return turn[0]


@dataclass
class SeatClient:
    """One seat's connection: say hello, then answer every update that waits for it."""

    url: str
    """The room's WebSocket address, ``ws://host:port/ws/CODE`` (or its link)."""
    token: str | None
    rng: random.Random = field(default_factory=random.Random)
    think: float = 0.0
    """Seconds to wait before each action (a person's pace, in the benchmark)."""
    messages: list[dict[str, Any]] = field(default_factory=list)
    keep: bool = True
    """Keep every message received in :attr:`messages`, and every change heard (tests read
    them; the load benchmark, holding thousands of seats, keeps none, so that its own
    collector does not pause it)."""
    latencies: list[float] = field(default_factory=list)
    """Seconds from sending each action to receiving the update it caused."""
    errors: list[dict[str, Any]] = field(default_factory=list)
    actions: int = 0
    stop_after: int | None = None
    """Leave (close the connection) after this many actions."""
    retry_pause: float = 0.1
    """Seconds to wait after a refusal before acting again."""
    headers: dict[str, str] = field(default_factory=dict)
    """Sent with the connection (``X-Forwarded-For``, as a proxy would, in the benchmark)."""
    _answered: float = field(default=0.0, repr=False)
    """When the last answer to one of this seat's actions arrived (``perf_counter``)."""

    def _arrived(self, message: dict[str, Any]) -> None:
        if self.keep:
            self.messages.append(message)
        if message["type"] == "update" and "ref" in message:
            self._answered = time.perf_counter()
        elif message["type"] == "error":
            self.errors.append(message)

    async def play(self, *, start: bool = False) -> dict[str, Any] | None:
        """Play until the match is over (returns the ``over`` message) or ``stop_after``."""
        link = RoomLink.parse(self.url)
        client = RoomClient(link, self.token, reconnect=False, headers=self.headers, keep_changes=self.keep)
        client.on_message = self._arrived
        async with client:
            if start:
                await client.start()
            seen = 0

            def new_view() -> bool:
                return client.updates > seen

            while not client.done:
                await client.wait_for(new_view)
                seen = client.updates
                view = client.view
                if view is None or self.token is None:
                    continue  # watching
                move = choose(view, self.rng)
                if move is None:
                    continue
                if self.stop_after is not None and self.actions >= self.stop_after:
                    return None
                if self.think:
                    await asyncio.sleep(self.think)
                self.actions += 1
                sent = time.perf_counter()
                try:
                    await client.act(move, ply=view["ply"])
                    self.latencies.append(self._answered - sent)
                except Refused:
                    # ``move.stale``: someone else moved first; ``rate.limited``: think again
                    # from the latest view, after a pause that keeps within the rate limit.
                    await asyncio.sleep(self.retry_pause)
                    seen = 0
                except ConnectionLost:
                    break
            return client.over
