"""``romme serve --league NAME`` (issue 29, RULES.md §11): a read-only board of a club's
season: ``state.json`` = ``romme league standings --json`` plus ``"version"``, one event
per change anywhere in the season (a round at an evening, an event added), no writes;
and the board and ``romme league report``'s page in Chromium at 360 px without sideways
scrolling. Every server here listens on 127.0.0.1 only."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser import browser
from clirun import ok
from serving import HOST, _first_line
from test_serve_contract import Stream

__all__ = ["browser"]  # the module-scoped fixture, used by name
LONG = "Maximiliane von Hohenzollern-Sigmaringen"[:40]


def season() -> None:
    """Two evenings and a league over them (a long name, a name to escape)."""
    ok("new", "Abend 1", "Anna", "<b>Ben</b>", LONG, "Dora", "--until", "rounds:3")
    ok("round", "--session", "Abend 1", "--winner", "Anna", "<b>Ben</b>=10", f"{LONG}=20", "Dora=30")
    ok("new", "Abend 2", "Anna", "Emil", "Fritz", "Gerd", "Hans", "Ida")
    ok(
        "round",
        "--session",
        "Abend 2",
        "--winner",
        "Emil",
        "Anna=10",
        "Fritz=20",
        "Gerd=5",
        "Hans=8",
        "Ida=40",
    )
    ok("league", "new", "Club", "--season", "2026", "--attendance", "1")
    ok("league", "add", "Club", "--session", "Abend 1")


@pytest.fixture
def board(isolated_data_dir: Path) -> Iterator[str]:
    season()
    command = [sys.executable, "-m", "romme_score", "serve", "--db", str(isolated_data_dir)]
    command += ["--league", "Club", "--host", HOST, "--port", "0", "--json"]
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ)
    )
    try:
        links = json.loads(_first_line(proc, 30))
        assert links["league"] == "Club"
        yield str(links["board"])
    finally:
        if proc.poll() is None:
            proc.terminate()
        try:
            assert proc.wait(timeout=15) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def state(board: str) -> dict[str, Any]:
    with httpx.Client(timeout=10) as client:
        answer = client.get(f"{board}/state.json")
        assert answer.status_code == 200
        data: dict[str, Any] = answer.json()
        return data


def test_the_league_board_is_the_standings_json_and_follows_every_change_issue_29(board: str) -> None:
    data = state(board)
    standings = json.loads(ok("league", "standings", "Club", "--json"))
    for key, value in standings.items():
        assert data[key] == value, key
    assert data["kind"] == "league" and isinstance(data["version"], int)
    stream = Stream(f"{board}/events")
    try:
        ok("round", "--session", "Abend 1", "--winner", "Dora", "Anna=5", "<b>Ben</b>=10", f"{LONG}=20")
        assert int(stream.next(timeout=10)) != data["version"]
        after = state(board)
        assert after["players"] == json.loads(ok("league", "standings", "Club", "--json"))["players"]
        ok("league", "add", "Club", "--session", "Abend 2")  # an event added elsewhere shows too
        stream.next(timeout=10)
        assert [e["name"] for e in state(board)["events"]] == ["Abend 1", "Abend 2"]
    finally:
        stream.close()


def test_the_league_board_is_read_only_issue_29(board: str) -> None:
    with httpx.Client(timeout=10) as client:
        assert client.post(f"{board}/state.json", json={}).status_code == 405
        assert client.post(f"{board}/save", json={}).status_code == 404
        wrong = board.rsplit("/", 1)[0] + "/not-the-token/state.json"
        assert client.get(wrong).status_code == 404
        page = client.get(board)
        assert page.status_code == 200 and "<b>Ben</b>" not in page.text


def shots(tmp_path: Path) -> Path:
    """Where the screenshots go: ROMME_SCREENSHOTS (to look at them), else the test's folder."""
    return Path(os.environ.get("ROMME_SCREENSHOTS") or tmp_path)


NO_OVERFLOW = "() => document.documentElement.scrollWidth <= window.innerWidth"


def test_the_league_board_at_360_px_shows_place_name_and_points_without_overflow_issue_29(
    board: str, browser: Any, tmp_path: Path
) -> None:
    ok("league", "add", "Club", "--session", "Abend 2")
    context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=1)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(board)
        page.wait_for_function("() => document.querySelectorAll('#season-ranks tbody tr').length === 9")
        rows = page.evaluate(
            """() => [...document.querySelectorAll('#season-ranks tbody tr')].map(tr =>
                [...tr.cells].map(td => td.textContent))"""
        )
        expected = json.loads(ok("league", "standings", "Club", "--json"))["players"]
        assert [r[1] for r in rows] == [p["name"] for p in expected]
        assert [int(r[2]) for r in rows] == [p["points"] for p in expected]
        assert page.evaluate(NO_OVERFLOW)
        # the points column ends inside the screen: place, name and points on the first screen
        right = page.evaluate(
            "() => Math.max(...[...document.querySelectorAll('#season-ranks td.total')]"
            ".map(td => td.getBoundingClientRect().right))"
        )
        assert right <= 360
        page.screenshot(path=str(shots(tmp_path) / "league-board-360.png"), full_page=True)
        assert errors == []
    finally:
        context.close()


def test_the_league_report_at_360_px_has_no_horizontal_overflow_issue_29(
    isolated_data_dir: Path, browser: Any, tmp_path: Path
) -> None:
    season()
    ok("league", "add", "Club", "--session", "Abend 2")
    out = tmp_path / "season.html"
    said = ok("league", "report", "Club", "-o", str(out))
    assert str(out) in said
    html = out.read_text(encoding="utf-8")
    assert "<script" not in html and "http://" not in html.replace("http://www.w3.org/2000/svg", "")
    context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=1)
    try:
        page = context.new_page()
        page.goto(out.as_uri())
        assert page.evaluate(NO_OVERFLOW)
        assert page.locator("table.standings tbody tr").count() == 9
        assert page.locator("section.event").count() == 2
        assert page.locator("svg.season polyline").count() == 9
        page.screenshot(path=str(shots(tmp_path) / "league-report-360.png"), full_page=True)
    finally:
        context.close()
