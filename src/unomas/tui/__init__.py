"""The terminal game (``unomas play``): a Textual app and a plain line mode.

Both draw what a :class:`unomas.tui.session.Session` says; :mod:`unomas.i18n.wording` holds the
words they share (through the gettext catalogs of :mod:`unomas.i18n`). Textual is
imported only by :mod:`unomas.tui.app`, so the line mode and ``import unomas`` stay light.
"""
