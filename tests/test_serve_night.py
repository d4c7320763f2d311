"""``romme serve --all`` and a tournament served through the night (issue 36 items 1 and
2): one process for every game, tournament and league in the database, each one started,
drawn or created while it runs served within 2 seconds, without a restart; a tournament's
board link that stays the same from its first draw to its payout. Every server here
listens on 127.0.0.1 only."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from clirun import ok
from serving import HOST, _first_line

from romme_score.sessions import SessionService

SEVEN = ["Anna", "Ben", "Carl", "Dora", "Emil", "Fritz", "Gerd"]


def start(db: Path | str, *args: str) -> tuple[subprocess.Popen[str], dict[str, Any]]:
    command = [sys.executable, "-m", "romme_score", "serve", "--db", str(db), *args]
    command += ["--host", HOST, "--port", "0", "--json"]
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ)
    )
    try:
        return proc, json.loads(_first_line(proc, 30))
    except BaseException:
        proc.kill()
        proc.wait()
        raise


def stop(proc: subprocess.Popen[str]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=15)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.fixture
def served_all(isolated_data_dir: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    ok("new", "Friday", "Anna", "Ben", "Carl")
    proc, night = start(isolated_data_dir, "--all")
    try:
        yield night["games"][0]["board"].rsplit("/", 1)[0], night
    finally:
        stop(proc)


def links_of(db: Path, name: str, within: float) -> dict[str, str]:
    """The links the server made for a session, by kind (a seat's as ``seat:NAME``)."""
    end = time.monotonic() + within
    while True:
        with SessionService(db, create=False) as service:
            found = service.store.links(service.session(name))
        if found or time.monotonic() > end:
            return {f"{k.kind}:{k.player}" if k.player else k.kind: k.token for k in found}
        time.sleep(0.05)


def test_a_game_started_while_serve_all_runs_is_served_within_2_s_issue_36_item_1(
    served_all: tuple[str, dict[str, Any]], isolated_data_dir: Path
) -> None:
    origin, night = served_all
    assert [g["name"] for g in night["games"]] == ["Friday"]
    assert httpx.get(night["games"][0]["seats"]["Ben"], timeout=10).status_code == 200
    ok("new", "Saturday", "Dora", "Emil")
    began = time.monotonic()
    tokens = links_of(isolated_data_dir, "Saturday", 2.0)
    seat = f"{origin}/{tokens['seat:Emil']}"
    while True:
        answer = httpx.get(seat, timeout=10)
        if answer.status_code == 200 or time.monotonic() - began > 2.0:
            break
        time.sleep(0.05)
    assert answer.status_code == 200, answer.status_code
    assert time.monotonic() - began <= 2.0
    state = httpx.get(f"{seat}/state.json", timeout=10).json()
    assert state["players"] == ["Dora", "Emil"] or "Dora" in json.dumps(state)


def test_a_league_and_a_tournament_made_while_serve_all_runs_are_served_issue_36_item_1(
    served_all: tuple[str, dict[str, Any]], isolated_data_dir: Path
) -> None:
    origin, _night = served_all
    ok("league", "new", "Club")
    ok("tournament", "new", "Cup", *SEVEN, "--games", "1", "--series", "2", "--seed", "7")
    drawn = json.loads(ok("tournament", "draw", "--json"))
    table = drawn["tables"][0]["session"]
    tokens = links_of(isolated_data_dir, table, 3.0)
    with SessionService(isolated_data_dir, create=False) as service:
        from romme_score.league.service import LeagueService

        league = LeagueService(service).league("Club").token
    end = time.monotonic() + 3.0
    while True:
        codes = [httpx.get(f"{origin}/{t}", timeout=10).status_code for t in (tokens["scorekeeper"], league)]
        if codes == [200, 200] or time.monotonic() > end:
            break
        time.sleep(0.1)
    assert codes == [200, 200]


def test_a_deleted_game_is_no_longer_served_issue_36_item_1(
    served_all: tuple[str, dict[str, Any]], isolated_data_dir: Path
) -> None:
    _origin, night = served_all
    ok("new", "Saturday", "Dora", "Emil")
    board = night["games"][0]["board"]
    ok("sessions", "delete", "Friday", "--yes")
    end = time.monotonic() + 3.0
    while httpx.get(board, timeout=10).status_code != 404 and time.monotonic() < end:
        time.sleep(0.1)
    assert httpx.get(board, timeout=10).status_code == 404


def test_a_tournaments_board_link_follows_three_draws_in_chromium_issue_36_item_2(
    isolated_data_dir: Path,
) -> None:
    from browser import chromium_or_skip

    path = chromium_or_skip()
    from playwright.sync_api import sync_playwright

    four = ["Anna", "Ben", "Carl", "Dora"]
    ok("tournament", "new", "Cup", *four, "--games", "1", "--series", "3", "--seed", "7")
    first = json.loads(ok("tournament", "draw", "--json"))
    proc, links = start(isolated_data_dir, "--tournament", "Cup")
    board = links["board"]
    old_keeper = links["tables"][0]["scorekeeper"]
    try:
        with sync_playwright() as playwright:
            flags = ["--no-sandbox", "--disable-gpu"]
            chromium = playwright.chromium.launch(executable_path=path, args=flags)
            try:
                context = chromium.new_context(viewport={"width": 1280, "height": 720})
                context.set_default_timeout(20_000)
                page = context.new_page()
                errors: list[str] = []
                page.on("pageerror", lambda exc: errors.append(str(exc)))
                page.goto(board)
                page.wait_for_selector("#status:has-text('Series 1')")
                drawn = first
                for series in (2, 3):
                    table = drawn["tables"][0]["session"]
                    ok("round", "--session", table, "--winner", "1", "2=3", "3=4", "4=5")
                    done = f"Series {series - 1}: every table is complete"
                    page.wait_for_selector(f"#status:has-text('{done}')")
                    drawn = json.loads(ok("tournament", "draw", "--json"))
                    page.wait_for_selector(f"#status:has-text('Series {series}')")
                    assert page.url == board
                ok("round", "--session", drawn["tables"][0]["session"], "--winner", "2", "1=3", "3=4", "4=5")
                page.wait_for_selector("#status:has-text('Series 3: every table is complete')")
                final = json.loads(ok("tournament", "standings", "--json"))
                assert final["series_played"] == 3
                page.wait_for_function(
                    "n => document.querySelectorAll('#ranks tbody tr').length === n", arg=len(four)
                )
                assert page.is_hidden("#offline")
                assert errors == []
                context.close()
            finally:
                chromium.close()
        # a table of series 1 keeps its links: its final state; a write is refused as a finished game's
        assert httpx.get(old_keeper, timeout=10).status_code == 200
        state = httpx.get(old_keeper + "/state.json", timeout=10).json()
        assert state["finished"] is True
        refused = httpx.post(old_keeper + "/pending", json={"winner": "Anna"}, timeout=10)
        assert refused.status_code == 400, refused.text  # the usual answer of a finished game
        assert refused.json()["code"] == "game-over"
    finally:
        stop(proc)
    # the same board link after a restart, from the first draw to the payout
    proc, again = start(isolated_data_dir, "--tournament", "Cup")
    try:
        assert again["board"].rsplit("/", 1)[1] == board.rsplit("/", 1)[1]
    finally:
        stop(proc)


def test_two_serve_all_processes_on_one_postgresql_database_serve_a_new_game_issue_36_item_1() -> None:
    """Two ``romme serve --all`` on one PostgreSQL database: the same organiser's link (the
    first one kept), the same links for every game, and a game started elsewhere is served
    by both within 2 seconds."""
    from pgtest import fresh_database

    with fresh_database() as url:
        ok("new", "Friday", "Anna", "Ben", "--db", url)
        first, one = start(url, "--all")  # a URL as --db
        try:
            second, two = start(url, "--all")
            try:
                assert one["organizer"].rsplit("/", 1)[1] == two["organizer"].rsplit("/", 1)[1]
                tokens = [g["scorekeeper"].rsplit("/", 1)[1] for g in (one["games"][0], two["games"][0])]
                assert tokens[0] == tokens[1]
                ok("new", "Saturday", "Dora", "Emil", "--db", url)
                began = time.monotonic()
                origins = [links["organizer"].rsplit("/", 1)[0] for links in (one, two)]
                while True:
                    with SessionService(url, create=False) as service:
                        found = {k.player: k.token for k in service.store.links(service.session("Saturday"))}
                    codes = [
                        httpx.get(f"{o}/{found['Emil']}", timeout=10).status_code if "Emil" in found else 404
                        for o in origins
                    ]
                    if codes == [200, 200] or time.monotonic() - began > 2.0:
                        break
                    time.sleep(0.05)
                assert codes == [200, 200]
            finally:
                stop(second)
        finally:
            stop(first)


def test_serve_all_with_a_session_tournament_or_league_is_refused_issue_36_item_1(
    isolated_data_dir: Path,
) -> None:
    from clirun import run

    ok("new", "Friday", "Anna", "Ben")
    for extra in (["Friday"], ["--tournament", "Cup"], ["--league", "Club"]):
        code, out, err = run("serve", "--all", *extra)
        assert code == 2 and out == ""
        assert "--all serves everything" in err
