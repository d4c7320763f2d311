"""`romme serve` on loopback (issue 19 item 8): from a save to the event at 20 connected
clients (median and p95; goal: p95 at most 50 ms), `state.json` of a session of 1,000
rounds, the server's memory with 100 idle event streams, and the weight of a seat's page
with everything it loads (goal: at most 60 KB).

Each figure from a whole `romme serve` process on 127.0.0.1, as a phone meets it; the
clients run in this process. Run: `python benchmarks/serve.py` (SAVES, CLIENTS, ROUNDS,
STREAMS, FETCHES make it smaller).
"""

from __future__ import annotations

import json
import os
import select
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from romme_score.rules import find_preset
from romme_score.sessions import ExportHand, ExportRound, SessionExport, SessionService

SAVES = int(os.environ.get("SAVES", "50"))
CLIENTS = int(os.environ.get("CLIENTS", "20"))
ROUNDS = int(os.environ.get("ROUNDS", "1000"))
STREAMS = int(os.environ.get("STREAMS", "100"))
FETCHES = int(os.environ.get("FETCHES", "50"))
PLAYERS = ("Anna", "Ben", "Carl", "Dora")


def session_of(name: str, rounds: int) -> SessionExport:
    """An open-ended session of ``rounds`` rounds, as an export (imported in one go)."""
    rules = find_preset("standard").replace(game_end=find_preset("wiki-51").game_end)
    made = []
    for n in range(1, rounds + 1):
        winner = PLAYERS[n % 4]
        hands = {
            p: ExportHand(cards="HK K10") if i % 2 else ExportHand(points=7)
            for i, p in enumerate(PLAYERS)
            if p != winner
        }
        made.append(ExportRound(n, n, winner, n % 17 == 0, False, hands))
    return SessionExport(name, PLAYERS, rules, None, None, "Anna", "", tuple(made))


class Server:
    def __init__(self, process: subprocess.Popen[str], links: dict[str, object]) -> None:
        self.process = process
        self.links = links

    def seat(self, name: str) -> str:
        seats = self.links["seats"]
        assert isinstance(seats, dict)
        return str(seats[name])

    def rss_kb(self) -> int:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0


