"""Servers of ``romme serve`` for the tests, on 127.0.0.1 only: a whole ``romme serve``
process (its first line of standard output is the links' JSON), or the same application
in a thread of the test's process, with limits of the test's choosing. Every request
loop of the tests is bounded; every server stops by itself at the end of its test."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette

from romme_score.sessions import SessionService
from romme_score.web.context import Limits, ServeConfig
from romme_score.web.links import LinkSet, make_token
from romme_score.web.server import bind, make_server

HOST = "127.0.0.1"


@dataclass
class Served:
    """The links of a running server: ``board``, ``scorekeeper``, ``seats`` by name."""

    board: str
    scorekeeper: str
    seats: dict[str, str]
    process: subprocess.Popen[str] | None = None
    stderr: list[str] = field(default_factory=list)
    organizer: str = ""  # romme serve --all's organiser link, where one serves it

    @property
    def origin(self) -> str:
        return self.board.rsplit("/", 1)[0]

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 15.0) -> int:
        """Send ``sig`` and wait for the exit code."""
        assert self.process is not None
        return stop_process(self.process, sig, timeout)


def stop_process(proc: subprocess.Popen[str], sig: int = signal.SIGTERM, timeout: float = 15.0) -> int:
    """Send ``sig`` to a server process still running and wait for its exit code; killed
    where it does not stop within ``timeout``."""
    if proc.poll() is None:
        proc.send_signal(sig)
    try:
        return proc.wait(timeout=timeout)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _first_line(proc: subprocess.Popen[str], timeout: float) -> str:
    assert proc.stdout is not None
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        ready, _w, _x = select.select([proc.stdout], [], [], 0.1)
        if ready:
            return proc.stdout.readline()
        if proc.poll() is not None:
            break
    err = proc.stderr.read() if proc.stderr and proc.poll() is not None else ""
    raise AssertionError(f"romme serve printed no links (exit {proc.poll()}): {err}")


def start_serve(db: Path, *args: str, env: dict[str, str] | None = None, timeout: float = 30.0) -> Served:
    """``romme serve --host 127.0.0.1 --port 0 --json ARGS`` on ``db``, once it printed its links."""
    command = [sys.executable, "-m", "romme_score", "serve", "--db", str(db), "--host", HOST, "--port", "0"]
    command += ["--json", *args]
    proc = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
    )
    try:
        line = _first_line(proc, timeout)
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    links = json.loads(line)
    return Served(links["board"], links["scorekeeper"], links["seats"], proc)


@contextmanager
def serving(db: Path, *args: str, env: dict[str, str] | None = None) -> Iterator[Served]:
    served = start_serve(db, *args, env=env)
    try:
        yield served
    finally:
        served.stop()


@contextmanager
def in_process(
    db: Path, session: str | None = None, limits: Limits | None = None, language: str = "en"
) -> Iterator[tuple[Served, Any]]:
    """The application in a thread of this process (its uvicorn server is yielded too)."""
    with SessionService(db, create=False) as service:
        info = service.session(session)
        links = service.links(info, make_token)
        location = service.store.location
    sock = bind(HOST, 0)
    port = sock.getsockname()[1]
    linkset = LinkSet(f"http://{HOST}:{port}", tuple(links))
    config = ServeConfig(location, info.id, linkset, language, "de", limits or Limits(shutdown=1.0))
    server = make_server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    end = time.monotonic() + 15
    while not server.started:
        if time.monotonic() > end or not thread.is_alive():
            raise AssertionError("the server did not start")
        time.sleep(0.02)
    summary = linkset.summary()
    seats = summary["seats"]
    assert isinstance(seats, dict)
    served = Served(str(summary["board"]), str(summary["scorekeeper"]), seats)
    try:
        yield served, server
    finally:
        app = server.config.app
        assert isinstance(app, Starlette)
        app.state.watcher.stop()  # ends the event streams, as a signal does in a real run
        server.should_exit = True
        thread.join(timeout=15)


@contextmanager
def night_in_process(db: Path, language: str = "en") -> Iterator[str]:
    """``romme serve --all``'s application in a thread of this process: its organiser link."""
    from romme_score.web.context import NightConfig, OrganizerConfig
    from romme_score.web.night import read

    sock = bind(HOST, 0)
    base = f"http://{HOST}:{sock.getsockname()[1]}"
    with SessionService(db, create=False) as service:
        config = NightConfig(service.store.location, base, language, limits=Limits(shutdown=1.0))
        found = next(c for c in read(service, config) if isinstance(c, OrganizerConfig))
    server = make_server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    end = time.monotonic() + 15
    while not server.started:
        if time.monotonic() > end or not thread.is_alive():
            raise AssertionError("the server did not start")
        time.sleep(0.02)
    try:
        yield found.links.url(found.links.links[0])
    finally:
        app = server.config.app
        assert isinstance(app, Starlette)
        for watcher in app.state.watchers:
            watcher.stop()
        server.should_exit = True
        thread.join(timeout=15)
