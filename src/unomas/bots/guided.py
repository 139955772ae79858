"""The search guided by ``learned``'s network: ``ismcts:prior=learned``.

The same sampled worlds as :mod:`unomas.bots.search`, but each descent is steered by the
network (PUCT, as in AlphaZero): at a node, the action maximising
``Q + exploration * P * sqrt(available) / (1 + visits)`` is taken, where ``P`` is the
network's probability of the action for the player on turn (its moves head, a wild's
colour from the colour head, shared evenly between a 7's targets), worked out the first
time the node is reached and kept for every later world; ``Q`` is the action's mean
result so far (``1/players`` before it was tried). A descent stops at the first new node:
the network's value there (the chance that the player on turn wins) is the result, shared
evenly among the other players for the rest, in place of a played-out round; with
``value=False`` the round is played out from there as in plain ``ismcts``
(:func:`~unomas.bots.search.rollout`) and its winner credited. A round that ends inside the
tree credits its winner.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from unomas.actions import Action
from unomas.bots.learned import Network, features, move_of
from unomas.bots.search import WorldSampler, rollout, search_actions
from unomas.game import Game
from unomas.view import View


class GuidedNode:
    """A node: the statistics of the action that led to it, and the network's prior
    for the actions after it (None until the node is reached)."""

    __slots__ = ("available", "children", "player", "prior", "visits", "wins")

    def __init__(self, player: int) -> None:
        self.player = player
        self.visits = 0
        self.wins = 0.0
        self.available = 0
        self.children: dict[Action, GuidedNode] = {}
        self.prior: tuple[Any, Any] | None = None


def guided_search(
    view: View,
    rng: random.Random,
    net: Network,
    *,
    iterations: int | None,
    seconds: float | None,
    exploration: float,
    color_before_wild_draw_four: int = -1,
    lacking: dict[int, set[int]] | None = None,
    value: bool = True,
) -> GuidedNode:
    """Run the guided search from ``view`` for ``iterations`` or ``seconds``; return the root."""
    root = GuidedNode(-1)
    sampler = WorldSampler(view, color_before_wild_draw_four=color_before_wild_draw_four, lacking=lacking)
    deadline = time.perf_counter() + seconds if seconds is not None else math.inf
    iteration = 0
    while (iterations is None or iteration < iterations) and (not iteration or time.perf_counter() < deadline):
        iteration += 1
        _descend(root, sampler.sample(rng, events=False), net, exploration, rng if not value else None)
    return root


def _evaluate(net: Network, game: Game, player: int) -> tuple[tuple[Any, Any], float]:
    """The network's move and colour probabilities and value for ``player`` in ``game``."""
    np = net.np
    moves, colors, value = net.forward(features(game.view(player), {}))
    moves = np.exp(moves - moves.max())
    colors = np.exp(colors - colors.max())
    return (moves / moves.sum(), colors / colors.sum()), value


def _descend(root: GuidedNode, game: Game, net: Network, exploration: float, rollouts: random.Random | None) -> None:
    """One descent (see the module): select by PUCT to a new node, value it (or play the
    round out, drawing on ``rollouts``), credit the path."""
    node = root
    path = [root]
    players = game.players
    while not game.round_over:
        player = game.current
        if node.prior is None:
            node.prior, value = _evaluate(net, game, player)
            if node is not root:
                if rollouts is None:
                    _credit(path, player, value, players)
                else:
                    winner = rollout(game, rollouts)
                    if winner >= 0:
                        _credit(path, winner, 1.0, players)
                return
        moves, colors = node.prior
        actions = search_actions(game, player)
        shares: dict[int | None, int] = {}
        for action in actions:
            move = move_of(action)
            shares[move] = shares.get(move, 0) + (0 if action.color is not None else 1)
        total = 0
        for action in actions:
            child = node.children.get(action)
            if child is not None:
                child.available += 1
                total += child.visits
        root_total = math.sqrt(total + 1)
        best_score = -math.inf
        best = actions[0]
        for action in actions:
            move = move_of(action)
            if move is None:
                prior = 1.0 / len(actions)
            elif action.color is not None:
                prior = float(moves[move] * colors[action.color])
            else:
                prior = float(moves[move]) / shares[move]
            child = node.children.get(action)
            if child is None or not child.visits:
                score = 1.0 / players + exploration * prior * root_total
            else:
                score = child.wins / child.visits + exploration * prior * root_total / (1 + child.visits)
            if score > best_score:
                best_score, best = score, action
        child = node.children.get(best)
        if child is None:
            child = node.children[best] = GuidedNode(player)
            child.available = 1
        game.push(best)
        node = child
        path.append(node)
    winner = game.round_winner()
    _credit(path, winner, 1.0, players)


def _credit(path: list[GuidedNode], player: int, value: float, players: int) -> None:
    """Credit every node of ``path``: ``value`` to ``player``'s, the rest shared by the others."""
    others = (1.0 - value) / (players - 1)
    for node in path:
        node.visits += 1
        node.wins += value if node.player == player else others
