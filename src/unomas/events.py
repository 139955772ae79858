"""Events: what an action (or a deal) caused, for interfaces to narrate and records to keep.

Events carry everything, secrets included (drawn cards, pile orders, a shown hand); the
only way they leave toward a player is :func:`redact`, which removes what that seat may
not know. Events are values: nothing changes them once made.
"""

from __future__ import annotations

import copyreg
from collections.abc import Collection
from dataclasses import dataclass, fields, replace
from typing import Any, get_args

from unomas.cards import COLOR_LETTERS, Card, Color, card_token


@dataclass(slots=True)
class Dealt:
    """A round was dealt: each seat's hand and the draw pile (top first)."""

    round: int
    dealer: int
    hands: tuple[tuple[Card, ...] | None, ...]
    pile: tuple[Card, ...] | None


@dataclass(slots=True)
class StartingCardReturned:
    """The turned-up card was a W+4: it went back and the pile (top first) was shuffled."""

    pile: tuple[Card, ...] | None


@dataclass(slots=True)
class StartingCard:
    """The card turned up to start the discard pile."""

    card: Card


@dataclass(slots=True, init=False)
class Played:
    """``player`` played ``card`` (``jump_in``: out of turn)."""

    player: int
    card: Card
    color: Color | None
    target: int | None
    uno: bool
    jump_in: bool

    # Written out (as in Drew and the other events of a turn) because a compiled build makes
    # a hand-written __init__ several times faster than the generated one, and these come
    # with nearly every move.
    def __init__(
        self, player: int, card: Card, color: Color | None, target: int | None, uno: bool, jump_in: bool
    ) -> None:
        self.player = player
        self.card = card
        self.color = color
        self.target = target
        self.uno = uno
        self.jump_in = jump_in


@dataclass(slots=True, init=False)
class Drew:
    """``player`` drew ``amount`` cards (``cards`` is None where they are secret)."""

    player: int
    amount: int
    cards: tuple[Card, ...] | None
    reason: str
    """``turn``, ``penalty``, ``challenge`` (the loser of a challenge) or ``caught``."""

    def __init__(self, player: int, amount: int, cards: tuple[Card, ...] | None, reason: str) -> None:
        self.player = player
        self.amount = amount
        self.cards = cards
        self.reason = reason


@dataclass(slots=True, init=False)
class Passed:
    player: int

    def __init__(self, player: int) -> None:  # written out, as in Played
        self.player = player


@dataclass(slots=True)
class RunEnded:
    """``same_number_together``: ``player`` passed amid a run of one number, ending the turn
    (the run's last card then has its effect)."""

    player: int


@dataclass(slots=True)
class Eliminated:
    """``elimination``: a draw brought ``player`` to ``held`` cards, out of the round."""

    player: int
    held: int


@dataclass(slots=True)
class ColorChosen:
    """The dealer chose the colour for a starting Wild."""

    player: int
    color: Color


@dataclass(slots=True, init=False)
class UnoCalled:
    player: int

    def __init__(self, player: int) -> None:  # written out, as in Played
        self.player = player


@dataclass(slots=True)
class Caught:
    """``catcher`` caught ``target``, who had not called UNO (the 2 cards follow as Drew)."""

    catcher: int
    target: int


@dataclass(slots=True, init=False)
class Skipped:
    player: int

    def __init__(self, player: int) -> None:  # written out, as in Played
        self.player = player


@dataclass(slots=True, init=False)
class DirectionChanged:
    direction: int
    """1 clockwise, -1 counter-clockwise."""

    def __init__(self, direction: int) -> None:  # written out, as in Played
        self.direction = direction


@dataclass(slots=True, init=False)
class PenaltyPending:
    """``player`` now faces a draw penalty of ``amount`` cards."""

    player: int
    amount: int
    challengeable: bool

    def __init__(self, player: int, amount: int, challengeable: bool) -> None:  # written out, as in Played
        self.player = player
        self.amount = amount
        self.challengeable = challengeable


@dataclass(slots=True)
class Challenged:
    """``challenger`` challenged ``challenged``'s W+4; ``hand`` is shown to the challenger."""

    challenger: int
    challenged: int
    guilty: bool
    hand: tuple[Card, ...] | None


@dataclass(slots=True)
class HandsSwapped:
    """A 7: ``player`` and ``target`` swapped hands."""

    player: int
    target: int


@dataclass(slots=True)
class HandsPassed:
    """A 0: every hand moved to the next player in ``direction``."""

    direction: int


