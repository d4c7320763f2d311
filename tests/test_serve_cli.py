"""``romme serve`` as a whole process (issue 19 item 2): the links it prints (JSON and QR
codes), kept across a restart and revoked by --new-links, and a clean end on SIGTERM or
Ctrl-C with event streams still open. Every server here listens on 127.0.0.1 only."""

from __future__ import annotations

import base64
import os
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
from clirun import run
from serving import start_serve

from romme_score.rules import find_preset
from romme_score.sessions import SessionService
from romme_score.web.links import TOKEN_BYTES, link_host, make_token

PLAYERS = ["Anna", "Ben", "Carl"]


@pytest.fixture
def db(isolated_data_dir: Path) -> Path:
    with SessionService(isolated_data_dir) as service:
        service.create("Friday", PLAYERS, find_preset("standard"), None, None)
    return isolated_data_dir


def token_of(url: str) -> str:
    return url.rsplit("/", 1)[1]


def test_the_first_line_is_the_links_as_json_naming_127_0_0_1(db: Path) -> None:
    served = start_serve(db)
    try:
        urls = [served.board, served.scorekeeper, *served.seats.values()]
        assert list(served.seats) == PLAYERS
        assert all(u.startswith("http://127.0.0.1:") for u in urls)
        assert len({token_of(u) for u in urls}) == len(urls)
        for url in urls:  # at least 128 bits from secrets
            assert len(base64.urlsafe_b64decode(token_of(url) + "==")) * 8 >= 128
        assert httpx.get(served.board + "/state.json", timeout=10).json()["session"] == "Friday"
    finally:
        assert served.stop() == 0


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_ends_it_with_exit_code_0_within_seconds_even_with_streams_open(db: Path, sig: int) -> None:
    served = start_serve(db)
    clients = [httpx.Client(timeout=httpx.Timeout(30)) for _ in range(3)]
    opened = threading.Barrier(len(clients) + 1, timeout=10)

    def listen(client: httpx.Client) -> None:
        try:
            with client.stream("GET", served.board + "/events") as stream:
                opened.wait()
                for _line in stream.iter_lines():
                    pass
        except (httpx.HTTPError, threading.BrokenBarrierError):
            pass

    threads = [threading.Thread(target=listen, args=(c,), daemon=True) for c in clients]
    for thread in threads:
        thread.start()
    opened.wait()
    start = time.monotonic()
    code = served.stop(sig)
    assert code == 0 and time.monotonic() - start < 5
    for client in clients:
        client.close()
    assert served.process is not None and served.process.stderr is not None
    assert "Traceback" not in served.process.stderr.read()


def test_the_links_survive_a_restart_and_so_does_a_hand_sent_before_a_crash(db: Path) -> None:
    first = start_serve(db)
    try:
        sent = httpx.post(first.seats["Ben"] + "/hand", json={"cards": "HK K10"}, timeout=10)
        assert sent.status_code == 200
    finally:
        assert first.process is not None
        first.process.kill()  # a crash: no shutdown at all
        first.process.wait()
    second = start_serve(db)
    try:
        assert [token_of(u) for u in (second.board, *second.seats.values())] == [
            token_of(u) for u in (first.board, *first.seats.values())
        ]
        state = httpx.get(second.board + "/state.json", timeout=10).json()
        assert state["pending"]["hands"]["Ben"]["points"] == 20
    finally:
        assert second.stop() == 0


def test_new_links_revokes_every_old_link(db: Path) -> None:
    first = start_serve(db)
    assert first.stop() == 0
    second = start_serve(db, "--new-links")
    try:
        old = [first.board, first.scorekeeper, *first.seats.values()]
        new = [second.board, second.scorekeeper, *second.seats.values()]
        assert not {token_of(u) for u in old} & {token_of(u) for u in new}
        port_now = second.origin
        for url in old:
            assert httpx.get(port_now + "/" + token_of(url) + "/state.json", timeout=10).status_code == 404
        for url in new:
            assert httpx.get(url + "/state.json", timeout=10).status_code == 200
    finally:
        assert second.stop() == 0


def test_without_json_each_link_is_printed_with_a_qr_code(db: Path) -> None:
    command = [sys.executable, "-m", "romme_score", "serve", "--db", str(db), "--host", "127.0.0.1"]
    proc = subprocess.Popen(
        [*command, "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=os.environ
    )
    assert proc.stderr is not None
    try:  # "Serving ... Ctrl-C stops." comes on stderr once every link is printed
        ready, _w, _x = select.select([proc.stderr], [], [], 30)
        assert ready and "Ctrl-C stops" in proc.stderr.readline()
    finally:
        proc.send_signal(signal.SIGTERM)
        text, _err = proc.communicate(timeout=15)
    assert proc.returncode == 0
    assert "Board (read only)" in text and "Scorekeeper" in text
    assert all(f"Seat of {p}" in text for p in PLAYERS)
    assert text.count("http://127.0.0.1:") == 2 + len(PLAYERS)
    assert text.count("▀") > 100  # the QR codes, in half-block characters
    assert "anyone who sees a link can use it" in text


def test_a_session_that_is_not_there_is_refused_in_one_sentence(db: Path) -> None:
    code, _out, err = run("serve", "Nope", "--host", "127.0.0.1", "--port", "0", "--json")
    assert code == 1 and "no session named 'Nope'" in err and "Traceback" not in err


def test_tokens_are_long_and_the_links_name_the_address_served_on() -> None:
    tokens = {make_token() for _ in range(200)}
    assert len(tokens) == 200 and all(len(base64.urlsafe_b64decode(t + "==")) == TOKEN_BYTES for t in tokens)
    assert link_host("127.0.0.1") == "127.0.0.1" and link_host("::1") == "[::1]"
    assert link_host("0.0.0.0").count(".") == 3  # the local network's address (found without sending)


def test_allow_host_that_is_not_a_host_name_is_refused_at_start_issue_37_item_9(db: Path) -> None:
    """`romme serve --allow-host https://romme.club.example` started and admitted `Host:
    https` instead of the proxy's name. A URL, a path, a port out of range or an empty
    value is refused before anything is served: exit 2, one sentence naming it."""
    for value in ("https://romme.club.example", "romme.club.example/romme", "romme.club.example:99999", ""):
        try:
            done = subprocess.run(
                [sys.executable, "-m", "romme_score", "serve", "--db", str(db), "--host", "127.0.0.1"]
                + ["--port", "0", "--json", "--allow-host", value],
                capture_output=True,
                text=True,
                timeout=15,
                check=False,
            )
        except subprocess.TimeoutExpired:
            pytest.fail(f"romme serve --allow-host {value!r} started")
        assert (done.returncode, done.stdout) == (2, ""), value
        assert f"--allow-host: '{value}' is no host name like romme.club.example" in done.stderr
        assert done.stderr.count("\n") == 1, done.stderr
