"""The two stores side by side: the SQLite file against a PostgreSQL server on this machine.

- `romme round` then `romme standings`, each a new process, as at the table;
- `romme export` of a session of ROUNDS rounds (100,000 by default);
- four processes writing 25 rounds each into one session at once: rounds per second.

Each figure is the median of RUNS runs; the ratios (PostgreSQL / SQLite) are what to read on
a shared machine. The PostgreSQL server is the one in ROMME_TEST_POSTGRES, which
`make bench` starts with tools/with_postgres.py; without it only SQLite is measured.
Run: `python tools/with_postgres.py python benchmarks/store.py` (ROUNDS, RUNS to change).
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


def romme(*args: str) -> float:
    """Wall time of one `romme` process (ms)."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "romme_score", *args], check=True, capture_output=True)
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
        subprocess.Popen([sys.executable, "-c", WRITER, db, name, str(WRITES)], stdout=subprocess.DEVNULL)
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


if __name__ == "__main__":
    main()
