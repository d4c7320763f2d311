"""`romme serve` as the phones meet it (issue 28), side by side with a minimal Starlette +
uvicorn app of the same versions, interleaved in one run, both whole processes on
127.0.0.1 with the clients in this process:

- ``GET state.json`` and ``POST hand`` on kept-alive connections: p50 and p95;
- save → event at 20 and at 100 boards: p95 (the baseline: a POST that wakes a stream),
  each save sent as the scorekeeper's page sends it (with an Idempotency-Key);
- sessions of 10, 1,000 and 10,000 rounds: the bytes and the server's time per page per
  change, each page doing what it does after an event (``state.json`` and ``chart.svg``,
  sending the ETags it has); the baseline of this goal is the session of 10 rounds;
- 100 idle event streams: the server's memory per stream and its idle CPU;
- the weight of a seat's page with everything it loads.

Every goal ends in one line ``GOAL | figure | measured | baseline | ratio | goal | met``
(or ``missed``), which docs/speed.md collects. Run: ``python benchmarks/serve.py``;
SAMPLES, SAVES, BOARDS, SIZES, CHANGES, STREAMS, IDLE make it smaller (the tests run it so);
PARTS=requests,saves,per_change,idle,page_weight runs some of it.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import selectors
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlsplit

SAMPLES = int(os.environ.get("SAMPLES", "400"))  # requests of each kind, each server
SAVES = int(os.environ.get("SAVES", "40"))  # saves timed at each number of boards
BOARDS = [int(n) for n in os.environ.get("BOARDS", "20,100").split(",")]
SIZES = [int(n) for n in os.environ.get("SIZES", "10,1000,10000").split(",")]
CHANGES = int(os.environ.get("CHANGES", "12"))  # changes per session size (a third are saves)
STREAMS = int(os.environ.get("STREAMS", "100"))
IDLE = float(os.environ.get("IDLE", "3"))  # seconds of each idle look (three each)
PARTS = [p for p in os.environ.get("PARTS", "").split(",") if p]  # some of the parts only, by name
PLAYERS = ("Anna", "Ben", "Carl", "Dora")
EVENT = re.compile(rb"data: ?(\d+)\r?\n")


# --- the baseline: a minimal Starlette + uvicorn app ------------------------------------


def baseline_app(state_size: int) -> Any:
    """``GET /state.json`` (bytes of the given size), ``POST /hand`` (read the JSON, answer
    JSON), ``GET /events`` (one event per ``POST /bump``): each as plainly as Starlette
    allows."""
    import asyncio

    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response, StreamingResponse
    from starlette.routing import Route

    body = json.dumps({"pad": "x" * max(0, state_size - 11)}).encode()
    shared = SimpleNamespace(version=0, changed=asyncio.Event())

    async def state(request: Request) -> Response:
        return Response(body, media_type="application/json")

    async def hand(request: Request) -> Response:
        given = await request.json()
        return JSONResponse({"points": given.get("points"), "cards": []})

    async def bump(request: Request) -> Response:
        shared.version += 1
        changed, shared.changed = shared.changed, asyncio.Event()
        changed.set()
        return JSONResponse({"version": shared.version})

    async def events(request: Request) -> Response:
        async def stream() -> AsyncIterator[str]:
            seen = shared.version
            while True:
                waiting = shared.changed
                if shared.version != seen:
                    seen = shared.version
                    yield f"id: {seen}\ndata: {seen}\n\n"
                    continue
                await waiting.wait()

        return StreamingResponse(stream(), media_type="text/event-stream")

    return Starlette(
        routes=[
            Route("/state.json", state),
            Route("/hand", hand, methods=["POST"]),
            Route("/bump", bump, methods=["POST"]),
            Route("/events", events),
        ]
    )


def run_baseline(state_size: int) -> None:
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    print(json.dumps({"port": sock.getsockname()[1]}), flush=True)
    config = uvicorn.Config(baseline_app(state_size), log_level="warning", access_log=False, lifespan="off")
    uvicorn.Server(config).run(sockets=[sock])


# --- processes -------------------------------------------------------------------------


class Process:
    """A server process: its links (or port), its memory and its time on the CPU."""

    def __init__(self, proc: subprocess.Popen[str], first: dict[str, object]) -> None:
        self.proc = proc
        self.first = first

    def rss_kb(self) -> int:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def cpu_ns(self) -> int:
        """Nanoseconds on the CPU, every thread (schedstat: finer than the clock ticks)."""
        total = 0
        for task in Path(f"/proc/{self.proc.pid}/task").iterdir():
            try:
                total += int((task / "schedstat").read_text().split()[0])
            except (OSError, ValueError):
                pass  # a thread that just ended
        return total


@contextmanager
def process(command: list[str]) -> Iterator[Process]:
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line, f"{command[:4]} printed nothing"
        yield Process(proc, json.loads(line))
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def romme(db: Path, session: str) -> AbstractContextManager[Process]:
    command = [sys.executable, "-m", "romme_score", "serve", session, "--db", str(db)]
    return process([*command, "--host", "127.0.0.1", "--port", "0", "--json"])


def baseline(state_size: int) -> AbstractContextManager[Process]:
    return process([sys.executable, __file__, "--baseline", str(state_size)])


def session_of(db: Path, name: str, rounds: int) -> None:
    """An open-ended session of ``rounds`` rounds, written through the store in one transaction."""
    from romme_score.rules import find_preset
    from romme_score.sessions import ExportHand, ExportRound, SessionExport, SessionService

    rules = find_preset("standard").replace(game_end=find_preset("wiki-51").game_end)
    made = []
    for n in range(1, rounds + 1):
        winner = PLAYERS[n % 4]
        hands = {
            p: ExportHand(cards="HK K10") if i % 2 else ExportHand(points=n % 11)
            for i, p in enumerate(PLAYERS)
            if p != winner
        }
        made.append(ExportRound(n, n, winner, n % 17 == 0, False, hands))
    with SessionService(db) as service:
        service.import_(SessionExport(name, PLAYERS, rules, None, None, "Anna", "", tuple(made)))


# --- a phone's connection ----------------------------------------------------------------


class Phone:
    """One kept-alive connection, as a page's fetches use it."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.host, self.port, self.base = parts.hostname or "", parts.port or 80, parts.path.rstrip("/")
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
        self.tags: dict[str, str] = {}

    def request(
        self, method: str, path: str, body: object | None = None, tagged: bool = False, keyed: bool = False
    ) -> tuple[int, bytes]:
        """``keyed``: with an Idempotency-Key, as a page sends each of its writes."""
        headers = {"Accept": "application/json"}
        if keyed:
            headers["Idempotency-Key"] = str(uuid.uuid4())
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if tagged and path in self.tags:
            headers["If-None-Match"] = self.tags[path]
        self.conn.request(method, f"{self.base}/{path}", body=data, headers=headers)
        response = self.conn.getresponse()
        content = response.read()
        tag = response.getheader("etag")
        if tagged and tag:
            self.tags[path] = tag
        return response.status, content

    def timed(self, method: str, path: str, body: object | None = None) -> float:
        start = time.perf_counter()
        status, _content = self.request(method, path, body)
        elapsed = (time.perf_counter() - start) * 1000
        assert status == 200, (path, status)
        return elapsed

    def close(self) -> None:
        self.conn.close()


