"""``unomas serve``: multiplayer in the browser, server-authoritative and persistent.

The server holds every :class:`~unomas.game.Game`, offers each seat exactly its legal
actions, applies them through :meth:`Game.apply` and sends each connection only its own
view and the events redacted for it. Every move is appended to the store (SQLite by
default) before anyone hears of it, so a restarted server resumes every game exactly.
Starlette, uvicorn and pydantic are imported only inside this package.
"""

from __future__ import annotations

from unomas.server.app import create_app, serve
from unomas.server.rooms import Settings
from unomas.server.storage import SQLiteStore, Store, default_db_path

__all__ = ["SQLiteStore", "Settings", "Store", "create_app", "default_db_path", "serve"]
