"""Many games of the AEC decision sequence stepped together, their decisions in flat buffers.

Free of NumPy (``setup.py`` compiles it with mypyc): :func:`unomas.rl.batch` wraps the
buffers in NumPy arrays without copying.
"""

from __future__ import annotations

import random

from unomas.errors import IllegalAction, SettingsError
from unomas.rl.driver import Driver, Episode, Reward
from unomas.rl.writer import ObservationWriter
from unomas.rules import Rules

__all__ = ["Batch"]


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
        max_players: int | None = None,
        history: bool = False,
    ) -> None:
        if games < 1:
            raise SettingsError("setup.at_least_one", name="games", value=games)
        self.games = games
        self.players = rules.players
        self.drivers = [
            Driver(rules, episode=episode, reward=reward, max_steps=max_steps, max_players=max_players, history=history)
            for _ in range(games)
        ]
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
            raise IllegalAction("rl.action_count", actions=len(actions), games=self.games)
        for i in range(self.games):
            try:
                self.drivers[i].check(actions[i])
            except IllegalAction as error:
                raise IllegalAction.caused_by("rl.in_game", error, game=i) from None
        players = self.players
        rewards = self._rewards
        rewarded = self._rewarded
        for i in range(self.games):
            driver = self.drivers[i]
            given = driver.take(actions[i])
            if given is not None or rewarded[i]:  # most steps give nothing after nothing
                base = i * players
                for seat in range(players):
                    rewards[base + seat] = given[seat] if given is not None else 0.0
                rewarded[i] = given is not None
            if driver.done:
                self.ended[i] = 2 if driver.truncated else 1
                driver.reset(self._seeds.getrandbits(64))
            elif self.ended[i]:  # a buffer's item is read fast, written slow: only what changes
                self.ended[i] = 0
            self._show(i)

    def _show(self, i: int) -> None:
        """Write game ``i``'s actor, its observation and its mask into row ``i``."""
        driver = self.drivers[i]
        actor = driver.actor
        if self.actors[i] != actor:
            self.actors[i] = actor
        row = self._row
        self.observations[i * row : (i + 1) * row] = driver.observation(actor, self.writers[i])
        size = self.table.size
        self.masks[i * size : (i + 1) * size] = driver.mask(actor)
