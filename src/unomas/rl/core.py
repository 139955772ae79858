"""The hot path of the RL environments: the decision sequence, the observation writer, the mask.

Free of NumPy, Gymnasium and PettingZoo, so that ``setup.py`` compiles it with mypyc
beside the engine (a build has none of those libraries); the environments wrap its
buffers as NumPy arrays without copying (``bytearray`` buffers: ``float32`` items for
observations, ``int8`` for masks).

The observation of a seat is written from what that seat may know, read through the
game's public state as :func:`unomas.view.make_view` reads it: its own hand, the card
it just drew, the hand shown to it after a challenge, and the public table. The
discard pile's counts by kind are kept up to date from the events of each step instead
of being counted afresh (the pile holds dozens of cards), and recounted whenever the
pile starts anew (a reshuffle, a new round) or is found changed behind the driver's back.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final, Literal

from unomas.cards import KINDS, POINTS, Card, card_token, color_letter
from unomas.errors import IllegalAction, SettingsError
from unomas.events import Event, MatchEnded, Played, Reshuffled, RoundEnded, StartingCard
from unomas.game import Deal, Game
from unomas.rl.actions import ActionTable, action_table
from unomas.rules import SWITCHES, Rules

__all__ = ["AgentBook", "Batch", "Driver", "Episode", "ObservationWriter", "Reward"]

Episode = Literal["round", "match"]
Reward = Literal["win", "points"]

_PHASES_SEEN: Final = 4
"""Phases 0–3 (choose a colour, turn, drawn card, penalty) have a one-hot entry; a round
or match that is over has none."""


def slice_sizes(players: int) -> list[tuple[str, int]]:
    """The slices of the observation vector in order, with their sizes, for ``players`` seats."""
    n = players
    return [
        ("hand", KINDS),
        ("top", KINDS),
        ("color", 4),
        ("phase", 4),
        ("on_turn", 1),
        ("direction", 1),
        ("penalty", 1),
        ("challengeable", 1),
        ("drawn", KINDS),
        ("discard", KINDS),
        ("shown", KINDS),
        ("shown_seat", n),
        ("pile_size", 1),
        ("hand_sizes", n),
        ("uno_pending", n),
        ("current", n),
        ("dealer", n),
        ("scores", n),
        ("rules", len(SWITCHES)),
    ]


class _Vector:
    """One observation vector being kept up to date, and what its slices hold now.

    The writer changes only the items whose value differs from what the vector holds:
    from one observation of a seat to its next, most of the table stays as it was.
    """

    def __init__(self, template: bytes, players: int) -> None:
        self.data = bytearray(template)
        self.items = memoryview(self.data).cast("f")
        """The vector as ``float32`` items (a memoryview takes item writes faster than an array)."""
        self.hand = [0] * KINDS
        """The counts in the ``hand`` slice, by kind."""
        self.hand_cards: list[Card] = []
        """The cards counted there (every kind with a count other than 0 is among them)."""
        self.shown = [0] * KINDS
        self.shown_cards: list[Card] = []
        self.numbers = [-1] * (2 * players + 5)
        """The single-item numbers: on_turn, direction, penalty, challengeable, pile_size,
        then the hand sizes and the scores by offset (-1: not written yet, the item is 0)."""
        self.hots = [-1] * 8
        """The one-hot positions (-1: none): top, color, phase, drawn, shown_seat,
        uno_pending, current, dealer (offsets from the slice start)."""
        self.hand_sizes: list[int] = []
        """The hand sizes written, by seat (not by offset: as the writer is given them)."""
        self.scores: list[int] = []
        self.discard: memoryview[float] | None = None
        """The discard counts copied into the ``discard`` slice (kept alive, so that the
        identity check of :meth:`ObservationWriter.write` is sound)…"""
        self.discarded = -1
        """… and how many cards they counted then."""


class ObservationWriter:
    """Writes the observation vectors of one layout (:class:`unomas.rl.observation.ObservationLayout`).

    ``offsets`` are the first index of each slice, ``template`` the vector before anything
    is written in (zeros and the rules switches). :meth:`write` makes a vector from
    scratch, or keeps one vector per seat up to date, changing only the items that differ
    from the seat's previous observation.
    """

    def __init__(self, players: int, offsets: dict[str, int], template: bytes) -> None:
        n = self.players = players
        self.template = template
        self._number_items = [offsets[name] for name in ("on_turn", "direction", "penalty", "challengeable")]
        self._number_items += [offsets["pile_size"]]
        self._number_items += [offsets["hand_sizes"] + k for k in range(n)]
        self._number_items += [offsets["scores"] + k for k in range(n)]
        self._hot_slices = [
            offsets[name]
            for name in ("top", "color", "phase", "drawn", "shown_seat", "uno_pending", "current", "dealer")
        ]
        self.hand = offsets["hand"]
        self.shown = offsets["shown"]
        self.discard = offsets["discard"]
        self._seats = [_Vector(template, n) for _ in range(n)]

    def write(
        self,
        seat: int,
        hand: list[Card],
        top: Card,
        color: int,
        phase: int,
        current: int,
        direction: int,
        penalty: int,
        challengeable: bool,
        drawn: Card,
        discard: memoryview[float],
        discarded: int,
        shown_seat: int,
        shown: list[Card],
        pile_size: int,
        hand_sizes: list[int],
        uno_pending: int,
        dealer: int,
        scores: list[int],
        keep: bool = False,
    ) -> bytearray:
        """The vector (``float32`` bytes) holding what ``seat`` knows (``-1``: no colour,
        drawn card, shown hand or seat to catch; ``discard``: the discard pile's counts by
        kind, as :func:`discard_counts` gives them, ``discarded`` cards in all).

        Without ``keep``, a new vector written from the template. With ``keep``, the seat's
        kept vector (see the class) brought up to date and returned itself: the caller
        copies what it keeps. Its discard counts are not copied again from the same buffer
        counting as many cards (the caller only ever adds cards to a buffer, or starts a
        new one).
        """
        vector = self._seats[seat] if keep else _Vector(self.template, self.players)
        n = self.players
        items = vector.items
        self._counts_into(items, self.hand, vector.hand, vector.hand_cards, hand)
        vector.hand_cards = hand[:]
        seen = phase < _PHASES_SEEN
        # each item is compared here and written only if it changed: most stay as they were
        hots = vector.hots
        if top != hots[0]:
            self._hot(vector, 0, top)
        if color != hots[1]:
            self._hot(vector, 1, color)
        position = phase if seen else -1
        if position != hots[2]:
            self._hot(vector, 2, position)
        if drawn != hots[3]:
            self._hot(vector, 3, drawn)
        position = (shown_seat - seat) % n if shown_seat >= 0 else -1
        if position != hots[4]:
            self._hot(vector, 4, position)
        position = (uno_pending - seat) % n if uno_pending >= 0 else -1
        if position != hots[5]:
            self._hot(vector, 5, position)
        position = (current - seat) % n
        if position != hots[6]:
            self._hot(vector, 6, position)
        position = (dealer - seat) % n
        if position != hots[7]:
            self._hot(vector, 7, position)
        numbers = vector.numbers
        value = 1 if seen and current == seat else 0
        if value != numbers[0]:
            self._number(vector, 0, value)
        value = 1 if direction > 0 else 0
        if value != numbers[1]:
            self._number(vector, 1, value)
        if penalty != numbers[2]:
            self._number(vector, 2, penalty)
        value = 1 if challengeable else 0
        if value != numbers[3]:
            self._number(vector, 3, value)
        if pile_size != numbers[4]:
            self._number(vector, 4, pile_size)
        if hand_sizes != vector.hand_sizes:
            for k in range(n):
                self._number(vector, 5 + k, hand_sizes[(seat + k) % n])
            vector.hand_sizes = hand_sizes[:]
        if scores != vector.scores:
            for k in range(n):
                self._number(vector, 5 + n + k, scores[(seat + k) % n])
            vector.scores = scores[:]
        if discard is not vector.discard or discarded != vector.discarded:
            items[self.discard : self.discard + KINDS] = discard
            vector.discard = discard
            vector.discarded = discarded
        if shown_seat >= 0 or vector.shown_cards:
            self._counts_into(items, self.shown, vector.shown, vector.shown_cards, shown)
            vector.shown_cards = shown[:]
        return vector.data

    def _hot(self, vector: _Vector, k: int, position: int) -> None:
        """Move the 1 of one-hot slice ``k`` (see :attr:`_Vector.hots`) to ``position``."""
        start = self._hot_slices[k]
        last = vector.hots[k]
        if last >= 0:
            vector.items[start + last] = 0.0
        if position >= 0:
            vector.items[start + position] = 1.0
        vector.hots[k] = position

    def _number(self, vector: _Vector, k: int, value: int) -> None:
        """Make single-item number ``k`` (see :attr:`_Vector.numbers`) ``value``."""
        if value != vector.numbers[k]:
            vector.items[self._number_items[k]] = float(value)
            vector.numbers[k] = value

    def _counts_into(
        self, items: memoryview[float], base: int, written: list[int], written_cards: list[Card], cards: list[Card]
    ) -> None:
        """Make the counts by kind in the slice at ``base`` those of ``cards``; ``written``
        holds the counts there now, of ``written_cards``.

        A hand mostly changes by a card played (removed from the list) and cards drawn
        (appended): then only those kinds are counted again.
        """
        m, size = len(written_cards), len(cards)
        same = 0
        while same < m and same < size and cards[same] == written_cards[same]:
            same += 1
        if same == m:  # cards were only added
            self._add(items, base, written, cards, same, 1)
            return
        if written_cards[same + 1 :] == cards[same : m - 1]:  # one card went, some may have come
            gone = written_cards[same]
            count = written[gone] - 1
            written[gone] = count
            items[base + gone] = float(count)
            self._add(items, base, written, cards, m - 1, 1)
            return
        self._add(items, base, written, written_cards, 0, -1)
        self._add(items, base, written, cards, 0, 1)

    def _add(
        self, items: memoryview[float], base: int, written: list[int], cards: list[Card], start: int, step: int
    ) -> None:
        """Count ``cards[start:]`` once more each (``step`` 1) or once less (-1) in the slice at ``base``."""
        for i in range(start, len(cards)):
            card = cards[i]
            count = written[card] + step
            written[card] = count
            items[base + card] = float(count)


def discard_counts(discard: Sequence[Card]) -> memoryview[float]:
    """How many of each card kind ``discard`` holds, as the observation's ``discard`` slice
    (``float32`` items over a new buffer)."""
    counts = memoryview(bytearray(4 * KINDS)).cast("f")
    for card in discard:
        counts[card] += 1.0
    return counts


class Driver:
    """The decision sequence over a :class:`~unomas.game.Game`, shared by the environments.

    ``actor`` is the seat that must decide; ``out_of_turn`` says whether it decides in an
    out-of-turn window (then ``none`` is open to it). ``events`` are the events of the
    last step (a new round's deal included).

    With ``dictate_deals`` the driver deals no round itself: once a round of a match
    episode is over it sets ``deal_pending`` and waits for :meth:`deal` (the chance
    outcomes of OpenSpiel's game come from outside). ``game`` is the game to begin on
    (until :meth:`reset` or :meth:`start`; by default one dealt from seed 0).
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
    ) -> None:
        if episode not in ("round", "match"):
            raise SettingsError(f"episode must be 'round' or 'match', not {episode!r}")
        if reward not in ("win", "points"):
            raise SettingsError(f"reward must be 'win' or 'points', not {reward!r}")
        if max_steps < 1:
            raise SettingsError(f"max_steps must be at least 1, not {max_steps}")
        self.rules = rules
        self.players = rules.players
        self.table: ActionTable = action_table(rules.players)
        self.episode = episode
        self.reward = reward
        self.max_steps = max_steps
        self.game = game if game is not None else Game(rules, seed=0, history=False)
        self.actor = 0
        self.out_of_turn = False
        self.queue: list[int] = []
        self.events: list[Event] = []
        self.steps = 0
        self.done = False
        self.truncated = False
        self.dictate_deals = dictate_deals
        self.deal_pending = False
        self._legal: list[int] | None = None
        self._no_ids = bytearray(self.table.size)
        """An all-zeros mask, copied for each mask (faster than making one)."""
        self._discard = discard_counts(self.game.discard)
        self._counted = len(self.game.discard)
        """How many cards ``_discard`` counts: the pile has changed unseen if it holds another number."""

    def reset(self, seed: int) -> None:
        """A new episode: a new match dealt from ``seed``."""
        self.start(Game(self.rules, seed=seed, history=False))

    def start(self, game: Game) -> None:
        """A new episode on ``game``, whose first round is dealt."""
        self.game = game
        self.events = list(game.round_start_events)
        self.steps = 0
        self.done = self.truncated = self.deal_pending = False
        self._recount()
        self._decide()

    def deal(self, deal: Deal) -> None:
        """Deal the next round of the match as ``deal`` dictates (once ``deal_pending``)."""
        if not self.deal_pending:
            raise IllegalAction("no round is waiting to be dealt")
        self.deal_pending = False
        self.events = self.game.start_round(deal)
        self._recount()
        self._decide()

    def copy(self) -> Driver:
        """An independent copy (the game copied, the rules and the table shared)."""
        return _rebuild(*self._state(self.game.copy()))

    def __deepcopy__(self, memo: dict[int, Any]) -> Driver:
        return self.copy()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickling (OpenSpiel serializes states): the state, rebuilt by :func:`_rebuild`."""
        return _rebuild, self._state(self.game)

    def _state(self, game: Game) -> tuple[Any, ...]:
        """The arguments of :func:`_rebuild` for a driver like this one on ``game``."""
        return (
            self.rules,
            self.episode,
            self.reward,
            self.max_steps,
            self.dictate_deals,
            game,
            self.actor,
            self.out_of_turn,
            self.queue[:],
            self.events[:],
            self.steps,
            self.done,
            self.truncated,
            self.deal_pending,
        )

    def _recount(self) -> None:
        """Count the discard pile afresh."""
        discard = self.game.discard
        self._discard = discard_counts(discard)
        self._counted = len(discard)

    def _decide(self) -> None:
        """Find who decides next (dealing the next round in a match episode)."""
        game = self.game
        self._legal = None
        while game.round_over:
            if game.is_over or self.episode == "round" or self.dictate_deals:
                self.done = game.is_over or self.episode == "round"
                self.deal_pending = not self.done
                self.queue = []
                self.out_of_turn = False
                return
            self.events.extend(game.start_round())
            self._recount()
        window = game.out_of_turn_seats()
        if window:
            self.actor = window[0]
            self.queue = window[1:]
            self.out_of_turn = True
        else:
            self.actor = game.current
            self.queue = []
            self.out_of_turn = False

    def legal_ids(self) -> list[int]:
        """The ids open to ``actor`` now (empty once the episode is over)."""
        legal = self._legal
        if legal is None:
            if self.done or self.deal_pending:
                legal = []
            else:
                actor = self.actor
                table = self.table
                legal = [table.fast_id(actor, action) for action in self.game.legal_actions(actor)]
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
        current = game.current
        shown = game.shown
        shown_seat = -1
        shown_hand: list[Card] = []
        if shown is not None and shown[0] == seat:
            shown_seat = shown[1]
            shown_hand = list(shown[2])
        return writer.write(
            seat,
            game.hands[seat],
            discard[-1],
            game.color,
            game.phase,
            current,
            game.direction,
            game.penalty,
            game.challengeable,
            game.drawn if seat == current else -1,
            self._discard,
            self._counted,
            shown_seat,
            shown_hand,
            len(game.pile),
            [len(hand) for hand in game.hands],
            game.uno_pending,
            game.dealer,
            game.scores,
            keep=True,
        )

    def check(self, action_id: int) -> None:
        """Raise :class:`~unomas.errors.IllegalAction`, saying why, unless the actor may take ``action_id`` now."""
        if self.done or self.deal_pending:
            raise IllegalAction("the episode is over" if self.done else "the next round is not dealt yet")
        if action_id not in self.legal_ids():
            raise IllegalAction(
                f"seat {self.actor} may not take action {action_id} now"
                + (f" ({self.table.describe(action_id)})" if 0 <= action_id < self.table.size else "")
            )

    def step(self, action_id: int, reshuffle: Sequence[Card] | None = None) -> list[float] | None:
        """The actor takes ``action_id``; returns the rewards it caused, if any, by seat.

        ``reshuffle`` dictates the new draw pile (top first) should the action reshuffle
        (see :meth:`unomas.game.Game.apply`).
        """
        self.check(action_id)
        self.steps += 1
        rewards = None
        if action_id == self.table.none:
            self.events = []
            self._legal = None
            if self.queue:
                self.actor = self.queue.pop(0)
            else:
                self.actor = self.game.current
                self.out_of_turn = False
        else:
            action = self.table.actions[self.actor][action_id]
            assert action is not None
            game = self.game
            self.events = game.push(action) if reshuffle is None else game.apply(action, reshuffle=reshuffle)
            rewards = self._follow(self.events)
            self._decide()
        if not self.done and self.steps >= self.max_steps:
            self.done = self.truncated = True
            self._legal = None
        return rewards

    def _follow(self, events: list[Event]) -> list[float] | None:
        """Count the cards ``events`` played onto the discard pile; return the rewards they give."""
        rewards = None
        discard = self._discard
        for event in events:
            if isinstance(event, Played):
                card = event.card
                discard[card] = discard[card] + 1.0
                self._counted += 1
            elif isinstance(event, Reshuffled) or isinstance(event, StartingCard):  # noqa: SIM101 (a union builds a new type each call)
                self._recount()  # the pile starts anew (no card is played after it in one step)
            elif isinstance(event, RoundEnded):
                if self.reward == "points":
                    rewards = [-float(sum(POINTS[c] for c in hand)) for hand in event.hands]
                    rewards[event.winner] = float(event.points)
                elif self.episode == "round":
                    rewards = self._win(event.winner)
            elif isinstance(event, MatchEnded) and self.reward == "win" and self.episode == "match":
                rewards = self._win(event.winner)
        return rewards

    def _win(self, winner: int) -> list[float]:
        rewards = [-1.0] * self.players
        rewards[winner] = 1.0
        return rewards

    def render(self) -> str:
        """The position as text, from no seat's point of view but the table's."""
        game = self.game
        color = "-" if game.color < 0 else color_letter(game.color)
        lines = [
            f"round {game.round}  top {card_token(game.top)}  colour {color}"
            f"  direction {'clockwise' if game.direction > 0 else 'counter-clockwise'}"
            f"  penalty {game.penalty}  pile {len(game.pile)}  scores {list(game.scores)}",
        ]
        for seat, hand in enumerate(game.hands):
            marks = ("*" if seat == game.current else " ") + (">" if seat == self.actor and not self.done else " ")
            lines.append(f"{marks} player_{seat}: {' '.join(card_token(c) for c in sorted(hand))}")
        if self.done:
            lines.append("episode over" + (" (truncated)" if self.truncated else ""))
        return "\n".join(lines) + "\n"


def _rebuild(
    rules: Rules,
    episode: Episode,
    reward: Reward,
    max_steps: int,
    dictate_deals: bool,
    game: Game,
    actor: int,
    out_of_turn: bool,
    queue: list[int],
    events: list[Event],
    steps: int,
    done: bool,
    truncated: bool,
    deal_pending: bool,
) -> Driver:
    """A driver in the given state (for :meth:`Driver.copy` and unpickling)."""
    driver = Driver(rules, episode=episode, reward=reward, max_steps=max_steps, dictate_deals=dictate_deals, game=game)
    driver.actor = actor
    driver.out_of_turn = out_of_turn
    driver.queue = queue
    driver.events = events
    driver.steps = steps
    driver.done = done
    driver.truncated = truncated
    driver.deal_pending = deal_pending
    return driver


class AgentBook:
    """The per-agent bookkeeping of a PettingZoo step, over the environment's dictionaries
    (``rewards``, ``_cumulative_rewards``, ``terminations``, ``truncations``), done here
    so that the environment's ``step`` stays a thin call."""

    def __init__(
        self,
        driver: Driver,
        names: list[str],
        rewards: dict[str, float],
        cumulative: dict[str, float],
        terminations: dict[str, bool],
        truncations: dict[str, bool],
    ) -> None:
        self.driver = driver
        self.names = names
        self.rewards = rewards
        self.cumulative = cumulative
        self.terminations = terminations
        self.truncations = truncations
        self.rewarded = any(rewards.values())
        """Whether ``rewards`` holds a reward other than 0 (else a step without rewards changes nothing)."""

    def step(self, agent: str, action_id: int) -> str:
        """``agent``, the driver's actor, takes ``action_id``: the rewards it brings are added
        to every agent's total (PettingZoo's ``_accumulate_rewards``), every agent is flagged
        once the episode is over; returns the agent selected next."""
        driver = self.driver
        cumulative = self.cumulative
        cumulative[agent] = 0.0
        rewards = driver.step(action_id)
        names = self.names
        if rewards is not None or self.rewarded:
            for seat in range(len(names)):
                reward = rewards[seat] if rewards is not None else 0.0
                self.rewards[names[seat]] = reward
                cumulative[names[seat]] += reward
            self.rewarded = rewards is not None
        if driver.done:
            flags = self.truncations if driver.truncated else self.terminations
            for name in names:
                flags[name] = True
            return agent
        return names[driver.actor]


class Batch:
    """Many games of the AEC environment's decision sequence stepped together, for learners
    that act in many games at once (:func:`unomas.rl.batch` wraps it in NumPy arrays).

    Game ``i`` is a :class:`Driver` with its own :class:`ObservationWriter`. After every
    step, row ``i`` of the buffers holds what its next decision needs: ``actors[i]`` the
    seat that decides, ``observations`` that seat's vector (``float32`` items, ``size``
    per game), ``masks`` its open ids (``int8``, ``table.size`` per game); ``rewards`` the
    rewards the step gave every seat of game ``i`` (``float32``, ``players`` per game) and
    ``ended[i]`` 1 if the step ended the episode (2 if it was truncated). A game whose
    episode ended is dealt a new one at once, its seed the next of the batch's random
    source, so every row always shows a decision to take.
    """

    def __init__(
        self,
        rules: Rules,
        games: int,
        offsets: dict[str, int],
        template: bytes,
        *,
        episode: Episode = "round",
        reward: Reward = "win",
        max_steps: int,
    ) -> None:
        if games < 1:
            raise SettingsError(f"games must be at least 1, not {games}")
        self.games = games
        self.players = rules.players
        self.drivers = [Driver(rules, episode=episode, reward=reward, max_steps=max_steps) for _ in range(games)]
        self.writers = [ObservationWriter(rules.players, offsets, template) for _ in range(games)]
        self.table = self.drivers[0].table
        self._row = len(template)
        """The bytes of one observation row."""
        self.observations = bytearray(len(template) * games)
        self.masks = bytearray(self.table.size * games)
        self.actors = bytearray(games)
        self.rewards = bytearray(4 * rules.players * games)
        self.ended = bytearray(games)
        self._rewards = memoryview(self.rewards).cast("f")
        self._rewarded = [False] * games
        """Whether each game's row of ``rewards`` holds a reward other than 0."""
        self._open: list[list[int]] = [[] for _ in range(games)]
        """The ids set to 1 in each game's mask row (cleared before the next row is written)."""
        self._seeds = random.Random()

    def reset(self, seed: int | None) -> None:
        """A new episode in every game, rewards and ends cleared. The episodes' seeds are
        drawn in turn from a random source seeded with ``seed`` (``None``: the source goes on)."""
        if seed is not None:
            self._seeds = random.Random(seed)
        self.rewards[:] = bytes(len(self.rewards))  # the same length: the buffer is not moved
        self._rewarded = [False] * self.games
        for i in range(self.games):
            self.drivers[i].reset(self._seeds.getrandbits(64))
            self.ended[i] = 0
            self._show(i)

    def step(self, actions: list[int]) -> None:
        """Game ``i``'s actor takes ``actions[i]``, in every game.

        Every action is checked before any is taken: a wrong count or an id outside a
        game's mask raises :class:`~unomas.errors.IllegalAction` naming the game, and
        changes nothing.
        """
        if len(actions) != self.games:
            raise IllegalAction(f"{len(actions)} actions for {self.games} games")
        for i in range(self.games):
            try:
                self.drivers[i].check(actions[i])
            except IllegalAction as error:
                raise IllegalAction(f"game {i}: {error}") from None
        players = self.players
        rewards = self._rewards
        rewarded = self._rewarded
        for i in range(self.games):
            driver = self.drivers[i]
            given = driver.step(actions[i])
            if given is not None or rewarded[i]:  # most steps give nothing after nothing
                base = i * players
                for seat in range(players):
                    rewards[base + seat] = given[seat] if given is not None else 0.0
                rewarded[i] = given is not None
            if driver.done:
                self.ended[i] = 2 if driver.truncated else 1
                driver.reset(self._seeds.getrandbits(64))
            else:
                self.ended[i] = 0
            self._show(i)

    def _show(self, i: int) -> None:
        """Write game ``i``'s actor, its observation and its mask into row ``i``."""
        driver = self.drivers[i]
        actor = driver.actor
        self.actors[i] = actor
        row = self._row
        self.observations[i * row : (i + 1) * row] = driver.observation(actor, self.writers[i])
        masks = self.masks
        base = i * self.table.size
        for j in self._open[i]:
            masks[base + j] = 0
        legal = driver.legal_ids()
        for j in legal:
            masks[base + j] = 1
        self._open[i] = legal
