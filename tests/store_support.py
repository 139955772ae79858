"""The stores the store tests run against: SQLite always, PostgreSQL when ``UNOMAS_TEST_POSTGRES``
names a database (a DSN; ``.ci/postgres`` starts a throwaway one). Each PostgreSQL test gets a
schema of its own, dropped afterwards."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import pytest

DSN = os.environ.get("UNOMAS_TEST_POSTGRES")
NO_POSTGRES = "no PostgreSQL to test against: set UNOMAS_TEST_POSTGRES to a DSN (.ci/postgres starts one)"
needs_postgres = pytest.mark.skipif(DSN is None, reason=NO_POSTGRES)


@contextmanager
def postgres_dsn() -> Iterator[str]:
    """A DSN whose connections work in a fresh schema of their own (dropped on leaving)."""
    if DSN is None:
        pytest.skip(NO_POSTGRES)
    pytest.importorskip("psycopg")
    import psycopg

    schema = f"t{uuid.uuid4().hex[:12]}"
    with psycopg.connect(DSN, autocommit=True) as admin:
        admin.execute(f"CREATE SCHEMA {schema}")
        separator = "&" if "?" in DSN else "?"
        try:
            yield f"{DSN}{separator}options={quote(f'-csearch_path={schema}')}"
        finally:
            admin.execute(f"DROP SCHEMA {schema} CASCADE")


@contextmanager
def database(kind: str, tmp_path: Path) -> Iterator[str]:
    """What ``--db`` takes for a fresh database of ``kind`` (``sqlite`` or ``postgres``)."""
    if kind == "sqlite":
        yield str(tmp_path / "games.sqlite3")
    else:
        with postgres_dsn() as dsn:
            yield dsn
