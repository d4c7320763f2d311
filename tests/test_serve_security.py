"""What a guest on the same Wi-Fi cannot do (issue 19 item 5), each point sent as the
forbidden request to a server on 127.0.0.1, with the database checked afterwards."""

from __future__ import annotations

import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from serving import Served, in_process

from romme_score.rules import find_preset
from romme_score.sessions import SessionService
from romme_score.web.context import Limits

PLAYERS = ["Anna", "Ben", "Carl", "Dora"]
WRITES = ("hand", "out", "pending", "save", "discard", "undo")


@pytest.fixture
def db(isolated_data_dir: Path) -> Path:
    with SessionService(isolated_data_dir) as service:
        service.create("Friday", PLAYERS, find_preset("standard"), None, None)
    return isolated_data_dir


@pytest.fixture
def served(db: Path) -> Iterator[Served]:
    with in_process(db, limits=Limits(throttle_base=0.01, throttle_cap=0.05, shutdown=1.0)) as (links, _s):
        yield links


@pytest.fixture
def http() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=10) as client:
        yield client


def snapshot(db: Path) -> tuple[object, ...]:
    """What a write could change: the session's version, its rounds, the round in progress."""
    with SessionService(db) as service:
        info = service.session("Friday")
        return service.version(info), service.standings(info).rounds_played, service.pending(info)


def wrong(token_url: str) -> str:
    """The same link with its token's last character changed."""
    last = token_url[-1]
    return token_url[:-1] + ("A" if last != "A" else "B")


def comparable(response: httpx.Response) -> tuple[int, bytes, list[tuple[str, str]]]:
    headers = sorted((k, v) for k, v in response.headers.items() if k not in ("date",))
    return response.status_code, response.content, headers


# --- 1. no valid token: nothing read or written, and the same 404 ------------------------


def test_without_a_valid_token_nothing_is_read_or_written_and_every_answer_is_the_same_404(
    http: httpx.Client, served: Served, db: Path
) -> None:
    before = snapshot(db)
    nowhere = comparable(http.get(served.origin + "/no-such-page"))
    assert nowhere[0] == 404
    bad = wrong(served.scorekeeper)
    asked = [
        http.get(served.origin + "/"),
        http.get(wrong(served.board)),
        http.get(wrong(served.board) + "/state.json"),
        http.get(wrong(served.board) + "/events"),
        http.get(wrong(served.board) + "/static/app.js"),
        http.get(served.origin + "/" + "x" * 24 + "/state.json"),
        http.get(served.board + "/no-such-page"),
        *(http.post(bad + "/" + path, json={"cards": "HK", "winner": "Anna"}) for path in WRITES),
        http.post(wrong(served.seats["Ben"]) + "/hand", json={"points": 3}),
        http.delete(wrong(served.board)),
    ]
    for response in asked:
        assert comparable(response) == nowhere, response.request.url
    assert snapshot(db) == before


# --- 2. a board writes nothing, a seat only its own hand ---------------------------------


def test_a_board_link_writes_nothing(http: httpx.Client, served: Served, db: Path) -> None:
    before = snapshot(db)
    for path in WRITES:
        response = http.post(served.board + "/" + path, json={"cards": "HK", "winner": "Anna"})
        assert response.status_code == 403 and response.json()["code"] == "forbidden", path
    assert snapshot(db) == before


def test_a_seat_link_writes_its_own_hand_and_going_out_only(
    http: httpx.Client, served: Served, db: Path
) -> None:
    seat = served.seats["Ben"]
    before = snapshot(db)
    for path in ("pending", "save", "discard", "undo"):
        assert http.post(seat + "/" + path, json={"winner": "Ben"}).status_code == 403, path
    assert http.post(seat + "/hand", json={"player": "Anna", "points": 3}).status_code == 403
    assert http.post(seat + "/out", json={"player": "Anna"}).status_code == 403
    assert http.get(seat + "/links.json").status_code == 403  # nor the other seats' links
    assert snapshot(db) == before
    assert http.post(seat + "/hand", json={"points": 3}).status_code == 200
    assert http.post(seat + "/out", json={}).status_code == 200
    with SessionService(db) as service:
        pending = service.pending(service.session("Friday"))
    assert pending.winner == "Ben" and set(pending.hands) == set()  # Ben went out: his hand went with it


