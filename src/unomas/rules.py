"""The settings of a game (every house rule is a switch), presets and validation.

>>> Rules.preset("all").stack_mixed
True
>>> Rules().with_settings(["jump_in=true", "players=3"]).players
3
>>> Rules(players=11)
Traceback (most recent call last):
...
unomas.errors.SettingsError: A match has 2 to 10 players, not 11.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from unomas.cards import DECK_SIZE
from unomas.errors import SettingsError
from unomas.refusals import json_type

SETTING_HELP: dict[str, str] = {
    "players": "2 to 10 seats, numbered 0…n-1 clockwise",
    "hand_size": "cards dealt to each; players × hand_size ≤ 99",
    "target_score": "the match ends after the round in which someone reaches it; 0 = a single round",
    "challenge_wild_draw_four": "Wild Draw Four restriction and challenge (official rule)",
    "stack_draw_two": "+2 on +2",
    "stack_draw_four": "+4 on +4",
    "stack_mixed": "+4 answers +2, and +2 (of the chosen colour) answers +4",
    "seven_zero": "7 swaps hands with a chosen player, 0 passes all hands on",
    "jump_in": "play an identical card out of turn",
    "force_play_drawn": "a playable drawn card must be played",
    "draw_until_playable": "keep drawing until a playable card comes",
    "no_action_finish": "the last card may not be an action or wild card",
    "reverse_deflect": "a Reverse of the colour in play sends a pending penalty back",
    "skip_deflect": "a Skip of the colour in play passes a pending penalty on",
    "seven_swap": "7 swaps hands with a chosen player (the 7 of seven_zero)",
    "zero_pass": "0 passes all hands on (the 0 of seven_zero)",
    "no_wild_finish": "the last card may not be a wild card",
    "alternative_scoring": "each scores the cards left in their own hand; the lowest total wins",
    "same_number_together": "after a number card, play more of that number (any colour) before the turn ends",
    "uno_penalty": "cards drawn for a missed UNO: 2, 4 or 6",
    "hand_limit": "a player at this many cards draws no more; 0 = no limit",
    "elimination": "a player holding this many cards is out of the round; 0 = never",
    "teams": "none, 2v2 (4 seats), 3v3 (6 seats) or pairs (4, 6, 8 or 10 seats); partners sit opposite",
    "team_view": "partners see each other's hands (with teams)",
}
"""One line per setting: those of RULES.md, then the house rules of docs/house-rules.md."""

SEED_SETTINGS: Final = tuple(SETTING_HELP)[:12]
"""The settings of RULES.md, which a record always writes out; the later ones of
docs/house-rules.md are written only when they differ from their default."""

HOUSE_NUMBERS: Final = ("uno_penalty", "hand_limit", "elimination")
"""The house rules set by a number rather than on or off (docs/house-rules.md)."""

TEAMS: Final = ("none", "2v2", "3v3", "pairs")
"""The values of ``teams`` (docs/house-rules.md, "Teams"): none, two teams of two, two
teams of three, or teams of two at any even table of 4 to 10."""

SWITCHES: Final = tuple(
    name for name in SETTING_HELP if name not in ("players", "hand_size", "target_score", "teams", *HOUSE_NUMBERS)
)
"""The house-rule switches (the on/off settings), in the order of the rule texts."""

UNO_PENALTIES: Final = (2, 4, 6)

_TEAM_SEATS: Final = {"2v2": (4,), "3v3": (6,), "pairs": (4, 6, 8, 10)}
"""The table sizes each kind of teams is played at."""

PRESETS = ("official", "all", "familia", "caos")

_PRESET_SETTINGS: Final[dict[str, dict[str, Any]]] = {
    "familia": {
        "stack_draw_two": True,
        "stack_draw_four": True,
        "reverse_deflect": True,
        "skip_deflect": True,
        "no_wild_finish": True,
    },
    "caos": {
        "challenge_wild_draw_four": False,
        "stack_draw_two": True,
        "stack_draw_four": True,
        "stack_mixed": True,
        "seven_swap": True,
        "zero_pass": True,
        "jump_in": True,
        "draw_until_playable": True,
        "reverse_deflect": True,
        "skip_deflect": True,
        "uno_penalty": 4,
        "elimination": 25,
    },
}
"""The named presets beside ``official`` and ``all`` (docs/house-rules.md)."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The settings of RULES.md; defaults are the official rules.

    Constructing one validates it: a bad value raises :class:`SettingsError` naming it.
    """

    players: int = 4
    hand_size: int = 7
    target_score: int = 500
    challenge_wild_draw_four: bool = True
    stack_draw_two: bool = False
    stack_draw_four: bool = False
    stack_mixed: bool = False
    seven_zero: bool = False
    jump_in: bool = False
    force_play_drawn: bool = False
    draw_until_playable: bool = False
    no_action_finish: bool = False
    reverse_deflect: bool = False
    skip_deflect: bool = False
    seven_swap: bool = False
    zero_pass: bool = False
    no_wild_finish: bool = False
    alternative_scoring: bool = False
    same_number_together: bool = False
    uno_penalty: int = 2
    hand_limit: int = 0
    elimination: int = 0
    teams: str = "none"
    team_view: bool = False

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if isinstance(field.default, bool):
                if not isinstance(value, bool):
                    raise SettingsError("setup.not_boolean", name=field.name, value=repr(value))
            elif isinstance(field.default, str):
                if value not in TEAMS:
                    raise SettingsError("setup.teams_unknown", value=repr(value), known=", ".join(TEAMS))
            elif not isinstance(value, int) or isinstance(value, bool):
                raise SettingsError("setup.not_integer", name=field.name, value=repr(value))
        if not 2 <= self.players <= 10:
            raise SettingsError("setup.players_range", value=self.players)
        if self.hand_size < 1:
            raise SettingsError("setup.hand_size_range", value=self.hand_size)
        if self.players * self.hand_size > DECK_SIZE - 9:
            raise SettingsError(
                "setup.too_many_cards",
                players=self.players,
                hand_size=self.hand_size,
                total=self.players * self.hand_size,
            )
        if self.target_score < 0:
            raise SettingsError("setup.target_score_range", value=self.target_score)
        if self.uno_penalty not in UNO_PENALTIES:
            raise SettingsError("setup.uno_penalty_range", value=self.uno_penalty)
        if self.hand_limit != 0 and self.hand_limit <= self.hand_size:
            raise SettingsError("setup.hand_limit_range", value=self.hand_limit, hand_size=self.hand_size)
        if self.elimination != 0 and self.elimination <= self.hand_size:
            raise SettingsError("setup.elimination_range", value=self.elimination, hand_size=self.hand_size)
        if self.teams != "none" and self.players not in _TEAM_SEATS[self.teams]:
            seats = " or ".join(str(n) for n in _TEAM_SEATS[self.teams])
            raise SettingsError("setup.teams_players", teams=self.teams, seats=seats, players=self.players)

    @property
    def team_count(self) -> int:
        """How many teams sit at the table: 0 without teams, 2 for ``2v2`` and ``3v3``, half
        the seats for ``pairs``."""
        if self.teams == "none":
            return 0
        return self.players // 2 if self.teams == "pairs" else 2

    def team_of(self, seat: int) -> int:
        """The team of ``seat``, numbered from 0: partners sit opposite, so team
        ``seat % team_count`` (alternating seats with two teams, ``i`` and ``i + n/2`` with
        pairs); without teams every seat is a team of its own.

        >>> [Rules(players=6, teams="pairs").team_of(s) for s in range(6)]
        [0, 1, 2, 0, 1, 2]
        """
        count = self.team_count
        return seat % count if count else seat

    def partners(self, seat: int) -> tuple[int, ...]:
        """The other seats of ``seat``'s team, in seat order (none without teams)."""
        count = self.team_count
        if not count or not 0 <= seat < self.players:
            return ()
        return tuple(other for other in range(seat % count, self.players, count) if other != seat)

    def winners(self, seat: int) -> tuple[int, ...]:
        """The seats that win when ``seat`` wins: ``seat`` and its partners, in seat order."""
        return tuple(sorted((seat, *self.partners(seat))))

    def seen_hands(self, seat: int | None) -> tuple[int, ...]:
        """The seats whose hands ``seat`` sees besides its own: its partners under
        ``team_view``, else none (a spectator, ``None``, sees none)."""
        if seat is None or not self.team_view:
            return ()
        return self.partners(seat)

    @property
    def swaps_on_seven(self) -> bool:
        """Whether a 7 swaps hands: ``seven_swap``, or ``seven_zero`` (both halves)."""
        return self.seven_zero or self.seven_swap

    @property
    def passes_on_zero(self) -> bool:
        """Whether a 0 passes every hand on: ``zero_pass``, or ``seven_zero`` (both halves)."""
        return self.seven_zero or self.zero_pass

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> Rules:
        """``official`` (the defaults), ``all`` (every house rule on: every switch, a UNO
        penalty of 4 and a hand limit of 25, under which elimination would be moot; teams
        stay off, being a choice of table),
        ``familia`` or ``caos``, with overrides."""
        if name == "official":
            return cls(**overrides)
        if name == "all":
            switches: dict[str, Any] = dict.fromkeys(SWITCHES, True) | {"uno_penalty": 4, "hand_limit": 25}
            return cls(**_fit_limit(switches | overrides))
        if name in _PRESET_SETTINGS:
            return cls(**_fit_limit(_PRESET_SETTINGS[name] | overrides))
        raise SettingsError("setup.unknown_preset", name=repr(name), known=", ".join(PRESETS))

    @classmethod
    def from_dict(cls, settings: Mapping[str, Any], *, complete: bool = False) -> Rules:
        """Rules from a mapping of setting names; ``complete`` requires every setting of
        RULES.md (a house rule left out is at its default)."""
        if not isinstance(settings, Mapping):
            raise SettingsError("setup.not_an_object", type=json_type(settings))
        unknown = sorted(set(settings) - set(SETTING_HELP))
        if unknown:
            raise _unknown_setting(unknown[0])
        if complete:
            missing = [name for name in SEED_SETTINGS if name not in settings]
            if missing:
                raise SettingsError("setup.missing_setting", name=repr(missing[0]))
        return cls(**settings)

    def to_dict(self) -> dict[str, Any]:
        """Every setting of RULES.md by name, in its order, then each house rule of
        docs/house-rules.md that is not at its default: rules of the eight seed switches
        write exactly what they always did."""
        settings = {name: getattr(self, name) for name in SEED_SETTINGS}
        for field in dataclasses.fields(self)[len(SEED_SETTINGS) :]:
            value = getattr(self, field.name)
            if value != field.default:
                settings[field.name] = value
        return settings

    def replace(self, **changes: Any) -> Rules:
        """A copy with some settings changed (validated)."""
        return self.from_dict(self.to_dict() | changes)

    def with_settings(self, assignments: Iterable[str]) -> Rules:
        """A copy with ``NAME=VALUE`` strings applied (``"stack_mixed=true"``)."""
        changes: dict[str, Any] = {}
        for assignment in assignments:
            name, sep, text = assignment.partition("=")
            name, text = name.strip(), text.strip()
            if not sep or not name:
                raise SettingsError("setup.not_an_assignment", text=repr(assignment))
            if name not in SETTING_HELP:
                raise _unknown_setting(name)
            current = getattr(self, name)
            changes[name] = (
                text if isinstance(current, str) else _parse_value(name, text, bool_setting=isinstance(current, bool))
            )
        return self.replace(**changes)


def _fit_limit(settings: dict[str, Any]) -> dict[str, Any]:
    """A preset's hand limit or elimination of 25 raised above a larger hand size given
    with it (either must exceed the cards dealt)."""
    hand_size = settings.get("hand_size", 7)
    for name in ("hand_limit", "elimination"):
        if settings.get(name, 0) == 25 and isinstance(hand_size, int) and hand_size >= 25:
            settings = settings | {name: hand_size + 1}
    return settings


def _unknown_setting(name: str) -> SettingsError:
    return SettingsError("setup.unknown_setting", name=repr(name), known=", ".join(SETTING_HELP))


def _parse_value(name: str, text: str, *, bool_setting: bool) -> bool | int:
    if bool_setting:
        lowered = text.lower()
        if lowered in ("true", "yes", "on", "1"):
            return True
        if lowered in ("false", "no", "off", "0"):
            return False
        raise SettingsError("setup.not_boolean", name=name, value=repr(text))
    try:
        return int(text)
    except ValueError:
        raise SettingsError("setup.not_integer", name=name, value=repr(text)) from None
