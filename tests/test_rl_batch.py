"""The batch of games: each game steps exactly as the AEC environment, rows hold what
the engine says, bad input changes nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest

from codes import raises_code

pytest.importorskip("pettingzoo")

import numpy as np

import unomas.rl as rl
from unomas.errors import IllegalAction, SettingsError
from unomas.game import Game
from unomas.rl.batch import BatchEnv, random_actions

SETTINGS: list[dict[str, Any]] = [
    {"players": 2},
    {"preset": "all", "players": 4, "hand_size": 3},  # short rounds: random play under every house rule is long
    {"players": 3, "seven_zero": True, "jump_in": True, "hand_size": 4},
]


@pytest.mark.parametrize(
    "options", [{}, {"max_players": 5, "history": True}], ids=["own-layout", "5-seat-layout-history"]
)
def test_a_game_of_the_batch_is_the_aec_environment(options: dict[str, Any]) -> None:
    """One game with auto-reset and the AEC environment reset after every episode, from
    the same seed and the same actions: the same decisions, observations, masks and rewards."""
    batch = rl.batch(1, players=3, reward="points", stack_draw_two=True, **options)
    env = rl.env(players=3, reward="points", stack_draw_two=True, **options)
    batch.reset(seed=5)
    env.reset(seed=5)
    rng = random.Random(5)
    episodes = steps = 0
    while episodes < 6:
        agent = env.agent_selection
        observation, *_ = env.last()
        assert observation is not None
        assert agent == f"player_{batch.actors[0]}"
        assert np.array_equal(batch.observations[0], observation["observation"])
        assert np.array_equal(batch.action_masks[0], observation["action_mask"])
        action = rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
        env.step(action)
        batch.step([action])
        steps += 1
        assert batch.rewards[0].tolist() == [env.rewards[name] for name in env.possible_agents]
        ended = bool(batch.terminated[0])
        assert ended == all(env.terminations.values())
        if ended:
            episodes += 1
            env.reset()
    assert steps > 300


@pytest.mark.parametrize("settings", SETTINGS, ids=[str(i) for i in range(len(SETTINGS))])
def test_rows_hold_each_games_actor_view_and_legal_actions(settings: dict[str, Any]) -> None:
    batch = rl.batch(6, **settings)
    batch.reset(seed=2)
    rng = np.random.default_rng(2)
    table = batch.table
    ended = 0
    for _ in range(400):
        for i, driver in enumerate(batch.core.drivers):
            game = driver.game
            actor = int(batch.actors[i])
            assert actor == driver.actor
            assert np.array_equal(batch.observations[i], rl.encode(game.view(actor), batch.layout))
            legal = {table.id(action) for action in game.legal_actions(actor)}
            if driver.out_of_turn:
                legal.add(table.none)
            assert set(np.flatnonzero(batch.action_masks[i]).tolist()) == legal
        batch.step(random_actions(batch.action_masks, rng))
        ended += int(batch.terminated.sum())
        for i in np.flatnonzero(batch.terminated).tolist():
            assert sorted(batch.rewards[i].tolist()) == [-1.0] * (batch.rules.players - 1) + [1.0]
    assert ended > 0


def test_seeded_batches_repeat() -> None:
    def run(seed: int) -> list[bytes]:
        batch = rl.batch(4, players=2)
        batch.reset(seed=seed)
        rng = np.random.default_rng(0)
        seen = []
        for _ in range(300):
            batch.step(random_actions(batch.action_masks, rng))
            seen.append(batch.observations.tobytes() + batch.rewards.tobytes() + batch.actors.tobytes())
        return seen

    assert run(3) == run(3)
    assert run(3) != run(4)


def snapshot(game: Game) -> tuple[object, ...]:
    """What a step changes: the cards everywhere and whose decision it is."""
    hands = tuple(tuple(hand) for hand in game.hands)
    return hands, tuple(game.pile), tuple(game.discard), game.current, game.phase, game.drawn, game.color


def test_bad_actions_change_nothing() -> None:
    batch = rl.batch(4, players=2)
    with raises_code(IllegalAction, "rl.not_reset"):
        batch.step([0, 0, 0, 0])
    batch.reset(seed=1)
    before: list[np.ndarray[Any, Any]] = [batch.observations.copy(), batch.action_masks.copy(), batch.actors.copy()]
    games = [snapshot(driver.game) for driver in batch.core.drivers]
    steps = [driver.steps for driver in batch.core.drivers]
    good = random_actions(batch.action_masks, np.random.default_rng(1))
    illegal = good.copy()
    illegal[2] = int(np.flatnonzero(batch.action_masks[2] == 0)[0])
    with raises_code(IllegalAction, "rl.in_game"):
        batch.step(illegal)
    with raises_code(IllegalAction, "rl.action_count"):
        batch.step(good[:3])
    with raises_code(IllegalAction, "rl.bad_actions"):
        batch.step(good.astype(float))
    with raises_code(IllegalAction, "rl.bad_actions"):
        batch.step(good.reshape(2, 2))
    with raises_code(IllegalAction, "rl.in_game"):
        batch.step([-1, *good[1:]])
    after: list[np.ndarray[Any, Any]] = [batch.observations, batch.action_masks, batch.actors]
    assert all(np.array_equal(a, b) for a, b in zip(before, after, strict=True))
    assert [snapshot(driver.game) for driver in batch.core.drivers] == games
    assert [driver.steps for driver in batch.core.drivers] == steps
    batch.step(good)  # and the batch goes on
    with raises_code(SettingsError, "setup.at_least_one"):
        rl.batch(0)


def test_truncated_games_start_again() -> None:
    batch: BatchEnv = rl.batch(3, players=2, max_steps=4)
    batch.reset(seed=0)
    rng = np.random.default_rng(0)
    for step in range(1, 9):
        batch.step(random_actions(batch.action_masks, rng))
        assert batch.truncated.all() == (step % 4 == 0)
        assert not batch.terminated.any()
        assert not batch.rewards.any()
    assert [driver.steps for driver in batch.core.drivers] == [0, 0, 0]


def test_random_actions_are_uniform_over_open_ids() -> None:
    masks = np.zeros((2, 10), dtype=np.int8)
    masks[0, [1, 4, 9]] = 1
    masks[1, 7] = 1
    rng = np.random.default_rng(0)
    chosen = np.array([random_actions(masks, rng) for _ in range(3000)])
    assert set(chosen[:, 1].tolist()) == {7}
    counts = np.bincount(chosen[:, 0], minlength=10)
    assert set(np.flatnonzero(counts).tolist()) == {1, 4, 9}
    assert counts[[1, 4, 9]].min() > 900
