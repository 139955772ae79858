"""unomas: UNO with every house rule — a fast, exact engine, records, bots and front ends.

The engine core (cards, rules, actions, events, position, game, view, record) imports only
the standard library; the conductor plays a match around it, and every front door builds on
the conductor.

Its names load with the first one asked for (``from unomas import Game``): a program that
imports one module of the package (``unomas simulate`` its self-play) loads only what that
module needs.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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


_HOMES = {
    **dict.fromkeys(("Action", "Kind"), "actions"),
    **dict.fromkeys(("Card", "Color", "card_token", "parse_card", "parse_color"), "cards"),
    **dict.fromkeys(("Conductor", "MatchSummary"), "conductor"),
    **dict.fromkeys(("DealError", "IllegalAction", "NotationError", "PositionError"), "errors"),
    **dict.fromkeys(("RecordError", "SettingsError", "StaleAction", "UnoError"), "errors"),
    **dict.fromkeys(("Deal", "Game", "Phase"), "game"),
    "Position": "position",
    "Rules": "rules",
    "View": "view",
}
"""The module of each name of :data:`__all__`."""


def __getattr__(name: str) -> Any:
    """A name of :data:`__all__`, loaded from its module when first asked for."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'unomas' has no attribute {name!r}")
    value = getattr(import_module(f"unomas.{home}"), name)
    globals()[name] = value
    return value
