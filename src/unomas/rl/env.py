"""The PettingZoo AEC environment: every seat an agent, out-of-turn chances included.

Agents are ``player_0`` … ``player_{n-1}`` (seat numbers). ``agent_selection`` is whoever
must decide now:

1. **Out-of-turn windows.** After every action that changes the game (and when a round
   starts), each seat other than the one on turn that has an out-of-turn action open
   (calling UNO late, catching a player who forgot UNO, jumping in) gets a decision, in
   seat order (seat 0 first, as :class:`unomas.match.Table` asks bots). Its mask holds
   those actions and ``none``. Choosing ``none`` passes the chance to the next seat of
   the window; choosing an action plays it, and a new window opens on the new position.
2. **The seat on turn** decides once the window is over (or when there is none): play,
   draw, pass, challenge, choose the starting colour, and also call UNO or catch (which
   are not turn actions, so it decides again afterwards). It never gets ``none``.

Every decision is one ``step``. An episode is a round (``episode="round"``, the default)
or a whole match (``episode="match"``: rounds are dealt one after another until someone
reaches ``target_score``). Rewards (``reward=``):

* ``"win"``: when the episode ends, +1 to its winner (the round's or the match's) and -1
  to every other seat;
* ``"points"``: when each round ends, the winner gets the points it scores and every
  other seat minus the points of the cards left in its own hand (so the rewards of a
  round add up to 0).

An episode still running after ``max_steps`` steps is truncated (RULES.md has no rule
that ends a round where every card is held and nothing can be played). An illegal id
raises :class:`~unomas.errors.IllegalAction`.

>>> e = env(players=2, target_score=0)
>>> e.reset(seed=7)
>>> e.agent_selection in e.possible_agents
True
>>> observation, reward, terminated, truncated, info = e.last()
>>> observation["observation"].shape, observation["action_mask"].shape
((304,), (138,))
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import Any, Final, Literal, cast

import gymnasium
import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv

from unomas.actions import Action
from unomas.cards import POINTS, Card, card_token, color_letter
from unomas.errors import IllegalAction, SettingsError
from unomas.events import Event, MatchEnded, RoundEnded
from unomas.game import Deal, Game
from unomas.rl.actions import ActionTable, action_table
from unomas.rl.observation import ObservationLayout, encode
from unomas.rules import Rules
from unomas.view import View

__all__ = ["Driver", "UnoEnv", "env"]

Episode = Literal["round", "match"]
Reward = Literal["win", "points"]
Observation = dict[str, Any]
"""``{"observation": float32 vector, "action_mask": int8 vector}``."""

DEFAULT_MAX_STEPS: Final = 100_000


class Driver:
    """The decision sequence over a :class:`~unomas.game.Game`, shared by both environments.

    ``actor`` is the seat that must decide; ``out_of_turn`` says whether it decides in an
    out-of-turn window (then ``none`` is open to it). ``events`` are the events of the
    last step (a new round's deal included).

    With ``dictate_deals`` the driver deals no round itself: once a round of a match
    episode is over it sets ``deal_pending`` and waits for :meth:`deal` (the chance
    outcomes of OpenSpiel's game come from outside).
    """

    def __init__(
        self,
        rules: Rules,
        *,
        episode: Episode = "round",
        reward: Reward = "win",
        max_steps: int,
        dictate_deals: bool = False,
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
        self.game = Game(rules, seed=0, history=False)
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

    def reset(self, seed: int) -> None:
        """A new episode: a new match dealt from ``seed``."""
        self.start(Game(self.rules, seed=seed, history=False))

    def start(self, game: Game) -> None:
        """A new episode on ``game``, whose first round is dealt."""
        self.game = game
        self.events = list(game.round_start_events)
        self.steps = 0
        self.done = self.truncated = self.deal_pending = False
        self._decide()

    def deal(self, deal: Deal) -> None:
        """Deal the next round of the match as ``deal`` dictates (once ``deal_pending``)."""
        if not self.deal_pending:
            raise IllegalAction("no round is waiting to be dealt")
        self.deal_pending = False
        self.events = self.game.start_round(deal)
        self._decide()

    def copy(self) -> Driver:
        """An independent copy (the game copied, the rules and the table shared)."""
        other = copy.copy(self)
        other.game = self.game.copy()
        other.queue = self.queue[:]
        other.events = self.events[:]
        other._legal = None
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> Driver:
        return self.copy()

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
        window = game.out_of_turn_seats()
        if window:
            self.actor = window[0]
            self.queue = window[1:]
            self.out_of_turn = True
        else:
            self.actor = game.current
            self.queue = []
            self.out_of_turn = False

    def legal_ids(self, legal_actions: Sequence[Action] | None = None) -> list[int]:
        """The ids open to ``actor`` now (empty once the episode is over).

        ``legal_actions`` may give the actor's legal actions when the caller has them
        already (from the actor's view), to spare computing them again.
        """
        if self._legal is None:
            if self.done or self.deal_pending:
                self._legal = []
            else:
                ids = self.table.ids[self.actor]
                if legal_actions is None:
                    legal_actions = self.game.legal_actions(self.actor)
                self._legal = [ids[action] for action in legal_actions]
                if self.out_of_turn:
                    self._legal.append(self.table.none)
        return self._legal

    def mask(self, seat: int, view: View | None = None) -> npt.NDArray[np.int8]:
        """The action mask of ``seat`` (``view``: its view now, if the caller has it):
        its open ids if it is the actor, else all zeros."""
        mask = np.zeros(self.table.size, dtype=np.int8)
        if seat == self.actor and not self.done:
            mask[self.legal_ids(None if view is None else view.legal_actions)] = 1
        return mask

    def step(self, action_id: int, reshuffle: Sequence[Card] | None = None) -> list[float] | None:
        """The actor takes ``action_id``; returns the rewards it caused, if any, by seat.

        ``reshuffle`` dictates the new draw pile (top first) should the action reshuffle
        (see :meth:`unomas.game.Game.apply`).
        """
        if self.done or self.deal_pending:
            raise IllegalAction("the episode is over" if self.done else "the next round is not dealt yet")
        if action_id not in self.legal_ids():
            raise IllegalAction(
                f"seat {self.actor} may not take action {action_id} now"
                + (f" ({self.table.describe(action_id)})" if 0 <= action_id < self.table.size else "")
            )
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
            self.events = self.game.push(action) if reshuffle is None else self.game.apply(action, reshuffle=reshuffle)
            rewards = self._rewards(self.events)
            self._decide()
        if not self.done and self.steps >= self.max_steps:
            self.done = self.truncated = True
            self._legal = None
        return rewards

    def _rewards(self, events: list[Event]) -> list[float] | None:
        rewards = None
        for event in events:
            if isinstance(event, RoundEnded):
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


def _spaces(layout: ObservationLayout, table: ActionTable) -> tuple[gymnasium.spaces.Dict, gymnasium.spaces.Discrete]:
    observation = gymnasium.spaces.Dict(
        {
            "observation": gymnasium.spaces.Box(layout.low, layout.high, dtype=np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, shape=(table.size,), dtype=np.int8),
        }
    )
    return observation, gymnasium.spaces.Discrete(table.size)


class UnoEnv(AECEnv[str, Observation, int | None]):
    """The AEC environment (see the module); build it with :func:`env`."""

    metadata = {"render_modes": ["human", "ansi"], "name": "unomas_v0", "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self,
        rules: Rules,
        *,
        episode: Episode = "round",
        reward: Reward = "win",
        max_steps: int = DEFAULT_MAX_STEPS,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise SettingsError(f"render_mode must be 'human', 'ansi' or None, not {render_mode!r}")
        self.render_mode = render_mode
        self.rules = rules
        self.driver = Driver(rules, episode=episode, reward=reward, max_steps=max_steps)
        self.layout = ObservationLayout(rules)
        self.possible_agents = [f"player_{seat}" for seat in range(rules.players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {}
        self.action_spaces = {}
        for agent in self.possible_agents:
            observation_space, action_space = _spaces(self.layout, self.driver.table)
            self.observation_spaces[agent] = observation_space
            self.action_spaces[agent] = cast("gymnasium.spaces.Space[int | None]", action_space)
        self._rng = random.Random()
        self.agents = []

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def game(self) -> Game:
        """The game in play (the whole truth: for tests and tools, not for agents)."""
        return self.driver.game

    @property
    def table(self) -> ActionTable:
        """The action table of this player count."""
        return self.driver.table

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new episode; ``seed`` fixes it and every episode after it until the next seed."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.driver.reset(self._rng.getrandbits(64))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.driver.actor]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> Observation:
        seat = self._seats[agent]
        view = self.driver.game.view(seat)
        return {"observation": encode(view, self.layout), "action_mask": self.driver.mask(seat, view)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalAction(f"{agent} must act: None is only for agents whose episode is over")
        driver = self.driver
        self._cumulative_rewards[agent] = 0.0
        rewards = driver.step(int(action))
        agents = self.possible_agents
        for seat, name in enumerate(agents):
            self.rewards[name] = rewards[seat] if rewards is not None else 0.0
        if driver.done:
            flags = self.truncations if driver.truncated else self.terminations
            for name in agents:
                flags[name] = True
        else:
            self.agent_selection = agents[driver.actor]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as text (``ansi``: returned; ``human``: printed)."""
        return render_table(self.driver, self.render_mode)

    def close(self) -> None:
        """Nothing to release."""


def render_table(driver: Driver, mode: str | None) -> str | None:
    """The table as text for ``mode``: ``ansi`` returns it, ``human`` prints it."""
    if mode is None:
        gymnasium.logger.warn("render() was called without a render_mode (use render_mode='ansi' or 'human')")
        return None
    text = driver.render()
    if mode == "human":
        print(text, end="")
        return None
    return text


def env(
    *,
    preset: str = "official",
    episode: Episode = "round",
    reward: Reward = "win",
    max_steps: int = DEFAULT_MAX_STEPS,
    render_mode: str | None = None,
    **settings: Any,
) -> UnoEnv:
    """The AEC environment under ``preset`` (``official`` or ``all``) with ``settings``
    (any setting of RULES.md by name: ``players=2, stack_draw_two=True``)."""
    return UnoEnv(
        Rules.preset(preset, **settings),
        episode=episode,
        reward=reward,
        max_steps=max_steps,
        render_mode=render_mode,
    )
