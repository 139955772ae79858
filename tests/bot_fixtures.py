"""Helpers shared by the bot and table tests: stacked positions and a watching wrapper."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from unomas.actions import Action, Kind
from unomas.bots.base import Bot
from unomas.bots.player import bot_match
from unomas.cards import COLOR_OF, DECK
from unomas.conductor import Conductor
from unomas.events import Challenged, Dealt, Drew, Event, Reshuffled, StartingCardReturned
from unomas.game import Game
from unomas.position import Phase, Position
from unomas.rules import Rules
from unomas.testing import cards
from unomas.view import View


def position(
    hands: Sequence[str],
    discard: str,
    *,
    current: int = 0,
    color: int | None = None,
    phase: Phase = Phase.TURN,
    direction: int = 1,
    penalty: int = 0,
    challengeable: bool = False,
    accused_guilty: bool = False,
    drawn: str | None = None,
    uno_pending: int | None = None,
    **settings: Any,
) -> Game:
    """A game in a stacked position: ``hands`` and ``discard`` (bottom first) in tokens.

    Every other card is in the draw pile, in kind order. The colour in play is the top
    card's unless given (none while the dealer chooses it); ``settings`` are rules
    settings (one round by default).
    """
    rules = Rules(**({"players": len(hands), "target_score": 0} | settings))
    hand_cards = [cards(h) for h in hands]
    discard_cards = cards(discard)
    left = Counter(DECK)
    for hand in hand_cards:
        left.subtract(hand)
    left.subtract(discard_cards)
    assert all(count >= 0 for count in left.values()), "the position uses a card too often"
    pile = sorted(left.elements())
    top = discard_cards[-1]
    return Game.from_position(
        rules,
        Position(
            hands=tuple(tuple(hand) for hand in hand_cards),
            pile=tuple(pile),
            discard=tuple(discard_cards),
            color=None if phase is Phase.COLOR else COLOR_OF[top] if color is None else color,
            current=current,
            phase=phase,
            direction=direction,
            penalty=penalty,
            challengeable=challengeable,
            accused=(current - direction) % rules.players if challengeable else None,
            accused_guilty=accused_guilty,
            drawn=None if drawn is None else cards(drawn)[0],
            uno_pending=uno_pending,
            scores=(0,) * rules.players,
        ),
        rng=random.Random(0),
    )


def started(bot: Bot, seat: int, game: Game, seed: int = 0) -> Bot:
    """``bot`` started on ``seat`` of ``game``'s rules with a seeded random source."""
    bot.start(seat, game.rules, random.Random(seed))
    return bot


def tokens_of(actions: Sequence[Action]) -> list[str]:
    return sorted(str(a) for a in actions)


class Recorder:
    """The table's ``on_events``: keeps the last unredacted events and counts them."""

    def __init__(self) -> None:
        self.last: list[Event] = []
        self.everything: list[tuple[Action | None, list[Event]]] = []
        self.game: Game | None = None
        """The game whose changes these are, once its match is over (for checks after it)."""

    def __call__(self, action: Action | None, events: list[Event]) -> None:
        self.last = events
        self.everything.append((action, events))


class Spy(Bot):
    """Wraps a bot and checks, at every call, what it is shown and what it answers.

    * a view is this seat's: its hand is the seat's true hand, its legal actions the game's;
    * an answer is one of ``view.legal_actions`` (or None out of turn);
    * every event it observes is the true event less what this seat may not see;
    * ``check`` may add checks on each (view, answer, out-of-turn) triple.
    """

    def __init__(
        self,
        inner: Bot,
        recorder: Recorder,
        check: Callable[[View, Action | None, bool], None] | None = None,
    ) -> None:
        super().__init__()
        self.inner = inner
        self.name = inner.name
        self.recorder = recorder
        self.check = check
        self.table: Conductor | None = None
        self.views: list[View] = []
        self.answers: list[Action | None] = []
        self.events: list[Event] = []
        self.started = 0
        self.closed = 0

    def start(self, seat: int, rules: Rules, rng: random.Random) -> None:
        super().start(seat, rules, rng)
        self.started += 1
        self.inner.start(seat, rules, rng)

    def _check_view(self, view: View, *, react: bool) -> Game:
        assert self.table is not None
        game = self.table.game
        assert view.seat == self.seat
        assert view.hand == tuple(game.hands[self.seat]), "a view holds another hand than the seat's own"
        assert view.hand_sizes == tuple(len(h) for h in game.hands)
        assert view.legal_actions == tuple(game.legal_actions(self.seat))
        assert view.legal_actions, "a bot is asked only when it has something to do"
        if react:
            assert game.current != self.seat and self.seat in game.out_of_turn_seats()
        else:
            assert game.current == self.seat
        if view.drawn is not None:
            assert game.current == self.seat and view.drawn == game.drawn
        if view.shown_hand is not None:
            assert game.shown is not None and game.shown[0] == self.seat
        self.views.append(view)
        return game

    def act(self, view: View) -> Action:
        self._check_view(view, react=False)
        action = self.inner.act(view)
        assert action in view.legal_actions, f"{self.name} chose {action}, not a legal action"
        self.answers.append(action)
        if self.check is not None:
            self.check(view, action, False)
        return action

    def react(self, view: View) -> Action | None:
        self._check_view(view, react=True)
        action = self.inner.react(view)
        assert action is None or action in view.legal_actions, f"{self.name} reacted {action}, not legal"
        assert action is None or action.kind is not Kind.DRAW
        self.answers.append(action)
        if self.check is not None:
            self.check(view, action, True)
        return action

    def observe(self, events: Sequence[Event]) -> None:
        truth = self.recorder.last
        assert len(events) == len(truth), "a seat is told of every event"
        seat = self.seat
        for seen, true in zip(events, truth, strict=True):
            assert type(seen) is type(true)
            if isinstance(seen, Drew):
                assert isinstance(true, Drew)
                assert (seen.player, seen.amount, seen.reason) == (true.player, true.amount, true.reason)
                assert seen.cards == (true.cards if seen.player == seat else None)
            elif isinstance(seen, Dealt):
                assert isinstance(true, Dealt)
                assert seen.pile is None
                assert seen.hands[seat] == true.hands[seat]
                assert all(hand is None for other, hand in enumerate(seen.hands) if other != seat)
            elif isinstance(seen, StartingCardReturned | Reshuffled):
                assert seen.pile is None
            elif isinstance(seen, Challenged):
                assert isinstance(true, Challenged)
                shown = seat in (true.challenger, true.challenged)
                assert seen.hand == (true.hand if shown else None)
            else:
                assert seen == true
        self.events.extend(events)
        self.inner.observe(events)

    def close(self) -> None:
        self.closed += 1
        self.inner.close()


def spied_table(
    rules: Rules,
    bots: Sequence[Bot],
    *,
    seed: int | str | None,
    check: Callable[[Bot], Callable[[View, Action | None, bool], None] | None] = lambda bot: None,
) -> tuple[Conductor, list[Spy]]:
    """A table whose every seat is watched by a :class:`Spy`."""
    recorder = Recorder()
    spies = [Spy(bot, recorder, check(bot)) for bot in bots]
    table = bot_match(rules, spies, seed=seed, witness=recorder)
    for spy in spies:
        spy.table = table
    return table, spies
