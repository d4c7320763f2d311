"""The server heals itself on PostgreSQL (issue 31, "The server heals itself", items 1 and
2, and the test of two laptops on one club database): a ``romme serve`` process on
127.0.0.1 over a PostgreSQL server that is restarted or stopped under it, and two
``romme serve`` processes on one database. A restarted or stopped server is one of the
test's own (tests/pgtest.py ``own_server``), so that the other PostgreSQL tests keep theirs;
without PostgreSQL these tests skip as the others do."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from clirun import ok
from pgtest import OwnServer, fresh_database, own_server
from serving import HOST, Served, _first_line, start_serve
from test_serve_contract import Stream

from romme_score.inputs import read_hand
from romme_score.sessions import SessionService

PLAYERS = ("Anna", "Ben", "Carl", "Dora")
SEVEN = ("Anna", "Ben", "Carl", "Dora", "Emil", "Fritz", "Gerd")
HEALED_WITHIN = 5.0  # seconds after the database server is back


@pytest.fixture
def own() -> Iterator[OwnServer]:
    with own_server() as server:
        yield server


def stderr_of(process: subprocess.Popen[str]) -> str:
    if process.poll() is None:
        process.terminate()
    try:
        assert process.wait(timeout=15) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.stderr is not None
    return process.stderr.read()


def version_in(url: str) -> int:
    with SessionService(url) as service:
        return service.version(service.session("Club"))


def until(deadline: float, attempt: Any) -> Any:
    """``attempt()`` again and again until it gives something true, or the deadline."""
    while True:
        got = attempt()
        if got or time.monotonic() > deadline:
            return got
        time.sleep(0.05)


def event_with(stream: Stream, version: int, deadline: float) -> bool:
    """Whether ``stream`` has sent ``version`` (or a later one) before the deadline. The
    highest version it sent is kept: two changes close together may come as one event of
    the later version (a page then reads the state of both), which answers both asks."""
    while getattr(stream, "highest", -1) < version:
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        try:
            sent = int(stream.next(timeout=left))
        except Exception:  # queue.Empty: nothing came in time
            return False
        stream.highest = max(sent, getattr(stream, "highest", -1))  # type: ignore[attr-defined]
    return True


def test_a_restarted_database_server_is_healed_within_5_s_issue_31_item_1(own: OwnServer) -> None:
    """`pg_ctl restart -m fast` under a serving server: within 5 s of the database being
    back, reads, writes and events work again, and the change made while the server's
    connections were lost (written by another program at once) arrives on every page's
    open event stream."""
    ok("new", "Club", *PLAYERS, "--db", own.url)
    served = start_serve(own.url, "Club")  # type: ignore[arg-type]
    links = [served.board, served.scorekeeper, served.seats["Anna"], served.seats["Ben"]]
    streams = [Stream(link + "/events") for link in links]
    try:
        with httpx.Client(timeout=10) as http:
            assert http.post(served.seats["Anna"] + "/out", json={}).status_code == 200
            written = version_in(own.url)
            assert all(event_with(s, written, time.monotonic() + 3) for s in streams)
            own.restart()
            back = time.monotonic()
            deadline = back + HEALED_WITHIN
            with SessionService(own.url) as service:  # the change nobody's LISTEN heard
                info = service.session("Club")
                service.set_hand(info, "Ben", read_hand("Ben", "7"))
                missed = service.version(info)
            # the database is back: no request is refused from now on, not even the first
            # on each connection that broke meanwhile (each tried once more on a new one)
            reads = [http.get(link + "/state.json") for link in links for _ in range(3)]
            assert [r.status_code for r in reads] == [200] * len(reads), [r.text[:80] for r in reads]
            assert all(r.json()["pending"]["hands"]["Ben"] is not None for r in reads)
            carl = http.post(served.seats["Carl"] + "/hand", json={"points": 4})
            assert carl.status_code == 200, carl.text
            assert all(event_with(s, missed, deadline) for s in streams), "the missed change was not sent"
            now = version_in(own.url)
            assert all(event_with(s, now, deadline + 1) for s in streams)
            fresh = Stream(served.board + "/events")  # a page that connects now
            try:
                assert http.post(served.seats["Dora"] + "/hand", json={"points": 2}).is_success
                assert event_with(fresh, version_in(own.url), time.monotonic() + 2)
            finally:
                fresh.close()
            assert time.monotonic() < deadline + 3
    finally:
        for stream in streams:
            stream.close()
        assert served.process is not None
        err = stderr_of(served.process)
    assert "Traceback" not in err and "internal error" not in err, err
    with SessionService(own.url) as service:
        pending = service.pending(service.session("Club"))
        assert set(pending.hands) == {"Ben", "Carl", "Dora"} and pending.winner == "Anna"


def serve_tournament(url: str) -> tuple[dict[str, Any], subprocess.Popen[str]]:
    command = [sys.executable, "-m", "romme_score", "serve", "--db", url, "--tournament", "Cup"]
    command += ["--host", HOST, "--port", "0", "--json"]
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ)
    )
    try:
        return json.loads(_first_line(proc, 30)), proc
    except BaseException:
        proc.kill()
        proc.wait()
        raise


def test_every_endpoint_answers_a_database_away_with_503_and_a_sentence_issue_31_item_2(
    own: OwnServer,
) -> None:
    """The database server stopped: every endpoint that needs it, the event stream and the
    tournament's board included, answers 503 with one sentence in the request's language
    and a Retry-After, never 500 and never a traceback; started again, all of them serve."""
    ok("new", "Club", *PLAYERS, "--db", own.url)
    ok("tournament", "new", "Cup", *SEVEN, "--games", "2", "--series", "2", "--seed", "7", "--db", own.url)
    ok("tournament", "draw", "--db", own.url)
    served: Served = start_serve(own.url, "Club")  # type: ignore[arg-type]
    cup, cup_process = serve_tournament(own.url)
    board = cup["board"]
    asked = [
        ("GET", served.board, "text/html"),
        ("GET", served.board + "/state.json", "application/json"),
        ("GET", served.board + "/events", "application/json"),
        ("GET", served.scorekeeper + "/chart.svg", "application/json"),
        ("POST", served.seats["Ben"] + "/hand", "application/json"),
        ("POST", served.seats["Anna"] + "/out", "application/json"),
        ("POST", served.scorekeeper + "/save", "application/json"),
        ("GET", board + "/state.json", "application/json"),
        ("GET", board + "/events", "application/json"),
    ]
    try:
        with httpx.Client(timeout=15) as http:
            assert http.get(served.board + "/state.json").status_code == 200
            assert http.get(board + "/state.json").status_code == 200
            own.stop()
            page = http.get(board)  # the tournament board's page needs no database: served
            assert page.status_code == 200 and "kind-tournament" in page.text
            for lang, says in (("de", "nicht erreichbar"), ("en", "cannot be reached")):
                for method, url, kind in asked:
                    body = ({"points": 3} if url.endswith("/hand") else {}) if method == "POST" else None
                    answer = http.request(method, url, headers={"Accept-Language": lang}, json=body)
                    where = f"{method} {url.rsplit('/', 1)[-1]} ({lang})"
                    assert answer.status_code == 503, (where, answer.status_code, answer.text[:200])
                    assert answer.headers["retry-after"].isdigit(), where
                    assert answer.headers["content-type"].startswith(kind), where
                    assert says in answer.text, where
                    if kind == "application/json":
                        assert answer.json()["code"] == "unreachable", where
                        assert answer.json()["error"].count(";") == 1  # one sentence, no server's reason
            own.start()
            deadline = time.monotonic() + HEALED_WITHIN
            for method, url, _kind in asked:
                if method == "GET" and not url.endswith("/events"):
                    assert until(deadline, lambda u=url: http.get(u).status_code == 200), url
    finally:
        errors = [stderr_of(p) for p in (served.process, cup_process) if p is not None]
    for err in errors:
        assert "Traceback" not in err and "internal error" not in err, err


def test_two_servers_on_one_database_reach_each_others_boards_within_a_second_issue_31() -> None:
    """Two `romme serve` processes on one PostgreSQL database (two laptops of a club): each
    hand sent through one and the save through the other reach the event streams of both
    boards within a second, and no write is applied twice."""
    with fresh_database() as url:
        ok("new", "Club", *PLAYERS, "--db", url)
        first = start_serve(url, "Club")  # type: ignore[arg-type]
        second = start_serve(url, "Club")  # type: ignore[arg-type]
        boards = [Stream(first.board + "/events"), Stream(second.board + "/events")]
        try:
            with httpx.Client(timeout=10) as http:
                writes = [
                    (first, first.seats["Anna"] + "/out", {}),
                    (second, second.seats["Ben"] + "/hand", {"cards": "HK K10 J"}),
                    (first, first.seats["Carl"] + "/hand", {"points": 12}),
                    (second, second.seats["Dora"] + "/hand", {"cards": "P3 P4"}),
                    (second, second.scorekeeper + "/save", {}),
                ]
                for _through, link, body in writes:
                    assert http.post(link, json=body).status_code == 200, link
                    sent = time.monotonic()
                    now = version_in(url)
                    for board in boards:
                        assert event_with(board, now, sent + 1.0), f"{link}: not on both boards within 1 s"
                for server in (first, second):
                    data = http.get(server.board + "/state.json").json()
                    assert data["rounds_played"] == 1 and data["version"] == version_in(url)
        finally:
            for board in boards:
                board.close()
            errors = [stderr_of(s.process) for s in (first, second) if s.process is not None]
        for err in errors:
            assert "Traceback" not in err
        with SessionService(url) as service:
            info = service.session("Club")
            standings = service.standings(info)
            assert standings.rounds_played == 1  # the save once
            rows = list(service.round_rows(info))
            assert len(rows) == 1
            import psycopg

            with psycopg.connect(url) as conn:
                hands = conn.execute("SELECT count(*) FROM hands").fetchone()
            assert hands is not None and hands[0] == 4  # each hand once
