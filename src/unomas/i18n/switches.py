"""The house-rule switches as people read them, for every setup screen (terminal and browser).

The switches themselves are the engine's (:data:`unomas.rules.SWITCHES`); this module only
groups them and gives each a short title and a one-line explanation, in the chosen language.

>>> groups = switch_groups("en")
>>> [group.title for group in groups]
['Draw cards', 'Playing', 'Drawing from the pile', 'Scoring', 'Teams']
>>> groups[1].switches[1]
SwitchText(name='jump_in', title='Jump in', explanation='play an identical card out of turn')
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import cache
from typing import Any

from unomas.i18n import Translations, _t
from unomas.rules import SWITCHES, Rules

__all__ = ["SwitchGroup", "SwitchText", "switch_groups", "switches_json"]


@dataclass(frozen=True, slots=True)
class SwitchText:
    """One switch: its setting name, short title and one-line explanation."""

    name: str
    title: str
    explanation: str


@dataclass(frozen=True, slots=True)
class SwitchGroup:
    """Switches shown together under one title."""

    title: str
    switches: tuple[SwitchText, ...]


def switch_groups(lang: str | Translations) -> list[SwitchGroup]:
    """Every switch of :data:`~unomas.rules.SWITCHES` once, grouped; groups and switches in
    the order of the rules (a group comes where its first switch does)."""
    t = _t(lang)
    draw_cards, playing, drawing = t.gettext("Draw cards"), t.gettext("Playing"), t.gettext("Drawing from the pile")
    scoring, teams = t.gettext("Scoring"), t.gettext("Teams")
    texts = {  # name: (group, title, explanation)
        "challenge_wild_draw_four": (
            draw_cards,
            t.gettext("Challenge the Wild Draw Four"),
            t.gettext("W+4 only without the colour in play; the next player may challenge it"),
        ),
        "stack_draw_two": (draw_cards, t.gettext("+2 on +2"), t.gettext("answer a Draw Two with a Draw Two")),
        "stack_draw_four": (
            draw_cards,
            t.gettext("+4 on +4"),
            t.gettext("answer a Wild Draw Four with a Wild Draw Four"),
        ),
        "stack_mixed": (
            draw_cards,
            t.gettext("Mixed stacking"),
            t.gettext("+4 answers +2, and a +2 of the chosen colour answers +4"),
        ),
        "seven_zero": (
            playing,
            t.gettext("7-0 rule"),
            t.gettext("a 7 swaps hands with a player, a 0 passes every hand on"),
        ),
        "jump_in": (playing, t.gettext("Jump in"), t.gettext("play an identical card out of turn")),
        "force_play_drawn": (
            drawing,
            t.gettext("Play the drawn card"),
            t.gettext("a playable drawn card must be played"),
        ),
        "draw_until_playable": (
            drawing,
            t.gettext("Draw until playable"),
            t.gettext("keep drawing until a playable card comes"),
        ),
        "no_action_finish": (
            playing,
            t.gettext("No action finish"),
            t.gettext("the last card may not be an action or wild card"),
        ),
        "reverse_deflect": (
            draw_cards,
            t.gettext("Reverse sends it back"),
            t.gettext("a Reverse of the colour in play sends a pending penalty back to who gave it"),
        ),
        "skip_deflect": (
            draw_cards,
            t.gettext("Skip passes it on"),
            t.gettext("a Skip of the colour in play passes a pending penalty on to the next player"),
        ),
        "seven_swap": (playing, t.gettext("7 swaps hands"), t.gettext("a 7 swaps hands with a chosen player")),
        "zero_pass": (playing, t.gettext("0 passes hands"), t.gettext("a 0 passes every hand on")),
        "no_wild_finish": (
            playing,
            t.gettext("No wild finish"),
            t.gettext("the last card may not be a wild card"),
        ),
        "alternative_scoring": (
            scoring,
            t.gettext("Alternative scoring"),
            t.gettext("each scores the cards left in their own hand; the lowest total wins"),
        ),
        "same_number_together": (
            playing,
            t.gettext("Same number together"),
            t.gettext("after a number card, play more of that number (any colour) before the turn ends"),
        ),
        "team_view": (
            teams,
            t.gettext("Partners see each other's hands"),
            t.gettext("with teams, each player sees the cards of their partners"),
        ),
    }
    grouped: dict[str, list[SwitchText]] = {}
    for name in SWITCHES:
        group, title, explanation = texts[name]
        grouped.setdefault(group, []).append(SwitchText(name, title, explanation))
    return [SwitchGroup(title, tuple(switches)) for title, switches in grouped.items()]


@cache
def switches_json(lang: str) -> list[dict[str, Any]]:
    """:func:`switch_groups` for a browser: ``[{title, switches: [{name, title, explanation,
    official}]}]``, where ``official`` tells whether the official rules have the switch on."""
    official = Rules.preset("official")
    return [
        {
            "title": group.title,
            "switches": [asdict(switch) | {"official": getattr(official, switch.name)} for switch in group.switches],
        }
        for group in switch_groups(lang)
    ]
