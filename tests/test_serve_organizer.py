"""The organiser's page of ``romme serve --all`` (issue 36 item 3): one link, kept in the
database, renewed by ``--new-links``; ``state.json`` in the issue's shape; its actions
(start a game, draw a series, end a game) through the command line's services, with the
command line's error codes, nothing written on a refusal; only the organiser's link has
them; the Origin, Host and size checks of the scorekeeper's writes. Every server here
listens on 127.0.0.1 only."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser import browser
from clirun import ok, run
from test_serve_night import start, stop

__all__ = ["browser"]  # the module-scoped fixture, used by name
FOUR = ["Anna", "Ben", "Carl", "Dora"]


@pytest.fixture
def night(isolated_data_dir: Path) -> Iterator[dict[str, Any]]:
    ok("new", "Friday", "Anna", "Ben", "Carl")
    ok("tournament", "new", "Cup", *FOUR, "--games", "1", "--series", "2", "--seed", "7")
    ok("tournament", "draw")
    ok("use", "Friday")
    ok("league", "new", "Club")
    proc, links = start(isolated_data_dir, "--all")
    try:
        yield links
    finally:
        stop(proc)


def held(db: Path) -> list[str]:
    with sqlite3.connect(db) as con:
        return list(con.iterdump())


def cli_code(*args: str) -> str:
    """The ``code`` of the command line's refusal, from its ``--json`` error line."""
    code, _out, err = run(*args, "--json")
    assert code != 0
    error: dict[str, Any] = json.loads(err.strip().splitlines()[-1])["error"]
    return str(error["code"])


def test_serve_all_prints_the_organizers_link_first_issue_36_item_3(night: dict[str, Any]) -> None:
    assert list(night) == ["organizer", "games", "tournaments", "leagues"]
    assert len(night["organizer"].rsplit("/", 1)[1]) == 24  # 144 bits, as every link
    assert httpx.get(night["organizer"], timeout=10).status_code == 200


def test_the_organizers_state_json_contract_issue_36_item_3(night: dict[str, Any]) -> None:
    state = httpx.get(night["organizer"] + "/state.json", timeout=10).json()
    assert set(state) == {"version", "games", "tournaments", "leagues"}
    assert isinstance(state["version"], int)
    games = {g["name"]: g for g in state["games"]}
    assert set(games) == {"Friday", "Cup S1 T1"}
    for game in games.values():
        assert set(game) == {
            "name",
            "board",
            "scorekeeper",
            "seats",
            "finished",
            "tournament",
            "series",
            "table",
        }
        assert game["finished"] is False
        for url in [game["board"], game["scorekeeper"], *game["seats"].values()]:
            assert httpx.get(url, timeout=10).status_code == 200
    assert list(games["Friday"]["seats"]) == ["Anna", "Ben", "Carl"]
    assert (games["Friday"]["tournament"], games["Friday"]["series"], games["Friday"]["table"]) == (None,) * 3
    table = games["Cup S1 T1"]
    assert (table["tournament"], table["series"], table["table"]) == ("Cup", 1, 1)
    assert state["tournaments"] == [
        {
            "name": "Cup",
            "board": night["tournaments"][0]["board"],
            "series_drawn": 1,
            "series_finished": 0,
            "series": 2,
        }
    ]
    assert [league["name"] for league in state["leagues"]] == ["Club"]
    assert httpx.get(state["tournaments"][0]["board"], timeout=10).status_code == 200
    assert httpx.get(state["leagues"][0]["board"], timeout=10).status_code == 200
    # a round saved elsewhere moves the version
    ok("round", "--session", "Friday", "--winner", "Anna", "Ben=5", "Carl=7")
    again = httpx.get(night["organizer"] + "/state.json", timeout=10).json()
    assert again["version"] > state["version"]


