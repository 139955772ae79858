"""The bot levels people choose from: one registry for the setup screens, the catalogs and
the server.

Each level is a bot spec with a label (an English message id, translated by the catalogs
through :func:`unomas.i18n.bot_label`), weakest first. ``in_rooms`` marks the levels a
server room may seat: built in and quick, never a program of the host's choosing.
``learned``, the network, is the strongest level: it beats both searches at a hundredth
of their time (README, "The learned bot").
Each level slips as people do at its own rates (:func:`slips`), which the setup screens show
beside it: the weaker levels forget UNO and let catches go more often, the strongest never.

>>> [level.spec for level in LEVELS if level.in_rooms]
['random', 'playfirst', 'heuristic', 'learned']
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LEVELS", "ROOM_LEVELS", "Level", "level_of", "slips"]


def N_(message: str) -> str:
    """Marks a message for the catalogs without translating it (gettext's convention)."""
    return message


@dataclass(frozen=True, slots=True)
class Level:
    """One bot level: its spec, its label's message id, and whether rooms offer it."""

    spec: str
    label: str
    in_rooms: bool = False


LEVELS: tuple[Level, ...] = (
    Level("random", N_("random (1, easiest)"), in_rooms=True),
    Level("playfirst", N_("playfirst (2)"), in_rooms=True),
    Level("heuristic", N_("heuristic (3)"), in_rooms=True),
    Level("ismcts:iterations=300", N_("ismcts 300 (4)")),
    Level("ismcts:iterations=1500", N_("ismcts 1500 (5)")),
    Level("learned", N_("learned (6, strongest)"), in_rooms=True),
)

ROOM_LEVELS: tuple[str, ...] = tuple(level.spec for level in LEVELS if level.in_rooms)
"""The specs a server room may seat."""


def level_of(spec: str) -> Level | None:
    """The level of ``spec``, or None for a spec that is not one of the levels."""
    return next((level for level in LEVELS if level.spec == spec), None)


def slips(spec: str) -> tuple[float, float]:
    """How often the bot of ``spec`` forgets UNO and lets a catch go (its bot's
    :attr:`~unomas.bots.base.Bot.forget` and :attr:`~unomas.bots.base.Bot.miss`).

    >>> [slips(level.spec) for level in LEVELS[1:3]]
    [(0.1, 0.5), (0.2, 0.25)]
    >>> slips("heuristic:forget=0.05:miss=0")
    (0.05, 0.0)
    """
    from unomas.bots import make_bot

    bot = make_bot(spec)
    try:
        return bot.forget, bot.miss
    finally:
        bot.close()