# --- 3. JSON bodies of at most 16 KB, from the page's own origin only ----------------------


@pytest.mark.parametrize(
    "headers, body",
    [
        ({"Content-Type": "text/plain"}, b'{"points": 3}'),  # the cross-site "simple request"
        ({"Content-Type": "application/x-www-form-urlencoded"}, b"points=3"),
        ({"Content-Type": "multipart/form-data; boundary=x"}, b"--x--"),
        ({}, b'{"points": 3}'),  # a body without a type
    ],
)
def test_a_write_takes_only_a_json_body(
    http: httpx.Client, served: Served, db: Path, headers: dict[str, str], body: bytes
) -> None:
    before = snapshot(db)
    response = http.post(served.seats["Ben"] + "/hand", content=body, headers=headers)
    assert response.status_code == 415 and response.json()["code"] == "not-json"
    assert snapshot(db) == before


def test_a_write_body_of_more_than_16_kb_is_refused(http: httpx.Client, served: Served, db: Path) -> None:
    before = snapshot(db)
    big = b'{"cards": "' + b"HK " * 5462 + b'"}'  # 16,399 bytes
    assert len(big) > 16 * 1024
    response = http.post(
        served.seats["Ben"] + "/hand", content=big, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 413 and response.json()["code"] == "too-large"

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        yield b'{"cards": "'
        for _ in range(40):
            yield b"HK " * 200
        yield b'"}'

    streamed = http.post(
        served.seats["Ben"] + "/hand", content=chunks(), headers={"Content-Type": "application/json"}
    )
    assert streamed.status_code == 413
    assert snapshot(db) == before
    fits = http.post(served.seats["Ben"] + "/hand", json={"cards": "HK KK" + " " * 15000})
    assert fits.status_code == 200


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://evil.example"},
        {"Origin": "null"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},  # another port of the same machine is another origin
        {"Sec-Fetch-Site": "same-origin", "Origin": "http://evil.example"},
    ],
)
def test_a_write_from_another_web_page_is_refused(
    http: httpx.Client, served: Served, db: Path, headers: dict[str, str]
) -> None:
    before = snapshot(db)
    for url in (served.seats["Ben"] + "/hand", served.scorekeeper + "/undo", served.scorekeeper + "/save"):
        response = http.post(url, json={"points": 3}, headers=headers)
        assert response.status_code == 403 and response.json()["code"] == "cross-site"
    assert snapshot(db) == before


def test_a_write_from_the_page_itself_or_from_a_script_is_served(http: httpx.Client, served: Served) -> None:
    own = {"Origin": served.origin, "Sec-Fetch-Site": "same-origin"}
    assert http.post(served.seats["Ben"] + "/hand", json={"points": 3}, headers=own).status_code == 200
    assert http.post(served.seats["Carl"] + "/hand", json={"points": 4}).status_code == 200  # curl, a script


# --- 4. headers on every answer, no inline script, names escaped -----------------------------


def test_every_answer_sends_the_csp_nosniff_and_no_referrer(http: httpx.Client, served: Served) -> None:
    answers = [
        http.get(served.board),
        http.get(served.seats["Ben"]),
        http.get(served.scorekeeper),
        http.get(served.board + "/state.json"),
        http.get(served.board + "/static/app.js"),
        http.get(served.board + "/qr.svg"),
        http.get(served.origin + "/nothing"),
        http.post(served.board + "/save"),
        http.post(served.seats["Ben"] + "/hand", json={"cards": "HX"}),
    ]
    with http.stream("GET", served.board + "/events") as stream:
        answers.append(stream)
    for response in answers:
        csp = response.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "default-src 'none'" in csp
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "no-referrer"


