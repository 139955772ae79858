"""The decision sequence of the RL environments: a :class:`~unomas.conductor.Conductor` in ids.

Free of NumPy, Gymnasium and PettingZoo, so that ``setup.py`` compiles it with mypyc
beside the engine and the conductor. The :class:`Driver` keeps no window logic of its own:
its conductor decides who decides (out-of-turn windows in seat order, then the seat on
turn; a new window after every action), applies the actions and deals; the driver turns
ids into actions, counts steps, rewards and the episode's end, and writes observations.

Every seat of the AEC environment is external (the learner's agents decide), and the
conductor asks them out of turn too (``ask_external``): a ``none`` answers that decision
with :meth:`~unomas.conductor.Conductor.decline`. Seats given players (the bots of the
single-agent environment) are asked by the conductor (:meth:`Driver.let_players_decide`),
which checks their answers, turns their failures into :class:`~unomas.errors.BotError`
and tells them each change redacted for their seat.

The observation of a seat is written from what that seat may know, read as
:func:`unomas.view.make_view` reads it: what the seat alone knows (its hand, the card it
just drew, the hand shown to it after a challenge) from :mod:`unomas.view`'s
:func:`~unomas.view.own_hand`, :func:`~unomas.view.drawn_card` and
:func:`~unomas.view.shown_hand`, the one place that decides it, and the public table
from the game. The discard pile's counts by kind are kept up to date from the events of each step instead
of being counted afresh (the pile holds dozens of cards), and recounted whenever the
pile starts anew (a reshuffle, a new round) or is found changed behind the driver's back.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any, Final, Literal

from unomas.cards import POINTS, Card, card_token, color_letter
from unomas.conductor import Conductor, Player
from unomas.errors import IllegalAction, SettingsError
from unomas.events import (
    Challenged,
    Drew,
    Event,
    HandsPassed,
    HandsSwapped,
    MatchEnded,
    Played,
    Reshuffled,
    RoundEnded,
    StartingCard,
)
from unomas.game import Deal, Game, RandomSource
from unomas.position import Phase, Position
from unomas.rl.actions import ActionTable, action_table
from unomas.rl.writer import ObservationWriter, discard_counts
from unomas.rules import Rules
from unomas.view import drawn_card, hand_sizes, own_hand, shown_hand

__all__ = ["Driver", "Episode", "Reward"]

Episode = Literal["round", "match"]
Reward = Literal["win", "points"]

_DRAWN_PHASE: Final = int(Phase.DRAWN)
"""The only phase with a drawn card (a position's invariant): in any other, no seat has one."""
_OWN_HAND: Final = own_hand
_DRAWN_CARD: Final = drawn_card
_SHOWN_HAND: Final = shown_hand
"""What a seat alone may know (:mod:`unomas.view`), bound once: the compiled build would
otherwise look each name up in this module's dictionary at every observation."""


class Driver:
    """The decision sequence over a :class:`~unomas.conductor.Conductor`, shared by the environments.

    ``actor`` is the seat that must decide; ``out_of_turn`` says whether it decides in an
    out-of-turn window (then ``none`` is open to it). ``events`` are the events of the
    last step (a new round's deal included).

    With ``dictate_deals`` the driver deals no round itself: once a round of a match
    episode is over it sets ``deal_pending`` and waits for :meth:`deal` (the chance
    outcomes of OpenSpiel's game come from outside). ``game`` is the game to begin on
    (until :meth:`reset` or :meth:`start`; by default one dealt from seed 0), every seat
    external.

    ``max_players`` lays the action ids out for that many seats (see
    :mod:`unomas.rl.actions`); with ``history`` the driver keeps :attr:`history`, the
    colours each seat drew on (see :mod:`unomas.rl.observation`).
    """

    def __init__(
        self,
        rules: Rules,
        *,
        episode: Episode = "round",
        reward: Reward = "win",
        max_steps: int,
        dictate_deals: bool = False,
        game: Game | None = None,
        max_players: int | None = None,
        history: bool = False,
    ) -> None:
        if episode not in ("round", "match"):
            raise SettingsError("setup.one_of", name="episode", known="'round', 'match'", value=repr(episode))
        if reward not in ("win", "points"):
            raise SettingsError("setup.one_of", name="reward", known="'win', 'points'", value=repr(reward))
        if max_steps < 1:
            raise SettingsError("setup.at_least_one", name="max_steps", value=max_steps)
        self.rules = rules
        self.players = rules.players
        try:
            self.table: ActionTable = action_table(rules.players, max_players)
        except ValueError:
            raise SettingsError("setup.max_players", players=rules.players, limit=10, value=max_players) from None
        self.max_players = max_players
        self.keeps_history = history
        self.history = [0] * rules.players
        """By seat, the colours in play when it drew a card on its turn since its last play:
        bit ``c`` for colour ``c`` (kept with ``history``; cleared for a seat when it plays
        or its hand is swapped or passed on, for all at a new round)."""
        self.episode = episode
        self.reward = reward
        self.team_of = [rules.team_of(seat) for seat in range(rules.players)]
        """Each seat's team (house rule ``teams``; each seat its own without): a reward goes to the team."""
        self.max_steps = max_steps
        self.dictate_deals = dictate_deals
        self.actor = 0
        self.out_of_turn = False
        self.events: list[Event] = []
        self.steps = 0
        self.done = False
        self.truncated = False
        self.deal_pending = False
        self._legal: list[int] | None = None
        self._maybe_shown = True
        """Whether some seat may have a hand shown to it (after a challenge): until a look
        finds none, every observation asks :func:`~unomas.view.shown_hand`."""
        self._no_ids = bytearray(self.table.size)
        """An all-zeros mask, copied for each mask (faster than making one)."""
        first = game if game is not None else Game(rules, seed=0, history=False)
        self.conductor = Conductor(first, [None] * rules.players, ask_external=True)
        self._discard = discard_counts(first.discard)
        self._counted = len(first.discard)
        """How many cards ``_discard`` counts: the pile has changed unseen if it holds another number."""
        self._begin(self.conductor)

    @property
    def game(self) -> Game:
        """The game in play (the whole truth: for tests and tools, not for agents)."""
        return self.conductor.game

    def reset(self, seed: int) -> None:
        """A new episode: a new match dealt from ``seed``, every seat external."""
        self.start(Game(self.rules, seed=seed, history=False))

    def start(
        self,
        game: Game,
        players: Sequence[Player | None] | None = None,
        rngs: Sequence[random.Random] | None = None,
    ) -> None:
        """A new episode on ``game``, whose first round is dealt. ``players`` decide for
        their seats, drawing on ``rngs`` (see :class:`~unomas.conductor.Conductor`); by
        default every seat is external. The last episode's players are closed."""
        self.conductor.close()
        seats = players if players is not None else [None] * self.players
        self._begin(Conductor(game, seats, rngs=rngs, ask_external=True))

    def _begin(self, conductor: Conductor) -> None:
        """An episode on ``conductor``'s game: its round's deal, the first decision."""
        self.conductor = conductor
        self.events = list(conductor.game.round_start_events)
        self.steps = 0
        self.done = self.truncated = self.deal_pending = False
        self._maybe_shown = True  # a game begun in any position: look once
        self._recount()
        self._forget()
        self._decide()

    def close(self) -> None:
        """Release the players of the episode."""
        self.conductor.close()

    def deal(self, deal: Deal) -> None:
        """Deal the next round of the match as ``deal`` dictates (once ``deal_pending``)."""
        if not self.deal_pending:
            raise IllegalAction("round.not_over")
        self.deal_pending = False
        self.events = self.conductor.deal(deal)
        self._recount()
        self._forget()
        self._decide()

    def copy(self) -> Driver:
        """A copy (the game copied, shuffling with the same source; the rules and the table
        shared; every seat external)."""
        game = self.game
        return self.on(game.copy(rng=game.rng))

    def on(self, game: Game) -> Driver:
        """This driver's decision on ``game``: a copy of its game, or a position its actor
        cannot tell from it (a resampled world). The window goes on past the seats it has
        already passed (those before the actor, in seat order); every seat is external."""
        return _rebuild(self._state(), game, self.events[:])

    def __deepcopy__(self, memo: dict[int, Any]) -> Driver:
        return self.copy()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickling (OpenSpiel serializes states): the driver in plain values, rebuilt by
        :func:`_unpickle`."""
        game = self.game
        start = [_plain_event(event) for event in game.round_start_events]
        return _unpickle, (self._state(), game.position(), game.rng, start, [_plain_event(e) for e in self.events])

    def _state(self) -> tuple[Any, ...]:
        """What this driver is besides its game and events (see :func:`_rebuild`)."""
        return (
            self.rules,
            self.episode,
            self.reward,
            self.max_steps,
            self.dictate_deals,
            self.actor,
            self.out_of_turn,
            self.steps,
            self.done,
            self.truncated,
            self.deal_pending,
            self.max_players,
            self.keeps_history,
            self.history[:],
        )

    def _resume(self, actor: int, out_of_turn: bool) -> None:
        """Make ``actor`` the seat that decides (out of turn or not), as it was in the
        position this driver's game copies: the window's seats before it let their chance go."""
        conductor = self.conductor
        decision = conductor.decision()
        while decision is not None and decision[1] and (not out_of_turn or decision[0] < actor):
            conductor.decline(decision[0])
            decision = conductor.decision()
        self.actor = actor
        self.out_of_turn = out_of_turn
        self._legal = None

    def _forget(self) -> None:
        """A new round: no seat has drawn on a colour yet."""
        if self.keeps_history:
            self.history = [0] * self.players

    def _recount(self) -> None:
        """Count the discard pile afresh."""
        discard = self.game.discard
        self._discard = discard_counts(discard)
        self._counted = len(discard)

    def _decide(self) -> None:
        """Read who decides next from the conductor (dealing the next round in a match episode)."""
        conductor = self.conductor
        self._legal = None
        decision = conductor.decision()
        while decision is None:
            game = conductor.game
            if game.is_over or self.episode == "round" or self.dictate_deals:
                self.done = game.is_over or self.episode == "round"
                self.deal_pending = not self.done
                self.out_of_turn = False
                return
            self.events = self.events + conductor.deal()
            self._recount()
            self._forget()
            decision = conductor.decision()
        self.actor, self.out_of_turn = decision

    def legal_ids(self) -> list[int]:
        """The ids open to ``actor`` now (empty once the episode is over)."""
        legal = self._legal
        if legal is None:
            if self.done or self.deal_pending:
                legal = []
            else:
                actor = self.actor
                table = self.table
                legal = [table.fast_id(actor, action) for action in self.conductor.legal_actions(actor)]
                if self.out_of_turn:
                    legal.append(table.none)
            self._legal = legal
        return legal

    def mask(self, seat: int) -> bytearray:
        """The action mask of ``seat``: 1 at its open ids if it is the actor, else all zeros."""
        mask = self._no_ids[:]
        if seat == self.actor and not self.done:
            for i in self.legal_ids():
                mask[i] = 1
        return mask

    def observe(self, seat: int, writer: ObservationWriter) -> tuple[bytearray, bytearray]:
        """The observation vector and the action mask of ``seat`` now, in new buffers (one call for both)."""
        return self.observation(seat, writer)[:], self.mask(seat)

    def observation(self, seat: int, writer: ObservationWriter) -> bytearray:
        """The observation vector of ``seat`` now (``float32`` bytes): what it may know,
        nothing else. The buffer is the writer's kept vector of the seat, which its next
        observation rewrites: copy what you keep."""
        game = self.game
        discard = game.discard
        if len(discard) != self._counted:
            self._recount()
        phase = game.phase
        # the view's functions are asked only where they may find something: a call from
        # the compiled build into them costs some 1,500 instructions, 3 % of a whole step
        drawn = _DRAWN_CARD(game, seat) if phase == _DRAWN_PHASE else None
        shown = None
        if self._maybe_shown:
            shown = _SHOWN_HAND(game, seat)
            if shown is None and all(_SHOWN_HAND(game, other) is None for other in range(self.players)):
                self._maybe_shown = False
        shown_seat = -1
        shown_cards: list[Card] = []
        if shown is not None:
            shown_seat = shown[0]
            shown_cards = list(shown[1])
        return writer.write(
            seat,
            _OWN_HAND(game, seat),
            discard[-1],
            -1 if game.color is None else game.color,
            phase,
            game.current,
            game.direction,
            game.penalty,
            game.challengeable,
            -1 if drawn is None else drawn,
            self._discard,
            self._counted,
            shown_seat,
            shown_cards,
            len(game.pile),
            hand_sizes(game),
            -1 if game.uno_pending is None else game.uno_pending,
            game.dealer,
            game.scores,
            self.history,
            keep=True,
        )

    def check(self, action_id: int) -> None:
        """Raise :class:`~unomas.errors.IllegalAction`, saying why, unless the actor may take ``action_id`` now."""
        if self.done:
            raise IllegalAction("rl.episode_over")
        if self.deal_pending:
            raise IllegalAction("rl.not_dealt")
        if not 0 <= action_id < self.table.size:
            raise IllegalAction("rl.no_such_id", seat=self.actor, id=action_id)
        if action_id not in self.legal_ids():
            raise IllegalAction("rl.not_legal", seat=self.actor, id=action_id, action=self.table.describe(action_id))

    def step(self, action_id: int, reshuffle: Sequence[Card] | None = None) -> list[float] | None:
        """The actor takes ``action_id``; returns the rewards it caused, if any, by seat.

        ``reshuffle`` dictates the new draw pile (top first) should the action reshuffle
        (see :meth:`unomas.game.Game.apply`).
        """
        self.check(action_id)
        return self.take(action_id, reshuffle)

    def take(self, action_id: int, reshuffle: Sequence[Card] | None = None) -> list[float] | None:
        """:meth:`step` without the check: for an id :meth:`check` has passed."""
        conductor = self.conductor
        if action_id == self.table.none:
            conductor.decline(self.actor)
            return self._took(None)
        action = self.table.actions[self.actor][action_id]
        assert action is not None
        return self._took(conductor.push(action) if reshuffle is None else conductor.act(action, reshuffle=reshuffle))

    def let_players_decide(self) -> list[float]:
        """Let the conductor ask the seats that have players, one step each decision (a
        ``none`` too), until an external seat must decide or the episode is over; the
        rewards of those steps, summed by seat."""
        totals = [0.0] * self.players
        conductor = self.conductor
        while not self.done and not self.deal_pending and conductor.waiting_for() is None:
            action = conductor.ask()  # a chance let go has moved the window on already
            rewards = self._took(None if action is None else conductor.push(action))
            if rewards is not None:
                for seat in range(self.players):
                    totals[seat] += rewards[seat]
        return totals

    def _took(self, events: list[Event] | None) -> list[float] | None:
        """Count the step just taken (``events``: the action's; None: a chance let go),
        find the next decision; the rewards the step gave, if any."""
        self.steps += 1
        rewards = None
        if events is None:
            self.events = []
        else:
            self.events = events
            rewards = self._follow(events)
        self._decide()
        if not self.done and self.steps >= self.max_steps:
            self.done = self.truncated = True
            self._legal = None
        return rewards

    def _follow(self, events: list[Event]) -> list[float] | None:
        """Count the cards ``events`` played onto the discard pile; return the rewards they give."""
        rewards = None
        discard = self._discard
        if self.keeps_history:
            self._remember(events)
        for event in events:
            if isinstance(event, Played):
                card = event.card
                discard[card] = discard[card] + 1.0
                self._counted += 1
            elif isinstance(event, Reshuffled) or isinstance(event, StartingCard):  # noqa: SIM101 (a union builds a new type each call)
                self._recount()  # the pile starts anew (no card is played after it in one step)
            elif isinstance(event, Challenged):
                self._maybe_shown = True
            elif isinstance(event, RoundEnded):
                if self.reward == "points":
                    rewards = [-float(sum(POINTS[c] for c in hand)) for hand in event.hands]
                    team_of = self.team_of
                    for seat in range(self.players):
                        if team_of[seat] == team_of[event.winner]:
                            rewards[seat] = float(event.points)
                elif self.episode == "round":
                    rewards = self._win(event.winner)
            elif isinstance(event, MatchEnded) and self.reward == "win" and self.episode == "match":
                rewards = self._win(event.winner)
        return rewards

    def _remember(self, events: list[Event]) -> None:
        """Bring :attr:`history` up to date with the events of a step."""
        history = self.history
        for event in events:
            if isinstance(event, Drew):
                color = self.game.color  # a draw leaves the colour as it was
                if event.reason == "turn" and color is not None:
                    history[event.player] |= 1 << color
            elif isinstance(event, Played):
                history[event.player] = 0
            elif isinstance(event, HandsSwapped):
                history[event.player] = history[event.target] = 0
            elif isinstance(event, HandsPassed):
                self.history = history = [0] * self.players

    def _win(self, winner: int) -> list[float]:
        """+1 to the winner (and its partners), -1 to every other seat."""
        team_of = self.team_of
        return [1.0 if team_of[seat] == team_of[winner] else -1.0 for seat in range(self.players)]

    def render(self) -> str:
        """The position as text, from no seat's point of view but the table's."""
        game = self.game
        color = "-" if game.color is None else color_letter(game.color)
        lines = [
            f"round {game.round}  top {card_token(game.top)}  colour {color}"
            f"  direction {'clockwise' if game.direction > 0 else 'counter-clockwise'}"
            f"  penalty {game.penalty}  pile {len(game.pile)}  scores {list(game.scores)}",
        ]
        for seat in range(self.players):
            hand = own_hand(game, seat)
            marks = ("*" if seat == game.current else " ") + (">" if seat == self.actor and not self.done else " ")
            lines.append(f"{marks} player_{seat}: {' '.join(card_token(c) for c in sorted(hand))}")
        if self.done:
            lines.append("episode over" + (" (truncated)" if self.truncated else ""))
        return "\n".join(lines) + "\n"


def _rebuild(state: tuple[Any, ...], game: Game, events: list[Event]) -> Driver:
    """A driver in ``state`` (:meth:`Driver._state`) on ``game``, the last step's ``events``."""
    rules, episode, reward, max_steps, dictate_deals, actor, out_of_turn, steps, done, truncated = state[:10]
    deal_pending, max_players, keeps_history, history = state[10:]
    driver = Driver(
        rules,
        episode=episode,
        reward=reward,
        max_steps=max_steps,
        dictate_deals=dictate_deals,
        game=game,
        max_players=max_players,
        history=keeps_history,
    )
    driver._resume(actor, out_of_turn)
    driver.history = history[:]
    driver.events = events
    driver.steps = steps
    driver.done = done
    driver.truncated = truncated
    driver.deal_pending = deal_pending
    return driver


def _unpickle(
    state: tuple[Any, ...],
    position: Position,
    rng: RandomSource,
    start: list[tuple[Any, list[Any]]],
    events: list[tuple[Any, list[Any]]],
) -> Driver:
    """A pickled driver (:meth:`Driver.__reduce__`) rebuilt: its game in ``position``,
    shuffling with ``rng``, the round's deal events ``start``, the last step's ``events``."""
    game = Game.from_position(state[0], position, rng=rng)
    game.round_start_events = [_event_from(*event) for event in start]
    return _rebuild(state, game, [_event_from(*event) for event in events])


def _plain_event(event: Event) -> tuple[Any, list[Any]]:
    """An event as its class and its fields' values."""
    return type(event), [getattr(event, field.name) for field in dataclasses.fields(event)]


def _event_from(kind: Any, values: list[Any]) -> Event:
    """The event :func:`_plain_event` described."""
    event: Event = kind(*values)
    return event
