"""Reinforcement learning: a PettingZoo AEC environment and a Gymnasium single-agent one.

Install with the ``rl`` extra (``pip install 'unomas[rl]'``: PettingZoo, Gymnasium,
NumPy); ``import unomas`` never loads this package. See docs/rl.md.

* :func:`env`: every seat an agent (PettingZoo AEC), out-of-turn chances included;
* :func:`single_agent`: one learner against unomas bots (Gymnasium);
* :func:`batch`: many games of :func:`env` stepped together, their decisions in arrays;
* :func:`action_table`: the fixed action ids of a player count;
* :class:`ObservationLayout` and :func:`encode`: the observation vector of a seat's view.

Importing the package registers the Gymnasium ids ``unomas/Uno-v0`` and
``unomas/UnoAllRules-v0`` (:func:`single_agent`; see :mod:`unomas.rl.single_agent`).
"""

from __future__ import annotations

from unomas.rl.actions import ActionTable, action_table
from unomas.rl.batch import BatchEnv, batch
from unomas.rl.env import UnoEnv, env
from unomas.rl.observation import ObservationLayout, encode
from unomas.rl.single_agent import SingleAgentEnv, single_agent

__all__ = [
    "ActionTable",
    "BatchEnv",
    "ObservationLayout",
    "SingleAgentEnv",
    "UnoEnv",
    "action_table",
    "batch",
    "encode",
    "env",
    "single_agent",
]
