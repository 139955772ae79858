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
from unomas.error_codes import ERRORS
from unomas.errors import SettingsError

if TYPE_CHECKING:
    from unomas.i18n.narration import describe, narrate

__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "LOCALE_DIR",
    "Translations",
    "bot_label",
    "bot_slips",
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
        raise SettingsError("setup.unknown_language", lang=repr(lang), known=", ".join(LANGUAGES))
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


def bot_slips(spec: str, lang: str | Translations) -> str:
    """How often a bot level slips, in words: how often it forgets UNO and lets a catch go.

    >>> bot_slips("heuristic", "en"), bot_slips("ismcts:iterations=300", "es")
    ('forgets UNO 20% of the time, misses 25% of catches', 'nunca olvida el UNO y siempre pilla')
    """
    from unomas.bots.levels import slips

    t = _t(lang)
    forget, miss = slips(spec)
    if forget == miss == 0:
        return t.gettext("never forgets UNO, always catches")
    return t.gettext("forgets UNO {forget} of the time, misses {miss} of catches").format(
        forget=_percent(forget, t), miss=_percent(miss, t)
    )


def _percent(rate: float, t: Translations) -> str:
    return t.gettext("{percent}%").format(percent=round(100 * rate))


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
    """The words of every error code in ``lang``: ``{code: template}``, the template with the
    error's params as ``{name}`` placeholders (the registry's English template looked up in
    the catalog; a browser gets these with the catalog).

    >>> error_messages("es")["move.not_your_turn"]
    'es el turno del jugador {current}'
    """
    t = translator(lang)
    return {code: t.gettext(entry.template) for code, entry in ERRORS.items()}


class _Kept(dict[str, Any]):
    """Params for a template: a placeholder with no value stays as it is."""

    def __missing__(self, key: str) -> str:
        return f"{{{key}}}"


def error_text(code: str, params: Mapping[str, Any], lang: str, fallback: str | None = None) -> str:
    """An error's words in ``lang``, from its code and params (an :class:`~unomas.errors.UnoError`'s
    ``code`` and ``params``, or those of a server's error message): the code's words filled
    with the params, the error it wraps (``cause_code``) in ``lang`` too, and a record
    error's location before them. An unknown code (a newer server's) gives ``fallback`` (the
    error's English message), or else the code itself.

    >>> error_text("room.not_found", {"room": "ABC123"}, "es")
    'No hay ninguna sala ABC123.'
    >>> error_text("move.not_your_turn", {"action": "1 draw", "current": 2}, "es")
    'es el turno del jugador 2'
    >>> error_text("bot.dreamt", {}, "es", "the bot dreamt")
    'the bot dreamt'
    """
    entry = ERRORS.get(code)
    if entry is None:
        return code if fallback is None else fallback
    t = translator(lang)
    values = _Kept(params)
    cause = params.get("cause_code")
    if isinstance(cause, str):
        values["cause"] = error_text(cause, params.get("cause_params") or {}, lang, str(params.get("cause", "")))
    what = params.get("what")
    if isinstance(what, str):  # a part of a record (unomas.error_codes.PARTS), an English msgid
        values["what"] = t.gettext(what)
    words = t.gettext(entry.template).format_map(values)
    return _located(words, params, t) if entry.kind == "RecordError" else words


def record_error_text(code: str, params: Mapping[str, Any], lang: str, *, record: bool = True) -> str:
    """A :class:`~unomas.errors.RecordError`'s words in ``lang`` from its code and params:
    where (the record, unless ``record`` is false because it is said already, the round and
    the event, counted from 0) and why.

    >>> from unomas.errors import RecordError
    >>> from unomas.record import replay
    >>> try:
    ...     replay({"format": "unomas-record/1", "rules": None})
    ... except RecordError as error:
    ...     print(record_error_text(error.code, error.located(record=0).params, "es"))
    registro 0: reglas (rules): los ajustes deben ser un objeto, no null
    """
    return error_text(code, params if record else {**params, "record": None}, lang)


def _located(words: str, params: Mapping[str, Any], t: Translations) -> str:
    """A record error's ``words`` after its location (record, round, event), if it has one."""
    where = []
    if params.get("record") is not None:
        where.append(t.gettext("record {record}").format(record=params["record"]))
    if params.get("round") is not None:
        where.append(t.gettext("round {round}").format(round=params["round"]))
    if params.get("event") is not None:
        where.append(t.gettext("event {event}").format(event=params["event"]))
    return t.gettext("{where}: {reason}").format(where=", ".join(where), reason=words) if where else words


if not TYPE_CHECKING:  # type checkers see the import above

    def __getattr__(name: str) -> Any:
        """``describe`` and ``narrate`` live in :mod:`unomas.i18n.narration`, which builds
        on this module: it is loaded on first use, so that neither module imports the
        other while it loads."""
        if name in ("describe", "narrate"):
            from unomas.i18n import narration

            return getattr(narration, name)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