@contextmanager
def serving(db: Path, session: str) -> Iterator[Server]:
    command = [sys.executable, "-m", "romme_score", "serve", session, "--db", str(db)]
    proc = subprocess.Popen(
        [*command, "--host", "127.0.0.1", "--port", "0", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stdout is not None
        ready, _w, _x = select.select([proc.stdout], [], [], 60)
        assert ready, "romme serve printed no links"
        yield Server(proc, json.loads(proc.stdout.readline()))
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)


class Listener:
    """One client's event stream, read in a thread: the time each version arrived."""

    def __init__(self, url: str) -> None:
        self.arrived: dict[str, float] = {}
        self.opened = threading.Event()
        self.client = httpx.Client(timeout=httpx.Timeout(60))
        self.thread = threading.Thread(target=self._read, args=(url,), daemon=True)
        self.thread.start()

    def _read(self, url: str) -> None:
        try:
            with self.client.stream("GET", url) as stream:
                self.opened.set()
                for line in stream.iter_lines():
                    if line.startswith("data:"):
                        self.arrived[line[5:].strip()] = time.perf_counter()
        except httpx.HTTPError:
            pass

    def close(self) -> None:
        self.client.close()


def wait_all(listeners: list[Listener], version: str, timeout: float = 10) -> None:
    end = time.monotonic() + timeout
    while not all(version in x.arrived for x in listeners):
        if time.monotonic() > end:
            raise AssertionError(f"version {version} did not reach every client")
        time.sleep(0.001)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def latency(folder: Path) -> None:
    db = folder / "latency.sqlite3"
    with SessionService(db) as service:
        rules = find_preset("standard").replace(game_end=find_preset("wiki-51").game_end)
        service.create("Latency", list(PLAYERS), rules, None, None)
    with serving(db, "Latency") as server, httpx.Client(timeout=30) as http:
        board, keeper = str(server.links["board"]), str(server.links["scorekeeper"])
        listeners = [Listener(board + "/events") for _ in range(CLIENTS)]
        for listener in listeners:
            assert listener.opened.wait(30)
        samples: list[float] = []
        try:
            for n in range(SAVES):
                winner = PLAYERS[n % 4]
                hands = {p: "HK K10" if i % 2 else 7 for i, p in enumerate(PLAYERS) if p != winner}
                answer = http.post(keeper + "/pending", json={"winner": winner, "hands": hands})
                assert answer.status_code == 200, answer.text
                before = str(http.get(board + "/state.json").json()["version"])
                wait_all(listeners, before)
                start = time.perf_counter()
                saved = http.post(keeper + "/save")
                assert saved.status_code == 200, saved.text
                after = str(http.get(board + "/state.json").json()["version"])
                wait_all(listeners, after)
                samples += [(x.arrived[after] - start) * 1000 for x in listeners]
        finally:
            for listener in listeners:
                listener.close()
    print(
        f"save to event, {CLIENTS} clients, {SAVES} saves ({len(samples)} events): "
        f"median {statistics.median(samples):.1f} ms, p95 {percentile(samples, 0.95):.1f} ms, "
        f"max {max(samples):.1f} ms (goal: p95 <= 50 ms)"
    )


def long_state(folder: Path) -> None:
    db = folder / "long.sqlite3"
    with SessionService(db) as service:
        service.import_(session_of("Long", ROUNDS))
    with serving(db, "Long") as server, httpx.Client(timeout=30) as http:
        url = str(server.links["board"]) + "/state.json"
        size = len(http.get(url).content)
        times = []
        for _ in range(FETCHES):
            start = time.perf_counter()
            response = http.get(url)
            times.append((time.perf_counter() - start) * 1000)
            assert response.status_code == 200
        assert len(response.json()["rounds"]) == ROUNDS
    print(
        f"state.json of {ROUNDS} rounds ({size / 1024:.0f} KB): median {statistics.median(times):.1f} ms, "
        f"p95 {percentile(times, 0.95):.1f} ms over {FETCHES} requests"
    )


def idle_streams(folder: Path) -> None:
    db = folder / "idle.sqlite3"
    with SessionService(db) as service:
        service.create("Idle", list(PLAYERS), find_preset("standard"), None, None)
    with serving(db, "Idle") as server:
        board = str(server.links["board"])
        with httpx.Client(timeout=30) as http:
            http.get(board + "/state.json")
        time.sleep(0.5)
        before = server.rss_kb()
        listeners = [Listener(board + "/events") for _ in range(STREAMS)]
        for listener in listeners:
            assert listener.opened.wait(30)
        time.sleep(1.0)
        after = server.rss_kb()
        with httpx.Client(timeout=30) as http:  # the table is still served at once
            start = time.perf_counter()
            assert http.get(board + "/state.json").status_code == 200
            served_in = (time.perf_counter() - start) * 1000
        for listener in listeners:
            listener.close()
    print(
        f"memory of the server: {before / 1024:.1f} MB, with {STREAMS} idle event streams "
        f"{after / 1024:.1f} MB ({(after - before) / max(1, STREAMS):.0f} KB a stream); "
        f"state.json meanwhile in {served_in:.1f} ms"
    )


def page_weight(folder: Path) -> None:
    db = folder / "page.sqlite3"
    with SessionService(db) as service:
        service.create("Page", list(PLAYERS), find_preset("standard"), None, None)
    with serving(db, "Page") as server, httpx.Client(timeout=30) as http:
        seat = server.seat("Ben")
        parts = {
            "page": len(http.get(seat).content),
            "app.js": len(http.get(seat + "/static/app.js").content),
            "style.css": len(http.get(seat + "/static/style.css").content),
            "icon.svg": len(http.get(seat + "/static/icon.svg").content),
            "state.json": len(http.get(seat + "/state.json").content),
        }
    total = sum(parts.values())
    listed = ", ".join(f"{name} {size / 1024:.1f}" for name, size in parts.items())
    print(f"seat page with all it loads: {total / 1024:.1f} KB uncompressed ({listed} KB; goal <= 60 KB)")


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:  # the databases go with it
        folder = Path(scratch)
        latency(folder)
        long_state(folder)
        idle_streams(folder)
        page_weight(folder)


if __name__ == "__main__":
    main()
