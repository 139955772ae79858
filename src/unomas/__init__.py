"""unomas: UNO with every house rule — a fast, exact engine, records, bots and front ends.

The engine core (cards, rules, actions, events, game, view, record) imports only the
standard library; everything else builds on it.
"""

from unomas.actions import Action, Kind
from unomas.cards import Card, Color, card_token, parse_card, parse_color
from unomas.errors import DealError, IllegalAction, NotationError, RecordError, SettingsError, UnoError
from unomas.game import Deal, Game, Phase
from unomas.rules import Rules
from unomas.view import View

__version__ = "0.1.0"

__all__ = [
    "Action",
    "Card",
    "Color",
    "Deal",
    "DealError",
    "Game",
    "IllegalAction",
    "Kind",
    "NotationError",
    "Phase",
    "RecordError",
    "Rules",
    "SettingsError",
    "UnoError",
    "View",
    "card_token",
    "parse_card",
    "parse_color",
]