@dataclass(slots=True)
class Reshuffled:
    """The discard pile less its top card became the draw pile (``pile`` top first)."""

    size: int
    pile: tuple[Card, ...] | None


@dataclass(slots=True, init=False)
class RoundEnded:
    """``winner`` emptied their hand and scored ``points``; ``hands`` are shown to all."""

    winner: int
    points: int
    hands: tuple[tuple[Card, ...], ...]
    scores: tuple[int, ...]

    def __init__(  # written out, as in Played: every searched world's round ends with one
        self, winner: int, points: int, hands: tuple[tuple[Card, ...], ...], scores: tuple[int, ...]
    ) -> None:
        self.winner = winner
        self.points = points
        self.hands = hands
        self.scores = scores


@dataclass(slots=True, init=False)
class MatchEnded:
    winner: int
    scores: tuple[int, ...]

    def __init__(self, winner: int, scores: tuple[int, ...]) -> None:  # written out, as in RoundEnded
        self.winner = winner
        self.scores = scores


Event = (
    Dealt
    | StartingCardReturned
    | StartingCard
    | Played
    | Drew
    | Passed
    | RunEnded
    | Eliminated
    | ColorChosen
    | UnoCalled
    | Caught
    | Skipped
    | DirectionChanged
    | PenaltyPending
    | Challenged
    | HandsSwapped
    | HandsPassed
    | Reshuffled
    | RoundEnded
    | MatchEnded
)


def _reduced(event: Event) -> tuple[Any, ...]:
    """An event for pickling and deepcopy: its class and its fields, in the constructor's
    order (a compiled event with a written-out constructor has no other way back)."""
    return type(event), tuple([getattr(event, field.name) for field in fields(event)])


for _kind in get_args(Event):
    copyreg.pickle(_kind, _reduced)


def _kind_name(kind: type) -> str:
    """A kind of event's name in JSON: its class's name in snake case (``PenaltyPending``:
    ``penalty_pending``)."""
    return "".join("_" + c.lower() if c.isupper() else c for c in kind.__name__).lstrip("_")


EVENT_KINDS: tuple[str, ...] = tuple([_kind_name(kind) for kind in get_args(Event)])
"""The ``event`` names :func:`to_json` writes, one per kind of event, in the order of :data:`Event`."""


def redact(event: Event, seat: int | None, sees: Collection[int] = ()) -> Event:
    """The event as ``seat`` may see it (``None``: a spectator, who sees no hidden card);
    ``sees`` are the other seats whose hands it sees (its partners under the house rule
    ``team_view``: :meth:`~unomas.rules.Rules.seen_hands`)."""
    if isinstance(event, Drew):
        return event if seat == event.player or event.player in sees else replace(event, cards=None)
    if isinstance(event, Dealt):
        hands = tuple(hand if i == seat or i in sees else None for i, hand in enumerate(event.hands))
        return replace(event, hands=hands, pile=None)
    if isinstance(event, StartingCardReturned | Reshuffled):
        return replace(event, pile=None)
    if isinstance(event, Challenged):
        visible = seat in (event.challenger, event.challenged) or event.challenged in sees
        return event if visible else replace(event, hand=None)
    return event


def to_json(event: Event) -> dict[str, Any]:
    """The event as JSON, cards as tokens and colours as letters, for protocols.

    ``event`` names its kind in snake case (``played``, ``penalty_pending``), the other
    keys are the dataclass's fields; secret parts hidden by :func:`redact` are ``null``.

    >>> from unomas.cards import parse_card
    >>> to_json(Played(1, parse_card("W"), 3, None, False, False))
    {'event': 'played', 'player': 1, 'card': 'W', 'color': 'B', 'target': None, 'uno': False, 'jump_in': False}
    >>> to_json(redact(Drew(0, 2, (parse_card("R7"), parse_card("W+4")), "penalty"), 1))
    {'event': 'drew', 'player': 0, 'amount': 2, 'cards': None, 'reason': 'penalty'}
    """
    out: dict[str, Any] = {"event": _kind_name(type(event))}
    for item in fields(event):
        key = item.name
        value = getattr(event, key)
        if value is None:
            out[key] = None
        elif key == "card":
            out[key] = card_token(value)
        elif key == "color":
            out[key] = COLOR_LETTERS[value]
        elif key in ("cards", "pile", "hand"):
            out[key] = [card_token(c) for c in value]
        elif key == "hands":
            out[key] = [None if hand is None else [card_token(c) for c in hand] for hand in value]
        elif isinstance(value, tuple):
            out[key] = list(value)
        else:
            out[key] = value
    return out
