"""The engine's values back from the room protocol's JSON: a seat's view and its events.

A bot plays a room's seat with what the server sent that seat, read back into the
engine's own :class:`~unomas.view.View` and events, so every bot (``cmd:`` programs
included) plays a remote seat exactly as it plays a local one. These invert
:meth:`View.to_json <unomas.view.View.to_json>` and :func:`unomas.events.to_json`; the
legal actions are the server's list, read with :meth:`Action.from_json
<unomas.actions.Action.from_json>`, never worked out here.

>>> from unomas.game import Game
>>> from unomas.rules import Rules
>>> from unomas.view import make_view
>>> game = Game(Rules(players=3), seed=7)
>>> view = make_view(game, 1)
>>> sent = view.to_json()
>>> del sent["rules"]  # the server sends the rules once, in its room message
>>> view_from_json(sent, game.rules) == view
True
"""

from __future__ import annotations

import typing
from typing import Any

from unomas import events
from unomas.actions import Action
from unomas.cards import Card, parse_card, parse_color
from unomas.position import Phase
from unomas.rules import Rules
from unomas.view import View

__all__ = ["event_from_json", "view_from_json"]

_KINDS: dict[str, type[Any]] = dict(zip(events.EVENT_KINDS, typing.get_args(events.Event), strict=True))
"""Each kind of event by the ``event`` name :func:`unomas.events.to_json` writes."""
_CARD_LISTS = ("cards", "pile", "hand")


def _cards(tokens: list[str] | None) -> tuple[Card, ...] | None:
    return None if tokens is None else tuple(parse_card(token) for token in tokens)


def view_from_json(data: dict[str, Any], rules: Rules) -> View:
    """The :class:`View` a view message describes, read under ``rules``."""
    shown = data["shown_hand"]
    return View(
        seat=data["seat"],
        rules=rules,
        round=data["round"],
        ply=data["ply"],
        dealer=data["dealer"],
        phase=Phase[data["phase"].upper()],
        current=data["current"],
        hand=tuple(parse_card(token) for token in data["hand"]),
        hand_sizes=tuple(data["hand_sizes"]),
        top=parse_card(data["top"]),
        color=None if data["color"] is None else parse_color(data["color"]),
        direction=data["direction"],
        pile_size=data["pile_size"],
        discard=tuple(parse_card(token) for token in data["discard"]),
        penalty=data["penalty"],
        challengeable=data["challengeable"],
        accused=data["accused"],
        drawn=None if data["drawn"] is None else parse_card(data["drawn"]),
        uno_pending=data["uno_pending"],
        shown_hand=None if shown is None else (shown["seat"], tuple(parse_card(c) for c in shown["hand"])),
        partners=tuple(data.get("partners", ())),
        partner_hands=tuple(
            (seen["seat"], tuple(parse_card(c) for c in seen["hand"])) for seen in data.get("partner_hands", ())
        ),
        scores=tuple(data["scores"]),
        winner=data["winner"],
        legal_actions=tuple(Action.from_json(move) for move in data["legal_actions"]),
    )


def event_from_json(data: dict[str, Any]) -> events.Event:
    """The event a JSON event describes (as :func:`unomas.events.to_json` wrote it).

    >>> from unomas.events import Drew, to_json
    >>> event = Drew(0, 2, (parse_card("R7"), parse_card("W+4")), "penalty")
    >>> event_from_json(to_json(event)) == event
    True
    """
    kind = _KINDS[data["event"]]
    fields: dict[str, Any] = {}
    for key, value in data.items():
        if key == "event":
            continue
        if value is None:
            fields[key] = None
        elif key == "card":
            fields[key] = parse_card(value)
        elif key == "color":
            fields[key] = parse_color(value)
        elif key in _CARD_LISTS:
            fields[key] = _cards(value)
        elif key == "hands":
            fields[key] = tuple(_cards(hand) for hand in value)
        elif isinstance(value, list):
            fields[key] = tuple(value)
        else:
            fields[key] = value
    event: events.Event = kind(**fields)
    return event
