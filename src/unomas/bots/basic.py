"""The two baselines: ``random`` and ``playfirst``, whose policies (:mod:`unomas.bots.policies`)
self-play follows too (``unomas simulate --policy``)."""

from __future__ import annotations

from unomas.actions import Action
from unomas.bots.base import Bot
from unomas.bots.policies import ViewOptions, playfirst_act, random_act, take_a_chance
from unomas.view import View


class RandomBot(Bot):
    """Uniform among all legal actions, voluntary draws included (so very weak).

    Out of turn it takes an open chance (a late UNO call, a catch, a jump-in) half of the
    time, choosing uniformly among them.
    """

    name = "random"

    def act(self, view: View) -> Action:
        return random_act(ViewOptions(view), self.seat, self.rng.random)

    def react(self, view: View) -> Action | None:
        return take_a_chance(ViewOptions(view), self.seat, self.rng.random)


class PlayFirstBot(Bot):
    """The customary baseline of UNO research (RLCard's random agent plays so), with slips.

    Plays a uniformly chosen playable card when it has one (a random colour for a wild, a
    random target for a 7), draws only otherwise, plays a playable drawn card; facing a
    penalty it stacks if it can; as dealer it picks a random starting colour.

    It slips as people do, on purpose (the terminal game's easier levels need bots that
    can be caught out): it forgets to call UNO with a play that leaves it one card 1 time
    in 10; facing a W+4 it may challenge (and cannot stack on), it challenges half of the
    time and draws otherwise; and it takes each out-of-turn chance (a late UNO call, a
    catch, a jump-in) half of the time, choosing uniformly among them.
    """

    name = "playfirst"

    def act(self, view: View) -> Action:
        return playfirst_act(ViewOptions(view), self.seat, self.rng.random)

    def react(self, view: View) -> Action | None:
        return take_a_chance(ViewOptions(view), self.seat, self.rng.random)
