"""A headless table: seats played by bots, the turn loop, out-of-turn chances, the record.

The table is the only judge: it asks each bot with that seat's view alone, applies the
answer through :meth:`Game.apply` (so a bot's illegal action is refused and changes
nothing) and tells every bot what it may see of the events. The command line, the
terminal game and the server share it.

>>> from unomas.bots import make_bot
>>> from unomas.rules import Rules
>>> table = Table(Rules(players=2, target_score=0), [make_bot("playfirst"), make_bot("heuristic")], seed=1)
>>> outcome = table.play()
>>> outcome.winner in (0, 1)
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from unomas.actions import Action
from unomas.bots.base import Bot
from unomas.errors import BotError as BotError
from unomas.errors import IllegalAction
from unomas.events import Event, RoundEnded, redact
from unomas.game import Game
from unomas.rules import Rules

MAX_ACTIONS_PER_ROUND = 100_000
"""A round still running after this many actions is abandoned (see the simulation's note)."""


@dataclass(slots=True)
class SeatStats:
    """What one seat did in a match."""

    decisions: int = 0
    thinking: float = 0.0
    """Seconds spent in the bot's act/react calls."""


@dataclass(slots=True)
class Outcome:
    """How a match ended."""

    game: Game
    winner: int
    """The match winner, or -1 if the match was abandoned."""
    scores: list[int]
    round_winners: list[int]
    round_points: list[int]
    seats: list[SeatStats] = field(default_factory=list)
    abandoned: bool = False


class Table:
    """A match between ``bots`` (one per seat, in seat order) under ``rules``.

    ``seed`` fixes the shuffles and every bot's random source; without it all are
    unpredictable. ``on_events`` is called with the events of every action, unredacted
    (for a narrator or a store that has the right to see them). ``game`` continues a match
    already under way (a resumed record): the bots are then told the current round so far.

    :meth:`play` runs the match to its end; a front end with a person at a seat steps it
    instead: :meth:`deal`, :meth:`bot_step` (one bot decision) and :meth:`submit` (the
    person's action).
    """

    def __init__(
        self,
        rules: Rules,
        bots: Sequence[Bot],
        *,
        seed: int | str | None = None,
        on_events: Callable[[Action | None, list[Event]], None] | None = None,
        history: bool = True,
        game: Game | None = None,
    ) -> None:
        if len(bots) != rules.players:
            raise ValueError(f"{len(bots)} bots for {rules.players} seats")
        self.rules = rules
        self.bots = list(bots)
        self.on_events = on_events
        if seed is None:
            self.game = game or Game(rules, history=history)
            rngs = [random.Random() for _ in bots]
        else:
            self.game = game or Game(rules, seed=f"{seed}/deal", history=history)
            rngs = [random.Random(f"{seed}/seat {seat}") for seat in range(len(bots))]
        self.stats = [SeatStats() for _ in bots]
        for seat, (bot, rng) in enumerate(zip(self.bots, rngs, strict=True)):
            self._guarded(seat, "failed to start", bot.start, seat, rules, rng)
        self.round_winners: list[int] = []
        self.round_points: list[int] = []
        self._tell(None, self.game.round_start_events)
        if game is not None and game.log:
            for action, events in game.log[-1].moves:
                self._tell(action, events)

    def play(self) -> Outcome:
        """Play the match to its end and return the outcome."""
        game = self.game
        actions_this_round = 0
        abandoned = False
        try:
            while not game.is_over:
                if game.round_over:
                    self.deal()
                    actions_this_round = 0
                    continue
                if actions_this_round >= MAX_ACTIONS_PER_ROUND:
                    abandoned = True
                    break
                actions_this_round += 1
                self.bot_step()
        finally:
            self.close()
        return self._outcome(abandoned)

    def deal(self) -> list[Event]:
        """Deal the next round (the last one is over) and tell every bot."""
        events = self.game.start_round()
        self._tell(None, events)
        return events

    def bot_step(self, person: int | None = None) -> Action | None:
        """One bot decision: each bot with an out-of-turn action is offered it, then the
        bot on turn acts. Returns the action applied, or None when no bot acted because
        the game waits for seat ``person`` (played by a person, never asked here)."""
        action = self._offer_out_of_turn(person)
        if action is not None:
            return action
        seat = self.game.current
        if seat == person:
            return None
        action = self._ask(seat, react=False)
        self._apply(seat, action)
        return action

    def submit(self, action: Action) -> list[Event]:
        """Apply a person's action (checked: an illegal one raises IllegalAction and
        changes nothing) and tell every bot."""
        events = self.game.apply(action)
        self._tell(action, events)
        return events

    def close(self) -> None:
        """Release every bot (a table that is stepped is closed by its owner)."""
        for bot in self.bots:
            bot.close()

    def _offer_out_of_turn(self, person: int | None = None) -> Action | None:
        """Offer each bot seat with an out-of-turn action its chance; the action taken, if any."""
        for seat in self.game.out_of_turn_seats():
            if seat == person:
                continue
            action = self._ask(seat, react=True)
            if action is not None:
                self._apply(seat, action)
                return action
        return None

    def _ask(self, seat: int, *, react: bool) -> Action | None:
        bot = self.bots[seat]
        view = self.game.view(seat)
        started = time.perf_counter()
        try:
            action = bot.react(view) if react else bot.act(view)
        except BotError:
            raise
        except Exception as error:
            raise BotError(seat, bot.name, f"crashed: {type(error).__name__}: {error}") from error
        finally:
            stats = self.stats[seat]
            stats.decisions += 1
            stats.thinking += time.perf_counter() - started
        if action is None and not react:
            raise BotError(seat, bot.name, "gave no action on its turn")
        return action

    def _apply(self, seat: int, action: Action | None) -> None:
        assert action is not None
        if not isinstance(action, Action) or action.player != seat:
            raise BotError(seat, self.bots[seat].name, f"answered {action!r}, not an action of its own seat")
        try:
            events = self.game.apply(action)
        except IllegalAction as error:
            raise BotError(seat, self.bots[seat].name, f"illegal action: {error}") from None
        self._tell(action, events)

    def _tell(self, action: Action | None, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, RoundEnded):
                self.round_winners.append(event.winner)
                self.round_points.append(event.points)
        if self.on_events is not None:
            self.on_events(action, events)
        for seat, bot in enumerate(self.bots):
            self._guarded(seat, "failed to observe events", bot.observe, [redact(event, seat) for event in events])

    def _guarded(self, seat: int, what: str, call: Callable[..., object], *args: object) -> None:
        """Call a bot's method; any failure but a BotError becomes one naming the seat."""
        try:
            call(*args)
        except BotError:
            raise
        except Exception as error:
            raise BotError(seat, self.bots[seat].name, f"{what}: {type(error).__name__}: {error}") from error

    def _outcome(self, abandoned: bool) -> Outcome:
        game = self.game
        return Outcome(
            game=game,
            winner=game.winner,
            scores=list(game.scores),
            round_winners=self.round_winners,
            round_points=self.round_points,
            seats=self.stats,
            abandoned=abandoned,
        )
