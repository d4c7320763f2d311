"""A PostgreSQL database of its own for a test, on the throw-away server that
``tools/with_postgres.py`` starts for ``make test`` (ROMME_TEST_POSTGRES). Without that
server the PostgreSQL tests skip, saying why; on CI they must run."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

SERVER = os.environ.get("ROMME_TEST_POSTGRES", "")
TOOLS = Path(__file__).resolve().parent.parent / "tools"
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


@dataclass
class OwnServer:
    """A PostgreSQL server of the test's own (tools/with_postgres.py's, started once more):
    one that the test may stop and restart without disturbing the other tests."""

    url: str
    control: dict[str, str]
    stop_command: list[str]
    folder: Path

    def ctl(self, *args: str) -> None:
        control = self.control
        command = [*json.loads(control["ROMME_TEST_POSTGRES_CTL"]), "-D", control["ROMME_TEST_POSTGRES_DATA"]]
        command += ["-l", control["ROMME_TEST_POSTGRES_LOG"], "-w", *args]
        subprocess.run(command, check=True, capture_output=True, timeout=60)

    def restart(self) -> None:
        """``pg_ctl restart -m fast``: every connection to it is cut."""
        self.ctl("-m", "fast", "restart")

    def stop(self) -> None:
        self.ctl("-m", "fast", "stop")

    def start(self) -> None:
        self.ctl("-o", self.control["ROMME_TEST_POSTGRES_OPTIONS"], "start")


@contextmanager
def own_server() -> Iterator[OwnServer]:
    """A throw-away PostgreSQL server of this test alone, removed afterwards (the test
    skips where the PostgreSQL tests do)."""
    require()
    spec = importlib.util.spec_from_file_location("with_postgres", TOOLS / "with_postgres.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    got = tool.start()
    if isinstance(got, str):
        pytest.fail(f"a second PostgreSQL server did not start: {got}")
    env, stop, folder = got
    server = OwnServer(env["ROMME_TEST_POSTGRES"], env, stop, folder)
    try:
        yield server
    finally:
        subprocess.run(stop, capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)
