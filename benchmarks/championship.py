"""A championship on one laptop (issue 36 item 7): a tournament of PLAYERS players at tables
of 4 (500: 125 tables), one ``romme serve --tournament`` with every seat's event stream open
(500) and BOARDS streams of the tournament's board (100, the projectors), beside a minimal
Starlette + uvicorn app in the same run that does what a save must at least do: one SQLite
transaction writing a row (WAL, synchronous=FULL, as romme's store), then an event to the
same streams (its table's four seats and every board). Two loads, each on both servers:

- a championship's pace: the tables save one after another, PACE saves a second (a real
  championship sees about 0.5): the p95 from a save to its event at each of its streams
  (the table's seats and every board), and the server's memory per open stream;
- a burst: every table saves at the same moment (the pending game of each sent first):
  every save answered 200 and stored, every stream sees its final version, and the time
  until the last stream's event of its final version (the burst drained).

Each figure is the median of RUNS runs (a burst each; the pace's saves cut into RUNS
parts). ``SERVE`` names the command line served (a key of :data:`SERVES`; several with
commas): the one that serves every game (``romme serve --all``) is one line more there,
and its ``--json`` line (``{"organizer", "games": [...], ...}``) is read by
:func:`tables_of` already. Every goal ends in one GOAL line (docs/speed.md). With
``ROMME_TEST_POSTGRES`` (tools/with_postgres.py, as ``make bench`` runs it) the same on
PostgreSQL too.

Run: ``python benchmarks/championship.py`` (PLAYERS, BOARDS, SAVES, PACE, RUNS, SERVE;
the tests run it tiny).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import selectors
import socket
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from goal_line import print_goal  # noqa: E402  (benchmarks/goal_line.py)
from serve import Phone, Process, percentile, process  # noqa: E402  (benchmarks/serve.py)

PLAYERS = int(os.environ.get("PLAYERS", "500"))
BOARDS = int(os.environ.get("BOARDS", "100"))  # streams of the tournament's board
SAVES = int(os.environ.get("SAVES", "60"))  # saves timed at the championship's pace
PACE = float(os.environ.get("PACE", "2"))  # saves a second
RUNS = int(os.environ.get("RUNS", "3"))  # bursts (and parts of the pace's saves)
NAME = "Champ"
# The command lines served, after ``python -m romme_score``; each is followed by
# ``--db DB --host 127.0.0.1 --port 0 --json``: the tournament served alone, and the
# server of the whole night (issue 36 item 1), which serves it among everything else.
SERVES: dict[str, tuple[str, ...]] = {
    "tournament": ("serve", "--tournament", NAME),
    "all": ("serve", "--all"),
}
SERVE = [s for s in os.environ.get("SERVE", "tournament,all").split(",") if s]
STORES = os.environ.get("STORES", "sqlite,postgresql").split(",")  # PostgreSQL: where there is one
EVENT = re.compile(rb"data: ?(\d+)\r?\n")


# --- the baseline ------------------------------------------------------------------------


def baseline_app(db: str, tables: int) -> Any:
    """``GET /t/{n}/events`` (a seat's stream of table n), ``GET /board/events`` (the
    board's), ``POST /t/{n}/save``: one SQLite transaction writing a row (in a worker
    thread, as a blocking write must be; with a PostgreSQL URL, one statement there),
    then the table's and the board's version one up and an event to each of their
    streams; ``GET /t/{n}/version``, ``GET /board/version``."""
    import sqlite3

    import anyio.to_thread
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response, StreamingResponse
    from starlette.routing import Route

    local = threading.local()

    def connection() -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(db, isolation_level=None, timeout=60)
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = FULL")
            local.conn = conn
        return conn

    on_server = db.startswith(("postgresql:", "postgres:"))
    if on_server:  # the same on PostgreSQL (an information, not the goal): one
        # statement, its own transaction, on a connection of each worker thread
        import psycopg

        def write_row(table: int) -> None:
            conn = getattr(local, "conn", None)
            if conn is None:
                conn = local.conn = psycopg.connect(db, autocommit=True)
            conn.execute("INSERT INTO saves (tbl, at) VALUES (%s, %s)", (table, time.time()))

        with psycopg.connect(db, autocommit=True) as setup_pg:
            setup_pg.execute(
                "CREATE TABLE IF NOT EXISTS saves (id BIGSERIAL PRIMARY KEY, tbl INTEGER, at FLOAT8)"
            )
    else:
        setup = sqlite3.connect(db, isolation_level=None)
        setup.execute("PRAGMA journal_mode = WAL")
        setup.execute("CREATE TABLE IF NOT EXISTS saves (id INTEGER PRIMARY KEY, tbl INTEGER, at REAL)")
        setup.close()

    class Channel:
        def __init__(self) -> None:
            self.version = 0
            self.changed = asyncio.Event()

        def bump(self) -> int:
            self.version += 1
            changed, self.changed = self.changed, asyncio.Event()
            changed.set()
            return self.version

        async def stream(self) -> AsyncIterator[str]:
            seen = self.version
            while True:
                waiting = self.changed
                if self.version != seen:
                    seen = self.version
                    yield f"id: {seen}\ndata: {seen}\n\n"
                    continue
                await waiting.wait()

    channels = [Channel() for _ in range(tables + 1)]
    board = channels[tables]

    writers = threading.Lock()  # its writers one after the other, not in SQLite's busy handler

    def write(table: int) -> None:
        if on_server:
            write_row(table)
            return
        conn = connection()
        with writers:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("INSERT INTO saves (tbl, at) VALUES (?, ?)", (table, time.time()))
            conn.execute("COMMIT")

    def channel(request: Request) -> Channel:
        n = request.path_params.get("n")
        return board if n is None else channels[int(n)]

    async def save(request: Request) -> Response:
        n = int(request.path_params["n"])
        await anyio.to_thread.run_sync(write, n)
        version = channels[n].bump()
        board.bump()
        return JSONResponse({"version": version})

    async def events(request: Request) -> Response:
        return StreamingResponse(channel(request).stream(), media_type="text/event-stream")

    async def version(request: Request) -> Response:
        return JSONResponse({"version": channel(request).version})

    return Starlette(
        routes=[
            Route("/t/{n:int}/save", save, methods=["POST"]),
            Route("/t/{n:int}/events", events),
            Route("/t/{n:int}/version", version),
            Route("/board/events", events),
            Route("/board/version", version),
        ]
    )


def run_baseline(db: str, tables: int) -> None:
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(2048)
    print(json.dumps({"port": sock.getsockname()[1]}), flush=True)
    config = uvicorn.Config(
        baseline_app(db, tables), log_level="warning", access_log=False, lifespan="off", backlog=2048
    )
    uvicorn.Server(config).run(sockets=[sock])


# --- the tournament ----------------------------------------------------------------------


def build(db: str) -> int:
    """A tournament of PLAYERS with its first series drawn; the number of its tables."""
    from romme_score.rules import find_preset
    from romme_score.sessions import SessionService
    from romme_score.tournament import TournamentOptions, TournamentService
    from romme_score.tournament.rules import Entrant

    options = TournamentOptions(series=2, games=SAVES + 2 * RUNS + 4, scoring="wertung")
    with SessionService(db) as sessions:
        service = TournamentService(sessions)
        service.create(
            NAME,
            [Entrant(f"Player {n:03d}") for n in range(1, PLAYERS + 1)],
            find_preset("standard"),
            options,
            seed=36,
        )
        return len(service.draw(NAME).tables)


def rounds_stored(db: str) -> dict[str, int]:
    """The rounds each table of the series holds, read from the store."""
    from romme_score.sessions import SessionService
    from romme_score.tournament import TournamentService

    with SessionService(db, create=False) as sessions:
        service = TournamentService(sessions)
        info = service.tournament(NAME)
        counts = {s.info.name: s.rounds for s in sessions.overview()}
        return {t.session: counts[t.session] for t in service.tables(info, info.series_drawn)}


@dataclass
class Table:
    """A table's links as served: the scorekeeper's and every seat's."""

    session: str
    scorekeeper: str
    seats: list[str]
    players: list[str]


