"""Nothing lost with several writers (issue 18 item 4): ``romme play`` reading a script
beside ``romme round`` in another process, and two ``romme play`` at once, on one file.

Every line of a script runs in-process and opens the database again while the table
mode holds its own connection; a process that opened and closed the file outside SQLite
then dropped its POSIX locks, so that the other writer's last close checkpointed and
removed the WAL under it: "disk I/O error", and rounds whose command had succeeded gone.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO

from clirun import ok

ROMME = [sys.executable, "-m", "romme_score"]
SCRIPT_ROUNDS = 40
OTHER_ROUNDS = 20


def env_for(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "ROMME_LANG": "en", "XDG_DATA_HOME": str(tmp_path / "xdg")}


def script(rounds: int, winner: str, loser: str) -> str:
    """Round lines with in-window commands between them, each of which opens the
    database once more in the same process (value, check and standings read the
    session's rules or its standings)."""
    lines = []
    for i in range(rounds):
        lines.append(f"round --winner {winner} {loser}={i % 30}")
        lines.append(("value HK", "check 'HK KK PK'", "standings")[i % 3])
    return "\n".join(lines) + "\n"


def start_play(db: Path, tmp_path: Path, tag: str, env: dict[str, str]) -> tuple[subprocess.Popen[str], Path]:
    """``romme play F`` reading a script from a pipe; its standard error goes to a file."""
    err = tmp_path / f"play-{tag}.err"
    with open(err, "w") as err_file:
        proc = subprocess.Popen(
            [*ROMME, "play", "F", "--db", str(db)],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=err_file,
            text=True,
            env=env,
        )
    return proc, err


def feed(stdin: IO[str] | None, text: str) -> threading.Thread:
    """Write a script line by line, a little apart, so that it overlaps the other writer."""
    assert stdin is not None

    def write() -> None:
        for line in text.splitlines(keepends=True):
            stdin.write(line)
            stdin.flush()
            time.sleep(0.005)
        stdin.close()

    thread = threading.Thread(target=write)
    thread.start()
    return thread


def rounds_in(db: Path) -> int:
    data = json.loads(ok("standings", "--db", str(db), "--session", "F", "--json"))
    return len(data["rounds"])


def saved_by_script(stderr: str, rounds: int) -> int:
    """Round lines of a script that succeeded: the failing ones are named on stderr."""
    failed = sum(1 for line in stderr.splitlines() if "line" in line and "round --winner" in line)
    return rounds - failed


def test_play_script_beside_romme_round_loses_nothing_issue_18(tmp_path: Path) -> None:
    db = tmp_path / "romme.sqlite3"
    ok("new", "F", "Anna", "Ben", "--until", "open", "--db", str(db))
    env = env_for(tmp_path)
    play, err_path = start_play(db, tmp_path, "one", env)
    writer = feed(play.stdin, script(SCRIPT_ROUNDS, "Anna", "Ben"))
    succeeded = 0
    errors = []
    for _ in range(OTHER_ROUNDS):
        result = subprocess.run(
            [*ROMME, "round", "--db", str(db), "--session", "F", "--winner", "Ben", "Anna=3"],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
        )
        if result.returncode == 0:
            succeeded += 1
        else:
            errors.append(result.stderr)
    writer.join(timeout=120)
    play.wait(timeout=120)
    err = err_path.read_text()
    assert "disk I/O" not in err and not any("disk I/O" in e for e in errors), err
    assert "internal error" not in err, err
    expected = saved_by_script(err, SCRIPT_ROUNDS) + succeeded
    assert rounds_in(db) == expected, (err, errors)
    assert succeeded == OTHER_ROUNDS, errors  # nobody held the lock near 5 s
    assert play.returncode == 0, err


def test_two_play_scripts_at_once_lose_nothing_issue_18(tmp_path: Path) -> None:
    db = tmp_path / "romme.sqlite3"
    ok("new", "F", "Anna", "Ben", "--until", "open", "--db", str(db))
    env = env_for(tmp_path)
    plays = []
    for tag, (winner, loser) in (("a", ("Anna", "Ben")), ("b", ("Ben", "Anna"))):
        proc, err_path = start_play(db, tmp_path, tag, env)
        plays.append((proc, err_path, feed(proc.stdin, script(SCRIPT_ROUNDS, winner, loser))))
    for proc, _path, writer in plays:
        writer.join(timeout=180)
        proc.wait(timeout=180)
    results = [("", path.read_text()) for _proc, path, _writer in plays]
    for _out, err in results:
        assert "disk I/O" not in err and "internal error" not in err, err
    expected = sum(saved_by_script(err, SCRIPT_ROUNDS) for _out, err in results)
    assert rounds_in(db) == expected, [err for _o, err in results]
    assert expected == 2 * SCRIPT_ROUNDS, [err for _o, err in results]
