"""PostgreSQL stopped under a write that waits on a lock (issue 37 item 13): the answer is
one sentence and exit code 1, and nothing else reaches the terminal, psycopg's warning
("error ignored terminating <psycopg.Pipeline [BAD] at 0x...>: flush request failed: ...")
included. The server stopped is one of the test's own (tests/pgtest.py ``own_server``), so
that the other PostgreSQL tests keep theirs; without PostgreSQL the test skips as they do."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from pgtest import own_server

ROOT = Path(__file__).resolve().parent.parent


def romme(*args: str, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "romme_score", *args],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def waiting_on_a_lock(url: str, deadline: float) -> bool:
    """Whether a connection waits on a lock, before the deadline (asked outside the
    holder's transaction: pg_stat_activity stays as it was within one)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as watcher:
        while time.monotonic() < deadline:
            found = watcher.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
            if found.fetchall()[0][0]:
                return True
            time.sleep(0.05)
    return False


def test_postgres_stopped_while_round_waits_on_a_lock_says_one_sentence_issue_37_item_13(
    tmp_path: Path,
) -> None:
    import psycopg

    with own_server() as server:
        env = dict(os.environ, ROMME_DB=server.url, ROMME_LANG="en", PYTHONPATH=str(ROOT))
        made = subprocess.run(
            [sys.executable, "-m", "romme_score", "new", "Abend", "Anna", "Ben"],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert made.returncode == 0, made.stderr
        holder = psycopg.connect(server.url)  # a transaction that holds the session's row
        try:
            holder.execute("SELECT id FROM sessions FOR UPDATE")
            waits = romme("round", "--winner", "Anna", "Ben=5", env=env)
            try:
                assert waiting_on_a_lock(server.url, time.monotonic() + 30), "romme round never waited"
                server.stop()  # pg_ctl stop -m fast
                out, err = waits.communicate(timeout=60)
            finally:
                if waits.poll() is None:
                    waits.kill()
                    waits.wait()
        finally:
            holder.close()
        location = server.url
        assert waits.returncode == 1, (waits.returncode, out, err)
        assert out == ""
        assert err == (
            f"Error: the server of the database {location} closed the connection (stopped or "
            "restarted); try again\n"
        ), err


def test_postgres_stopped_while_new_waits_on_the_names_lock_says_one_sentence_issue_37_item_13(
    tmp_path: Path,
) -> None:
    """The same for a write outside the round's pipeline (``romme new`` waits to add its
    names): tried once more on a new connection, whatever the server says as it goes
    ("the database system is shutting down", or nothing at the port) is one sentence."""
    import psycopg

    with own_server() as server:
        env = dict(os.environ, ROMME_DB=server.url, ROMME_LANG="en", PYTHONPATH=str(ROOT))
        made = subprocess.run(
            [sys.executable, "-m", "romme_score", "new", "Abend", "Anna", "Ben"],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert made.returncode == 0, made.stderr
        holder = psycopg.connect(server.url)
        try:
            holder.execute("LOCK TABLE players, sessions IN SHARE ROW EXCLUSIVE MODE")
            waits = romme("new", "Zwei", "Carl", "Dora", env=env)
            try:
                assert waiting_on_a_lock(server.url, time.monotonic() + 30), "romme new never waited"
                server.stop()
                out, err = waits.communicate(timeout=60)
            finally:
                if waits.poll() is None:
                    waits.kill()
                    waits.wait()
        finally:
            holder.close()
        assert waits.returncode == 1, (waits.returncode, out, err)
        assert out == ""
        assert len(err.splitlines()) == 1 and err.startswith("Error: ") and server.url in err, err
        for words in ("error ignored", "FATAL", "shutting down", "psycopg"):
            assert words not in err, err
