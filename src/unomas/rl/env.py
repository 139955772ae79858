"""The PettingZoo AEC environment: every seat an agent, out-of-turn chances included.

Agents are ``player_0`` … ``player_{n-1}`` (seat numbers). ``agent_selection`` is whoever
must decide now:

1. **Out-of-turn windows.** After every action that changes the game (and when a round
   starts), each seat other than the one on turn that has an out-of-turn action open
   (calling UNO late, catching a player who forgot UNO, jumping in) gets a decision, in
   seat order (seat 0 first, as the conductor asks players). Its mask holds
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
that ends a round where every card is held and nothing can be played). An id outside the
mask raises :class:`~unomas.errors.IllegalAction` (``illegal="raise"``, the default) or
ends the episode (``illegal="lose"``, for checkers that sample actions without the mask):
the agent that took it gets ``illegal_reward`` (default -1) and
``infos[agent]["illegal_action"]``, the others 0, and every agent is terminated.

>>> e = env(players=2, target_score=0)
>>> e.reset(seed=7)
>>> e.agent_selection in e.possible_agents
True
>>> observation, reward, terminated, truncated, info = e.last()
>>> observation["observation"].shape, observation["action_mask"].shape
((317,), (138,))
"""

from __future__ import annotations

import random
import time
from typing import Any, Final, Literal, cast

import gymnasium
import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv

from unomas.errors import IllegalAction, SettingsError
from unomas.game import Game
from unomas.rl.actions import ActionTable
from unomas.rl.agents import AgentBook
from unomas.rl.driver import Driver, Episode, Reward
from unomas.rl.observation import ObservationLayout
from unomas.rules import Rules

__all__ = ["Driver", "Episode", "Reward", "UnoEnv", "env"]

Observation = dict[str, Any]
"""``{"observation": float32 vector, "action_mask": int8 vector}``."""

DEFAULT_MAX_STEPS: Final = 100_000
RENDER_FPS: Final = 4
"""Frames a second in ``human`` mode: the table is printed at most this often."""
Illegal = Literal["raise", "lose"]


_FLOAT32: Final = np.dtype(np.float32)
_INT8: Final = np.dtype(np.int8)
_frombuffer: Final = np.frombuffer


def observe(driver: Driver, seat: int, layout: ObservationLayout) -> Observation:
    """The observation of ``seat``: NumPy arrays over the driver's fresh buffers (nothing
    is shared with another observation)."""
    vector, mask_ = driver.observe(seat, layout.writer)
    # positional dtypes: NumPy parses keyword arguments of frombuffer several times slower
    return {"observation": _frombuffer(vector, _FLOAT32), "action_mask": _frombuffer(mask_, _INT8)}


