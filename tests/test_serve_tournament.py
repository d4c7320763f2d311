"""``romme serve --tournament NAME`` (issue 22 item 10): the board with the ranking
across all tables (``state.json`` = ``romme tournament standings --json`` plus
``"version"``, an event per change at any table), each table of the drawn series with its
own scorekeeper and seat links, the same security as a session's pages, the refusals,
and the board page in Chromium at a phone's and a projector's width. Every server here
listens on 127.0.0.1 only."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser import browser
from clirun import ok, run
from serving import HOST, _first_line
from test_serve_browser import not_blank_at
from test_serve_contract import Stream

from romme_score.web.guard import CSP

__all__ = ["browser"]  # the module-scoped fixture, used by name
SEVEN = ["Anna", "Ben", "Carl", "Dora", "Emil", "Fritz", "<b>Gerd</b>"]


@dataclass
class Tournament:
    links: dict[str, Any]
    process: subprocess.Popen[str]

    @property
    def board(self) -> str:
        return str(self.links["board"])

    def table(self, number: int) -> dict[str, Any]:
        found: dict[str, Any] = next(t for t in self.links["tables"] if t["table"] == number)
        return found


@pytest.fixture
def drawn(isolated_data_dir: Path) -> dict[str, Any]:
    ok("tournament", "new", "Cup", *SEVEN, "--games", "2", "--series", "2", "--seed", "7")
    data: dict[str, Any] = json.loads(ok("tournament", "draw", "--json"))
    return data


@pytest.fixture
def served(drawn: dict[str, Any], isolated_data_dir: Path) -> Iterator[Tournament]:
    command = [sys.executable, "-m", "romme_score", "serve", "--db", str(isolated_data_dir)]
    command += ["--tournament", "Cup", "--host", HOST, "--port", "0", "--json"]
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ)
    )
    try:
        line = _first_line(proc, 30)
        yield Tournament(json.loads(line), proc)
    finally:
        if proc.poll() is None:
            proc.terminate()
        try:
            assert proc.wait(timeout=15) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


@pytest.fixture
def http() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=10) as client:
        yield client


def test_the_first_line_names_the_board_and_every_tables_links(
    served: Tournament, drawn: dict[str, Any]
) -> None:
    links = served.links
    assert links["board"].startswith(f"http://{HOST}:")
    assert [(t["table"], t["session"]) for t in links["tables"]] == [
        (t["table"], t["session"]) for t in drawn["tables"]
    ]
    for table, wanted in zip(links["tables"], drawn["tables"], strict=True):
        assert list(table["seats"]) == wanted["players"]
        assert table["scorekeeper"].startswith(f"http://{HOST}:")
    tokens = [links["board"]] + [t["scorekeeper"] for t in links["tables"]]
    tokens += [url for t in links["tables"] for url in t["seats"].values()]
    assert len(set(tokens)) == len(tokens)


def test_a_round_saved_through_a_tables_links_changes_the_boards_ranking_and_fires_an_event(
    served: Tournament, http: httpx.Client
) -> None:
    first = http.get(served.board + "/state.json").json()
    standings = json.loads(ok("tournament", "standings", "--json"))
    assert {k: first[k] for k in standings} == standings
    assert [t["played"] for t in first["tables"]] == [0, 0]
    assert all(t["playing"] for t in first["tables"])
    stream = Stream(served.board + "/events")
    try:
        table = served.table(1)
        players = list(table["seats"])
        winner, holder, *others = players
        assert http.post(table["seats"][holder] + "/hand", json={"points": 12}).status_code == 200
        pending = {"winner": winner, "hands": {p: 5 * (i + 1) for i, p in enumerate(others)}}
        assert http.post(table["scorekeeper"] + "/pending", json=pending).status_code == 200
        saved = http.post(table["scorekeeper"] + "/save")
        assert saved.status_code == 200, saved.text
        seen = stream.next(timeout=5)
        while True:  # every change is an event; the last one is the saved round
            data = http.get(served.board + "/state.json").json()
            if str(data["version"]) == seen and data["tables"][0]["played"] == 1:
                break
            seen = stream.next(timeout=5)
    finally:
        stream.close()
    assert data["version"] != first["version"]
    assert data["tables"][0]["played"] == 1 and data["tables"][1]["played"] == 0
    standings = json.loads(ok("tournament", "standings", "--json"))
    assert {k: data[k] for k in standings} == standings
    # the series is still played: its points so far are shown apart, the totals count none
    so_far = {p["name"]: p["current"]["points"] for p in data["players"] if p["current"]}
    assert so_far[holder] == 12 and so_far[winner] == 0
    assert all(p["total"] == 0 for p in data["players"]) and data["provisional"] is True
    assert data["players"] != first["players"]


def test_a_change_in_a_terminal_reaches_the_board_too(served: Tournament, http: httpx.Client) -> None:
    before = http.get(served.board + "/state.json").json()["version"]
    stream = Stream(served.board + "/events")
    try:
        session = served.table(2)["session"]
        ok("round", "--session", session, "--winner", "1", "2=7", "3=9")
        assert int(stream.next(timeout=5)) > before
    finally:
        stream.close()


def test_the_board_has_the_security_of_the_session_pages(served: Tournament, http: httpx.Client) -> None:
    page = http.get(served.board)
    assert page.status_code == 200
    assert page.headers["content-security-policy"] == CSP
    assert page.headers["x-content-type-options"] == "nosniff"
    assert page.headers["referrer-policy"] == "no-referrer"
    assert "<script>" not in page.text and "<b>Gerd</b>" not in page.text
    origin, token = served.board.rsplit("/", 1)
    other = "x" if token[-1] != "x" else "y"  # a wrong token, whatever the right one ends in
    wrong = http.get(f"{origin}/{token[:-1]}{other}/state.json")
    nowhere = http.get(f"{origin}/nothing-here")
    assert wrong.status_code == nowhere.status_code == 404
    assert wrong.content == nowhere.content
    assert http.get(served.board + "/nothing").status_code == 404
    assert http.post(served.board + "/save").status_code in (404, 405)
    assert http.get(served.board + "/links.json").status_code == 404
    assert (
        http.get(served.board + "/static/tournament.js").headers["content-type"].startswith("text/javascript")
    )
    qr = http.get(served.board + "/qr.svg")
    assert qr.status_code == 200 and qr.headers["content-type"] == "image/svg+xml"


def test_serving_a_tournament_and_a_session_at_once_is_refused(drawn: dict[str, Any]) -> None:
    code, out, err = run("serve", "Cup S1 T1", "--tournament", "Cup", "--host", HOST, "--port", "0")
    assert code == 2 and out == ""
    assert err.strip() == "Error: give a session or --tournament, not both"


def test_a_tournament_without_a_drawn_series_is_refused(isolated_data_dir: Path) -> None:
    ok("tournament", "new", "Cup", *SEVEN)
    code, out, err = run("serve", "--tournament", "Cup", "--host", HOST, "--port", "0")
    assert code == 1 and out == ""
    assert err.strip() == "Error: no series of tournament 'Cup' is drawn yet"


@pytest.mark.parametrize("width, height", [(360, 740), (1280, 800)])
def test_the_board_page_on_a_phone_and_a_projector(
    browser: Any, served: Tournament, width: int, height: int
) -> None:
    ok("round", "--session", served.table(2)["session"], "--winner", "1", "2=7", "3=9")
    context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1)
    context.set_default_timeout(20_000)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(served.board)
        page.wait_for_function("() => document.querySelectorAll('#ranks tbody tr').length === 7")
        page.wait_for_selector("#table-list li[data-table='2']:has-text('1 of 2')")
        assert page.inner_text("#ranks tr[data-player='<b>Gerd</b>'] .name") == "<b>Gerd</b>"
        assert page.query_selector("#ranks b") is None
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        # a round at table 1 reaches the board without a reload
        ok("round", "--session", served.table(1)["session"], "--winner", "1", "2=3", "3=4", "4=5")
        page.wait_for_selector("#table-list li[data-table='1']:has-text('1 of 2')")
        not_blank_at(page.screenshot(), width)
        assert errors == []
    finally:
        context.close()


def test_a_tables_pages_carry_no_money_but_name_the_tournaments_pot_issue_29(
    served: Tournament, http: httpx.Client
) -> None:
    table = served.table(1)
    ok("round", "--session", table["session"], "--winner", "1", "2=3", "3=4", "4=5")
    for url in (table["scorekeeper"], *table["seats"].values()):
        settlement = http.get(url + "/state.json").json()["settlement"]
        assert settlement["transfers"] == [] and settlement["rate"] is None
        assert settlement["line"] == "No money at this table: the money of tournament 'Cup' is its pot."
        assert "'romme tournament payout'" in settlement["nobody"]
        assert settlement["tournament"] == "Cup"


def printed_links(isolated_data_dir: Path, *options: str) -> list[str]:
    """What ``romme serve --tournament Cup`` prints before it serves (then stopped)."""
    command = [sys.executable, "-m", "romme_score", "serve", "--db", str(isolated_data_dir)]
    command += ["--tournament", "Cup", "--host", HOST, "--port", "0", *options]
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ)
    )
    lines: list[str] = []
    # readline, not select: the lines come in one write, and select would not see the
    # ones already in the pipe's buffer; a timer ends a server that prints too little
    watchdog = threading.Timer(30, proc.kill)
    watchdog.start()
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line.rstrip("\n"))
            if line.startswith("Plain HTTP"):
                return lines
        raise AssertionError(f"romme serve printed no links: {lines}")
    finally:
        watchdog.cancel()
        proc.terminate()
        proc.wait(timeout=15)


def qr_codes(lines: list[str]) -> int:
    """How many QR codes the lines draw (each a block of lines of block characters)."""
    blocks, inside = 0, False
    for line in lines:
        drawn = any(c in line for c in "█▀▄")
        blocks += drawn and not inside
        inside = drawn
    return blocks


def test_serve_prints_the_boards_code_and_a_line_per_table_issue_29(
    drawn: dict[str, Any], isolated_data_dir: Path
) -> None:
    lines = printed_links(isolated_data_dir)
    assert qr_codes(lines) == 1
    assert lines[0].startswith("Tournament board (read only)") and lines[1].startswith(f"  http://{HOST}:")
    tables = [line for line in lines if line.startswith("Table ")]
    assert [t.split(",")[0] for t in tables] == [
        f"Table {t['table']} ({t['session']})" for t in drawn["tables"]
    ]
    assert all(f", scorekeeper: http://{HOST}:" in t for t in tables)
    assert not any("Seat of" in line for line in lines)
    assert any('romme tournament sheets "Cup" --links' in line for line in lines)
    assert len(lines) < 40  # the board's link stays on the screen


def test_serve_qr_all_prints_every_code_as_before_issue_29(
    drawn: dict[str, Any], isolated_data_dir: Path
) -> None:
    lines = printed_links(isolated_data_dir, "--qr", "all")
    seats = sum(len(t["players"]) for t in drawn["tables"])
    assert qr_codes(lines) == 1 + len(drawn["tables"]) + seats
    assert sum(1 for line in lines if line.startswith("Seat of")) == seats


def test_sheets_links_print_the_tables_codes_at_the_address_serve_printed_issue_29(
    served: Tournament,
) -> None:
    page = ok("tournament", "sheets", "--links")
    for table in served.links["tables"]:
        for url in (table["scorekeeper"], *table["seats"].values()):
            assert f'<span class="url">{url}</span>' in page
    assert page.count("<svg") == sum(1 + len(t["seats"]) for t in served.links["tables"])
    other = ok("tournament", "sheets", "--links", "--url-base", "http://192.168.1.20:8765/")
    token = served.table(1)["scorekeeper"].rsplit("/", 1)[1]
    assert f"http://192.168.1.20:8765/{token}" in other


def test_sheets_links_without_an_address_or_with_a_bad_one_are_refused_issue_29(
    drawn: dict[str, Any],
) -> None:
    code, out, err = run("tournament", "sheets", "--links")
    assert code == 2 and out == "" and "give --url-base" in err
    code, out, err = run("tournament", "sheets", "--links", "--url-base", "192.168.1.20")
    assert code == 2 and out == "" and "is no address like http://" in err
    code, _, err = run("tournament", "sheets", "--url-base", "http://a:1")
    assert code == 2 and "--url-base needs --links" in err
