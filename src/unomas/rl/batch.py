"""Many games at once: the AEC environment's decisions in NumPy arrays, one row per game.

For learners that act in many games together (one policy evaluation for a whole batch).
Each game follows the decision sequence of :func:`unomas.rl.env` (the same actions,
observations, masks, out-of-turn model and rewards); after every :meth:`BatchEnv.step`,
row ``i`` of the arrays holds game ``i``'s next decision, and a game whose episode ended
is dealt a new one at once (its seed the next of the batch's seeded random source):

* ``actors[i]``: the seat that decides in game ``i``;
* ``observations[i]``: that seat's observation vector (see :mod:`unomas.rl.observation`);
* ``action_masks[i]``: the ids open to it (see :mod:`unomas.rl.actions`);
* ``rewards[i, seat]``: what the last step gave each seat (AEC rewards, not accumulated);
* ``terminated[i]`` / ``truncated[i]``: the last step ended game ``i``'s episode (then
  row ``i`` already shows the first decision of the next one).

The arrays are views over buffers the next step rewrites: copy what you keep.

>>> games = batch(8, players=2)
>>> games.reset(seed=1)
>>> games.observations.shape, games.action_masks.shape, games.rewards.shape
((8, 317), (8, 138), (8, 2))
>>> games.step(random_actions(games.action_masks, np.random.default_rng(1)))
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from unomas.errors import IllegalAction
from unomas.rl.actions import ActionTable
from unomas.rl.batch_core import Batch
from unomas.rl.driver import Episode, Reward
from unomas.rl.env import DEFAULT_MAX_STEPS
from unomas.rl.observation import ObservationLayout
from unomas.rules import Rules

__all__ = ["BatchEnv", "batch", "random_actions"]


class BatchEnv:
    """``games`` games under ``rules``, stepped together (see the module); build it with :func:`batch`."""

    def __init__(
        self,
        rules: Rules,
        games: int,
        *,
        episode: Episode = "round",
        reward: Reward = "win",
        max_steps: int = DEFAULT_MAX_STEPS,
        max_players: int | None = None,
        history: bool = False,
    ) -> None:
        self.rules = rules
        self.games = games
        self.layout = ObservationLayout(rules, max_players=max_players, history=history)
        self.core = core = Batch(
            rules,
            games,
            self.layout.offsets,
            self.layout.template.tobytes(),
            episode=episode,
            reward=reward,
            max_steps=max_steps,
            max_players=max_players,
            history=history,
        )
        self.table: ActionTable = core.table
        self.actors: npt.NDArray[np.int8] = np.frombuffer(core.actors, dtype=np.int8)
        self.observations: npt.NDArray[np.float32] = np.frombuffer(core.observations, dtype=np.float32).reshape(
            games, self.layout.size
        )
        self.action_masks: npt.NDArray[np.int8] = np.frombuffer(core.masks, dtype=np.int8).reshape(
            games, self.table.size
        )
        self.rewards: npt.NDArray[np.float32] = np.frombuffer(core.rewards, dtype=np.float32).reshape(
            games, rules.players
        )
        self._ended = np.frombuffer(core.ended, dtype=np.int8)
        self._started = False

    @property
    def terminated(self) -> npt.NDArray[np.bool_]:
        """Whether the last step ended each game's episode (not by truncation)."""
        ended: npt.NDArray[np.bool_] = self._ended == 1
        return ended

    @property
    def truncated(self) -> npt.NDArray[np.bool_]:
        """Whether the last step truncated each game's episode (``max_steps`` reached)."""
        ended: npt.NDArray[np.bool_] = self._ended == 2
        return ended

    def reset(self, seed: int | None = None) -> None:
        """A new episode in every game; ``seed`` fixes them and every episode after them,
        until the next seed (as :meth:`unomas.rl.env.UnoEnv.reset`)."""
        self.core.reset(seed)
        self._started = True

    def step(self, actions: npt.ArrayLike) -> None:
        """Game ``i``'s actor takes ``actions[i]``, in every game (one id per game).

        Raises :class:`~unomas.errors.IllegalAction` naming the first game whose action
        is not in its mask, and then nothing is taken in any game.
        """
        if not self._started:
            raise IllegalAction("rl.not_reset")
        ids = np.asarray(actions)
        if ids.ndim != 1 or ids.dtype.kind not in "iu":
            raise IllegalAction("rl.bad_actions", type=str(ids.dtype), shape=str(ids.shape))
        self.core.step(ids.tolist())


def batch(
    games: int = 64,
    *,
    preset: str = "official",
    episode: Episode = "round",
    reward: Reward = "win",
    max_steps: int = DEFAULT_MAX_STEPS,
    max_players: int | None = None,
    history: bool = False,
    **settings: Any,
) -> BatchEnv:
    """``games`` games under ``preset`` with ``settings`` (any setting of RULES.md by name),
    the other options as :func:`unomas.rl.env`'s."""
    return BatchEnv(
        Rules.preset(preset, **settings),
        games,
        episode=episode,
        reward=reward,
        max_steps=max_steps,
        max_players=max_players,
        history=history,
    )


def random_actions(masks: npt.NDArray[np.int8], rng: np.random.Generator) -> npt.NDArray[np.intp]:
    """One uniformly random open id per row of ``masks`` (each row needs one open id): the
    ``k``-th open id of the row for a uniform ``k``, one random number per row."""
    opened = masks.cumsum(axis=1, dtype=np.int16)  # the open ids counted up to each id
    picks = (rng.random(len(masks)) * opened[:, -1]).astype(np.int16)  # 0 … open ids - 1
    chosen: npt.NDArray[np.intp] = (opened <= picks[:, None]).argmin(axis=1)  # the first id past the pick
    return chosen
