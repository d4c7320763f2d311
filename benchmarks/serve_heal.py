"""`romme serve` over a long evening (issue 31 item 6): bursts of concurrent GETs with idle
time between them, as phones wake up together after a round; after each burst, the open
descriptors of the server process on the database's files (db, -wal, -shm), its threads
and its resident memory. The worker threads retire after anyio's 10 s idle, so IDLE must
be longer than that for the figures to mean anything.

Run: `python benchmarks/serve_heal.py` (BURSTS, CLIENTS, IDLE make it shorter or longer).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from serving import start_serve  # noqa: E402

from romme_score.rules import find_preset  # noqa: E402
from romme_score.sessions import SessionService  # noqa: E402

BURSTS = int(os.environ.get("BURSTS", "4"))
CLIENTS = int(os.environ.get("CLIENTS", "40"))
IDLE = float(os.environ.get("IDLE", "11"))


def figures(pid: int, db: Path) -> tuple[int, int, float]:
    """(descriptors on the database's files, threads, resident MB) of the process."""
    names = {str(db), f"{db}-wal", f"{db}-shm"}
    files = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            files += os.readlink(f"/proc/{pid}/fd/{fd}").removesuffix(" (deleted)") in names
        except OSError:
            continue
    threads = len(os.listdir(f"/proc/{pid}/task"))
    rss = 0.0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1]) / 1024
    return files, threads, rss


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="romme-heal-"))
    db = (folder / "romme.sqlite3").resolve()
    with SessionService(db) as service:
        service.create("Friday", ["Anna", "Ben", "Carl", "Dora"], find_preset("standard"), None, None)
    served = start_serve(db)
    assert served.process is not None
    pid = served.process.pid
    try:
        url = served.board + "/state.json"
        rows = [("start", *figures(pid, db))]
        with httpx.Client(timeout=30, limits=httpx.Limits(max_connections=CLIENTS)) as http:
            with ThreadPoolExecutor(CLIENTS) as pool:
                for burst in range(1, BURSTS + 1):
                    statuses = pool.map(lambda _i: http.get(url).status_code, range(CLIENTS))
                    assert all(status == 200 for status in statuses)
                    time.sleep(IDLE)
                    http.get(url)  # the first request after the pause retires the idle threads
                    time.sleep(0.5)
                    rows.append((f"after burst {burst}", *figures(pid, db)))
    finally:
        served.stop()
    print(f"{BURSTS} bursts of {CLIENTS} concurrent GET state.json, {IDLE:g} s idle between them")
    print(f"{'':16} {'db files':>9} {'threads':>8} {'RSS MB':>8}")
    for label, files, threads, rss in rows:
        print(f"{label:16} {files:9d} {threads:8d} {rss:8.1f}")


if __name__ == "__main__":
    main()
