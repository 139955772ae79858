"""Bots at a conductor's seats: :class:`BotPlayer` and :func:`bot_match`.

A bot sees its seat's :class:`~unomas.view.View` only; the conductor asks it through the
:class:`~unomas.conductor.Player` it stands behind, which turns every failure of the bot
into a :class:`~unomas.errors.BotError` naming the seat. Compiled with mypyc beside the
conductor, which calls it for every decision of a bot.

>>> from unomas.bots import make_bot
>>> from unomas.rules import Rules
>>> table = bot_match(Rules(players=2, target_score=0), [make_bot("playfirst"), make_bot("heuristic")], seed=1)
>>> summary = table.play()
>>> summary.winner in (0, 1), summary.actions == table.game.ply
(True, True)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from unomas.actions import Action
from unomas.bots.base import Bot
from unomas.conductor import Conductor, Listener, Player, SeatStats
from unomas.errors import BotError
from unomas.events import Event
from unomas.rules import Rules

__all__ = ["BotPlayer", "bot_match"]


class BotPlayer(Player):
    """A :class:`~unomas.bots.base.Bot` at a seat: asked with its seat's :class:`View`,
    told the events redacted for its seat; every failure of the bot becomes a
    :class:`BotError` naming the seat."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.seat = 0
        self.listens = True
        self.stats = SeatStats()

    def start(self, seat: int, rules: Rules, rng: random.Random) -> None:
        self.seat = seat
        self._guarded("start", self.bot.start, seat, rules, rng)
        self.name = self.bot.name  # a program bot may name itself as it starts

    def decide(self, table: Conductor, seat: int, out_of_turn: bool) -> Action | None:
        bot = self.bot
        stats = self.stats
        assert stats is not None
        view = table.view(seat)
        started = time.perf_counter()
        try:
            # Called untyped: a bot may answer anything, and the answer is judged below (a
            # compiled build would otherwise reject a wrong type as a crash of its own).
            answer: object = getattr(bot, "react" if out_of_turn else "act")(view)
        except BotError:
            raise
        except Exception as error:
            failure = BotError(seat, bot.name, "bot.crashed", error=f"{type(error).__name__}: {error}")
            failure.__cause__ = error  # set by hand: a compiled build drops "from" inside try/finally
            raise failure from error
        finally:
            stats.decisions += 1
            stats.thinking += time.perf_counter() - started
        if answer is None:
            if not out_of_turn:
                raise BotError(seat, bot.name, "bot.no_action")
            return None
        if not isinstance(answer, Action) or answer.player != seat:
            bot.refused()
            raise BotError(seat, bot.name, "bot.not_own_action", answer=repr(answer))
        return answer

    def observe(self, events: list[Event]) -> None:
        self._guarded("observe", self.bot.observe, events)

    def refused(self) -> None:
        self.bot.refused()

    def close(self) -> None:
        self.bot.close()

    def _guarded(self, step: str, call: Callable[..., object], *args: object) -> None:
        try:
            call(*args)
        except BotError:
            raise
        except Exception as error:
            failure = f"{type(error).__name__}: {error}"
            raise BotError(self.seat, self.bot.name, "bot.hook_failed", step=step, error=failure) from error


def bot_match(
    rules: Rules,
    bots: Sequence[Bot],
    *,
    seed: int | str | None = None,
    history: bool = True,
    witness: Listener | None = None,
) -> Conductor:
    """A new match between ``bots`` (one per seat, in seat order), seeded as
    :meth:`Conductor.seeded <unomas.conductor.Conductor.seeded>`."""
    return Conductor.seeded(rules, [BotPlayer(bot) for bot in bots], seed=seed, history=history, witness=witness)