class Streams:
    """``count`` event streams on raw sockets, read by one selector thread: when each
    stream received each version."""

    def __init__(self, url: str, count: int) -> None:
        parts = urlsplit(url)
        self.arrived: list[dict[int, float]] = [{} for _ in range(count)]
        self.selector = selectors.DefaultSelector()
        self.socks = []
        for i in range(count):
            sock = socket.create_connection((parts.hostname, parts.port))
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            sock.sendall(
                f"GET {parts.path} HTTP/1.1\r\nHost: {parts.hostname}\r\n"
                "Accept: text/event-stream\r\n\r\n".encode()
            )
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ, (i, bytearray()))
            self.socks.append(sock)
        self.opened = [False] * count
        self._stop = False
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        end = time.monotonic() + 30
        while not all(self.opened):
            assert time.monotonic() < end, "the streams did not open"
            time.sleep(0.01)

    def _read(self) -> None:
        while not self._stop:
            for key, _mask in self.selector.select(0.2):
                now = time.perf_counter()
                i, buffer = key.data
                try:
                    chunk = key.fileobj.recv(65536)  # type: ignore[union-attr]
                except BlockingIOError:
                    continue
                except OSError:
                    chunk = b""
                if not chunk:
                    self.selector.unregister(key.fileobj)
                    continue
                buffer += chunk
                if not self.opened[i] and b"\r\n\r\n" in buffer:
                    self.opened[i] = True
                for found in EVENT.finditer(buffer):
                    self.arrived[i].setdefault(int(found.group(1)), now)
                cut = buffer.rfind(b"\n")
                del buffer[: cut + 1]

    def wait(self, version: int, timeout: float = 20) -> list[float]:
        end = time.monotonic() + timeout
        while not all(version in a for a in self.arrived):
            assert time.monotonic() < end, f"version {version} did not reach every stream"
            time.sleep(0.0005)
        return [a[version] for a in self.arrived]

    def close(self) -> None:
        self._stop = True
        self.thread.join(timeout=2)
        for sock in self.socks:
            sock.close()