def test_the_pages_hold_no_inline_script_or_style(http: httpx.Client, served: Served) -> None:
    for url in (served.board, served.seats["Ben"], served.scorekeeper):
        page = http.get(url).text
        assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", page) == []
        assert not re.search(r"\son[a-z]+\s*=", page) and " style=" not in page and "<style" not in page
        assert "javascript:" not in page


def test_every_name_is_escaped(isolated_data_dir: Path) -> None:
    evil = "<img src onerror><script>alert(2)"
    with SessionService(isolated_data_dir) as service:
        service.create("<b>Friday</b>", [evil, "Ben&Co"], find_preset("standard"), None, None)
    with in_process(isolated_data_dir) as (served, _server), httpx.Client(timeout=10) as http:
        for url in (served.board, served.scorekeeper, *served.seats.values()):
            page = http.get(url).text
            assert "<img src" not in page and "<script>alert" not in page and "<b>Friday" not in page
            assert "&lt;b&gt;Friday&lt;/b&gt;" in page
        assert "&lt;img src onerror" in http.get(served.seats[evil]).text
        data = http.get(served.board + "/state.json").json()
        assert data["players"][0]["name"] == evil  # JSON, as data
        svg = http.get(served.scorekeeper + "/qr/board.svg").text
        assert "<img" not in svg


# --- 5. repeated wrong tokens slowed; limits on size, connections and streams ---------------------


def test_repeated_wrong_tokens_from_one_address_get_a_growing_delay_and_the_same_404(db: Path) -> None:
    limits = Limits(throttle_base=0.08, throttle_cap=0.3, throttle_free=2, shutdown=1.0)
    with in_process(db, limits=limits) as (served, _server), httpx.Client(timeout=10) as http:
        times = []
        answers = set()
        for _ in range(6):
            start = time.monotonic()
            response = http.get(wrong(served.board) + "/state.json")
            times.append(time.monotonic() - start)
            answers.add((response.status_code, response.content))
        assert len(answers) == 1 and next(iter(answers))[0] == 404  # the one 404 page
        assert max(times[:2]) < 0.08 <= times[2] and times[3] >= 0.16 and times[5] >= 0.3
        start = time.monotonic()
        assert http.get(served.board + "/state.json").status_code == 200  # a valid link is not slowed
        assert time.monotonic() - start < 0.3


def test_idle_connections_and_open_streams_do_not_starve_the_table(db: Path) -> None:
    limits = Limits(streams=5, first_request=0.6, shutdown=1.0)
    with in_process(db, limits=limits) as (served, _server):
        host, port = served.origin.removeprefix("http://").split(":")
        idle = [socket.create_connection((host, int(port)), timeout=5) for _ in range(300)]
        try:
            with httpx.Client(timeout=10) as http:
                streams = [http.stream("GET", served.board + "/events") for _ in range(5)]
                opened = [s.__enter__() for s in streams]
                try:
                    assert all(r.status_code == 200 for r in opened)
                    one_more = http.get(served.board + "/events")
                    assert one_more.status_code == 503 and one_more.json()["code"] == "too-many-streams"
                    start = time.monotonic()
                    with httpx.Client(timeout=10) as table:  # the scorekeeper is still served at once
                        assert (
                            table.post(served.seats["Ben"] + "/hand", json={"points": 3}).status_code == 200
                        )
                        assert table.get(served.scorekeeper + "/state.json").status_code == 200
                    assert time.monotonic() - start < 2
                finally:
                    for stream in streams:
                        stream.__exit__(None, None, None)
            time.sleep(1.2)  # past first_request: the silent connections are closed by the server
            closed = 0
            for sock in idle:
                sock.settimeout(0.5)
                try:
                    closed += sock.recv(1) == b""
                except (TimeoutError, ConnectionResetError):
                    pass
            assert closed == len(idle)
        finally:
            for sock in idle:
                sock.close()
