"""The two stores side by side: the SQLite file against a PostgreSQL server on this machine.

- `romme round` then `romme standings`, each a new process, as at the table;
- `romme export` of a session of ROUNDS rounds (100,000 by default);
- four processes writing 25 rounds each into one session at once: rounds per second.

Each figure is the median of RUNS runs; the ratios (PostgreSQL / SQLite) are what to read on
a shared machine. The PostgreSQL server is the one in ROMME_TEST_POSTGRES, which
`make bench` starts with tools/with_postgres.py; without it only SQLite is measured.
Run: `python tools/with_postgres.py python benchmarks/store.py` (ROUNDS, RUNS to change).

The goals of issue 28 item 4, as GOAL lines: every command within 1.3x the SQLite one,
psycopg's own import aside (the median of `python -c 'import psycopg'` less `python -c
pass`, reported apart and taken off the PostgreSQL figure); `romme round` one transaction
of at most 5 round trips to the server. The round trips are counted from libpq's trace of
the process's connections after the connection is made: each time the client waits for the
server (a run of the server's messages after the client's), which in psycopg's pipeline is
also a flush without a ReadyForQuery (those are reported beside); a transaction is a
BEGIN ... COMMIT block or a statement outside one, the opening's check of the schema (one
statement, read before the command says what it will do) apart.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from romme_score.rules import GameEnd, find_preset
from romme_score.sessions import scored_rows
from romme_score.store import open_store

sys.path.insert(0, str(Path(__file__).resolve().parent))
from goal_line import print_goal  # noqa: E402  (benchmarks/goal_line.py)
from pgtrace import read_trace, ready, run_traced, transactions, turns  # noqa: E402
from sessions import PLAYERS, make_rounds  # noqa: E402  (benchmarks/sessions.py: the same rounds)

ROUNDS = int(os.environ.get("ROUNDS", "100000"))
RUNS = int(os.environ.get("RUNS", "5"))
WRITES = int(os.environ.get("WRITES", "25"))  # rounds each of the four writers records
RULES = find_preset("standard").replace(game_end=GameEnd.parse("open"))
WRITER = r"""
import sys
from romme_score.cli import main
db, session, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
for i in range(count):
    main(["round", "--db", db, "--session", session, "--winner", "Anna", f"Ben={i % 30}", "Carl=HK",
          "Dora=J"], standalone_mode=False)
"""


def round_trips(*args: str) -> tuple[int, int, int, int]:
    """(round trips, transactions, statements, ReadyForQuery) of one traced `romme` process
    (benchmarks/pgtrace.py, as tests/test_postgres_round_trips.py counts them)."""
    with tempfile.TemporaryDirectory() as folder:
        trace = Path(folder) / "trace"
        run_traced(trace, args, CACHED).check_returncode()
        lines = read_trace(trace)
    count, sent = transactions(lines)
    return turns(lines), count, sent, ready(lines)


def import_ms(module: str) -> float:
    """Median wall time of importing ``module`` in a fresh Python, less a bare start (ms)."""

    def once(code: str) -> float:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, env=CACHED)
        return (time.perf_counter() - start) * 1000

    runs = max(RUNS, 5)
    return statistics.median(once(f"import {module}") - once("pass") for _ in range(runs))


# Every process with its bytecode cached, as an installed romme has it (else each would
# compile romme_score anew where PYTHONDONTWRITEBYTECODE is set).
CACHED = {
    **{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
    "PYTHONPYCACHEPREFIX": str(Path(tempfile.gettempdir()) / "romme-bench-pycache"),
}


def romme(*args: str) -> float:
    """Wall time of one `romme` process (ms)."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "romme_score", *args], check=True, capture_output=True, env=CACHED)
    return (time.perf_counter() - start) * 1000


def median(measure: Callable[[], float]) -> float:
    return statistics.median(measure() for _ in range(RUNS))


def four_writers(db: str) -> float:
    """Rounds per second of four processes writing WRITES rounds each into one session."""
    with open_store(db) as store:
        store.create_session(f"W{uuid.uuid4().hex[:6]}", PLAYERS, RULES, None, None, 0)
        name = store.current_name()
    assert name is not None
    start = time.perf_counter()
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, db, name, str(WRITES)], stdout=subprocess.DEVNULL, env=CACHED
        )
        for _ in range(4)
    ]
    for proc in procs:
        assert proc.wait() == 0
    return 4 * WRITES / (time.perf_counter() - start)