def tables_of(first: dict[str, Any]) -> tuple[list[Table], str]:
    """The tables and the tournament's board from the served ``--json`` line: that of
    ``--tournament`` (``{"board", "tables": [...]}``) or of ``--all`` (``{"games": [...],
    "tournaments": [...]}``, the tournament's games)."""
    if "tables" in first:
        rows, board = first["tables"], first["board"]
    else:
        rows = [g for g in first["games"] if g.get("tournament") == NAME]
        rows.sort(key=lambda g: g.get("table") or 0)
        board = next(t["board"] for t in first["tournaments"] if t["name"] == NAME)
    found = [
        Table(r.get("session") or r["name"], r["scorekeeper"], list(r["seats"].values()), list(r["seats"]))
        for r in rows
    ]
    return found, board


# --- the streams -------------------------------------------------------------------------


class Streams:
    """Event streams on raw sockets, each at its own URL, read by one selector thread:
    every version each stream received, and when."""

    def __init__(self, urls: list[str]) -> None:
        self.arrived: list[list[tuple[float, int]]] = [[] for _ in urls]
        self.opened = [False] * len(urls)
        self.selector = selectors.DefaultSelector()
        self.socks: list[socket.socket] = []
        self._stop = False
        for i, url in enumerate(urls):
            parts = urlsplit(url)
            sock = socket.create_connection((parts.hostname, parts.port))
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            sock.sendall(
                f"GET {parts.path} HTTP/1.1\r\nHost: {parts.hostname}:{parts.port}\r\n"
                "Accept: text/event-stream\r\n\r\n".encode()
            )
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ, (i, bytearray()))
            self.socks.append(sock)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        end = time.monotonic() + 120
        while not all(self.opened):
            assert time.monotonic() < end, f"{self.opened.count(False)} streams did not open"
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
                    assert buffer.startswith(b"HTTP/1.1 200"), bytes(buffer[:200])
                    self.opened[i] = True
                for found in EVENT.finditer(buffer):
                    self.arrived[i].append((now, int(found.group(1))))
                cut = buffer.rfind(b"\n")
                del buffer[: cut + 1]

    def last(self, i: int) -> int:
        """The version stream ``i`` received last (-1: none yet)."""
        got = self.arrived[i]
        return got[-1][1] if got else -1

    def first_after(self, i: int, version: int, timeout: float = 60) -> float:
        """When stream ``i`` first received a version of at least ``version``."""
        end = time.monotonic() + timeout
        while True:
            for at, seen in list(self.arrived[i]):
                if seen >= version:
                    return at
            assert time.monotonic() < end, f"stream {i} did not see version {version}"
            time.sleep(0.0005)

    def close(self) -> None:
        self._stop = True
        self.thread.join(timeout=2)
        for sock in self.socks:
            sock.close()


