"""Defects a new user found on the organiser's page of ``romme serve --all`` (issue 36
item 3): a tournament before its first draw is listed; a game or tournament whose name
holds "/", "?", "#", "%" or an umlaut is ended and drawn like any other, a name that is
not there answered with the JSON error of the command line's code; a forced draw says
which tables were missing; ``"rate": true`` is refused naming what it may be. Each
server here runs in this process, on 127.0.0.1 only."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from browser import TIMEOUT_MS, browser
from clirun import ok, run
from serving import night_in_process

__all__ = ["browser"]  # the module-scoped fixture, used by name
FOUR = ["Anna", "Ben", "Carl", "Dora"]
EIGHT = [*FOUR, "Emil", "Fritz", "Gerd", "Hanna"]


@pytest.fixture
def http() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=30) as client:
        yield client


def cli_error(*args: str) -> dict[str, Any]:
    """The command line's refusal, from its ``--json`` error line."""
    code, _out, err = run(*args, "--json")
    assert code != 0
    error: dict[str, Any] = json.loads(err.strip().splitlines()[-1])["error"]
    return error


def served_within_2_s(http: httpx.Client, url: str) -> bool:
    """Whether ``url`` answers 200 within 2 seconds (the night serves what is new so)."""
    end = time.monotonic() + 2
    while http.get(url).status_code != 200:
        if time.monotonic() > end:
            return False
        time.sleep(0.1)
    return True


def test_a_tournament_before_its_first_draw_is_listed_and_drawn_from_the_page_issue_36_item_3(
    isolated_data_dir: Path, http: httpx.Client
) -> None:
    ok("new", "Friday", "Anna", "Ben")
    ok("tournament", "new", "Cup", *FOUR, "--games", "1", "--series", "2", "--seed", "7")
    with night_in_process(isolated_data_dir) as organizer:
        state = http.get(organizer + "/state.json").json()
        assert state["tournaments"] == [
            {"name": "Cup", "board": None, "series_drawn": 0, "series_finished": 0, "series": 2}
        ]
        drawn = http.post(organizer + "/tournaments/Cup/draw", json={})
        assert drawn.status_code == 200, drawn.text
        assert drawn.json()["series_drawn"] == 1 and drawn.json()["board"] is not None
        again = http.get(organizer + "/state.json").json()["tournaments"]
        assert [(t["name"], t["board"], t["series_drawn"]) for t in again] == [
            ("Cup", drawn.json()["board"], 1)
        ]
        assert served_within_2_s(http, drawn.json()["board"])


NAMES = ["Tisch 1/2", "Wer gibt?", "#3", "100%", "Jörgs Runde", "a/end"]


@pytest.mark.parametrize("name", NAMES)
def test_a_game_named_with_any_character_is_ended_from_the_page_issue_36_item_3(
    isolated_data_dir: Path, http: httpx.Client, name: str
) -> None:
    ok("new", "Friday", "Anna", "Ben")
    with night_in_process(isolated_data_dir) as organizer:
        started = http.post(organizer + "/games", json={"name": name, "players": ["Eva", "Finn"]})
        assert started.status_code == 201, started.text
        ended = http.post(f"{organizer}/games/{quote(name, safe='')}/end", json={})
        assert ended.status_code == 200, ended.text
        assert ended.json()["name"] == name and ended.json()["finished"] is True
    assert json.loads(ok("standings", "--session", name, "--json"))["finished"] is True


@pytest.mark.parametrize("name", NAMES)
def test_a_tournament_named_with_any_character_is_drawn_from_the_page_issue_36_item_3(
    isolated_data_dir: Path, http: httpx.Client, name: str
) -> None:
    ok("tournament", "new", name, *FOUR, "--games", "1", "--series", "2", "--seed", "7")
    with night_in_process(isolated_data_dir) as organizer:
        drawn = http.post(f"{organizer}/tournaments/{quote(name, safe='')}/draw", json={})
        assert drawn.status_code == 200, drawn.text
        assert drawn.json()["name"] == name and drawn.json()["series_drawn"] == 1


@pytest.mark.parametrize(
    ("path", "command"),
    [
        ("games/{}/end", ("end", "--session")),
        ("tournaments/{}/draw", ("tournament", "draw")),
    ],
)
@pytest.mark.parametrize("name", ["Nope/1", "Nope?", "Nöpe"])
def test_a_name_not_there_is_the_json_error_of_the_command_line_issue_36_item_3(
    isolated_data_dir: Path, http: httpx.Client, path: str, command: tuple[str, ...], name: str
) -> None:
    ok("new", "Friday", "Anna", "Ben")
    ok("tournament", "new", "Cup", *FOUR, "--games", "1", "--series", "2", "--seed", "7")
    with night_in_process(isolated_data_dir) as organizer:
        answer = http.post(f"{organizer}/{path.format(quote(name, safe=''))}", json={})
    assert answer.status_code == 404
    assert answer.headers["content-type"].startswith("application/json"), answer.text
    error = cli_error(*command, name)
    assert answer.json()["code"] == error["code"] == "not-found"
    assert error["message"] in answer.json()["error"]


