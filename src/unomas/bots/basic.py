"""The two baselines: ``random`` and ``playfirst``."""

from __future__ import annotations

from unomas.actions import Action, Kind
from unomas.bots.base import Bot, first_of, plays
from unomas.view import View


class RandomBot(Bot):
    """Uniform among all legal actions, voluntary draws included (so very weak).

    Out of turn it takes each open chance (a late UNO call, a catch, a jump-in) half of
    the time, choosing uniformly among them.
    """

    name = "random"

    def act(self, view: View) -> Action:
        return self.rng.choice(view.legal_actions)

    def react(self, view: View) -> Action | None:
        if view.legal_actions and self.rng.random() < 0.5:
            return self.rng.choice(view.legal_actions)
        return None


class PlayFirstBot(Bot):
    """The customary baseline of UNO research (RLCard's random agent behaves so).

    Plays a uniformly chosen playable card when it has one (a random colour for a wild, a
    random target for a 7), draws only otherwise, plays a playable drawn card, always
    calls UNO; never catches, challenges or jumps in; facing a penalty it stacks if it can.
    """

    name = "playfirst"

    def act(self, view: View) -> Action:
        actions = view.legal_actions
        options = plays(actions)
        if options:
            card = self.rng.choice(sorted({a.card for a in options if a.card is not None}))
            variants = [a for a in options if a.card == card]
            calling = [a for a in variants if a.uno]
            return self.rng.choice(calling or variants)
        for kind in (Kind.DRAW, Kind.PASS):
            action = first_of(actions, kind)
            if action is not None:
                return action
        colors = [a for a in actions if a.kind is Kind.COLOR]
        if colors:
            return self.rng.choice(colors)
        uno = first_of(actions, Kind.UNO)  # only left: a late UNO call before the turn action
        assert uno is not None, f"no action for playfirst among {actions}"
        return uno

    def react(self, view: View) -> Action | None:
        return first_of(view.legal_actions, Kind.UNO)
