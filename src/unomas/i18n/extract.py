"""A Babel extraction method for the browser page's HTML: the ``data-t`` attributes.

Babel reads Python and JavaScript itself but has no HTML extractor; the page marks each
text it translates with ``data-t="message id"``, and ``babel.cfg`` at the repository's root
maps ``*.html`` to :func:`extract_data_t`, so ``pybabel extract`` and the catalog test find
them beside the messages of the code.

>>> import io
>>> page = io.BytesIO(b'<p>\\n<span data-t="Room">Room</span> <b data-t="Go">Go</b></p>')
>>> list(extract_data_t(page, [], [], {}))
[(2, None, 'Room', []), (2, None, 'Go', [])]
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from html.parser import HTMLParser
from typing import IO, Any

__all__ = ["extract_data_t"]


def extract_data_t(
    fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str], options: Mapping[str, Any]
) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """Each ``data-t`` attribute as Babel wants a message: (line, function, message, comments).

    The signature is Babel's for extraction methods; ``keywords``, ``comment_tags`` and
    ``options`` do not apply to attributes. ``options`` may name the file's ``encoding``.
    """
    found: list[tuple[int, str]] = []

    class Parser(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            found.extend((self.getpos()[0], value) for name, value in attrs if name == "data-t" and value)

    parser = Parser()
    parser.feed(fileobj.read().decode(options.get("encoding", "utf-8")))
    parser.close()
    for line, message in found:
        yield line, None, message, []
