"""``ismcts``: information-set Monte Carlo tree search.

Each iteration samples a world consistent with what the bot has seen
(:func:`~unomas.bots.search.sample_world`: the cards it has not seen are dealt at random to
the other hands and the draw pile, by their known sizes), then runs one UCT descent over
the engine's copy of that world: select by UCB1 among the actions legal in this world
(counting how often each was available), expand one untried action, play the round out
with a quick greedy policy (:func:`~unomas.bots.search.rollout_action`), and credit the
round's winner. The search tree is keyed by actions, shared by all worlds (the
single-observer ISMCTS of Cowling, Powley and Whitehouse, 2012). The bot never reads the
true state: it gets only its view.

The sampled worlds also use what the bot has seen of the others: an opponent that drew on
its turn is dealt no card of the colour then in play, until it draws again (``voids``,
on by default).

Inside the search every player calls UNO with the play, and out-of-turn actions (catches,
jump-ins) are left out; out of turn, and for the starting colour, the bot follows
``heuristic``. It never slips unless asked (``ismcts:forget=0.1:miss=0.2``: see
:attr:`~unomas.bots.base.Bot.forget`). Budget: ``iterations`` per decision, or ``seconds`` (then the result depends
on the machine's speed).

``prior=learned`` guides the search with ``learned``'s network (its policy as the prior of
each action, its value in place of rollouts: :mod:`unomas.bots.guided`; with
``value=false`` the rollouts stay); ``prior=PATH`` with the weights in that file.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from unomas.actions import Action, Kind
from unomas.bots.base import Bot
from unomas.bots.guided import GuidedNode, guided_search
from unomas.bots.heuristic import HeuristicBot
from unomas.bots.learned import network
from unomas.bots.search import Node, search, turn_candidates
from unomas.errors import SettingsError
from unomas.events import Event
from unomas.position import Phase
from unomas.rules import Rules
from unomas.view import View


class IsmctsBot(Bot):
    """Information-set MCTS with a budget of ``iterations`` or ``seconds`` per decision."""

    name = "ismcts"

    def __init__(
        self,
        iterations: int | None = None,
        seconds: float | None = None,
        exploration: float = 0.7,
        voids: bool = True,
        forget: float | None = None,
        miss: float | None = None,
        prior: str | None = None,
        value: bool = True,
    ) -> None:
        super().__init__()
        if iterations is None and seconds is None:
            iterations = 1000
        if (iterations is not None and iterations < 1) or (seconds is not None and seconds <= 0):
            raise SettingsError("setup.bad_search")
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.voids = voids
        self.set_slips(forget, miss)
        self.helper = HeuristicBot(forget=self.forget, miss=self.miss)
        self.network = None if prior is None else network(None if prior == "learned" else prior)
        self.value = value

    def start(self, seat: int, rules: Rules, rng: random.Random) -> None:
        super().start(seat, rules, rng)
        self.helper.start(seat, rules, rng)

    def observe(self, events: Sequence[Event]) -> None:
        self.helper.observe(events)

    def react(self, view: View) -> Action | None:
        return self.helper.react(view)

    def act(self, view: View) -> Action:
        call = next((a for a in view.legal_actions if a.kind is Kind.UNO or a.kind is Kind.CATCH), None)
        if view.phase is Phase.COLOR or call is not None:
            return self.helper.act(view)
        candidates = turn_candidates(view.legal_actions)
        if len(candidates) == 1:
            return self.slip_call(view, candidates[0])
        root = self.search(view)
        best = max(candidates, key=lambda a: root.children[a].visits if a in root.children else -1)
        return self.slip_call(view, best)

    def search(self, view: View) -> Node | GuidedNode:
        """Run the search from ``view``; return the root with its statistics."""
        if self.network is not None:
            return guided_search(
                view,
                self.rng,
                self.network,
                iterations=self.iterations,
                seconds=self.seconds,
                exploration=self.exploration,
                color_before_wild_draw_four=self.helper.color_before_wild_draw_four,
                lacking=self.helper.voids if self.voids else None,
                value=self.value,
            )
        return search(
            view,
            self.rng,
            iterations=self.iterations,
            seconds=self.seconds,
            exploration=self.exploration,
            color_before_wild_draw_four=self.helper.color_before_wild_draw_four,
            lacking=self.helper.voids if self.voids else None,
        )
