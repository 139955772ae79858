"""A Gymnasium environment for one learner: the other seats are unomas bots.

The learner plays seat ``seat``; every other seat is a bot made from a spec of
:func:`unomas.bots.make_bot` (``"heuristic"``, ``"random"``, ``"ismcts:iterations=200"``…),
a :class:`~unomas.bots.player.BotPlayer` of the episode's conductor, asked as every match asks
its bots: ``act`` with its own view on its turn, ``react`` with its own view in an
out-of-turn window, and ``observe`` with the events of every change redacted for its seat.
A bot that crashes or answers an illegal action raises :class:`~unomas.errors.BotError`
naming its seat. Observations, actions, masks, windows and rewards are those of the AEC
environment (:mod:`unomas.rl.env`), every decision a step (a bot's ``none`` too):
``step`` returns once the learner must decide again or the episode is over, with the
learner's rewards in between added up.

The action mask is ``observation["action_mask"]``, also ``info["action_mask"]`` and
:meth:`SingleAgentEnv.action_masks` (for libraries that ask for it). An action the mask
does not allow ends the episode with ``illegal_reward`` (``illegal="lose"``, the default)
or raises :class:`~unomas.errors.IllegalAction` (``illegal="raise"``). Should an episode
end before the learner's first decision, ``reset`` deals another.

Importing this module (``import unomas.rl`` does) registers the Gymnasium ids of
:data:`GYMNASIUM_IDS`: ``gymnasium.make("unomas/Uno-v0", opponents="random", players=2)``
after the import, or ``gymnasium.make("unomas.rl:unomas/Uno-v0", …)``, which imports it.

>>> e = single_agent(opponents="heuristic", players=2, target_score=0)
>>> observation, info = e.reset(seed=3)
>>> observation["observation"].shape, int(observation["action_mask"].sum()) > 0
((317,), True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt

from unomas.bots import make_bot
from unomas.bots.player import BotPlayer
from unomas.conductor import Player
from unomas.errors import IllegalAction, SettingsError
from unomas.game import Game
from unomas.rl.env import (
    DEFAULT_MAX_STEPS,
    RENDER_FPS,
    Driver,
    Episode,
    Illegal,
    Observation,
    Reward,
    TextRenderer,
    _spaces,
    check_illegal,
    mask,
    observe,
)
from unomas.rl.observation import ObservationLayout
from unomas.rules import Rules

__all__ = ["GYMNASIUM_IDS", "SingleAgentEnv", "single_agent"]

GYMNASIUM_IDS: Final = {"unomas/Uno-v0": {}, "unomas/UnoAllRules-v0": {"preset": "all"}}
"""The ids this module registers with Gymnasium when it is imported, with the keywords of
:func:`single_agent` they stand for (``gymnasium.make`` adds its own keywords to them)."""


class SingleAgentEnv(gymnasium.Env[Observation, np.int64]):
    """One learner against bots (see the module); build it with :func:`single_agent`."""

    metadata = {"render_modes": ["human", "ansi"], "render_fps": RENDER_FPS}  # noqa: RUF012

    def __init__(
        self,
        rules: Rules,
        opponents: str | Sequence[str] = "heuristic",
        *,
        seat: int = 0,
        episode: Episode = "round",
        reward: Reward = "win",
        max_steps: int = DEFAULT_MAX_STEPS,
        illegal: Illegal = "lose",
        illegal_reward: float = -1.0,
        max_players: int | None = None,
        history: bool = False,
        render_mode: str | None = None,
    ) -> None:
        n = rules.players
        if not 0 <= seat < n:
            raise SettingsError("setup.seat_range", name="seat", last=n - 1, value=seat)
        specs = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != n - 1:
            raise SettingsError("setup.player_count", given=len(specs), players=n - 1)
        check_illegal(illegal)
        self._renderer = TextRenderer(render_mode)
        for spec in specs:
            make_bot(spec).close()  # a bad spec fails here, not at the first reset
        self.rules = rules
        self.seat = seat
        self.specs = specs
        self.illegal = illegal
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.driver = Driver(
            rules, episode=episode, reward=reward, max_steps=max_steps, max_players=max_players, history=history
        )
        self.layout = ObservationLayout(rules, max_players=max_players, history=history)
        self.observation_space, self.action_space = _spaces(self.layout, self.driver.table)
        self._lost = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        while True:
            game_seed = int(self.np_random.integers(2**63))
            self._start(game_seed)
            self.driver.let_players_decide()
            if not self.driver.done:
                break
        self._lost = False
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def _start(self, game_seed: int) -> None:
        """A new episode dealt from ``game_seed``, with new bots (the last ones closed)."""
        bots = iter(self.specs)
        players: list[Player | None] = [
            None if seat == self.seat else BotPlayer(make_bot(next(bots))) for seat in range(self.rules.players)
        ]
        rngs = [random.Random(f"{game_seed}/seat {seat}") for seat in range(self.rules.players)]
        self.driver.start(Game(self.rules, seed=game_seed, history=False), players, rngs)

    def step(self, action: np.int64 | int) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        driver = self.driver
        if driver.done:
            raise IllegalAction("rl.episode_over")
        action_id = int(action)
        if action_id not in driver.legal_ids():
            if self.illegal == "raise":
                driver.step(action_id)  # raises, naming the action
            self._lost = True
            driver.done = True
            return self._observation(), self.illegal_reward, True, False, self._info()
        rewards = driver.step(action_id)
        reward = rewards[self.seat] if rewards is not None else 0.0
        reward += driver.let_players_decide()[self.seat]
        if self.render_mode == "human":
            self.render()
        terminated = driver.done and not driver.truncated
        return self._observation(), reward, terminated, driver.truncated, self._info()

    def _observation(self) -> Observation:
        return observe(self.driver, self.seat, self.layout)

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": mask(self.driver, self.seat), "out_of_turn": self.driver.out_of_turn}
        if self._lost:
            info["illegal_action"] = True
        return info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's action mask as booleans."""
        return mask(self.driver, self.seat).astype(bool)

    def render(self) -> str | None:
        """The table as text (``ansi``: returned; ``human``: printed)."""
        return self._renderer.render(self.driver)

    def close(self) -> None:
        self.driver.close()


def single_agent(
    opponents: str | Sequence[str] = "heuristic",
    *,
    seat: int = 0,
    preset: str = "official",
    episode: Episode = "round",
    reward: Reward = "win",
    max_steps: int = DEFAULT_MAX_STEPS,
    illegal: Illegal = "lose",
    illegal_reward: float = -1.0,
    max_players: int | None = None,
    history: bool = False,
    render_mode: str | None = None,
    **settings: Any,
) -> SingleAgentEnv:
    """A Gymnasium environment for a learner in ``seat`` against ``opponents`` (one bot spec
    for every other seat, or one per seat in seat order), under ``preset`` and ``settings``."""
    return SingleAgentEnv(
        Rules.preset(preset, **settings),
        opponents,
        seat=seat,
        episode=episode,
        reward=reward,
        max_steps=max_steps,
        illegal=illegal,
        illegal_reward=illegal_reward,
        max_players=max_players,
        history=history,
        render_mode=render_mode,
    )


for _id, _keywords in GYMNASIUM_IDS.items():
    gymnasium.register(_id, entry_point=f"{__name__}:single_agent", kwargs=_keywords)
