"""What a bot is: a player that sees only its own seat's view and answers with an action."""

from __future__ import annotations

import random
from collections.abc import Sequence

from unomas.actions import Action, Kind
from unomas.errors import SettingsError
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

    forget: float = 0.0
    """How often the bot forgets to call UNO (with the play that leaves it one card, and each
    time a late call is open to it): its level's slip, 0 for a bot that never forgets."""
    miss: float = 0.0
    """How often the bot lets a chance to catch an opponent who forgot UNO go by."""

    def __init__(self) -> None:
        self.seat = 0
        self.rules = Rules()
        self.rng = random.Random()

    def set_slips(self, forget: float | None, miss: float | None) -> None:
        """Set the rates of :attr:`forget` and :attr:`miss` (None keeps the level's)."""
        for name, rate in (("forget", forget), ("miss", miss)):
            if rate is not None:
                if not 0.0 <= rate <= 1.0:
                    raise SettingsError("setup.bad_slip_rate", option=name, value=repr(rate))
                setattr(self, name, rate)

    def slips(self, rate: float) -> bool:
        """Whether a slip of this ``rate`` happens now (draws from the bot's random source
        only when the rate leaves a choice, so a bot that never slips draws nothing)."""
        return rate >= 1.0 or (rate > 0.0 and self.rng.random() < rate)

    def slip_call(self, view: View, play: Action) -> Action:
        """``play`` as this bot makes it: a play that calls UNO loses its call
        :attr:`forget` of the time (when the engine lets it be made without)."""
        if play.kind is Kind.PLAY and play.uno:
            plain = play._replace(uno=False)
            if plain in view.legal_actions and self.slips(self.forget):
                return plain
        return play

    def call_or_catch(self, view: View) -> Action | None:
        """The late UNO call or the catch open to this bot that it takes now, or None: it
        puts a late call off :attr:`forget` of the time and lets a catch go :attr:`miss`
        of the time. It never catches a partner (house rule ``teams``)."""
        for kind, rate in ((Kind.UNO, self.forget), (Kind.CATCH, self.miss)):
            action = first_of(view.legal_actions, kind)
            if action is not None and action.target not in view.partners and not self.slips(rate):
                return action
        return None

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
