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


class BotSeats:
    """The bots of a table, one per seat: each asked with its own seat's view alone, its
    answer checked and applied through :meth:`Game.apply`, and told every event redacted
    for its seat. :class:`Table` drives all seats with it; the server drives only the seats
    bots play at the moment.
    """

    def __init__(self, rules: Rules, bots: Sequence[Bot], rngs: Sequence[random.Random]) -> None:
        if len(bots) != rules.players:
            raise ValueError(f"{len(bots)} bots for {rules.players} seats")
        self.bots = list(bots)
        self.stats = [SeatStats() for _ in bots]
        for seat, (bot, rng) in enumerate(zip(self.bots, rngs, strict=True)):
            self.guarded(seat, "failed to start", bot.start, seat, rules, rng)

    def ask(self, game: Game, seat: int, *, react: bool) -> Action | None:
        """The bot's action on its turn (``react=False``) or out of turn (may be None)."""
        bot = self.bots[seat]
        view = game.view(seat)
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

    def react(self, game: Game, seats: Sequence[int]) -> Action | None:
        """The first out-of-turn action taken by one of ``seats``, in seat order, or None."""
        for seat in game.out_of_turn_seats():
            if seat in seats:
                action = self.ask(game, seat, react=True)
                if action is not None:
                    return self.checked(seat, action)
        return None

    def checked(self, seat: int, action: Action | None) -> Action:
        """``action`` if it is an action of the bot's own seat; a BotError otherwise."""
        if not isinstance(action, Action) or action.player != seat:
            raise BotError(seat, self.bots[seat].name, f"answered {action!r}, not an action of its own seat")
        return action

    def apply(self, game: Game, seat: int, action: Action) -> list[Event]:
        """Apply the bot's action; an illegal one is a BotError and changes nothing."""
        try:
            return game.apply(action)
        except IllegalAction as error:
            raise BotError(seat, self.bots[seat].name, f"illegal action: {error}") from None

    def tell(self, events: Sequence[Event]) -> None:
        """Tell every bot the events as its seat may see them."""
        for seat, bot in enumerate(self.bots):
            self.guarded(seat, "failed to observe events", bot.observe, [redact(event, seat) for event in events])

    def guarded(self, seat: int, what: str, call: Callable[..., object], *args: object) -> None:
        """Call a bot's method; any failure but a BotError becomes one naming the seat."""
        try:
            call(*args)
        except BotError:
            raise
        except Exception as error:
            raise BotError(seat, self.bots[seat].name, f"{what}: {type(error).__name__}: {error}") from error

    def close(self) -> None:
        """Release what every bot holds."""
        for bot in self.bots:
            bot.close()


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
        self.on_events = on_events
        if seed is None:
            self.game = game or Game(rules, history=history)
            rngs = [random.Random() for _ in bots]
        else:
            self.game = game or Game(rules, seed=f"{seed}/deal", history=history)
            rngs = [random.Random(f"{seed}/seat {seat}") for seat in range(len(bots))]
        self.seats = BotSeats(rules, bots, rngs)
        self.bots = self.seats.bots
        self.stats = self.seats.stats
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
        game = self.game
        seats = self.seats
        action = seats.react(game, [seat for seat in range(self.rules.players) if seat != person])
        if action is None:
            seat = game.current
            if seat == person:
                return None
            action = seats.checked(seat, seats.ask(game, seat, react=False))
        self._tell(action, seats.apply(game, action.player, action))
        return action

    def submit(self, action: Action) -> list[Event]:
        """Apply a person's action (checked: an illegal one raises IllegalAction and
        changes nothing) and tell every bot."""
        events = self.game.apply(action)
        self._tell(action, events)
        return events

    def close(self) -> None:
        """Release every bot (a table that is stepped is closed by its owner)."""
        self.seats.close()

    def _tell(self, action: Action | None, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, RoundEnded):
                self.round_winners.append(event.winner)
                self.round_points.append(event.points)
        if self.on_events is not None:
            self.on_events(action, events)
        self.seats.tell(events)

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
