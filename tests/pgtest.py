"""A PostgreSQL database of its own for a test, on the throw-away server that
``tools/with_postgres.py`` starts for ``make test`` (ROMME_TEST_POSTGRES). Without that
server the PostgreSQL tests skip, saying why; on CI they must run."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

SERVER = os.environ.get("ROMME_TEST_POSTGRES", "")
WHY = os.environ.get(
    "ROMME_TEST_POSTGRES_WHY",
    "no PostgreSQL server for the tests: run them with make test (tools/with_postgres.py)",
)


def require() -> str:
    """The server's URL, or skip the test."""
    if not SERVER:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must run the PostgreSQL tests: {WHY}")
        pytest.skip(WHY)
    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.skip("psycopg is not installed (pip install -e '.[postgres]')")
    return SERVER


def with_database(url: str, name: str) -> str:
    base, _slash, _db = url.rpartition("/")
    return f"{base}/{name}"


@contextmanager
def fresh_database() -> Iterator[str]:
    """The URL of a new, empty database, dropped afterwards."""
    import psycopg

    server = require()
    name = f"romme_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield with_database(server, name)
    finally:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
