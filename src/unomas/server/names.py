"""Players' names, by the Unicode security standard (UTS #39): what may be a name, and
when two names look the same.

:func:`clean_name` normalises a name (NFKC: compatibility forms such as full-width
letters or ligatures become the letters they look like) and refuses what cannot be
seen or what spoofs the page; :func:`name_key` is what two names in one room must not
share: their *confusable skeleton* (UTS #39, section 4), case-blind, so that ``Ana`` and
``Аna`` (a Cyrillic ``А``), ``bοt 2`` (a Greek ``ο``) and ``bot 2`` are one name. The
confusables data is Unicode's ``confusables.txt`` as the ``confusable-homoglyphs``
package ships it (:func:`_prototypes`).
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from importlib import resources

from unomas.errors import Refusal

__all__ = ["MAX_NAME", "clean_name", "name_key", "skeleton"]

MAX_NAME = 24
"""The most characters a name may have, once normalised (NFKC may lengthen it)."""

MAX_MARKS = 2
"""Combining marks one letter may carry (more is the "zalgo" text that spills over lines)."""

WORD_GLYPHS = (
    (0xFDF0, 0xFDFD),  # Arabic word ligatures: a whole phrase in one character (U+FDFD)
    (0x12000, 0x1254F),  # cuneiform signs and numbers, some many letters wide
    (0xA9C1, 0xA9C5),  # Javanese ornaments
)
"""Characters drawn many letters wide: a name of them overflows every seat and line it is
shown in (the words they stand for can be typed letter by letter)."""

BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
"""Characters that turn the direction of the text around them: refused in names."""

OTHER_DEFAULT_IGNORABLE = (
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x115F, 0x1160),  # Hangul choseong and jungseong fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian free variation selectors and vowel separator
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors
    (0xFFA0, 0xFFA0),  # half-width Hangul filler
    (0xE0000, 0xE0FFF),  # tags and variation selectors supplement
)
"""The default-ignorable code points (Unicode's ``Default_Ignorable_Code_Point``) that are
not format characters (``Cf``, refused by category): each is drawn as nothing."""

HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
"""Controls, format characters (zero-width space and joiners, soft hyphen, word joiner,
tags…), private use, surrogates, unassigned code points, line and paragraph separators."""

PAGE_WORDS = ("you", "host", "bot", "program", "not here")
"""The words the page shows after a name (``Ana (you)``), in every language: no name may
carry one of them in brackets."""


def clean_name(name: str) -> str:
    """``name`` NFKC-normalised, its spaces collapsed, or a refusal whose code says why:
    longer than :data:`MAX_NAME` once normalised (``name.too_long``), control characters or
    ``<`` ``>`` (``name.symbols``), direction overrides (``name.bidi``), characters drawn as
    nothing (``name.hidden``: zero-width, joiners, fillers, variation selectors, tags),
    characters drawn many letters wide (``name.wide``),
    more than :data:`MAX_MARKS` combining marks on a letter (``name.marks``), nothing
    visible (``name.invisible``), or one of the page's own words in brackets
    (``name.page_words``).

    >>> clean_name("  Jose\u0301  Ｌuis ")
    'José Luis'
    """
    text = unicodedata.normalize("NFKC", name)
    if any(unicodedata.category(c) == "Cc" or c in "<>" for c in text):
        raise Refusal("name.symbols")
    if any(c in BIDI_CONTROLS for c in text):
        raise Refusal("name.bidi")
    if any(_hidden(c) for c in text):
        raise Refusal("name.hidden")
    if any(low <= ord(c) <= high for c in text for low, high in WORD_GLYPHS):
        raise Refusal("name.wide")
    text = " ".join(text.split())
    if len(text) > MAX_NAME:
        raise Refusal("name.too_long", limit=MAX_NAME)
    marks = 0
    for c in text:
        marks = marks + 1 if unicodedata.combining(c) else 0
        if marks > MAX_MARKS:
            raise Refusal("name.marks")
    if not any(unicodedata.category(c)[0] in "LNPS" for c in text):
        raise Refusal("name.invisible")
    if _page_words().search(name_key(text)):
        raise Refusal("name.page_words")
    return text


def _hidden(c: str) -> bool:
    point = ord(c)
    return unicodedata.category(c) in HIDDEN_CATEGORIES or any(
        low <= point <= high for low, high in OTHER_DEFAULT_IGNORABLE
    )


def name_key(name: str) -> str:
    """What two names must not share in one room: the confusable skeleton of the name
    case-blind (``Ana``, ``ANA`` and ``Аna`` with a Cyrillic ``А`` are one name).

    >>> name_key("bοt 2") == name_key("BOT 2") == name_key("bot  2")
    True
    """
    return skeleton(skeleton(" ".join(name.split())).casefold())


def skeleton(text: str) -> str:
    """UTS #39's skeleton of ``text``: NFD, each character replaced by its prototype (the
    character or sequence it is confusable with), NFD again.

    >>> skeleton("раураl") == skeleton("paypal")
    True
    """
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(c, c) for c in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype, from ``confusables.txt`` as the
    ``confusable-homoglyphs`` package ships it: a map from every character to the ones it is
    confusable with, both ways round (a source lists its prototype, a prototype its
    sources; the marks it puts around right-to-left characters are taken off). A source is
    a character that lists one other alone; when two characters only list each other
    either may be the prototype (the lower is taken: the names they make compare alike)."""
    data = json.loads(resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8"))
    pairs = {c: [entry["c"].strip("\u200e\u200f") for entry in entries] for c, entries in data.items()}
    prototypes: dict[str, str] = {}
    for c, confusable in pairs.items():
        if len(c) != 1 or len(confusable) != 1 or confusable[0] == c:
            continue
        (other,) = confusable
        if len(other) == 1 and pairs.get(other) == [c] and other > c:
            continue  # c and other list only each other: c (the lower) is the prototype
        prototypes[c] = other
    return prototypes


@functools.cache
def _page_words() -> re.Pattern[str]:
    """A pattern for the page's words in brackets, as keys, in every language."""
    from unomas.i18n import LANGUAGES, translator

    words = {translator(lang).gettext(word) for lang in LANGUAGES for word in PAGE_WORDS}
    return re.compile("|".join(re.escape(name_key(f"({word})")) for word in sorted(words)))
