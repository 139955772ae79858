"""unomas: UNO with every house rule — a fast, exact engine, records, bots and front ends.

The engine core (cards, rules, actions, events, position, game, view, record) imports only
the standard library; the conductor plays a match around it, and every front door builds on
the conductor.
"""

from unomas.actions import Action, Kind
from unomas.cards import Card, Color, card_token, parse_card, parse_color
from unomas.conductor import Conductor, MatchSummary
from unomas.errors import (
    DealError,
    IllegalAction,
    NotationError,
    PositionError,
    RecordError,
    SettingsError,
    StaleAction,
    UnoError,
)
from unomas.game import Deal, Game, Phase
from unomas.position import Position
from unomas.rules import Rules
from unomas.view import View

__version__ = "0.1.0"

__all__ = [
    "Action",
    "Card",
    "Color",
    "Conductor",
    "Deal",
    "DealError",
    "Game",
    "IllegalAction",
    "Kind",
    "MatchSummary",
    "NotationError",
    "Phase",
    "Position",
    "PositionError",
    "RecordError",
    "Rules",
    "SettingsError",
    "StaleAction",
    "UnoError",
    "View",
    "card_token",
    "parse_card",
    "parse_color",
]
