"""``ismcts``: information-set Monte Carlo tree search.

Each iteration samples a world consistent with what the bot has seen (:func:`sample_world`:
the cards it has not seen are dealt at random to the other hands and the draw pile, by
their known sizes), then runs one UCT descent over the engine's copy of that world: select
by UCB1 among the actions legal in this world (counting how often each was available),
expand one untried action, play the round out with the ``playfirst`` policy, and credit
the round's winner. The search tree is keyed by actions, shared by all worlds (the
single-observer ISMCTS of Cowling, Powley and Whitehouse, 2012). The bot never reads the
true state: it gets only its view.

Inside the search every player calls UNO with the play, and out-of-turn actions (catches,
jump-ins) are left out; out of turn, and for the starting colour, the bot follows
``heuristic``. Budget: ``iterations`` per decision, or ``seconds`` (then the result depends
on the machine's speed).
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Sequence

from unomas.actions import Action, Kind
from unomas.bots.base import Bot
from unomas.bots.heuristic import HeuristicBot
from unomas.cards import COLOR_OF, DECK, Card
from unomas.events import Event
from unomas.game import Game, Phase
from unomas.rules import Rules
from unomas.simulate import playfirst
from unomas.view import View

ROLLOUT_LIMIT = 2_000
"""Actions after which a rollout stops without a winner."""


def sample_world(view: View, rng: random.Random, *, color_before_wild_draw_four: int = -1) -> Game:
    """A game consistent with ``view``: unseen cards dealt at random by the known sizes.

    The own hand, the discard pile, every count and the public state are the view's. For a
    W+4 that may be challenged, whether its player was guilty is judged on their sampled
    hand against ``color_before_wild_draw_four`` (the colour in play before it).
    """
    assert view.seat is not None
    rules = view.rules
    unseen = Counter(DECK)
    unseen.subtract(view.hand)
    unseen.subtract(view.discard)
    pool = list(unseen.elements())
    rng.shuffle(pool)
    hands: list[list[Card]] = []
    start = 0
    for seat, size in enumerate(view.hand_sizes):
        if seat == view.seat:
            hands.append(list(view.hand))
        else:
            hands.append(pool[start : start + size])
            start += size
    accused = (view.current - view.direction) % rules.players if view.challengeable else -1
    guilty = accused >= 0 and any(COLOR_OF[c] == color_before_wild_draw_four for c in hands[accused])
    return Game.from_position(
        rules,
        hands=hands,
        pile=pool[start:],
        discard=view.discard,
        color=view.color if view.color is not None else -1,
        current=view.current,
        phase=view.phase,
        direction=view.direction,
        penalty=view.penalty,
        challengeable=view.challengeable,
        accused=accused,
        accused_guilty=guilty,
        drawn=view.drawn if view.drawn is not None else -1,
        uno_pending=view.uno_pending if view.uno_pending is not None else -1,
        scores=view.scores,
        round=view.round,
        rng=rng,
    )


class _Node:
    """A tree node: the statistics of the action that led to it, by the player who took it."""

    __slots__ = ("available", "children", "player", "visits", "wins")

    def __init__(self, player: int) -> None:
        self.player = player
        self.visits = 0
        self.wins = 0.0
        self.available = 0
        self.children: dict[Action, _Node] = {}


def search_actions(game: Game, player: int) -> list[Action]:
    """The turn actions the search considers: the legal ones less out-of-turn calls, and
    a play that may call UNO only with the call."""
    actions = [a for a in game.legal_actions(player) if a.kind is not Kind.UNO and a.kind is not Kind.CATCH]
    calling = {(a.card, a.color, a.target) for a in actions if a.uno}
    return [a for a in actions if a.uno or a.kind is not Kind.PLAY or (a.card, a.color, a.target) not in calling]


class IsmctsBot(Bot):
    """Information-set MCTS with a budget of ``iterations`` or ``seconds`` per decision."""

    name = "ismcts"

    def __init__(self, iterations: int | None = None, seconds: float | None = None, exploration: float = 0.7) -> None:
        super().__init__()
        if iterations is None and seconds is None:
            iterations = 1000
        if (iterations is not None and iterations < 1) or (seconds is not None and seconds <= 0):
            from unomas.errors import SettingsError

            raise SettingsError("ismcts needs iterations ≥ 1 or seconds > 0")
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.helper = HeuristicBot()

    def start(self, seat: int, rules: Rules, rng: random.Random) -> None:
        super().start(seat, rules, rng)
        self.helper.start(seat, rules, rng)

    def observe(self, events: Sequence[Event]) -> None:
        self.helper.observe(events)

    def react(self, view: View) -> Action | None:
        return self.helper.react(view)

    def act(self, view: View) -> Action:
        if view.phase is Phase.COLOR:
            return self.helper.act(view)
        candidates = [a for a in view.legal_actions if a.kind is not Kind.UNO and a.kind is not Kind.CATCH]
        calling = {(a.card, a.color, a.target) for a in candidates if a.uno}
        candidates = [
            a for a in candidates if a.uno or a.kind is not Kind.PLAY or (a.card, a.color, a.target) not in calling
        ]
        if len(candidates) == 1:
            return candidates[0]
        root = self.search(view)
        best = max(candidates, key=lambda a: root.children[a].visits if a in root.children else -1)
        return best

    def search(self, view: View) -> _Node:
        """Run the search from ``view``; return the root with its statistics."""
        root = _Node(-1)
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else math.inf
        iteration = 0
        color_before = self.helper.color_before_wild_draw_four
        while True:
            if self.iterations is not None and iteration >= self.iterations:
                break
            if iteration and time.perf_counter() >= deadline:
                break
            iteration += 1
            game = sample_world(view, self.rng, color_before_wild_draw_four=color_before)
            self._iterate(root, game)
        return root

    def _iterate(self, root: _Node, game: Game) -> None:
        node = root
        path = [root]
        exploration = self.exploration
        while not game.round_over:
            player = game.current
            actions = search_actions(game, player)
            children = node.children
            untried = []
            for action in actions:
                child = children.get(action)
                if child is None:
                    untried.append(action)
                else:
                    child.available += 1
            if untried:
                action = untried[int(self.rng.random() * len(untried))]
                child = _Node(player)
                child.available = 1
                children[action] = child
                game.push(action)
                path.append(child)
                break
            best_score = -1.0
            best: tuple[Action, _Node] | None = None
            for action in actions:
                child = children[action]
                score = child.wins / child.visits + exploration * math.sqrt(math.log(child.available) / child.visits)
                if score > best_score:
                    best_score, best = score, (action, child)
            assert best is not None
            game.push(best[0])
            node = best[1]
            path.append(node)
        winner = self._rollout(game)
        for visited in path:
            visited.visits += 1
            if visited.player == winner:
                visited.wins += 1.0

    def _rollout(self, game: Game) -> int:
        """Play the round out with ``playfirst``; the winner's seat, or -1 if it drags on."""
        rng = self.rng
        for _ in range(ROLLOUT_LIMIT):
            if game.round_over:
                break
            game.push(playfirst(game, game.current, rng))
        else:
            return -1
        return next(seat for seat, hand in enumerate(game.hands) if not hand)
