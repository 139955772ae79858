"""Scenario helpers for tests: stacked deals, plays by token, snapshots of a whole game.

A scenario names only the cards that matter, in tokens; every other card of the 108 follows
the given pile top in kind order (see :meth:`unomas.game.Deal.from_tokens`).

>>> game = make_game([["R1", "R2"], ["R3", "G5"]], ["R9", "B7"], target_score=0)
>>> game.current, card_token(game.top)
(1, 'R9')
>>> events = play(game, 1, "R3", uno=True)
>>> hand(game, 1), game.current
(['G5'], 0)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from unomas.actions import Action
from unomas.cards import DECK, WILD_DRAW_FOUR, Card, card_token, parse_card, parse_color
from unomas.events import Event
from unomas.game import Deal, Game
from unomas.rules import Rules

__all__ = [
    "cards",
    "deal_with_returns",
    "draw",
    "hand",
    "make_full_game",
    "make_game",
    "play",
    "snapshot",
    "tokens",
]


def cards(text: str) -> list[Card]:
    """The cards of a space-separated list of tokens: ``cards("R1 W+4")``."""
    return [parse_card(t) for t in text.split()]


def tokens(kinds: Sequence[Card]) -> list[str]:
    """The tokens of some cards, in the same order."""
    return [card_token(k) for k in kinds]


def hand(game: Game, seat: int) -> list[str]:
    """Seat ``seat``'s hand as sorted tokens (compare with ``sorted([...])``)."""
    return sorted(tokens(game.hands[seat]))


def deal_with_returns(hands: Sequence[Sequence[str]], pile_top: Sequence[str]) -> Deal:
    """A deal whose pile starts with one or more ``W+4``: each is returned to the bottom.

    The returns are the pile orders (top first) after each ``W+4`` turned up went back:
    the top card moved to the bottom of the pile.
    """
    base = Deal.from_tokens(hands, pile_top)
    order = list(base.pile)
    returns: list[tuple[Card, ...]] = []
    while order[0] == WILD_DRAW_FOUR:
        order = [*order[1:], order[0]]
        returns.append(tuple(order))
    return Deal(base.hands, base.pile, tuple(returns))


def make_game(hands: Sequence[Sequence[str]], pile_top: Sequence[str], **settings: Any) -> Game:
    """A match dealt as stacked: ``players`` and ``hand_size`` come from ``hands``.

    Every hand must hold the same number of cards; ``settings`` are the other settings.
    """
    rules = Rules(**({"players": len(hands), "hand_size": len(hands[0])} | settings))
    return Game(rules, deal=Deal.from_tokens(hands, pile_top), seed=0)


def make_full_game(players: int, pile: Sequence[str], fixed: Sequence[Sequence[str]] = (), **settings: Any) -> Game:
    """A match whose draw pile is exactly ``pile`` (top first, starting card included).

    The other cards are dealt evenly: seat ``i`` gets ``fixed[i]`` first, then the rest
    follow in kind order, seat after seat. For tests where the pile runs out.
    """
    pile_cards = [parse_card(t) for t in pile]
    left = Counter(DECK)
    left.subtract(pile_cards)
    fixed_cards = [[parse_card(t) for t in seat_cards] for seat_cards in fixed]
    fixed_cards += [[] for _ in range(players - len(fixed_cards))]
    for seat_cards in fixed_cards:
        left.subtract(seat_cards)
    if any(count < 0 for count in left.values()):
        raise ValueError("the scenario uses more copies of a card than the deck holds")
    rest = [k for k in sorted(left) for _ in range(left[k])]
    size, extra = divmod(108 - len(pile_cards), players)
    if extra:
        raise ValueError(f"{108 - len(pile_cards)} cards cannot be dealt evenly to {players} players")
    hands: list[tuple[Card, ...]] = []
    for seat_cards in fixed_cards:
        need = size - len(seat_cards)
        hands.append(tuple(seat_cards + rest[:need]))
        rest = rest[need:]
    rules = Rules(**({"players": players, "hand_size": size} | settings))
    return Game(rules, deal=Deal(tuple(hands), tuple(pile_cards)), seed=0)


def play(
    game: Game,
    seat: int,
    token: str,
    color: str | None = None,
    *,
    target: int | None = None,
    uno: bool = False,
) -> list[Event]:
    """Seat ``seat`` plays the card ``token`` (with a colour letter for a wild)."""
    chosen = None if color is None else parse_color(color)
    return game.apply(Action.play(seat, parse_card(token), color=chosen, target=target, uno=uno))


def draw(game: Game, seat: int) -> list[Event]:
    """Seat ``seat`` draws (a turn's draw, or the whole pending penalty)."""
    return game.apply(Action.draw(seat))


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything about ``game``: every seat's view, a spectator's, the whole state (its
    :meth:`~unomas.game.Game.position`), and last the length of its history (so
    ``snapshot(a)[:-1]`` compares positions alone)."""
    views = tuple(game.view(seat) for seat in [*range(game.players), None])
    log = game.log
    return (
        views,
        game.position(),
        None if log is None else (len(log), tuple(len(r.moves) for r in log)),
    )