# --- figures -----------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def goal(
    figure: str, measured: float, base: float, unit: str, want: str, met: bool, ratio: bool = True
) -> None:
    """The one line of a goal (the ratio measured ÷ baseline)."""
    shown = f"{measured / base:.2f}×" if ratio and base else "–"
    print(
        f"GOAL | {figure} | {measured:.2f} {unit} | {base:.2f} {unit} | {shown} | {want} | "
        f"{'met' if met else 'missed'}",
        flush=True,
    )


def requests(folder: Path) -> None:
    """GET state.json and POST hand on kept-alive connections, interleaved with the baseline's."""
    db = folder / "requests.sqlite3"
    session_of(db, "Requests", 10)
    with romme(db, "Requests") as served:
        links = served.first
        board, seat = Phone(str(links["board"])), Phone(str(links["seats"]["Ben"]))  # type: ignore[index]
        size = len(board.request("GET", "state.json")[1])
        with baseline(size) as base:
            port = int(base.first["port"])  # type: ignore[call-overload]
            other = Phone(f"http://127.0.0.1:{port}")
            times: dict[str, list[float]] = {k: [] for k in ("state", "state0", "hand", "hand0")}
            # The fetches of the pages after a change (the first builds the version's state,
            # every other is answered from it), then a seat's hands, each a change.
            for _n in range(SAMPLES):
                times["state"].append(board.timed("GET", "state.json"))
                times["state0"].append(other.timed("GET", "state.json"))
            for n in range(SAMPLES):
                times["hand"].append(seat.timed("POST", "hand", {"points": 5 + n % 20}))
                times["hand0"].append(other.timed("POST", "hand", {"points": 5 + n % 20}))
            for phone in (board, seat, other):
                phone.close()
    for what, key in (("GET state.json", "state"), ("POST hand", "hand")):
        mine, theirs = times[key], times[key + "0"]
        p50, p50_0 = statistics.median(mine), statistics.median(theirs)
        p95, p95_0 = percentile(mine, 0.95), percentile(theirs, 0.95)
        goal(f"{what} p50, kept alive", p50, p50_0, "ms", "≤ 3×", p50 <= 3 * p50_0)
        goal(f"{what} p95, kept alive", p95, p95_0, "ms", "< 10 ms", p95 < 10)


def disk_commit(db: sqlite3.Connection) -> float:
    """Milliseconds of one small commit made durable (WAL, synchronous=FULL, as romme's):
    what the disk itself adds to every save, which the baseline app does not write."""
    start = time.perf_counter()
    db.execute("BEGIN IMMEDIATE")
    db.execute("INSERT INTO t VALUES (?)", (start,))
    db.execute("COMMIT")
    return (time.perf_counter() - start) * 1000