def measure(db: str) -> dict[str, float]:
    with open_store(db) as store:
        store.create_session("Table", PLAYERS, RULES, None, None, 0)
        rows = scored_rows(PLAYERS, RULES, make_rounds(ROUNDS), "2026-12-01T20:00:00+00:00")
        store.write_session(
            "Long", "2026-12-01T20:00:00+00:00", PLAYERS, RULES, None, None, 0, rows, (), (), overwrite=False
        )
    out = str(Path(tempfile.gettempdir()) / f"romme-bench-{uuid.uuid4().hex}.json")
    try:
        figures = {
            "round": median(
                lambda: romme(
                    "round",
                    "--db",
                    db,
                    "--session",
                    "Table",
                    "--winner",
                    "Anna",
                    "Ben=HK K10",
                    "Carl=5",
                    "Dora=0",
                )
            ),
            "standings": median(lambda: romme("standings", "--db", db, "--session", "Table")),
            "export": median(lambda: romme("export", "--db", db, "--session", "Long", "-o", out)),
            "writers": statistics.median(four_writers(db) for _ in range(3)),
        }
        if "://" in db:
            line = (
                "round",
                "--db",
                db,
                "--session",
                "Table",
                "--winner",
                "Anna",
                "Ben=HK K10",
                "Carl=5",
                "Dora=0",
            )
            trips, transactions, statements, ready = round_trips(*line)
            figures |= {
                "round trips": trips,
                "round transactions": transactions,
                "round statements": statements,
                "round ready": ready,
            }
            trips, transactions, _sent, _ready = round_trips("standings", "--db", db, "--session", "Table")
            figures |= {"standings trips": trips, "standings transactions": transactions}
    finally:
        Path(out).unlink(missing_ok=True)
    return figures


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        print(f"building a session of {ROUNDS} rounds in each store ...", flush=True)
        sqlite = measure(str(Path(folder) / "bench.sqlite3"))
        server = os.environ.get("ROMME_TEST_POSTGRES")
        postgres = None
        if server:
            import psycopg

            name = f"romme_bench_{uuid.uuid4().hex[:8]}"
            with psycopg.connect(server, autocommit=True) as admin:
                admin.execute(f'CREATE DATABASE "{name}"')
            try:
                postgres = measure(server.rpartition("/")[0] + "/" + name)
            finally:
                with psycopg.connect(server, autocommit=True) as admin:
                    admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    print(f"median of {RUNS} runs (the writers: of 3); PostgreSQL on this machine")
    print(f"{'':52} {'SQLite':>10} {'PostgreSQL':>11} {'ratio':>7}")
    rows = [
        ("romme round (ms)", "round"),
        ("romme standings (ms)", "standings"),
        (f"romme export of {ROUNDS} rounds (ms)", "export"),
        (f"4 writers x {WRITES} rounds into one session (rounds/s)", "writers"),
    ]
    for label, key in rows:
        if postgres is None:
            print(f"{label:52} {sqlite[key]:10.1f} {'-':>11} {'-':>7}")
        else:
            print(f"{label:52} {sqlite[key]:10.1f} {postgres[key]:11.1f} {postgres[key] / sqlite[key]:7.2f}")
    if postgres is None:
        print(
            "no PostgreSQL server (ROMME_TEST_POSTGRES): run it as make bench does (tools/with_postgres.py)"
        )
        return
    psycopg_ms = import_ms("psycopg")
    print(f"psycopg's own import: {psycopg_ms:.1f} ms (a fresh Python importing it, less a bare start)")
    print(
        f"romme round on PostgreSQL: {postgres['round trips']:.0f} round trips "
        f"({postgres['round ready']:.0f} ReadyForQuery), "
        f"{postgres['round transactions']:.0f} transactions, {postgres['round statements']:.0f} statements; "
        f"romme standings: {postgres['standings trips']:.0f} round trips, "
        f"{postgres['standings transactions']:.0f} transactions"
    )
    for label, key in rows[:3]:
        pg = postgres[key] - psycopg_ms
        ratio = pg / sqlite[key]
        print_goal(
            f"PostgreSQL: {label.removesuffix(' (ms)')}, psycopg's import aside",
            f"{pg:.1f} ms (+ {psycopg_ms:.1f} ms psycopg's import)",
            f"{sqlite[key]:.1f} ms (SQLite)",
            ratio,
            "<= 1.3x SQLite",
            ratio <= 1.3,
        )
    print_goal(
        "PostgreSQL: romme round, round trips to the server",
        f"{postgres['round trips']:.0f} round trips",
        "-",
        None,
        "<= 5",
        postgres["round trips"] <= 5,
    )
    print_goal(
        "PostgreSQL: romme round, transactions",
        f"{postgres['round transactions']:.0f} transactions",
        "-",
        None,
        "1",
        postgres["round transactions"] == 1,
    )


if __name__ == "__main__":
    main()
