"""Run a command with a throw-away PostgreSQL server beside it: `make test` runs the test
suite this way, so that the store's contract, the kill -9 test and the concurrent writers
run against PostgreSQL as well as SQLite.

    python tools/with_postgres.py COMMAND [ARG ...]

It makes a cluster in a temporary folder (Debian's `initdb`, found under
/usr/lib/postgresql/*/bin or on PATH), starts it on a free port of 127.0.0.1 with its
socket in that folder, runs COMMAND with ROMME_TEST_POSTGRES=postgresql://USER@127.0.0.1:PORT/postgres
in its environment, then stops the server and removes the folder, whatever COMMAND did;
the exit code is COMMAND's. As root (CI) the server runs as the unprivileged user
`postgres` (PostgreSQL refuses to run as root). Where no server can be had, COMMAND runs
without the variable and the PostgreSQL tests skip, saying why (ROMME_TEST_POSTGRES_WHY).

How the server is stopped and started is in the environment too, for a test that
restarts it (``pg_ctl restart -m fast``): ROMME_TEST_POSTGRES_DATA (its data folder),
ROMME_TEST_POSTGRES_CTL (the pg_ctl command, a JSON list), ROMME_TEST_POSTGRES_OPTIONS
(pg_ctl's -o options) and ROMME_TEST_POSTGRES_LOG (its log file). The tests restart a
server of their own, started by :func:`start` (tests/pgtest.py ``own_server``), so that
the tests running beside them on this one keep their connections.
"""

from __future__ import annotations

import glob
import json
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def binaries() -> Path | None:
    """The folder of initdb, pg_ctl and postgres, or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), reverse=True)
    if found:
        return Path(found[0]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def as_user(user: str | None, args: list[str]) -> list[str]:
    if user is None:
        return args
    runuser = shutil.which("runuser")
    if runuser:
        return [runuser, "-u", user, "--", *args]
    return ["su", user, "-s", "/bin/sh", "-c", " ".join(f"'{a}'" for a in args)]


def start() -> tuple[dict[str, str], list[str], Path] | str:
    """(environment additions, the stop command, the folder), or why there is no server."""
    bin_dir = binaries()
    if bin_dir is None:
        return "no PostgreSQL server here (Debian's postgresql package has none installed)"
    user: str | None = None
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no user 'postgres' to run the server as"
        user = "postgres"
    folder = Path(tempfile.mkdtemp(prefix="romme-pg-"))
    data = folder / "data"
    if user is not None:
        shutil.chown(folder, user)
        folder.chmod(0o700)
    role = user or pwd.getpwuid(os.geteuid()).pw_name
    log = folder / "server.log"
    init = subprocess.run(
        as_user(
            user,
            [
                str(bin_dir / "initdb"),
                "-D",
                str(data),
                "-U",
                role,
                "--auth=trust",
                "-E",
                "UTF8",
                "--locale=C.UTF-8",
            ],
        ),
        capture_output=True,
        text=True,
    )
    if init.returncode:
        shutil.rmtree(folder, ignore_errors=True)
        return f"initdb failed: {(init.stderr or init.stdout).strip().splitlines()[-1:]}"
    port = free_port()
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60"
    started = subprocess.run(
        as_user(
            user, [str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(log), "-o", options, "-w", "start"]
        ),
        capture_output=True,
        text=True,
    )
    stop = as_user(user, [str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"])
    if started.returncode:
        subprocess.run(stop, capture_output=True)
        why = log.read_text(errors="replace").strip().splitlines()[-1:] if log.exists() else started.stderr
        shutil.rmtree(folder, ignore_errors=True)
        return f"the PostgreSQL server did not start: {why}"
    for _ in range(50):
        if (
            subprocess.run(
                [str(bin_dir / "pg_isready"), "-h", "127.0.0.1", "-p", str(port)], capture_output=True
            ).returncode
            == 0
        ):
            break
        time.sleep(0.1)
    url = f"postgresql://{role}@127.0.0.1:{port}/postgres"
    control = {
        "ROMME_TEST_POSTGRES_DATA": str(data),
        "ROMME_TEST_POSTGRES_CTL": json.dumps(as_user(user, [str(bin_dir / "pg_ctl")])),
        "ROMME_TEST_POSTGRES_OPTIONS": options,
        "ROMME_TEST_POSTGRES_LOG": str(log),
    }
    return {"ROMME_TEST_POSTGRES": url, **control}, stop, folder


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    got = start()
    env = dict(os.environ)
    if isinstance(got, str):
        env["ROMME_TEST_POSTGRES_WHY"] = got
        print(f"with_postgres: {got}; the PostgreSQL tests will skip", file=sys.stderr)
        return subprocess.run(sys.argv[1:], env=env).returncode
    extra, stop, folder = got
    env.update(extra)
    print(f"with_postgres: a throw-away server at {extra['ROMME_TEST_POSTGRES']}", file=sys.stderr)
    try:
        return subprocess.run(sys.argv[1:], env=env).returncode
    finally:
        subprocess.run(stop, capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
