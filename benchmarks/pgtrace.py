"""A `romme` command's conversation with PostgreSQL, traced by libpq and counted: one
definition of a round trip, a transaction and a statement for benchmarks/store.py and
tests/test_postgres_round_trips.py (issue 28: "a round is one transaction with at most 5
round trips to the server")."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

# A romme command whose psycopg connections libpq traces into the file argv[1].
TRACED = r"""
import sys
import psycopg
trace = open(sys.argv[1], "w")
plain = psycopg.Connection.connect.__func__

def connect(cls, *args, **kwargs):
    conn = plain(cls, *args, **kwargs)
    conn.pgconn.trace(trace.fileno())
    return conn

psycopg.Connection.connect = classmethod(connect)
psycopg.connect = psycopg.Connection.connect
from romme_score.cli import main
try:
    main(sys.argv[2:], standalone_mode=False)
finally:
    trace.flush()
"""
SCHEMA_CHECK = "SELECT key, value FROM romme_schema"  # the opening's, not the command's

Lines = list[list[str]]


def run_traced(
    trace: Path, args: Sequence[str], env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``romme ARGS`` in a Python of its own, its libpq trace written to ``trace``."""
    return subprocess.run(
        [sys.executable, "-c", TRACED, str(trace), *args],
        env=dict(env) if env is not None else None,
        capture_output=True,
        text=True,
    )


def read_trace(trace: Path) -> Lines:
    """The trace's messages, each a list of its tab-separated fields."""
    return [line.split("\t") for line in trace.read_text("utf-8", errors="replace").splitlines()]


def statements(lines: Lines) -> list[str]:
    """The SQL the client sent, in order (a simple query's or a Parse's text)."""
    sent = []
    for f in lines:
        if len(f) > 4 and f[1] == "F" and f[3] in ("Query", "Parse"):
            text = f[4].strip()
            if f[3] == "Parse":  # "statement name" "text" count types
                text = text.split('" "', 1)[1].rsplit('"', 1)[0]
            sent.append(text.strip('"'))
    return sent


def turns(lines: Lines) -> int:
    """The times the client waited for the server: each run of the server's messages that
    follows the client's (a Sync, a flush in a pipeline, or a plain query alike)."""
    count = 0
    last = ""
    for f in lines:
        if len(f) > 3 and f[1] in ("F", "B"):
            if f[1] == "B" and last == "F":
                count += 1
            last = f[1]
    return count


def ready(lines: Lines) -> int:
    """The server's ReadyForQuery messages."""
    return sum(1 for f in lines if len(f) > 3 and f[1] == "B" and f[3] == "ReadyForQuery")


def transactions(lines: Lines) -> tuple[int, int]:
    """(transactions, statements) of the command: a BEGIN ... COMMIT block, or a statement
    outside one (autocommit), is a transaction; the opening's check of the schema is not
    counted, nor BEGIN, COMMIT and ROLLBACK as statements."""
    count = sent = 0
    inside = False
    for text in statements(lines):
        if text == SCHEMA_CHECK:
            continue
        if text.startswith("BEGIN"):
            inside = True
            count += 1
        elif text in ("COMMIT", "ROLLBACK"):
            inside = False
        else:
            sent += 1
            count += 0 if inside else 1
    return count, sent