# --- the two servers, as the loads meet them --------------------------------------------


class once(Phone):  # noqa: N801  (a phone for one request: a kept-alive one times out between saves)
    def request(
        self, method: str, path: str, body: object | None = None, tagged: bool = False, keyed: bool = False
    ) -> tuple[int, bytes]:
        try:
            return super().request(method, path, body, tagged, keyed)
        finally:
            self.close()


class Server:
    """A server with its streams: each table's seats (``seats[t]``: stream indexes) and
    the boards; what a save at a table is, and how each stream's version is read."""

    name = ""
    proc: Process
    streams: Streams
    seats: list[list[int]]
    boards: list[int]

    def open(self, seat_urls: list[list[str]], board_url: str) -> float:
        """Every stream opened; the server's memory per stream (KB)."""
        time.sleep(0.5)
        before = self.proc.rss_kb()
        urls = [u for table in seat_urls for u in table] + [board_url] * BOARDS
        self.seats, at = [], 0
        for table in seat_urls:
            self.seats.append(list(range(at, at + len(table))))
            at += len(table)
        self.boards = list(range(at, at + BOARDS))
        self.streams = Streams(urls)
        time.sleep(1.0)
        return (self.proc.rss_kb() - before) / len(urls)

    def prepare(self, table: int) -> None:
        """What comes before a save (romme: the pending game)."""

    def save(self, table: int, phone: Phone) -> int:
        """The save's status."""
        raise NotImplementedError

    def phone(self, table: int) -> Phone:
        raise NotImplementedError

    def versions(self, table: int) -> tuple[int, int]:
        """The table's version and the board's, as the server says them now."""
        raise NotImplementedError


class Romme(Server):
    name = "romme"

    def __init__(self, proc: Process) -> None:
        self.proc = proc
        self.tables, self.board = tables_of(proc.first)

    def prepare(self, table: int) -> None:
        names = self.tables[table].players
        winner = names[0]
        hands = {p: 7 if i % 2 else "HK K10" for i, p in enumerate(names) if p != winner}
        status, body = once(self.tables[table].scorekeeper).request(
            "POST", "pending", {"winner": winner, "hands": hands}, keyed=True
        )
        assert status == 200, body

    def phone(self, table: int) -> Phone:
        return Phone(self.tables[table].scorekeeper)

    def save(self, table: int, phone: Phone) -> int:
        return phone.request("POST", "save", {}, keyed=True)[0]

    def versions(self, table: int) -> tuple[int, int]:
        seat = json.loads(once(self.tables[table].seats[0]).request("GET", "state.json")[1])["version"]
        board = json.loads(once(self.board).request("GET", "state.json")[1])["version"]
        return int(seat), int(board)