def mask(driver: Driver, seat: int) -> npt.NDArray[np.int8]:
    """The action mask of ``seat``: 1 at the ids open to it now (all zeros if it is not the actor)."""
    return np.frombuffer(driver.mask(seat), _INT8)


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

    metadata = {  # noqa: RUF012
        "render_modes": ["human", "ansi"],
        "render_fps": RENDER_FPS,
        "name": "unomas_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: Rules,
        *,
        episode: Episode = "round",
        reward: Reward = "win",
        max_steps: int = DEFAULT_MAX_STEPS,
        illegal: Illegal = "raise",
        illegal_reward: float = -1.0,
        max_players: int | None = None,
        history: bool = False,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        check_illegal(illegal)
        self.illegal = illegal
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self._renderer = TextRenderer(render_mode)
        self.rules = rules
        self.driver = Driver(
            rules, episode=episode, reward=reward, max_steps=max_steps, max_players=max_players, history=history
        )
        self.layout = ObservationLayout(rules, max_players=max_players, history=history)
        self._writer = self.layout.writer
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
        book = (self.rewards, self._cumulative_rewards, self.terminations, self.truncations)
        self._book = AgentBook(self.driver, self.possible_agents, *book)
        self.agent_selection = self.possible_agents[self.driver.actor]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> Observation:
        return observe(self.driver, self._seats[agent], self.layout)

    def last(self, observe: bool = True) -> tuple[Observation | None, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last``, with the observation read in place (one call less per step)."""
        agent = self.agent_selection
        observation = None
        if observe:
            vector, mask_ = self.driver.observe(self._seats[agent], self._writer)
            observation = {"observation": _frombuffer(vector, _FLOAT32), "action_mask": _frombuffer(mask_, _INT8)}
        return (
            observation,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: int | None) -> None:
        if self.driver.done:  # every agent is terminated or truncated, the selected one too
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalAction("rl.must_act", agent=self.agent_selection)
        action_id = int(action)
        if self.illegal == "lose" and action_id not in self.driver.legal_ids():
            self._lose(self.agent_selection)
        else:
            self.agent_selection = self._book.step(self.agent_selection, action_id)
        if self.render_mode == "human":
            self.render()

    def _lose(self, agent: str) -> None:
        """``agent`` took an id outside its mask (``illegal="lose"``): the episode ends,
        ``agent`` gets ``illegal_reward``, every other agent 0."""
        self.driver.done = True
        for other in self.agents:
            self.rewards[other] = 0.0
            self.terminations[other] = True
        self.rewards[agent] = self._cumulative_rewards[agent] = self.illegal_reward
        self.infos[agent]["illegal_action"] = True

    def render(self) -> str | None:
        """The table as text (``ansi``: returned; ``human``: printed)."""
        return self._renderer.render(self.driver)

    def close(self) -> None:
        """Nothing to release."""


def check_illegal(illegal: str) -> None:
    """Refuse an ``illegal`` option other than ``raise`` and ``lose``."""
    if illegal not in ("lose", "raise"):
        raise SettingsError("setup.one_of", name="illegal", known="'lose', 'raise'", value=repr(illegal))


class TextRenderer:
    """The table as text for a render mode: ``ansi`` returns it, ``human`` prints it, at
    most :data:`RENDER_FPS` frames a second (waiting out the rest of a frame's time), so
    that a person can follow the play."""

    def __init__(self, mode: str | None) -> None:
        if mode is not None and mode not in ("human", "ansi"):
            raise SettingsError("setup.one_of", name="render_mode", known="'human', 'ansi', None", value=repr(mode))
        self.mode = mode
        self._shown: float | None = None
        """When the last ``human`` frame was printed (``time.monotonic``)."""

    def render(self, driver: Driver) -> str | None:
        """The table of ``driver`` now, returned (``ansi``) or printed (``human``)."""
        if self.mode is None:
            gymnasium.logger.warn("render() was called without a render_mode (use render_mode='ansi' or 'human')")
            return None
        text = driver.render()
        if self.mode == "ansi":
            return text
        if self._shown is not None:
            time.sleep(max(0.0, self._shown + 1 / RENDER_FPS - time.monotonic()))
        print(text, end="", flush=True)
        self._shown = time.monotonic()
        return None


def env(
    *,
    preset: str = "official",
    episode: Episode = "round",
    reward: Reward = "win",
    max_steps: int = DEFAULT_MAX_STEPS,
    illegal: Illegal = "raise",
    illegal_reward: float = -1.0,
    max_players: int | None = None,
    history: bool = False,
    render_mode: str | None = None,
    **settings: Any,
) -> UnoEnv:
    """The AEC environment under ``preset`` (``official`` or ``all``) with ``settings``
    (any setting of RULES.md by name: ``players=2, stack_draw_two=True``; a switch set
    false turns its rule off over ``all``). ``max_players`` lays the action ids and the
    observation out for that many seats, ``history`` adds the history slice (see
    :mod:`unomas.rl.observation`)."""
    return UnoEnv(
        Rules.preset(preset, **settings),
        episode=episode,
        reward=reward,
        max_steps=max_steps,
        illegal=illegal,
        illegal_reward=illegal_reward,
        max_players=max_players,
        history=history,
        render_mode=render_mode,
    )
