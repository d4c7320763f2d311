"""Issue 28, goal "PostgreSQL: a round is one transaction with at most 5 round trips to the
server": ``romme round --db postgresql://...`` in a process of its own, its connection
traced by libpq (``conn.pgconn.trace()``), counted as benchmarks/store.py counts it."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from clirun import ok
from pgtest import fresh_database

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.append(str(BENCH))  # benchmarks/pgtrace.py: the counts of benchmarks/store.py (after all else)
from pgtrace import SCHEMA_CHECK, read_trace, ready, run_traced, statements, turns  # noqa: E402


@pytest.fixture
def pg() -> Iterator[str]:
    with fresh_database() as url:
        yield url


def traced(tmp_path: Path, *args: str) -> tuple[list[list[str]], str]:
    """The libpq trace of one `romme` process (a list of its messages' fields) and what it
    printed."""
    trace = tmp_path / "trace"
    done = run_traced(trace, args)
    done.check_returncode()
    return read_trace(trace), done.stdout


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
    done = run_traced(trace, ["round", "--db", pg, "--winner", "Ben", "Anna=5", "Carl=5"])
    assert done.returncode != 0 and "game" in done.stderr.lower(), done.stderr
    sent = statements(read_trace(trace))
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