def saves(folder: Path) -> None:
    """From a save to its event at every board, against a POST that wakes the baseline's streams."""
    db = folder / "saves.sqlite3"
    scratch = sqlite3.connect(folder / "disk.sqlite3", isolation_level=None)
    scratch.execute("PRAGMA journal_mode = WAL")
    scratch.execute("PRAGMA synchronous = FULL")
    scratch.execute("CREATE TABLE t (x)")
    session_of(db, "Saves", 10)
    with romme(db, "Saves") as served, baseline(1000) as base:
        links = served.first
        keeper, board = Phone(str(links["scorekeeper"])), Phone(str(links["board"]))
        port = int(base.first["port"])  # type: ignore[call-overload]
        other = Phone(f"http://127.0.0.1:{port}")
        for boards in BOARDS:
            mine_streams = Streams(str(links["board"]) + "/events", boards)
            their_streams = Streams(f"http://127.0.0.1:{port}/events", boards)
            mine: list[float] = []
            theirs: list[float] = []
            answered: list[float] = []  # the save's own answer (its write made durable)
            disk: list[float] = []  # one commit made durable on the same disk, after each save
            answered0: list[float] = []
            for n in range(SAVES):
                winner = PLAYERS[n % 4]
                hands = {p: "HK K10" if i % 2 else 7 for i, p in enumerate(PLAYERS) if p != winner}
                pending = {"winner": winner, "hands": hands}
                status, _body = keeper.request("POST", "pending", pending, keyed=True)
                assert status == 200
                before = json.loads(board.request("GET", "state.json")[1])["version"]
                mine_streams.wait(before)
                start = time.perf_counter()
                status, _body = keeper.request("POST", "save", {}, keyed=True)  # as the page sends it
                assert status == 200
                answered.append((time.perf_counter() - start) * 1000)
                after = json.loads(board.request("GET", "state.json")[1])["version"]
                mine += [(t - start) * 1000 for t in mine_streams.wait(after)]
                disk.append(disk_commit(scratch))
                start = time.perf_counter()
                status, body = other.request("POST", "bump", {})
                answered0.append((time.perf_counter() - start) * 1000)
                theirs += [(t - start) * 1000 for t in their_streams.wait(json.loads(body)["version"])]
            mine_streams.close()
            their_streams.close()
            p95, p95_0 = percentile(mine, 0.95), percentile(theirs, 0.95)
            print(
                f"save at {boards} boards: the save answered in {statistics.median(answered):.2f} ms "
                f"(p95 {percentile(answered, 0.95):.2f}; the baseline's POST "
                f"{statistics.median(answered0):.2f}), every board's event in "
                f"{statistics.median(mine):.2f} ms (baseline {statistics.median(theirs):.2f}; median); "
                f"the disk's own commit, on the way of every save before its event (SQLite, "
                f"synchronous=FULL): {statistics.median(disk):.2f} ms (p95 {percentile(disk, 0.95):.2f})",
                flush=True,
            )
            goal(f"save → event at {boards} boards, p95", p95, p95_0, "ms", "≤ 2×", p95 <= 2 * p95_0)
        for phone in (keeper, board, other):
            phone.close()
    scratch.close()


def per_change(folder: Path) -> None:
    """Sessions of SIZES rounds: every page after every change fetches state.json and
    chart.svg with the ETags it has; the bytes it gets and the server's CPU time of the
    change (the write and every page's fetches) per page."""
    figures: dict[int, tuple[float, float]] = {}
    for rounds in SIZES:
        db = folder / f"long-{rounds}.sqlite3"
        started = time.perf_counter()
        session_of(db, "Long", rounds)
        built = time.perf_counter() - started
        with romme(db, "Long") as served:
            links = served.first
            urls = [str(links["board"]), str(links["scorekeeper"]), *map(str, links["seats"].values())]  # type: ignore[attr-defined]
            pages = [Phone(u) for u in urls]
            keeper, ben = pages[1], pages[3]

            def look(pages: list[Phone] = pages) -> int:
                got = 0
                for page in pages:
                    for path in ("state.json", "chart.svg"):
                        status, content = page.request("GET", path, tagged=True)
                        assert status in (200, 304), (path, status)
                        got += len(content)
                return got

            look()  # every page has loaded once
            received = 0
            cpu = served.cpu_ns()
            changes = 0
            for n in range(CHANGES):
                step = n % 3
                if step == 0:
                    status, _b = ben.request("POST", "hand", {"points": 4 + n % 9})
                elif step == 1:
                    hands = {"Anna": 7, "Carl": "HK K10", "Dora": 3}
                    status, _b = keeper.request("POST", "pending", {"winner": "Ben", "hands": hands})
                else:
                    status, _b = keeper.request("POST", "save", {})
                assert status == 200, step
                received += look()
                changes += 1
            spent = (served.cpu_ns() - cpu) / 1e6
            for page in pages:
                page.close()
        per_page = changes * len(pages)
        figures[rounds] = (received / per_page / 1024, spent / per_page)
        print(
            f"session of {rounds} rounds (written in {built:.1f} s): per page per change "
            f"{figures[rounds][0]:.2f} KB, {figures[rounds][1]:.2f} ms of the server's CPU "
            f"({changes} changes, {len(pages)} pages)",
            flush=True,
        )
    small, large = min(SIZES), max(SIZES)
    if small != large:
        (kb, ms), (kb0, ms0) = figures[large], figures[small]
        goal(f"bytes per page per change, {large} rounds vs {small}", kb, kb0, "KB", "≤ 2×", kb <= 2 * kb0)
        goal(
            f"server time per page per change, {large} rounds vs {small}",
            ms,
            ms0,
            "ms",
            "≤ 2×",
            ms <= 2 * ms0,
        )