def test_the_organizers_actions_start_draw_and_end_issue_36_item_3(
    night: dict[str, Any], isolated_data_dir: Path
) -> None:
    organizer = night["organizer"]
    started = httpx.post(
        organizer + "/games",
        json={
            "name": "Sat",
            "players": ["Eva", "Finn"],
            "rate": "0.01",
            "currency": "EUR",
            "until": "rounds:5",
        },
        timeout=10,
    )
    assert started.status_code == 201, started.text
    assert started.json()["name"] == "Sat" and started.json()["finished"] is False
    assert httpx.get(started.json()["seats"]["Finn"], timeout=10).status_code == 200
    assert json.loads(ok("standings", "--json"))["session"] == "Friday"  # the current game stays
    ended = httpx.post(organizer + "/games/Sat/end", json={}, timeout=10)
    assert ended.status_code == 200 and ended.json()["finished"] is True
    ok("round", "--session", "Cup S1 T1", "--winner", "Anna", "Ben=5", "Carl=7", "Dora=9")
    drawn = httpx.post(organizer + "/tournaments/Cup/draw", json={}, timeout=10)
    assert drawn.status_code == 200, drawn.text
    assert drawn.json()["series_drawn"] == 2 and drawn.json()["board"] == night["tournaments"][0]["board"]
    assert json.loads(ok("standings", "--json"))["session"] == "Friday"


REFUSALS = [
    ("games", {"name": "Friday", "players": ["X", "Y"]}, ("new", "Friday", "X", "Y")),
    ("games", {"name": "Solo", "players": ["X"]}, ("new", "Solo", "X")),
    (
        "games",
        {"name": "R", "players": ["X", "Y"], "rules": {"nope": 1}},
        ("new", "R", "X", "Y", "--rule", "nope=1"),
    ),
    ("games", {"name": "R", "players": ["X", "Y"], "rate": "abc"}, ("new", "R", "X", "Y", "--rate", "abc")),
    (
        "games",
        {"name": "R", "players": ["X", "Y"], "preset": "nope"},
        ("new", "R", "X", "Y", "--preset", "nope"),
    ),
    ("tournaments/Nope/draw", {}, ("tournament", "draw", "Nope")),
    ("tournaments/Cup/draw", {}, ("tournament", "draw", "Cup")),  # a table still plays
    ("games/Nope/end", {}, ("end", "--session", "Nope")),
    ("games/Cup S1 T1/end", {}, ("end", "--session", "Cup S1 T1")),  # a tournament's table
]


@pytest.mark.parametrize(("path", "body", "command"), REFUSALS, ids=[" ".join(r[2]) for r in REFUSALS])
def test_an_organizers_refusal_has_the_command_lines_code_and_writes_nothing_issue_36_item_3(
    night: dict[str, Any], isolated_data_dir: Path, path: str, body: dict[str, Any], command: tuple[str, ...]
) -> None:
    before = held(isolated_data_dir)
    answer = httpx.post(
        f"{night['organizer']}/{path}", json=body, headers={"Accept-Language": "de"}, timeout=10
    )
    assert 400 <= answer.status_code < 500, answer.text
    refused = answer.json()
    assert held(isolated_data_dir) == before
    assert refused["code"] == cli_code(*command), refused
    assert refused["error"].strip()
    assert held(isolated_data_dir) == before


def test_a_draw_while_a_table_plays_says_series_incomplete_at_both_doors_issue_36_item_3(
    night: dict[str, Any],
) -> None:
    """The organiser's draw refused while a table still plays: 409 and the code that says
    why (it was the generic "refused"), the same as ``romme tournament draw --json``."""
    answer = httpx.post(f"{night['organizer']}/tournaments/Cup/draw", json={}, timeout=10)
    assert answer.status_code == 409 and answer.json()["code"] == "series-incomplete", answer.text
    assert answer.json()["tournament"] == "Cup"
    assert cli_code("tournament", "draw", "Cup") == "series-incomplete"


def test_only_the_organizers_link_has_its_routes_issue_36_item_3(night: dict[str, Any]) -> None:
    game = night["games"][0]
    others = [game["board"], game["scorekeeper"], *game["seats"].values()]
    others += [night["tournaments"][0]["board"], night["leagues"][0]["board"]]
    for link in others:
        for path in ("games", "tournaments/Cup/draw", "games/Friday/end"):
            answer = httpx.post(f"{link}/{path}", json={"name": "X", "players": ["A", "B"]}, timeout=10)
            assert answer.status_code == 404, (link, path)
        assert httpx.get(f"{link}/state.json", timeout=10).json().get("games") is None


