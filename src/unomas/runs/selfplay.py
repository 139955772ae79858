"""Self-play: every seat played by one baseline policy through the conductor.

The policies are the baseline bots' (:mod:`unomas.bots.policies`): ``playfirst`` and
``random``. Their self-play players are trusted :class:`~unomas.conductor.Player`\\ s that
read their seat's options straight from the conductor's game, with no view built, so a self-play
match is the engine's workout and benchmark, and chooses exactly as the bots of the same
names would from the same random sources. Compiled with mypyc.

>>> from unomas.rules import Rules
>>> summary = selfplay(Rules(players=3, target_score=0), "playfirst", seed=1).play()
>>> summary.winner in (0, 1, 2), summary.rounds
(True, 1)
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from typing import Final

from unomas.actions import Action
from unomas.bots.policies import playfirst_act, random_act, take_a_chance
from unomas.conductor import Conductor, Player, seeded_game
from unomas.errors import SettingsError
from unomas.rules import Rules

__all__ = ["POLICIES", "PlayFirstPlayer", "RandomPlayer", "SelfPlayer", "check_policy", "players", "selfplay"]


class SelfPlayer(Player):
    """A seat of a self-play match: a trusted player drawing on the seat's random source."""

    rng: random.Random
    """The seat's random source, given by :meth:`start`."""
    draw: Callable[[], float]
    """Its ``random``, bound once: what the policy draws on."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.trusted = True

    def start(self, seat: int, rules: Rules, rng: random.Random) -> None:
        self.rng = rng
        self.draw = _UNSEEDED_DRAW if rng is _UNSEEDED else rng.random  # (a lookup of some 460 instructions)


class PlayFirstPlayer(SelfPlayer):
    """The ``playfirst`` policy at a seat."""

    def __init__(self) -> None:
        super().__init__("playfirst")

    def decide(self, table: Conductor, seat: int, out_of_turn: bool) -> Action | None:
        if out_of_turn:
            return take_a_chance(table.game, seat, self.draw)
        return playfirst_act(table.game, seat, self.draw)


class RandomPlayer(SelfPlayer):
    """The ``random`` policy at a seat."""

    def __init__(self) -> None:
        super().__init__("random")

    def decide(self, table: Conductor, seat: int, out_of_turn: bool) -> Action | None:
        if out_of_turn:
            return take_a_chance(table.game, seat, self.draw)
        return random_act(table.game, seat, self.draw)


POLICIES: Final = ("playfirst", "random")
"""The policies self-play knows, by the names of their bots."""


def check_policy(policy: str) -> None:
    """Refuse a policy self-play does not know, with a :class:`~unomas.errors.SettingsError`."""
    if policy not in POLICIES:
        raise SettingsError("setup.unknown_policy", name=repr(policy), known=", ".join(POLICIES))


def players(policy: str, seats: int) -> list[Player | None]:
    """A player of ``policy`` for each of ``seats`` seats."""
    check_policy(policy)
    if policy == "playfirst":
        return [PlayFirstPlayer() for _ in range(seats)]
    return [RandomPlayer() for _ in range(seats)]


_UNSEEDED: Final = random.Random()
"""Where an unseeded self-play match draws everything (shuffles and choices): one stream per
process, seeded by the operating system (anew in a forked child), so that a match seeds no
source of its own and asks the system for no randomness per shuffle."""
os.register_at_fork(after_in_child=_UNSEEDED.seed)
_UNSEEDED_DRAW: Final = _UNSEEDED.random
"""Its ``random``, bound once for every seat of every unseeded match."""


def selfplay(rules: Rules, policy: str, *, seed: int | str | None = None, history: bool = False) -> Conductor:
    """A new match with every seat played by ``policy``, seeded as
    :meth:`~unomas.conductor.Conductor.seeded` (``history``: keep the moves for a record);
    unseeded, the match draws on its process's unpredictable stream (``_UNSEEDED``). Without a
    history the first deal is quiet: the conductor's :attr:`~unomas.conductor.Conductor.events` start empty."""
    seats = players(policy, rules.players)
    rng = _UNSEEDED if seed is None else None
    # Without a history nothing keeps or hears the first deal's events: it is dealt quiet.
    game, rngs = seeded_game(rules, len(seats), seed=seed, history=history, rng=rng, quiet_deal=not history)
    return Conductor(game, seats, rngs=rngs)