def idle(folder: Path) -> None:
    """STREAMS idle event streams on each server: memory per stream and CPU while idle."""
    db = folder / "idle.sqlite3"
    session_of(db, "Idle", 10)
    with romme(db, "Idle") as served, baseline(1000) as base:
        port = int(base.first["port"])  # type: ignore[call-overload]
        Phone(str(served.first["board"])).request("GET", "state.json")
        Phone(f"http://127.0.0.1:{port}").request("GET", "state.json")
        time.sleep(0.5)
        rss = {"romme": served.rss_kb(), "base": base.rss_kb()}
        with ExitStack() as opened:
            mine = Streams(str(served.first["board"]) + "/events", STREAMS)
            opened.callback(mine.close)
            theirs = Streams(f"http://127.0.0.1:{port}/events", STREAMS)
            opened.callback(theirs.close)
            time.sleep(1.0)
            per_stream = {
                "romme": (served.rss_kb() - rss["romme"]) / STREAMS,
                "base": (base.rss_kb() - rss["base"]) / STREAMS,
            }
            shares: dict[str, list[float]] = {"romme": [], "base": []}
            for _ in range(3):
                for name, proc in (("romme", served), ("base", base)):
                    start, cpu = time.perf_counter(), proc.cpu_ns()
                    time.sleep(IDLE)
                    shares[name].append((proc.cpu_ns() - cpu) / 1e9 / (time.perf_counter() - start) * 100)
    kb, kb0 = max(per_stream["romme"], 0.1), max(per_stream["base"], 0.1)
    goal(f"memory per idle event stream ({STREAMS} open)", kb, kb0, "KB", "≤ 1.5×", kb <= 1.5 * kb0)
    cpu_share, cpu0 = statistics.median(shares["romme"]), statistics.median(shares["base"])
    goal(
        f"idle CPU with {STREAMS} event streams",
        cpu_share,
        cpu0,
        "%",
        "≤ 2×",
        cpu_share <= 2 * max(cpu0, 0.05),
    )


def page_weight(folder: Path) -> None:
    db = folder / "page.sqlite3"
    session_of(db, "Page", 0)
    with romme(db, "Page") as served:
        seat = Phone(str(served.first["seats"]["Ben"]))  # type: ignore[index]
        parts = {
            name: len(seat.request("GET", name)[1])
            for name in ("", "static/main.js", "static/net.js", "static/render.js", "static/seat.js")
        }
        parts.update(
            {n: len(seat.request("GET", n)[1]) for n in ("static/style.css", "static/icon.svg", "state.json")}
        )
        seat.close()
    total = sum(parts.values())
    listed = ", ".join(f"{name or 'page'} {size / 1024:.1f}" for name, size in parts.items())
    print(f"seat page with all it loads: {total / 1024:.1f} KB uncompressed ({listed} KB)")


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:  # the databases go with it
        folder = Path(scratch)
        for part in (requests, saves, per_change, idle, page_weight):
            if not PARTS or part.__name__ in PARTS:
                part(folder)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--baseline"]:
        run_baseline(int(sys.argv[2]))
    else:
        main()
