"""A write through ``romme serve`` tells its table's streams itself and costs no look of
the watcher at once (issue 28, "POST hand within 3x the minimal app"): the watcher's look
right after every write (three reads in a thread of its own) held the interpreter while
the next request ran, 3.1x the baseline's time against 2.8x without it
(``PARTS=requests benchmarks/serve.py``). Timings stay in the benchmark; this holds the
cause. Every server here listens on 127.0.0.1 only."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import httpx
import pytest
from serving import in_process

from romme_score.rules import find_preset
from romme_score.sessions import SessionService
from romme_score.web.events import Watcher

PLAYERS = ["Anna", "Ben", "Carl", "Dora"]


@pytest.fixture
def db(isolated_data_dir: Path) -> Path:
    with SessionService(isolated_data_dir) as service:
        service.create("Friday", PLAYERS, find_preset("standard"), None, None)
    return isolated_data_dir


def counting_pokes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    pokes: list[int] = []
    poke = Watcher.poke

    def counted(self: Watcher) -> None:
        pokes.append(self.streams)
        poke(self)

    monkeypatch.setattr(Watcher, "poke", counted)
    return pokes


def test_a_write_with_no_stream_open_pokes_no_watcher_issue_28(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pokes = counting_pokes(monkeypatch)
    with in_process(db) as (served, server), httpx.Client(timeout=10) as http:
        for points in (5, 6, 7):
            assert http.post(served.seats["Ben"] + "/hand", json={"points": points}).status_code == 200
        watcher = server.config.app.state.watcher
        # the watcher's own look, twice a second, still catches up with the session
        end = time.monotonic() + 5
        with SessionService(db, create=False) as service:
            version = service.version(service.session("Friday"))
        while watcher.version != version and time.monotonic() < end:
            time.sleep(0.05)
        assert watcher.version == version
    assert pokes == []


def test_a_write_with_streams_open_tells_them_itself_without_a_look_issue_28(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pokes = counting_pokes(monkeypatch)
    with in_process(db) as (served, server), httpx.Client(timeout=10) as http:
        events: list[str] = []
        opened = threading.Event()

        def listen() -> None:
            with httpx.Client(timeout=10) as client, client.stream("GET", served.board + "/events") as stream:
                opened.set()
                for line in stream.iter_lines():
                    if line.startswith("data: "):
                        events.append(line.removeprefix("data: "))
                        return

        reader = threading.Thread(target=listen, daemon=True)
        reader.start()
        assert opened.wait(10)
        watcher = server.config.app.state.watcher
        end = time.monotonic() + 5
        while watcher.streams == 0 and time.monotonic() < end:
            time.sleep(0.01)
        assert watcher.streams == 1
        answer = http.post(served.seats["Ben"] + "/hand", json={"points": 5})
        assert answer.status_code == 200
        reader.join(5)
        with SessionService(db, create=False) as service:
            version = service.version(service.session("Friday"))
        assert events == [str(version)]  # told at once, by the write itself
    assert pokes == []  # and its watcher was not asked to look again
