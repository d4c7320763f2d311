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

from click.testing import CliRunner

from romme_score.cli import main

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


def new_session(db: Path) -> None:
    result = CliRunner().invoke(main, ["new", "K", "Anna", "Ben", "Carl", "Dora", "--until", "open",
                                       "--db", str(db)])
    assert result.exit_code == 0, result.output


def check_consistent(db: Path) -> int:
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    rows = con.execute("SELECT r.number, count(h.player), sum(h.points) FROM rounds r "
                       "LEFT JOIN hands h ON h.round_id = r.id WHERE r.status = 'active' "
                       "GROUP BY r.id ORDER BY r.number").fetchall()
    for expected, (number, hands, points) in enumerate(rows, 1):
        assert number == expected  # no gaps, no duplicates
        assert hands == 4  # every round fully there
        assert points > 0
    cached = con.execute("SELECT player, total FROM totals ORDER BY player").fetchall()
    summed = con.execute("SELECT h.player, SUM(h.points - h.bonus) FROM hands h JOIN rounds r "
                         "ON r.id = h.round_id WHERE r.status = 'active' GROUP BY h.player "
                         "ORDER BY h.player").fetchall()
    assert not summed or cached == summed  # the kept totals never drift from the rounds
    orphans = con.execute("SELECT count(*) FROM hands WHERE round_id NOT IN "
                          "(SELECT id FROM rounds)").fetchone()[0]
    assert orphans == 0
    con.close()
    return len(rows)


def env() -> dict[str, str]:
    root = str(Path(__file__).resolve().parents[1])
    return {**os.environ, "PYTHONPATH": root + os.pathsep + os.environ.get("PYTHONPATH", "")}


def test_kill_9_while_recording_leaves_whole_rounds_only(tmp_path: Path) -> None:
    db = tmp_path / "k.sqlite3"
    new_session(db)
    rnd = random.Random(20261130)
    kills = 0
    for _ in range(25):
        proc = subprocess.Popen([sys.executable, "-c", WORKER, str(db), "100000"], env=env(),
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(rnd.uniform(0.3, 0.9))
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        kills += 1
        check_consistent(db)
    assert kills == 25
    assert check_consistent(db) > 0
    # the database is still usable after all that
    result = CliRunner().invoke(main, ["round", "--db", str(db), "--winner", "Anna", "Ben=1",
                                       "Carl=1", "Dora=1"])
    assert result.exit_code == 0, result.output


def test_two_writers_at_once_both_succeed_or_are_told_busy(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite3"
    new_session(db)
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, str(db), "40"], env=env(),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    succeeded = 0
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        ok, busy = map(int, out.strip().splitlines()[-1].split())
        assert ok + busy == 40
        succeeded += ok
    assert check_consistent(db) == succeeded