def test_the_organizers_actions_refuse_another_origin_host_or_size_issue_36_item_3(
    night: dict[str, Any], isolated_data_dir: Path
) -> None:
    organizer = night["organizer"]
    body = {"name": "Sat", "players": ["Eva", "Finn"]}
    before = held(isolated_data_dir)
    evil = httpx.post(organizer + "/games", json=body, headers={"Origin": "http://evil.example"}, timeout=10)
    assert evil.status_code == 403 and evil.json()["code"] == "cross-site"
    host = httpx.post(organizer + "/games", json=body, headers={"Host": "evil.example"}, timeout=10)
    assert host.status_code == 400
    big = {"name": "Sat", "players": ["Eva", "Finn"], "currency": "E" * 20_000}
    large = httpx.post(organizer + "/games", json=big, timeout=10)
    assert large.status_code == 413 and large.json()["code"] == "too-large"
    assert held(isolated_data_dir) == before


def test_new_links_renew_the_organizers_link_issue_36_item_3(isolated_data_dir: Path) -> None:
    ok("new", "Friday", "Anna", "Ben")
    proc, first = start(isolated_data_dir, "--all")
    stop(proc)
    proc, same = start(isolated_data_dir, "--all")
    stop(proc)
    assert same["organizer"].rsplit("/", 1)[1] == first["organizer"].rsplit("/", 1)[1]
    proc, renewed = start(isolated_data_dir, "--all", "--new-links")
    try:
        old = renewed["organizer"].rsplit("/", 1)[0] + "/" + first["organizer"].rsplit("/", 1)[1]
        assert httpx.get(old, timeout=10).status_code == 404
        assert httpx.get(renewed["organizer"], timeout=10).status_code == 200
    finally:
        stop(proc)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_organizers_page_shows_the_night_with_its_codes_and_has_no_axe_violation_issue_36_item_3(
    browser: Any, night: dict[str, Any], lang: str
) -> None:
    from test_serve_a11y import axe_page, violations

    page = axe_page(browser, night["organizer"], lang, ready="#game-list li[data-game='Friday'] img.qr")
    try:
        page.set_viewport_size({"width": 1280, "height": 720})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        assert page.locator("#game-list > li").count() == 2
        assert page.locator("#tournament-list > li[data-name='Cup'] img.qr").count() == 1
        assert page.locator("#league-list > li[data-name='Club'] img.qr").count() == 1
        width = page.evaluate(
            "() => document.querySelector('#game-list img.qr').getBoundingClientRect().width"
        )
        assert width >= 300  # to be scanned from a projector
        friday = page.locator("#game-list > li[data-game='Friday']")
        assert friday.locator(".seats img").count() == 0
        friday.locator(".seats summary").click()  # a seat's code on demand
        page.wait_for_selector("#game-list > li[data-game='Friday'] .seats img[alt='Ben']")
        # a game started elsewhere appears without a reload
        ok("new", "Saturday", "Eva", "Finn")
        page.wait_for_selector("#game-list > li[data-game='Saturday']")
        page.wait_for_function("() => [...document.images].every(i => i.complete && i.naturalWidth > 0)")
        assert violations(page) == []
        assert errors == []
    finally:
        page.context.close()


def test_the_organizers_events_tell_each_change_issue_36_item_3(night: dict[str, Any]) -> None:
    from test_serve_contract import Stream

    organizer = night["organizer"]
    before = httpx.get(organizer + "/state.json", timeout=10).json()["version"]
    stream = Stream(organizer + "/events")
    try:
        ok("new", "Saturday", "Eva", "Finn")  # a game started elsewhere
        seen = int(stream.next(timeout=5))
        assert seen > before
        state = httpx.get(organizer + "/state.json", timeout=10).json()
        assert "Saturday" in [g["name"] for g in state["games"]] and state["version"] >= seen
        ok("round", "--session", "Saturday", "--winner", "Eva", "Finn=5")  # a round saved elsewhere
        assert int(stream.next(timeout=5)) > seen
    finally:
        stream.close()
