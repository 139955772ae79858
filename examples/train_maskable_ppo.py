"""Train a small policy with sb3-contrib's MaskablePPO against unomas's ``random`` bot.

The learner plays seat 0 of a two-player round (``unomas.rl.single_agent``, official
rules, reward +1 for a win and -1 for a loss); the opponent is the ``random`` bot. Every
``--eval-every`` steps the policy (sampling its masked action distribution) plays ``--eval-rounds``
fresh rounds against ``random``, and the learning curve is printed as a table: steps,
round win rate, its 95 % Wilson interval. Needs the ``train`` extra
(``pip install -e '.[train]'``; CPU is enough):

    python examples/train_maskable_ppo.py --steps 100000 --eval-every 20000
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any, cast

import gymnasium
import numpy as np
import numpy.typing as npt
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

import unomas.rl
from unomas.rl.single_agent import SingleAgentEnv


class Flat(gymnasium.ObservationWrapper[npt.NDArray[np.float32], np.int64, dict[str, Any]]):
    """The observation vector alone (the mask stays available through ``action_masks``)."""

    def __init__(self, env: SingleAgentEnv) -> None:
        super().__init__(env)
        self.inner = env
        space = cast("gymnasium.spaces.Dict", env.observation_space)["observation"]
        assert isinstance(space, gymnasium.spaces.Box)
        self.observation_space = space

    def observation(self, observation: dict[str, Any]) -> npt.NDArray[np.float32]:
        vector: npt.NDArray[np.float32] = observation["observation"]
        return vector

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions now (what MaskablePPO samples from)."""
        return self.inner.action_masks()


def make_env(players: int) -> Flat:
    return Flat(unomas.rl.single_agent(opponents="random", players=players, target_score=0))


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def evaluate(model: MaskablePPO, env: Flat, rounds: int, seed: int) -> int:
    """Rounds won out of ``rounds`` with actions sampled from the masked policy."""
    wins = 0
    observation, _ = env.reset(seed=seed)
    for _ in range(rounds):
        while True:
            action, _ = model.predict(observation, action_masks=env.action_masks(), deterministic=False)
            observation, reward, terminated, truncated, _ = env.step(np.int64(action))
            if terminated or truncated:
                wins += float(reward) > 0
                observation, _ = env.reset()
                break
    return wins


class Curve(BaseCallback):
    """Evaluates the policy every ``every`` steps and prints one row of the curve."""

    def __init__(self, env: Flat, every: int, rounds: int, seed: int) -> None:
        super().__init__()
        self.eval_env = env
        self.every = every
        self.rounds = rounds
        self.seed = seed
        self.next = every
        self.started = time.perf_counter()
        self.rows: list[tuple[int, int]] = []

    def row(self, model: MaskablePPO, steps: int) -> None:
        wins = evaluate(model, self.eval_env, self.rounds, self.seed)
        self.rows.append((steps, wins))
        low, high = wilson(wins, self.rounds)
        elapsed = time.perf_counter() - self.started
        print(
            f"| {steps:>9,} | {wins / self.rounds:6.1%} | {low:6.1%}–{high:6.1%} | {elapsed:7.0f} |",
            flush=True,
        )

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next:
            self.next += self.every
            assert isinstance(self.model, MaskablePPO)
            self.row(self.model, self.num_timesteps)
        return True


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=100_000, help="training steps (learner decisions)")
    parser.add_argument("--eval-every", type=int, default=20_000, help="steps between evaluations")
    parser.add_argument("--eval-rounds", type=int, default=500, help="rounds per evaluation")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    torch.set_num_threads(1)
    env = make_env(args.players)
    env.reset(seed=args.seed)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=2048,
        batch_size=256,
        n_epochs=5,
        learning_rate=3e-4,
        gamma=0.99,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [128, 128]},
        seed=args.seed,
        device="cpu",
    )
    curve = Curve(make_env(args.players), args.eval_every, args.eval_rounds, seed=10_000 + args.seed)
    print(f"MaskablePPO, {args.players} players, official rules, against `random`; {args.eval_rounds} rounds per row")
    print("|     steps | win rate | 95 % interval | seconds |")
    print("|----------:|---------:|:-------------:|--------:|")
    curve.row(model, 0)
    model.learn(total_timesteps=args.steps, callback=curve)
    if curve.rows[-1][0] < args.steps:  # the curve ends at the last step trained
        curve.row(model, model.num_timesteps)


if __name__ == "__main__":
    main()
