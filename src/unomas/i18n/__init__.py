"""Words for people: gettext catalogs in Spanish and English, card names, narration.

The catalogs are standard gettext ones (domain ``unomas``): the ``.po`` sources live in
``locale/<lang>/LC_MESSAGES/unomas.po`` and the compiled ``.mo`` files beside them are
committed, so at run time only the standard library's :mod:`gettext` reads them (Babel
compiles them and is needed for development only; a test checks that each ``.mo`` holds
exactly its ``.po``). Message ids are the English text; both languages have two plural
forms, chosen by ``n != 1``.

Changing a message: the catalogs hold those of ``unomas.i18n``, ``unomas.tui``, ``unomas.cli``
and the browser page of ``unomas.server`` (its JavaScript, and the ``data-t`` attributes of
its HTML, see :mod:`unomas.i18n.extract`), as ``babel.cfg`` at the repository's root maps
them; a test reads the same file and checks that the catalogs hold exactly the messages in
use, all translated, placeholders kept. From the repository's root::

    pybabel extract -F babel.cfg --no-location -o unomas.pot .
    pybabel update -N --ignore-obsolete -w 120 -i unomas.pot -d src/unomas/i18n/locale -D unomas
    # translate the new entries; in en/ each text is its own id
    pybabel compile -d src/unomas/i18n/locale -D unomas

The house-rule switches' titles and explanations, for the terminal and browser setup
screens, are in :mod:`unomas.i18n.switches`.

>>> t = translator("es")
>>> t.gettext("Draw Two")
'Roba dos'
>>> from unomas.cards import parse_card
>>> card_name(parse_card("R+2"), "es"), card_name(parse_card("R+2"), "en")
('Roba dos rojo (R+2)', 'Red Draw Two (R+2)')
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from unomas.cards import (
    COLOR_LETTERS,
    COLOR_OF,
    DRAW_TWO,
    RANK_OF,
    REVERSE,
    SKIP,
    WILD,
    WILD_DRAW_FOUR,
    Card,
    Color,
    card_token,
)
from unomas.errors import RecordError, SettingsError
from unomas.refusals import TEMPLATES

if TYPE_CHECKING:
    from unomas.i18n.narration import describe, narrate

__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "LOCALE_DIR",
    "Translations",
    "bot_label",
    "card_name",
    "catalog_json",
    "color_name",
    "default_language",
    "describe",
    "error_messages",
    "error_text",
    "narrate",
    "record_error_text",
    "translator",
]

DOMAIN = "unomas"
LANGUAGES = ("es", "en")
"""The languages with a catalog; the first is the language of the rule texts."""
LOCALE_DIR = Path(__file__).resolve().parent / "locale"

Translations = gettext.NullTranslations


@cache
def translator(lang: str) -> Translations:
    """The gettext translations of ``lang`` (``es`` or ``en``); other names raise SettingsError."""
    if lang not in LANGUAGES:
        raise SettingsError(f"unknown language {lang!r} (languages are {', '.join(LANGUAGES)})")
    return gettext.translation(DOMAIN, localedir=LOCALE_DIR, languages=[lang])


def default_language(environ: dict[str, str] | None = None) -> str:
    """``es`` when the user's locale is Spanish, else ``en``.

    Reads ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` in gettext's order: the
    first one set decides.

    >>> default_language({"LANG": "es_AR.UTF-8"}), default_language({"LC_ALL": "C", "LANG": "es_ES"})
    ('es', 'en')
    """
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            first = value.split(":")[0]
            return "es" if first.lower().startswith("es") else "en"
    return "en"


def _t(lang: str | Translations) -> Translations:
    return translator(lang) if isinstance(lang, str) else lang


def color_name(color: Color, lang: str | Translations) -> str:
    """A colour's name on its own, with its letter: ``Rojo (R)``, ``Red (R)``."""
    t = _t(lang)
    names = (t.gettext("Red"), t.gettext("Yellow"), t.gettext("Green"), t.gettext("Blue"))
    return t.gettext("{color} ({letter})").format(color=names[color], letter=COLOR_LETTERS[color])


def _rank_name(card: Card, t: Translations) -> str:
    rank = RANK_OF[card]
    if card == WILD:
        return t.gettext("Wild")
    if card == WILD_DRAW_FOUR:
        return t.gettext("Wild Draw Four")
    if rank == SKIP:
        return t.gettext("Skip")
    if rank == REVERSE:
        return t.gettext("Reverse")
    if rank == DRAW_TWO:
        return t.gettext("Draw Two")
    return str(rank)


def card_name(card: Card, lang: str | Translations) -> str:
    """A card's name with its token, so colour is never the only carrier of it:
    ``Roba dos rojo (R+2)``, ``Comodín (W)`` (the narration says a wild's chosen colour
    in its own words: "… y elige azul")."""
    t = _t(lang)
    token = card_token(card)
    if card >= WILD:
        return t.gettext("{name} ({token})").format(name=_rank_name(card, t), token=token)
    return t.gettext("{color} {rank} ({token})").format(
        color=_in_card_color(COLOR_OF[card], t), rank=_rank_name(card, t), token=token
    )


def _in_card_color(color: Color, t: Translations) -> str:
    """A colour as it reads inside a card's name (``rojo`` in Spanish, ``Red`` in English)."""
    names = (
        t.pgettext("in a card name", "Red"),
        t.pgettext("in a card name", "Yellow"),
        t.pgettext("in a card name", "Green"),
        t.pgettext("in a card name", "Blue"),
    )
    return names[color]


def bot_label(spec: str, lang: str | Translations) -> str:
    """The name of a bot level on a setup screen (the spec itself for a bot without one).

    >>> bot_label("heuristic", "es"), bot_label("cmd:python my_bot.py", "es")
    ('heurístico (3)', 'cmd:python my_bot.py')
    """
    from unomas.bots.levels import level_of

    level = level_of(spec)
    return spec if level is None else _t(lang).gettext(level.label)


@cache
def catalog_json(lang: str) -> dict[str, str]:
    """Every message of ``lang``'s catalog as ``{msgid: text}``, for a browser.

    A plural message gives two entries: its singular id maps to the singular form and its
    plural id to the plural form (both languages pick the plural when ``n != 1``). Context
    messages are keyed ``context\\x04msgid``, as gettext stores them.
    """
    # English is the source language, so its plural form is the plural id itself.
    plural_ids = {key[0]: text for key, text in _messages("en").items() if isinstance(key, tuple) and key[1] == 1}
    out: dict[str, str] = {}
    for key, text in _messages(lang).items():
        if isinstance(key, tuple):
            out[key[0] if key[1] == 0 else plural_ids[key[0]]] = text
        elif key:  # the empty id holds the catalog's metadata
            out[key] = text
    return out


def _messages(lang: str) -> dict[str | tuple[str, int], str]:
    """The raw gettext catalog: plural forms are keyed ``(msgid, form)``."""
    catalog: dict[str | tuple[str, int], str] = vars(translator(lang))["_catalog"]
    return catalog


@cache
def error_messages(lang: str) -> dict[str, str]:
    """The words of each error code in ``lang``: ``{code: template}``, the template with the
    error's params as ``{name}`` placeholders (the codes :mod:`unomas.server.protocol` lists,
    and every reason code of :data:`unomas.refusals.TEMPLATES`, so that an error's
    ``reason_code`` reads in ``lang`` too; a browser gets these with the catalog).

    >>> error_messages("es")["move.not_your_turn"]
    'es el turno del jugador {current}'
    >>> error_text(
    ...     "move.illegal", {"reason": "...", "reason_code": "move.not_your_turn", "current": 2}, "es"
    ... )
    'Esa jugada no está permitida: es el turno del jugador 2'
    """
    t = translator(lang)
    return {
        **{code: t.gettext(template) for code, template in TEMPLATES.items()},
        "room.not_found": t.gettext("There is no room {room}."),
        "room.full": t.gettext("The room is full."),
        "room.started": t.gettext("The game has already started."),
        "room.not_host": t.gettext("Only the host can start the game."),
        "room.not_playing": t.gettext("The game has not started yet."),
        "room.over": t.gettext("The game is over."),
        "room.not_over": t.gettext("The game is not over: its record is revealed at the end."),
        "room.capacity": t.gettext("The server is full; try again later."),
        "seat.spectator": t.gettext("Spectators cannot act."),
        "seat.not_yours": t.gettext("You can only act for your own seat."),
        "auth.bad_token": t.gettext("This browser holds no seat in this room."),
        "hello.twice": t.gettext("This connection has already said hello."),
        "hello.first": t.gettext("Say hello first (with your seat's token, or none to watch)."),
        "rate.limited": t.gettext("Too many messages: slow down."),
        "message.invalid": t.gettext("This request is not valid ({field}): {reason}"),
        "message.too_long": t.gettext("The message is too long ({length} characters; at most {limit})."),
        "body.too_large": t.gettext("The request is too large (at most {limit} bytes)."),
        "setup.invalid": t.gettext("The room's settings are not valid ({field}): {reason}"),
        "lang.unknown": t.gettext("Unknown language: {lang}."),
        "move.illegal": t.gettext("That move is not allowed: {reason}"),
        "move.stale": t.gettext("Too late: the game moved on before your move arrived."),
        # server hardening
        "store.unavailable": t.gettext("The game could not be saved just now; try again in a moment."),
        "seat.taken_over": t.gettext("This seat is now being played in another window."),
        "origin.forbidden": t.gettext("Requests from another site are not accepted."),
        "body.not_json": t.gettext("The request must be JSON (Content-Type: application/json)."),
        "room.watchers_full": t.gettext("This room has as many spectators as it can take."),
        "client.limited": t.gettext(
            "Too many requests or connections from your address; try again in {retry_after} s."
        ),
        "hello.late": t.gettext("The connection said nothing for too long."),
        "server.restarting": t.gettext("The server is restarting; reconnecting…"),
        # names
        "name.invalid": t.gettext("That name cannot be used: {reason}"),
        "name.taken": t.gettext("Someone in this room is already called {name}."),
        "name.invisible": t.gettext("it has no visible letter."),
        "name.bidi": t.gettext("it holds characters that turn the text's direction."),
        "name.marks": t.gettext("it stacks too many accents on one letter."),
        "name.symbols": t.gettext("control characters and < > are not allowed."),
        "rematch.early": t.gettext("The match is not over yet: a rematch comes after it."),
        # clients of a room, and the agents' tables
        "link.invalid": t.gettext("{text} is not a room's link, a room's code nor a server's address."),
        "client.connection_lost": t.gettext("The connection to the room is closed."),
        "client.reconnecting": t.gettext("The connection was lost; reconnecting…"),
        "table.unknown": t.gettext("There is no table {table}: start a match or join a room first."),
    }


class _Kept(dict[str, Any]):
    """Params for a template: a placeholder with no value stays as it is."""

    def __missing__(self, key: str) -> str:
        return f"{{{key}}}"


def error_text(code: str, params: Mapping[str, Any], lang: str, fallback: str | None = None) -> str:
    """An error's words in ``lang``, from its code and params (an :class:`~unomas.errors.UnoError`'s
    ``code`` and ``params``, or those of a server's error message).

    A refused move's ``reason`` is the engine's English text; when the params also name a
    ``reason_code`` this catalog knows, its words in ``lang`` take the place of that text. An
    unknown code gives ``fallback`` (the error's English message), or else the code itself.

    >>> error_text("room.not_found", {"room": "ABC123"}, "es")
    'No hay ninguna sala ABC123.'
    >>> error_text("move.illegal", {"reason": "seat 1 is not on turn"}, "es")
    'Esa jugada no está permitida: seat 1 is not on turn'
    >>> error_text("move.illegal", {"reason": "...", "reason_code": "move.stale"}, "es")
    'Esa jugada no está permitida: Demasiado tarde: la partida siguió antes de que llegara tu jugada.'
    >>> error_text("bot.dreamt", {}, "es", "the bot dreamt")
    'the bot dreamt'
    """
    if code == RecordError.code:
        return record_error_text(params, lang)
    templates = error_messages(lang)
    template = templates.get(code)
    if template is None:
        return code if fallback is None else fallback
    values = _Kept(params)
    reason = params.get("reason_code")
    if isinstance(reason, str) and reason != code and reason in templates:
        values["reason"] = error_text(reason, params, lang)
    if isinstance(params.get("cause_code"), str):
        values["cause"] = _cause_text(params, lang)
    what = params.get("what")
    if isinstance(what, str):  # a part of a record (unomas.refusals.PARTS), an English msgid
        values["what"] = translator(lang).gettext(what)
    return template.format_map(values)


def _cause_text(params: Mapping[str, Any], lang: str) -> str:
    """The words in ``lang`` of the error a refusal wraps (its ``cause_code`` and
    ``cause_params``): those of its precise reason, or its English message without one."""
    cause: Mapping[str, Any] = params.get("cause_params") or {}
    english = str(params.get("cause", ""))
    reason = cause.get("reason_code")
    return error_text(reason, cause, lang, english) if isinstance(reason, str) else english


def record_error_text(params: Mapping[str, Any], lang: str, *, record: bool = True) -> str:
    """A :class:`~unomas.errors.RecordError`'s words in ``lang`` from its params: where
    (the record, unless ``record`` is false because it is said already, the round and the
    event, counted from 0) and why.

    >>> from unomas.record import replay
    >>> try:
    ...     replay({"format": "unomas-record/1", "rules": None})
    ... except RecordError as error:
    ...     print(record_error_text(error.located(record=0).params, "es"))
    registro 0: reglas (rules): los ajustes deben ser un objeto, no null
    """
    t = translator(lang)
    code = params.get("reason_code")
    english = str(params.get("reason", ""))
    reason = error_text(code, params, lang, english) if isinstance(code, str) else english
    where = []
    if record and params.get("record") is not None:
        where.append(t.gettext("record {record}").format(record=params["record"]))
    if params.get("round") is not None:
        where.append(t.gettext("round {round}").format(round=params["round"]))
    if params.get("event") is not None:
        where.append(t.gettext("event {event}").format(event=params["event"]))
    return t.gettext("{where}: {reason}").format(where=", ".join(where), reason=reason) if where else reason


if not TYPE_CHECKING:  # type checkers see the import above

    def __getattr__(name: str) -> Any:
        """``describe`` and ``narrate`` live in :mod:`unomas.i18n.narration`, which builds
        on this module: it is loaded on first use, so that neither module imports the
        other while it loads."""
        if name in ("describe", "narrate"):
            from unomas.i18n import narration

            return getattr(narration, name)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