class Base(Server):
    name = "base"

    def __init__(self, proc: Process, tables: int) -> None:
        self.proc = proc
        self.origin = f"http://127.0.0.1:{proc.first['port']}"
        self.count = tables

    def phone(self, table: int) -> Phone:
        return Phone(self.origin)

    def save(self, table: int, phone: Phone) -> int:
        return phone.request("POST", f"t/{table}/save", {})[0]

    def versions(self, table: int) -> tuple[int, int]:
        seat = json.loads(once(self.origin).request("GET", f"t/{table}/version")[1])["version"]
        board = json.loads(once(self.origin).request("GET", "board/version")[1])["version"]
        return int(seat), int(board)


def save_to_event(server: Server, table: int) -> list[float]:
    """One save at ``table`` (on a new connection, as a phone's after a while): ms from it
    to its event at each of the table's streams and every board's."""
    phone = server.phone(table)
    start = time.perf_counter()
    status = server.save(table, phone)
    assert status == 200, (server.name, status)
    seat, board = server.versions(table)
    waits = [server.streams.first_after(i, seat) for i in server.seats[table]]
    waits += [server.streams.first_after(i, board) for i in server.boards]
    phone.close()
    return [(t - start) * 1000 for t in waits]


def burst(server: Server) -> float:
    """Every table saves at once: ms until the last stream's event of its final version."""
    count = len(server.seats)
    for table in range(count):
        server.prepare(table)
    phones = [server.phone(table) for table in range(count)]
    statuses: list[int] = [0] * count
    ready = threading.Barrier(count + 1)

    def one(table: int) -> None:
        ready.wait()
        statuses[table] = server.save(table, phones[table])

    threads = [threading.Thread(target=one, args=(t,)) for t in range(count)]
    for thread in threads:
        thread.start()
    time.sleep(0.3)  # the pending games' events told
    ready.wait()
    start = time.perf_counter()
    for thread in threads:
        thread.join()
    answered = (time.perf_counter() - start) * 1000
    assert statuses == [200] * count, (server.name, sorted(set(statuses)))
    last = 0.0
    board = 0
    for table in range(count):
        seat, board = server.versions(table)
        last = max([last] + [server.streams.first_after(i, seat) for i in server.seats[table]])
    last = max([last] + [server.streams.first_after(i, board) for i in server.boards])
    for phone in phones:
        phone.close()
    drained = (last - start) * 1000
    print(
        f"  {server.name}: {count} saves at once answered in {answered:.0f} ms, drained in {drained:.0f} ms",
        flush=True,
    )
    return drained


# --- the run -----------------------------------------------------------------------------


def romme(db: str, serve: str) -> AbstractContextManager[Process]:
    command = [sys.executable, "-m", "romme_score", *SERVES[serve], "--db", db]
    return process([*command, "--host", "127.0.0.1", "--port", "0", "--json"])


def baseline(folder: Path, tables: int) -> AbstractContextManager[Process]:
    return baseline_at(str(folder / "base.sqlite3"), tables)


def baseline_at(db: str, tables: int) -> AbstractContextManager[Process]:
    """The minimal app writing its rows to ``db``: a SQLite file, or a PostgreSQL database."""
    return process([sys.executable, __file__, "--baseline", db, str(tables)])


