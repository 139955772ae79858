"""``unomas serve``: multiplayer in the browser, server-authoritative and persistent.

The server plays every room's match through a :class:`~unomas.conductor.Conductor`,
offers each seat exactly its legal actions, applies them checked (and refuses one that
answers a ply that has passed) and sends each connection only its own view and the events
redacted for it; every refusal carries a stable code (:mod:`unomas.server.protocol`).
Every move is appended to the store (SQLite by default) before anyone hears of it, so a
restarted server resumes every game exactly.
Starlette, uvicorn and pydantic are imported only inside this package.
"""

from __future__ import annotations

from unomas.server.app import create_app, serve
from unomas.server.rooms import Settings
from unomas.server.storage import SQLiteStore, Store, default_db_path
from unomas.server.transport import PublicUrl

__all__ = ["PublicUrl", "SQLiteStore", "Settings", "Store", "create_app", "default_db_path", "serve"]
