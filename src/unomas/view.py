"""What one seat may know: the only way hidden state leaves the engine toward a player.

A :class:`View` is one seat's redaction of the game's :class:`~unomas.position.Position`:
its fields are the position's, less what the seat may not see, plus a few it derives
(:data:`DERIVED`). It holds the seat's own hand, everyone's card counts, the public table (top
card, colour, direction, discard pile, pending penalty, who may be caught, scores) and
the seat's legal actions — never another hand or the draw pile's order. A spectator's
view (seat ``None``) holds no hand at all.

What a seat may know beyond the public table is defined here once, by four small
functions that every observer of a seat (:func:`make_view`, the RL observations) reads:
:func:`own_hand`, :func:`drawn_card`, :func:`shown_hand` and :func:`partner_hands` (a
partner's hand, under the house rule ``team_view``). Who is a partner is public
(:meth:`~unomas.rules.Rules.partners`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from unomas.actions import Action
from unomas.cards import COLOR_LETTERS, Card, card_token
from unomas.position import Phase
from unomas.rules import Rules

if TYPE_CHECKING:  # the game imports this module, never the reverse
    from unomas.game import Game

DERIVED: Final = (
    "seat",
    "rules",
    "hand",
    "hand_sizes",
    "top",
    "pile_size",
    "shown_hand",
    "partners",
    "partner_hands",
    "legal_actions",
)
"""The fields of a :class:`View` that are not :class:`~unomas.position.Position` fields: who
looks, the rules the position is read under, and what the seat's redaction derives from the
position (its own hand, the counts, the top card, the hand shown to it, its partners and the
hands it sees of them, its actions)."""


@dataclass(frozen=True, slots=True)
class View:
    """One seat's knowledge of the game at one moment: a redaction of its position."""

    seat: int | None
    rules: Rules
    round: int
    ply: int
    """Actions the match has applied so far: an action may name the ply it answers."""
    dealer: int
    phase: Phase
    current: int
    """The seat on turn (the dealer while choosing a starting colour)."""
    hand: tuple[Card, ...]
    """This seat's cards (empty for a spectator)."""
    hand_sizes: tuple[int, ...]
    top: Card
    color: int | None
    """The colour in play; None while the dealer has not chosen one."""
    direction: int
    pile_size: int
    discard: tuple[Card, ...]
    """The discard pile, bottom first: every card played since the last reshuffle."""
    penalty: int
    """The draw penalty the player on turn faces (0 if none)."""
    challengeable: bool
    """Whether that penalty comes from a W+4 that may be challenged."""
    accused: int | None
    """The seat a challenge would accuse: who played that W+4 (None if nothing is challengeable)."""
    drawn: Card | None
    """The playable card this seat just drew and may play (None otherwise)."""
    uno_pending: int | None
    """The seat that must call UNO and may be caught until the next turn action."""
    shown_hand: tuple[int, tuple[Card, ...]] | None
    """After this seat challenged: the challenged seat and the hand it showed."""
    partners: tuple[int, ...]
    """The other seats of this seat's team (house rule ``teams``; none without teams or for a spectator)."""
    partner_hands: tuple[tuple[int, tuple[Card, ...]], ...]
    """Under ``team_view``: each partner's seat and cards (none otherwise)."""
    scores: tuple[int, ...]
    """Each seat's total; with teams, every member holds its team's total."""
    winner: int | None
    """The match winner, once the match is over."""
    legal_actions: tuple[Action, ...]

    def to_json(self, *, rules: bool = True) -> dict[str, Any]:
        """The view with cards as tokens, for protocols and front ends; ``rules=False``
        leaves the rules out, for a protocol that sends them once."""
        sent: dict[str, Any] = {"seat": self.seat}
        if rules:
            sent["rules"] = self.rules.to_dict()
        return sent | {
            "round": self.round,
            "ply": self.ply,
            "dealer": self.dealer,
            "phase": self.phase.name.lower(),
            "current": self.current,
            "hand": [card_token(c) for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "top": card_token(self.top),
            "color": None if self.color is None else COLOR_LETTERS[self.color],
            "direction": self.direction,
            "pile_size": self.pile_size,
            "discard": [card_token(c) for c in self.discard],
            "penalty": self.penalty,
            "challengeable": self.challengeable,
            "accused": self.accused,
            "drawn": None if self.drawn is None else card_token(self.drawn),
            "uno_pending": self.uno_pending,
            "shown_hand": None
            if self.shown_hand is None
            else {"seat": self.shown_hand[0], "hand": [card_token(c) for c in self.shown_hand[1]]},
            "partners": list(self.partners),
            "partner_hands": [
                {"seat": seat, "hand": [card_token(c) for c in hand]} for seat, hand in self.partner_hands
            ],
            "scores": list(self.scores),
            "winner": self.winner,
            "legal_actions": [a.to_json() for a in self.legal_actions],
        }


def hand_sizes(game: Game) -> list[int]:
    """How many cards each seat holds: public, unlike the cards themselves."""
    return [len(hand) for hand in game.hands]


def own_hand(game: Game, seat: int | None) -> list[Card]:
    """The cards ``seat`` holds: the game's own list (read it, never change it), or a new
    empty list for a spectator (``None``) or a seat that does not exist."""
    if seat is None or not 0 <= seat < game.players:
        return []
    return game.hands[seat]


def drawn_card(game: Game, seat: int | None) -> Card | None:
    """The playable card ``seat`` just drew and may now play or keep (the DRAWN phase):
    only the seat on turn knows it; None for every other seat and a spectator."""
    drawn = game.drawn
    if drawn is None or seat != game.current:
        return None
    return drawn


def shown_hand(game: Game, seat: int | None) -> tuple[int, tuple[Card, ...]] | None:
    """The hand shown to ``seat`` after it challenged a W+4, as (the challenged seat, its
    cards), until the next turn action; None for every other seat and a spectator."""
    shown = game.shown
    if shown is None or seat is None or shown[0] != seat:
        return None
    return shown[1], shown[2]


def partner_hands(game: Game, seat: int | None) -> tuple[tuple[int, tuple[Card, ...]], ...]:
    """The hands ``seat`` sees of its partners, as (seat, cards): every partner's under the
    house rule ``team_view``, none otherwise (nor for a spectator)."""
    return tuple((other, tuple(game.hands[other])) for other in game.rules.seen_hands(seat))


def make_view(game: Game, seat: int | None) -> View:
    """The view of ``game`` for ``seat`` (``None``: a spectator): the public table, and
    what the seat alone may know (:func:`own_hand`, :func:`drawn_card`, :func:`shown_hand`,
    :func:`partner_hands`)."""
    return View(
        seat=seat,
        rules=game.rules,
        round=game.round,
        ply=game.ply,
        dealer=game.dealer,
        phase=game.phase,
        current=game.current,
        hand=tuple(own_hand(game, seat)),
        hand_sizes=tuple(hand_sizes(game)),
        top=game.discard[-1],
        color=game.color,
        direction=game.direction,
        pile_size=len(game.pile),
        discard=tuple(game.discard),
        penalty=game.penalty,
        challengeable=game.challengeable,
        accused=game.accused if game.challengeable else None,
        drawn=drawn_card(game, seat),
        uno_pending=game.uno_pending,
        shown_hand=shown_hand(game, seat),
        partners=() if seat is None else game.rules.partners(seat),
        partner_hands=partner_hands(game, seat),
        scores=tuple(game.scores),
        winner=game.winner,
        legal_actions=tuple(game.legal_actions(seat)) if seat is not None else (),
    )
