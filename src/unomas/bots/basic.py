"""The two baselines: ``random`` and ``playfirst``, whose policies (:mod:`unomas.bots.policies`)
self-play follows too (``unomas simulate --policy``).

Both slip by their policies' nature (:attr:`Bot.forget <unomas.bots.base.Bot.forget>` and
:attr:`Bot.miss <unomas.bots.base.Bot.miss>` state how often). Given ``forget`` or ``miss``
(``playfirst:forget=0.3``), the bot slips at exactly those rates instead: a play that may
call UNO calls it unless it forgets, an open late call or catch is taken unless it slips, and
the policy chooses among the rest.
"""

from __future__ import annotations

from collections.abc import Callable

from unomas.actions import Action, Kind
from unomas.bots.base import Bot
from unomas.bots.policies import (
    CHANCE_RATE,
    UNO_CALL_RATE,
    SeatOptions,
    ViewOptions,
    playfirst_act,
    random_act,
    take_a_chance,
)
from unomas.view import View

TurnPolicy = Callable[[SeatOptions, int, Callable[[], float]], Action]


class BaselineBot(Bot):
    """A bot that follows a baseline policy, slipping at the rates it is given, if any."""

    policy: TurnPolicy

    def __init__(self, forget: float | None = None, miss: float | None = None) -> None:
        super().__init__()
        self.tuned = forget is not None or miss is not None
        self.set_slips(forget, miss)

    def act(self, view: View) -> Action:
        action = type(self).policy(ViewOptions(view), self.seat, self.rng.random)
        if self.tuned and action.kind is Kind.PLAY:
            calling = action._replace(uno=True)
            return self.slip_call(view, calling if calling in view.legal_actions else action)
        return action

    def react(self, view: View) -> Action | None:
        options = ViewOptions(view)
        if self.tuned:
            call = self.call_or_catch(view)
            if call is not None:
                return call
            options.actions = tuple(
                a for a in view.legal_actions if a.kind is not Kind.UNO and a.kind is not Kind.CATCH
            )
        return take_a_chance(options, self.seat, self.rng.random)


class RandomBot(BaselineBot):
    """Uniform among all legal actions, voluntary draws included (so very weak).

    Out of turn it takes an open chance (a late UNO call, a catch, a jump-in) half of the
    time, choosing uniformly among them: it forgets UNO with half of its plays that leave it
    one card (a play with and without the call are equally likely) and lets a catch go half
    of the time.
    """

    name = "random"
    policy = staticmethod(random_act)
    forget = 0.5
    miss = 1 - CHANCE_RATE


class PlayFirstBot(BaselineBot):
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
    policy = staticmethod(playfirst_act)
    forget = round(1 - UNO_CALL_RATE, 3)
    miss = 1 - CHANCE_RATE