def championship(db: str, folder: Path, serve: str, store: str) -> None:
    tables = build(db)
    label = f"championship of {PLAYERS} players ({tables} tables), {store}, romme {' '.join(SERVES[serve])}"
    print(f"{label}: {tables * 4} seats' and {BOARDS} boards' event streams open", flush=True)
    with contextlib.ExitStack() as stack:
        mine = Romme(stack.enter_context(romme(db, serve)))
        theirs = Base(stack.enter_context(baseline(folder, tables)), tables)
        seat_urls = [[s + "/events" for s in t.seats] for t in mine.tables]
        kb = mine.open(seat_urls, mine.board + "/events")
        base_urls = [[f"{theirs.origin}/t/{n}/events"] * len(t) for n, t in enumerate(seat_urls)]
        kb0 = theirs.open(base_urls, f"{theirs.origin}/board/events")
        # on PostgreSQL, for the record (not the goal): the minimal app writing its
        # row to PostgreSQL too, its bursts beside romme's
        row_db = stack.enter_context(postgres()) if store == "PostgreSQL" else None
        on_pg: Base | None = None
        if row_db is not None:
            on_pg = Base(stack.enter_context(baseline_at(row_db, tables)), tables)
            on_pg.name = "base on PostgreSQL"
            on_pg_urls = [[f"{on_pg.origin}/t/{n}/events"] * len(t) for n, t in enumerate(seat_urls)]
            on_pg.open(on_pg_urls, f"{on_pg.origin}/board/events")
        print(f"  memory per stream: romme {kb:.2f} KB, the minimal app {kb0:.2f} KB", flush=True)
        # the championship's pace: romme's saves and the minimal app's by turns, each PACE a second
        p95s: list[float] = []
        p95s0: list[float] = []
        parts = max(1, min(RUNS, SAVES))
        for part in range(parts):
            waits: list[float] = []
            waits0: list[float] = []
            for n in range(part * SAVES // parts, (part + 1) * SAVES // parts):
                table = n % tables
                mine.prepare(table)
                time.sleep(0.5 / PACE)
                waits += save_to_event(mine, table)
                time.sleep(0.5 / PACE)
                waits0 += save_to_event(theirs, table)
            p95s.append(percentile(waits, 0.95))
            p95s0.append(percentile(waits0, 0.95))
        p95, p95_0 = statistics.median(p95s), statistics.median(p95s0)
        print(
            f"  save → event at {PACE:g} saves/s, p95 of each of {parts} parts: romme {p95s}, minimal {p95s0}"
        )
        # the burst: RUNS times each
        drains: list[float] = []
        drains0: list[float] = []
        drains_pg: list[float] = []
        for _run in range(RUNS):
            drains.append(burst(mine))
            drains0.append(burst(theirs))
            if on_pg is not None:
                drains_pg.append(burst(on_pg))
        stored = rounds_stored(db)
        saved = [0] * tables
        for n in range(SAVES):
            saved[n % tables] += 1
        lost = [s for (s, got), want in zip(stored.items(), saved, strict=True) if got != want + RUNS]
        assert not lost, f"writes lost at {lost[:5]}"
        mine.streams.close()
        theirs.streams.close()
        if on_pg is not None:
            on_pg.streams.close()
    if drains_pg:
        mine_ms, row_ms = statistics.median(drains), statistics.median(drains_pg)
        print(
            f"  for the record: the minimal app writing its row to PostgreSQL drains the burst in "
            f"{row_ms:.1f} ms; romme's {mine_ms:.1f} ms is {mine_ms / row_ms:.2f}x that"
        )
    where = f"{PLAYERS} players, {store}, romme {' '.join(SERVES[serve][1:2])}"
    print_goal(
        f"championship ({where}): save → event at {PACE:g} saves/s, p95",
        f"{p95:.2f} ms",
        f"{p95_0:.2f} ms",
        p95 / p95_0,
        "<= 2x",
        p95 <= 2 * p95_0,
    )
    print_goal(
        f"championship ({where}): memory per event stream ({tables * 4 + BOARDS} open)",
        f"{kb:.2f} KB",
        f"{kb0:.2f} KB",
        kb / max(kb0, 0.1),
        "<= 1.5x",
        kb <= 1.5 * max(kb0, 0.1),
    )
    drain, drain0 = statistics.median(drains), statistics.median(drains0)
    print_goal(
        f"championship ({where}): {tables} tables save at once, until the last stream's event",
        f"{drain:.1f} ms",
        f"{drain0:.1f} ms",
        drain / drain0,
        "<= 2x, every save 200 and stored",
        drain <= 2 * drain0,
    )


@contextmanager
def postgres() -> Iterator[str | None]:
    """A fresh database on the server of tools/with_postgres.py (None: there is none)."""
    server = os.environ.get("ROMME_TEST_POSTGRES")
    if not server:
        yield None
        return
    import psycopg

    name = f"romme_champ_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield server.rpartition("/")[0] + "/" + name
    finally:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def main() -> None:
    os.environ.setdefault("ROMME_LANG", "en")
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        os.environ.setdefault("ROMME_DATA_DIR", str(folder / "data"))
        for serve in SERVE:
            if "sqlite" in STORES:
                championship(str(folder / f"{serve}.sqlite3"), folder, serve, "SQLite")
                (folder / "base.sqlite3").unlink(missing_ok=True)
            if "postgresql" not in STORES:
                continue
            with postgres() as url:
                if url is not None:
                    championship(url, folder, serve, "PostgreSQL")
                    (folder / "base.sqlite3").unlink(missing_ok=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--baseline"]:
        run_baseline(sys.argv[2], int(sys.argv[3]))
    else:
        main()
