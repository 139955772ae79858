"""The baseline policies, ``playfirst`` and ``random``: defined once, over what a seat may do.

A policy is a turn action (:func:`playfirst_act`, :func:`random_act`) and an answer to an
out-of-turn chance (:func:`take_a_chance`, the same for both), each a function of the seat's
options (:data:`SeatOptions`) and of its random source's ``random`` (a bound method, called
as it is: the compiled build looks no method up per draw). The bots of those names
(:mod:`unomas.bots.basic`) read the options from their view (:class:`ViewOptions`);
self-play's fast players (:mod:`unomas.runs.selfplay`) from the conductor's game itself, with
no view built. Both get the same options in the same order (the engine lists a seat's plays
card by card, in the order of ``playable_cards``, each card's variants in the order of
``play_variants``), so from the same random source they choose the same actions.

Compiled with mypyc: self-play spends much of its time here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final, TypeAlias

from unomas.actions import Action, Kind
from unomas.cards import Card

if TYPE_CHECKING:
    from unomas.game import Game
    from unomas.view import View  # (a view's options are read by the bots, which load it)

__all__ = [
    "CHALLENGE_RATE",
    "CHANCE_RATE",
    "UNO_CALL_RATE",
    "SeatOptions",
    "ViewOptions",
    "playfirst_act",
    "random_act",
    "take_a_chance",
]

PLAY: Final = Kind.PLAY
DRAW: Final = Kind.DRAW
PASS: Final = Kind.PASS
COLOR: Final = Kind.COLOR
CHALLENGE: Final = Kind.CHALLENGE

UNO_CALL_RATE: Final = 0.9
"""How often ``playfirst`` calls UNO with a play that leaves it one card."""
CHALLENGE_RATE: Final = 0.5
"""How often ``playfirst`` challenges a W+4 it may challenge (and cannot stack on)."""
CHANCE_RATE: Final = 0.5
"""How often either policy takes an out-of-turn chance (a late UNO call, a catch, a jump-in)."""


class ViewOptions:
    """A seat's options read from its view's legal actions."""

    def __init__(self, view: View) -> None:
        self.actions = view.legal_actions

    def legal_actions(self, seat: int) -> list[Action]:
        return list(self.actions)

    def playable_cards(self, seat: int) -> list[Card]:
        cards: list[Card] = []
        for action in self.actions:
            card = action.card
            if action.kind is PLAY and card is not None and card not in cards:
                cards.append(card)
        return cards

    def play_variants(self, seat: int, card: Card) -> tuple[Action, ...]:
        return tuple([a for a in self.actions if a.kind is PLAY and a.card == card])

    def non_play_actions(self, seat: int) -> list[Action]:
        return [a for a in self.actions if a.kind is not PLAY]


SeatOptions: TypeAlias = "Game | ViewOptions"
"""What a seat may do now: its ``legal_actions``, ``playable_cards``, ``play_variants`` and
``non_play_actions``, as the game (or the seat's view) tells it. (A union rather than a
protocol, so that the compiled build calls either natively.)"""


def _below(random: Callable[[], float], count: int) -> int:
    """A uniform index below ``count``; calls ``random`` only when there is a choice."""
    return int(random() * count) if count > 1 else 0


def playfirst_act(options: SeatOptions, seat: int, random: Callable[[], float]) -> Action:
    """``playfirst`` on its turn: a uniformly chosen playable card if any (see
    :func:`_variant`), else a challenge half of the time when one is open, else a draw (or
    the pass after one); as dealer, a uniformly chosen starting colour."""
    cards = options.playable_cards(seat)
    if cards:
        variants = options.play_variants(seat, cards[_below(random, len(cards))])
        return variants[0] if len(variants) == 1 else _variant(variants, random)
    actions = options.non_play_actions(seat)  # no card to play: the rest of the legal actions
    for action in actions:
        if action.kind is CHALLENGE:
            if random() < CHALLENGE_RATE:
                return action
            break
    for action in actions:
        if action.kind is DRAW or action.kind is PASS:
            return action
    colors = [a for a in actions if a.kind is COLOR]
    return colors[_below(random, len(colors))]


def _variant(variants: tuple[Action, ...], random: Callable[[], float]) -> Action:
    """One of several ways to play a card: a uniformly chosen colour (a wild) or target
    (a 7 under ``seven_zero``), with the UNO call :data:`UNO_CALL_RATE` of the time when
    that play leaves one card."""
    plain = [a for a in variants if not a.uno]
    choice = plain[_below(random, len(plain))]
    for action in variants:
        if action.uno and action.color == choice.color and action.target == choice.target:
            return action if random() < UNO_CALL_RATE else choice
    return choice


def random_act(options: SeatOptions, seat: int, random: Callable[[], float]) -> Action:
    """``random`` on its turn: uniformly among all its legal actions, voluntary draws included."""
    actions = options.legal_actions(seat)
    return actions[_below(random, len(actions))]


def take_a_chance(options: SeatOptions, seat: int, random: Callable[[], float]) -> Action | None:
    """Either policy out of turn: :data:`CHANCE_RATE` of the time, one of the open chances
    (a late UNO call, a catch, a jump-in in any of its variants), uniformly chosen."""
    actions = options.legal_actions(seat)
    if actions and random() < CHANCE_RATE:
        return actions[_below(random, len(actions))]
    return None
