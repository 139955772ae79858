"""A bot of any spec at a room's seat: ``unomas bot --join URL --bot SPEC``.

The bot is told what its seat heard (the server's redacted events, read back into the
engine's events), asked with its seat's view when the game waits for it (``act``) or when
an out-of-turn action is open to it (``react``), and its answer is sent with the ply of
that view; a chance it lets go is said to be let go, so the server's bots do not wait the
reaction window for it. The server judges it; the bot runs in a worker thread, so a slow
search or a ``cmd:`` program never holds up the connection.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from unomas.bots import Bot
from unomas.bots.process import ProcessBot
from unomas.client.decode import event_from_json, view_from_json
from unomas.client.links import NAME_LIMIT, RoomLink, Ticket
from unomas.client.remote import ConnectionLost, Refused, RoomClient, join_room, room_info
from unomas.errors import BotError, cause_params
from unomas.rules import Rules

__all__ = ["join_with_bot", "play_seat"]


async def play_seat(
    client: RoomClient, bot: Bot, rng: random.Random | None = None, *, started: bool = False
) -> dict[str, Any] | None:
    """Play ``client``'s seat with ``bot`` until the match is over (the ``over`` message)
    or the connection ends for good (None). An answer the server refuses as illegal
    is the bot's failure (:class:`~unomas.errors.BotError` ``bot.refused``, the server's
    refusal its cause) and ends it (a program's process is killed, never kept for
    another match); one overtaken by another seat's (``move.stale``) is thought again.
    ``started``: the bot was started at this seat already (:func:`join_with_bot`)."""
    try:
        await client.wait_for(lambda: client.view is not None)
        if client.view is None or client.room is None or client.seat is None:
            return client.over
        seat = client.seat
        rules = Rules.from_dict(client.room["rules"])
        if not started:
            bot.start(seat, rules, rng or random.Random())
        seen = -1
        while not client.done:
            while not client.inbox.empty():
                change = client.inbox.get_nowait()
                bot.observe([event_from_json(event) for event in change.events])
            sent = client.view
            assert sent is not None
            if client.updates == seen or not sent["legal_actions"]:
                await _next_update(client)
                continue
            seen = client.updates
            view = view_from_json(sent, rules)
            ask = bot.act if sent["current"] == seat else bot.react
            action = await asyncio.to_thread(ask, view)
            if action is None:  # a chance let go: the server's bots need not wait the window for it
                await client.let_go(view.ply)
                continue
            try:
                await client.act(action.to_json(), ply=view.ply)
            except Refused as refusal:
                if refusal.code != "move.stale":
                    bot.refused()  # an illegal answer ends the bot (a program's process) as at any table
                    raise BotError(
                        seat, bot.name, "bot.refused", action=str(action), **cause_params(refusal)
                    ) from refusal
            except ConnectionLost:
                pass  # connected again, the seat's view says what now
        return client.over
    finally:
        bot.close()


async def _next_update(client: RoomClient) -> None:
    """Wait for the next update (a new view), the end of the match or of the connection."""
    before = client.updates
    await client.wait_for(lambda: client.updates != before)


async def join_with_bot(
    room: RoomLink,
    bot: Bot,
    name: str | None = None,
    *,
    ticket_file: Path | None = None,
    lang: str = "en",
    seated: Callable[[str], None] | None = None,
) -> tuple[Ticket, dict[str, Any] | None]:
    """Take a seat of ``room`` as a program (a seat the host kept for programs first) and
    play it with ``bot``; with ``ticket_file`` (a path), a seat held there is taken back
    instead, so a program started again returns to its seat.

    The bot is started before it sits down, at the seat it is about to take and under the
    room's rules, so that it sits under ``name`` or else its own (a program's ``hello``
    name); should another program take that seat first, it is started again at its own.
    ``seated`` is told the name it sits under."""
    ticket = None if ticket_file is None else Ticket.load(ticket_file)
    held = ticket is not None and ticket.room == room
    info = await asyncio.to_thread(room_info, room)
    rules = Rules.from_dict(info["rules"])
    rng = random.Random()
    seat = ticket.seat if held and ticket is not None else _next_program_seat(info)
    bot.start(seat, rules, rng)
    try:
        own = (name or _own_name(bot))[:NAME_LIMIT]
        if not held or ticket is None:
            ticket = await asyncio.to_thread(join_room, room, own, program=True)
            if ticket_file is not None:
                ticket.save(ticket_file)
        if ticket.seat != seat:
            bot.start(ticket.seat, rules, rng)
    except BaseException:
        bot.close()
        raise
    if seated is not None:
        seated(own)
    async with RoomClient.of(ticket, lang=lang) as client:
        return ticket, await play_seat(client, bot, rng, started=True)


def _next_program_seat(room: dict[str, Any]) -> int:
    """The seat a program joining ``room`` (its public state) is given: the first free seat
    kept for programs, else the first free seat (0 if none: the join is then refused)."""
    kept = room.get("programs") or []
    free = [seat for seat, taken in enumerate(room["seats"]) if taken is None]
    return min(free, key=lambda seat: (seat not in kept, seat), default=0)


def _own_name(bot: Bot) -> str:
    """The name a bot gives itself: a program's ``hello`` name, a built-in bot's level;
    ``program`` for a program that gave none."""
    if isinstance(bot, ProcessBot) and bot.name == f"cmd:{bot.command}":
        return "program"
    return bot.name
