"""What a bot is: a player that sees only its own seat's view and answers with an action."""

from __future__ import annotations

import random
from collections.abc import Sequence

from unomas.actions import Action, Kind
from unomas.events import Event
from unomas.rules import Rules
from unomas.view import View


class Bot:
    """Base of every bot.

    The table calls :meth:`start` once per match, :meth:`act` whenever the game waits for
    this seat (its turn, or choosing a starting colour), :meth:`react` when an out-of-turn
    action is open to it (calling UNO, catching, jumping in), and :meth:`observe` with every
    event as this seat may see it. A bot only ever gets its own :class:`~unomas.view.View`;
    the actions it may take are ``view.legal_actions``.
    """

    name = "bot"

    def __init__(self) -> None:
        self.seat = 0
        self.rules = Rules()
        self.rng = random.Random()

    def start(self, seat: int, rules: Rules, rng: random.Random) -> None:
        """A new match: this bot plays seat ``seat`` under ``rules``, drawing on ``rng``."""
        self.seat = seat
        self.rules = rules
        self.rng = rng

    def act(self, view: View) -> Action:
        """The action to take when the game waits for this seat: one of ``view.legal_actions``."""
        raise NotImplementedError

    def react(self, view: View) -> Action | None:
        """An out-of-turn action to take now (one of ``view.legal_actions``), or None."""
        return None

    def observe(self, events: Sequence[Event]) -> None:
        """Events as this seat sees them, after every action (default: ignored)."""

    def refused(self) -> None:
        """The table refused this bot's last answer (an illegal action, or not its own
        seat's): its match ends as its forfeit. A program bot's process ends with it."""

    def close(self) -> None:
        """Release what the bot holds (a process, a file); called when its table is done."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r} seat={self.seat}>"


def plays(actions: Sequence[Action]) -> list[Action]:
    """The plays among some actions."""
    return [a for a in actions if a.kind is Kind.PLAY]


def first_of(actions: Sequence[Action], kind: Kind) -> Action | None:
    """The first action of a kind, or None."""
    for action in actions:
        if action.kind is kind:
            return action
    return None
