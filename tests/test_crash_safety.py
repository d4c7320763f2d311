"""No data lost: kill -9 while recording, two writers at once (SQLite transactions)."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from romme_score.cli import main

# Records rounds in a loop through the CLI's main(), as `romme round` does; counts the
# rounds refused as busy (two writers at once) apart from those recorded.
WORKER = r"""
import sys
from romme_score.cli import main
db, count = sys.argv[1], int(sys.argv[2])
ok = busy = 0
for i in range(count):
    hands = [f"Ben=H{2 + i % 9} K{2 + i % 9}", f"Carl={i % 50}", "Dora=J PK"]
    try:
        main(["round", "--db", db, "--winner", "Anna", *hands], standalone_mode=False)
        ok += 1
    except SystemExit as exc:
        if exc.code:
            busy += 1
    except Exception as exc:
        if "busy" in str(exc):
            busy += 1
        else:
            raise
print(ok, busy, flush=True)
"""

# A forking server for the kill -9 test: it imports romme_score once, then for each
# "fork" line starts a child that records rounds in-process until it is killed, and
# for each "wait" line reaps that child and reports how it ended. A fresh Python per
# kill would spend most of the test's time starting up instead of writing.
RECORDERS = r"""
import os, sys, time
from romme_score.cli import main
db = sys.argv[1]

def record(i):
    hands = [f"Ben=H{2 + i % 9} K{2 + i % 9}", f"Carl={i % 50}", "Dora=J PK"]
    main(["round", "--db", db, "--winner", "Anna", *hands], standalone_mode=False)

def record_until_killed():
    sys.stdout = open(os.devnull, "w")
    deadline = time.monotonic() + 20  # never outlive a test that went wrong
    i = 0
    while time.monotonic() < deadline:
        record(i)
        i += 1

real_stdout, sys.stdout = sys.stdout, open(os.devnull, "w")
record(0)  # warm (imports, caches); main() closed its database, so none crosses a fork
sys.stdout = real_stdout

child = 0
for line in sys.stdin:
    if line == "fork\n":
        child = os.fork()
        if child == 0:
            try:
                record_until_killed()
            except BaseException:
                import traceback
                traceback.print_exc()
                sys.stderr.flush()
                os._exit(1)
            os._exit(3)
        print(child, flush=True)
    elif line == "wait\n":
        print(os.waitpid(child, 0)[1], flush=True)
"""

KILLS = 25  # as many as before; each costs ~0.15 s here, against ~0.7 s with a fresh Python


def new_session(db: Path) -> None:
    result = CliRunner().invoke(
        main, ["new", "K", "Anna", "Ben", "Carl", "Dora", "--until", "open", "--db", str(db)]
    )
    assert result.exit_code == 0, result.output


def check_consistent(db: Path) -> int:
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    rows = con.execute(
        "SELECT r.number, count(h.player), sum(h.points) FROM rounds r "
        "LEFT JOIN hands h ON h.round_id = r.id WHERE r.status = 'active' "
        "GROUP BY r.id ORDER BY r.number"
    ).fetchall()
    for expected, (number, hands, points) in enumerate(rows, 1):
        assert number == expected  # no gaps, no duplicates
        assert hands == 4  # every round fully there
        assert points > 0
    cached = con.execute("SELECT player, total FROM totals ORDER BY player").fetchall()
    summed = con.execute(
        "SELECT h.player, SUM(h.points - h.bonus) FROM hands h JOIN rounds r "
        "ON r.id = h.round_id WHERE r.status = 'active' GROUP BY h.player "
        "ORDER BY h.player"
    ).fetchall()
    assert not summed or cached == summed  # the kept totals never drift from the rounds
    orphans = con.execute(
        "SELECT count(*) FROM hands WHERE round_id NOT IN (SELECT id FROM rounds)"
    ).fetchone()[0]
    assert orphans == 0
    con.close()
    return len(rows)


def env() -> dict[str, str]:
    root = str(Path(__file__).resolve().parents[1])
    return {**os.environ, "PYTHONPATH": root + os.pathsep + os.environ.get("PYTHONPATH", "")}


def ask(server: subprocess.Popen[str], line: str, errors: Path) -> int:
    assert server.stdin is not None and server.stdout is not None
    server.stdin.write(line + "\n")
    server.stdin.flush()
    answer = server.stdout.readline()
    assert answer, f"the recorder server died: {errors.read_text()}"
    return int(answer)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork and SIGKILL")
def test_kill_9_while_recording_leaves_whole_rounds_only(tmp_path: Path) -> None:
    db = tmp_path / "k.sqlite3"
    new_session(db)
    rnd = random.Random(20261130)
    errors = tmp_path / "recorders.err"
    with open(errors, "w") as err:
        server = subprocess.Popen(
            [sys.executable, "-c", RECORDERS, str(db)],
            env=env(),
            text=True,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=err,
        )
    alive: int | None = None
    try:
        for _ in range(KILLS):
            alive = ask(server, "fork", errors)
            # a round takes a few tens of ms: this lands the kill anywhere in one
            time.sleep(rnd.uniform(0.02, 0.15))
            os.kill(alive, signal.SIGKILL)
            status = ask(server, "wait", errors)
            alive = None
            # killed while recording, not stopped by an error of its own
            assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, errors.read_text()
            rounds = check_consistent(db)
    finally:
        if alive is not None:
            os.kill(alive, signal.SIGKILL)
        server.kill()
        server.wait()
    assert rounds > 1  # the children recorded rounds, not only the server's warm-up
    # the database is still usable after all that
    result = CliRunner().invoke(
        main, ["round", "--db", str(db), "--winner", "Anna", "Ben=1", "Carl=1", "Dora=1"]
    )
    assert result.exit_code == 0, result.output
    assert check_consistent(db) == rounds + 1


def test_two_writers_at_once_both_succeed_or_are_told_busy(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite3"
    new_session(db)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(db), "40"],
            env=env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    succeeded = 0
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        ok, busy = map(int, out.strip().splitlines()[-1].split())
        assert ok + busy == 40
        assert ok > 0  # busy now and then, but never shut out
        succeeded += ok
    assert check_consistent(db) == succeeded