def test_a_forced_draw_from_the_page_says_which_tables_were_missing_issue_36_item_3(
    isolated_data_dir: Path, http: httpx.Client
) -> None:
    ok("tournament", "new", "Cup", *EIGHT, "--series", "3", "--games", "2", "--seed", "7")
    ok("tournament", "draw")
    for _game in range(2):
        ok("round", "--session", "Cup S1 T1", "--winner", "1", "2=5", "3=6", "4=7")
    ok("round", "--session", "Cup S1 T2", "--winner", "2", "1=9", "3=4", "4=12")
    with night_in_process(isolated_data_dir) as organizer:
        forced = http.post(organizer + "/tournaments/Cup/draw", json={"force": True})
        assert forced.status_code == 200, forced.text
        assert forced.json()["missing"] == [
            {"series": 1, "table": 2, "session": "Cup S1 T2", "played": 1, "games": 2}
        ]
        assert forced.json()["message"] == (
            "Drawn although not complete: table 2 of series 1 has played 1 of 2 games."
        )
        assert forced.json()["series_drawn"] == 2
        for table in ("Cup S2 T1", "Cup S2 T2"):
            for _game in range(2):
                ok("round", "--session", table, "--winner", "1", "2=5", "3=6", "4=7")
        german = http.post(organizer + "/tournaments/Cup/draw?lang=de", json={"force": True})
        assert german.status_code == 200, german.text
        assert german.json()["missing"] == [] and german.json()["message"] is None  # complete


@pytest.mark.parametrize("field", ["rate", "until"])
def test_a_start_with_rate_true_says_a_text_or_a_number_issue_36_item_3(
    isolated_data_dir: Path, http: httpx.Client, field: str
) -> None:
    ok("new", "Friday", "Anna", "Ben")
    with night_in_process(isolated_data_dir) as organizer:
        answer = http.post(
            organizer + "/games", json={"name": "Sat", "players": ["Eva", "Finn"], field: True}
        )
        german = http.post(
            organizer + "/games?lang=de", json={"name": "Sat", "players": ["Eva", "Finn"], field: True}
        )
    assert answer.status_code == 400 and answer.json()["code"] == "bad-request"
    assert answer.json()["error"] == f"'{field}' must be a text or a number"
    assert german.status_code == 400 and "Text oder eine Zahl" in german.json()["error"]


def test_the_page_shows_a_tournament_before_its_first_draw_and_draws_it_issue_36_item_3(
    browser: Any, isolated_data_dir: Path
) -> None:
    """The page with a tournament not drawn yet (``board`` null; its name holds "/"): no
    code, no script error, a button that draws; a forced draw, asked about with the
    server's sentence, says which tables were not complete."""
    from test_serve_a11y import AXE, violations

    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: make tools/js/node_modules/.installed (npm ci) installs axe-core")
    ok("new", "Friday", "Anna", "Ben")
    ok("tournament", "new", "Cup 1/2", *EIGHT, "--series", "3", "--games", "2", "--seed", "7")
    with night_in_process(isolated_data_dir) as organizer:
        context = browser.new_context(
            viewport={"width": 1280, "height": 720}, locale="en-GB", bypass_csp=True
        )
        context.set_default_timeout(TIMEOUT_MS)
        try:
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(organizer + "?lang=en")
            cup = page.locator("#tournament-list > li[data-name='Cup 1/2']")
            cup.locator("button.draw").wait_for()
            assert cup.locator("img.qr").count() == 0  # no board before the first draw
            assert page.locator("#game-list > li[data-game='Friday'] img.qr").count() == 2
            assert violations(page) == []
            cup.locator("button.draw").click()
            page.wait_for_function("() => document.getElementById('said').textContent === 'Series 1 drawn.'")
            cup.locator("img.qr").wait_for()  # its board from the first draw on
            for _game in range(2):
                ok("round", "--session", "Cup 1/2 S1 T1", "--winner", "1", "2=5", "3=6", "4=7")
            ok("round", "--session", "Cup 1/2 S1 T2", "--winner", "2", "1=9", "3=4", "4=12")
            cup.locator("button.draw").click()  # table 2 still plays: the server's sentence asked
            page.wait_for_selector("#confirm[open]")
            assert "is not complete" in page.locator("#confirm-question").inner_text()
            page.locator("#confirm-yes").click()
            page.wait_for_function(
                "() => document.getElementById('said').textContent === "
                "'Drawn although not complete: table 2 of series 1 has played 1 of 2 games.'"
            )
            assert errors == []
        finally:
            context.close()
    assert json.loads(ok("tournament", "standings", "Cup 1/2", "--json"))["series_drawn"] == 2


def test_serve_all_lists_a_tournament_before_its_first_draw_in_its_json_line_issue_36_item_3(
    isolated_data_dir: Path,
) -> None:
    from test_serve_night import start, stop

    ok("new", "Friday", "Anna", "Ben")
    ok("tournament", "new", "Cup", *FOUR, "--games", "1", "--series", "2", "--seed", "7")
    proc, night = start(isolated_data_dir, "--all")
    stop(proc)
    assert night["tournaments"] == [
        {"name": "Cup", "board": None, "series_drawn": 0, "series_finished": 0, "series": 2}
    ]
