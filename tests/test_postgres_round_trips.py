"""Issue 28, goal "PostgreSQL: a round is one transaction with at most 5 round trips to the
server": ``romme round --db postgresql://...`` in a process of its own, its connection
traced by libpq (``conn.pgconn.trace()``), counted as benchmarks/store.py counts it."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from clirun import ok
from pgtest import fresh_database

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
SCHEMA_CHECK = "SELECT key, value FROM romme_schema"


@pytest.fixture
def pg() -> Iterator[str]:
    with fresh_database() as url:
        yield url


def traced(tmp_path: Path, *args: str) -> tuple[list[list[str]], str]:
    """The libpq trace of one `romme` process (a list of its messages' fields) and what it
    printed."""
    trace = tmp_path / "trace"
    done = subprocess.run(
        [sys.executable, "-c", TRACED, str(trace), *args], check=True, capture_output=True, text=True
    )
    lines = [line.split("\t") for line in trace.read_text("utf-8", errors="replace").splitlines()]
    return lines, done.stdout


def statements(lines: list[list[str]]) -> list[str]:
    """The SQL the client sent, in order (a simple query's or a Parse's text)."""
    sent = []
    for f in lines:
        if len(f) > 4 and f[1] == "F" and f[3] in ("Query", "Parse"):
            text = f[4].strip()
            if f[3] == "Parse":  # "statement name" "text" count types
                text = text.split('" "', 1)[1].rsplit('"', 1)[0]
            sent.append(text.strip('"'))
    return sent


def turns(lines: list[list[str]]) -> int:
    """The times the client waited for the server: each run of the server's messages that
    follows the client's (a Sync, a flush or a plain query alike)."""
    count = 0
    last = ""
    for f in lines:
        if len(f) > 3 and f[1] in ("F", "B"):
            if f[1] == "B" and last == "F":
                count += 1
            last = f[1]
    return count


def ready(lines: list[list[str]]) -> int:
    """The server's ReadyForQuery messages (benchmarks/store.py's count of round trips)."""
    return sum(1 for f in lines if len(f) > 3 and f[1] == "B" and f[3] == "ReadyForQuery")


@pytest.mark.parametrize("named", [("--session", "Table"), ()], ids=["named", "current"])
def test_a_round_on_postgres_is_one_transaction_of_at_most_5_round_trips_issue_28(
    pg: str, tmp_path: Path, named: tuple[str, ...]
) -> None:
    ok("new", "Table", "Anna", "Ben", "Carl", "Dora", "--until", "open", "--db", pg)
    ok("round", "--db", pg, "--winner", "Anna", "Ben=HK K10", "Carl=5", "Dora=0")
    lines, printed = traced(
        tmp_path, "round", "--db", pg, *named, "--winner", "Anna", "Ben=HK K10", "Carl=5", "Dora=0"
    )
    sent = statements(lines)
    assert sent[0] == SCHEMA_CHECK, sent[:2]  # the opening's check of the schema
    after = sent[1:]
    # one BEGIN ... COMMIT holding every statement after the schema's check
    assert after[0].startswith("BEGIN"), after
    assert after[-1] == "COMMIT", after
    assert not any(s.startswith(("BEGIN", "COMMIT", "ROLLBACK")) for s in after[1:-1]), after
    assert turns(lines) <= 5, (turns(lines), sent)
    assert ready(lines) <= 5, (ready(lines), sent)
    # and the round is saved, shown with the totals after it
    assert "Round 2 of 'Table'" in printed and "Totals: Anna 0, Ben 40, Carl 10, Dora 0" in printed
    stored = json.loads(ok("standings", "--db", pg, "--session", "Table", "--json"))
    assert [p["total"] for p in stored["players"]] == [0, 40, 10, 0]
    assert len(stored["rounds"]) == 2


def test_a_round_refused_inside_the_one_transaction_writes_nothing_issue_28(pg: str, tmp_path: Path) -> None:
    """The game is over (to 100): the refusal comes from inside the one transaction, which
    is rolled back; neither a round nor a version is written, and the session's row is not
    left locked."""
    ok("new", "Table", "Anna", "Ben", "Carl", "Dora", "--until", "100", "--db", pg)
    ok("round", "--db", pg, "--winner", "Anna", "Ben=120", "Carl=5", "Dora=0")
    before = ok("export", "--db", pg, "--session", "Table")
    trace = tmp_path / "trace"
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            TRACED,
            str(trace),
            "round",
            "--db",
            pg,
            "--winner",
            "Ben",
            "Anna=5",
            "Carl=5",
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode != 0 and "game" in done.stderr.lower(), done.stderr
    sent = statements([line.split("\t") for line in trace.read_text("utf-8", errors="replace").splitlines()])
    assert sent[0] == SCHEMA_CHECK and sent[1].startswith("BEGIN") and sent[-1] == "ROLLBACK", sent
    assert not any(s.startswith(("INSERT", "UPDATE", "DELETE")) for s in sent), sent
    assert ok("export", "--db", pg, "--session", "Table") == before
    ok("undo", "--yes", "--db", pg)  # another write of the session is not kept waiting


def test_a_held_round_that_meets_a_deadlock_runs_again_and_is_written_once_issue_28(pg: str) -> None:
    """A deadlock (SQLSTATE 40P01, as the server reports one) inside the one transaction
    rolls all of it back and runs it again, as every write on PostgreSQL is retried, never
    shown (issue 23): the round is written once."""
    from romme_score.inputs import read_hand
    from romme_score.scoring import RoundInput
    from romme_score.sessions import SessionService

    ok("new", "Table", "Anna", "Ben", "--until", "open", "--db", pg)
    runs = []
    with SessionService(pg) as service:

        def work() -> int:
            info = service.session("Table")
            hands = {"Ben": service.check_hand(info, "Ben", read_hand("Ben", "7"))}
            recorded = service.record(info, RoundInput("Anna", hands), confirm=True)
            runs.append(recorded.number)
            if len(runs) == 1:  # the first run meets another writer after its write
                store: Any = service.store  # the SQL store's own
                store.query("DO $$ BEGIN RAISE EXCEPTION USING ERRCODE = '40P01'; END $$")
            return recorded.number

        assert service.one_transaction(work) == 1
    assert runs == [1, 1]
    stored = json.loads(ok("standings", "--db", pg, "--session", "Table", "--json"))
    assert len(stored["rounds"]) == 1 and [p["total"] for p in stored["players"]] == [0, 7]
