"""An event stream refused (``GET {link}/events`` answered 503) carries the JSON error like
every other refusal: ``code``, a sentence in the request's language and a Retry-After,
whether too many streams are open (300 opened at once), the server has too many
connections (its limit lowered here), or the PostgreSQL server is down (issue 37 item 8)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from clirun import ok
from pgtest import own_server
from serving import HOST, Served, _first_line, in_process, start_serve

from romme_score.rules import find_preset
from romme_score.sessions import SessionService
from romme_score.web.context import Limits

SAYS = {
    "too-many-streams": {"de": "zu viele Seiten", "en": "too many pages"},
    "too-many-connections": {"de": "zu viele Verbindungen", "en": "too many connections"},
    "unreachable": {"de": "nicht erreichbar", "en": "cannot be reached"},
}


@pytest.fixture
def db(isolated_data_dir: Path) -> Path:
    with SessionService(isolated_data_dir) as service:
        service.create("Friday", ["Anna", "Ben", "Carl"], find_preset("standard"), None, "EUR")
    return isolated_data_dir


def burst(url: str, count: int, lang: str) -> list[tuple[int, dict[str, str], bytes]]:
    """``count`` requests for ``url`` sent at once, each on a connection of its own: the
    status, headers and (of a refusal) the whole body of each answer."""
    address, path = url.split("//", 1)[1].split("/", 1)
    host, port = address.split(":")
    request = f"GET /{path} HTTP/1.1\r\nHost: {HOST}\r\nAccept-Language: {lang}\r\n\r\n".encode()
    socks = [socket.create_connection((host, int(port)), timeout=20) for _ in range(count)]
    answers = []
    try:
        for sock in socks:
            sock.sendall(request)
        for sock in socks:
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                data += chunk
            head, _sep, body = data.partition(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            status = int(lines[0].split(" ")[1])
            headers = {k.lower(): v.strip() for k, _c, v in (line.partition(":") for line in lines[1:])}
            if status != 200:
                length = int(headers.get("content-length", "0"))
                while len(body) < length:
                    chunk = sock.recv(4096)
                    if not chunk:
                        break
                    body += chunk
            answers.append((status, headers, body))
    finally:
        for sock in socks:
            sock.close()
    return answers


def assert_refused_as_json(status: int, headers: dict[str, str], body: bytes, lang: str, *codes: str) -> None:
    assert status == 503, (status, body[:100])
    assert headers["content-type"].startswith("application/json"), (headers, body[:100])
    assert headers["retry-after"].isdigit()
    data = json.loads(body)
    assert data["code"] in codes, data
    assert SAYS[data["code"]][lang] in data["error"], data


@pytest.mark.parametrize("lang", ["de", "en"])
def test_300_streams_at_once_the_refused_ones_carry_the_json_error_issue_37_item_8(
    db: Path, lang: str
) -> None:
    with in_process(db, limits=Limits(shutdown=1.0)) as (served, _server):
        answers = burst(served.board + "/events", 300, lang)
    assert sum(1 for status, _h, _b in answers if status == 200) == Limits().streams
    for status, headers, body in answers:
        if status != 200:
            assert_refused_as_json(status, headers, body, lang, "too-many-streams")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_past_the_servers_connection_limit_the_refusal_is_json_too_issue_37_item_8(
    db: Path, lang: str
) -> None:
    """uvicorn's own limit answered a plain "Service Unavailable" without the JSON error."""
    limits = Limits(shutdown=1.0, connections=40, streams=30)
    with in_process(db, limits=limits) as (served, _server):
        answers = burst(served.board + "/events", 120, lang)
        assert sum(1 for status, _h, _b in answers if status == 200) <= 30
        codes = ("too-many-streams", "too-many-connections")
        for status, headers, body in answers:
            if status != 200:
                assert_refused_as_json(status, headers, body, lang, *codes)
        assert any(b"too-many-connections" in body for _s, _h, body in answers)
    with in_process(db, limits=limits) as (served, _server), httpx.Client(timeout=10) as http:
        assert http.get(served.board + "/state.json").status_code == 200  # below the limit: served


def serve_league(url: str) -> tuple[str, subprocess.Popen[str]]:
    command = [sys.executable, "-m", "romme_score", "serve", "--db", url, "--league", "Club"]
    command += ["--host", HOST, "--port", "0", "--json"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return str(json.loads(_first_line(proc, 30))["board"]), proc


def stopped(proc: subprocess.Popen[str] | None) -> str:
    if proc is None:
        return ""
    proc.terminate()
    try:
        proc.wait(timeout=15)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.stderr is not None
    return proc.stderr.read()


def test_streams_while_postgresql_is_down_carry_the_json_error_issue_37_item_8() -> None:
    """The session's board and the league's: one stream asked, and 50 at once."""
    with own_server() as own:
        ok("new", "Friday", "Anna", "Ben", "Carl", "--db", own.url)
        ok("league", "new", "Club", "--db", own.url)
        ok("league", "add", "Club", "--session", "Friday", "--db", own.url)
        served: Served = start_serve(own.url, "Friday")  # type: ignore[arg-type]
        league: Any = None
        try:
            board, league = serve_league(own.url)
            streams = [served.board + "/events", board + "/events"]
            with httpx.Client(timeout=15) as http:
                for url in streams:
                    with http.stream("GET", url) as stream:
                        assert stream.status_code == 200
                own.stop()
                for lang in ("de", "en"):
                    for url in streams:
                        answer = http.get(url, headers={"Accept-Language": lang})
                        headers = dict(answer.headers)
                        status = answer.status_code
                        assert_refused_as_json(status, headers, answer.content, lang, "unreachable")
                        for status, headers, body in burst(url, 50, lang):
                            assert_refused_as_json(status, headers, body, lang, "unreachable")
        finally:
            served.stop()
            assert served.process is not None and served.process.stderr is not None
            errors = [served.process.stderr.read(), stopped(league)]
    for err in errors:
        assert "Traceback" not in err and "internal error" not in err, err
