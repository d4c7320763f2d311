"""The evening's screens (issue 29, "The evening's screens"): the board of ``romme serve
--tournament`` on a projector (``?view=screen``, or chosen by a wide window) shows every
player of the ranking without scrolling at 1280×720 and 1920×1080 for 12 and 40 players,
beside the tables' progress, in type of at least 24 px at 1080 p; on a phone at 360 px
the ranking shows place, name and total without sideways scrolling, and a tap on a row
opens its series and team. The board says that a ranking is provisional while a series
is played. Every server here listens on 127.0.0.1 only.

Set ``ROMME_SCREENSHOTS=DIR`` to keep the screenshots checked (docs/tournament-*.png)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import browser
from clirun import ok
from serving import HOST, _first_line
from test_serve_browser import not_blank_at

__all__ = ["browser"]  # the module-scoped fixture, used by name

NAMES = [
    "Anna", "Ben", "Carl", "Dora", "Emil", "Fritz", "Gerd", "Hanna", "Ilse", "Jens",
    "Karin", "Lutz", "Maria", "Nils", "Olga", "Paul", "Quirin", "Rosa", "Sven", "Tanja",
    "Ute", "Volker", "Wilma", "Xaver", "Yvonne", "Zora", "Albrecht", "Bettina", "Cornelius",
    "Dagmar", "Eberhard", "Friederike", "Gottfried", "Hildegard", "Ingeborg", "Joachim",
    "Konstantin", "Leopoldine", "Maximilian", "Notburga",
]  # fmt: skip


def play(session: str, players: int, game: int) -> None:
    """One game at a table: seat ``game % players + 1`` goes out, the others hold points."""
    winner = game % players + 1
    hands = [f"{seat}={(seat * 7 + game * 3) % 40}" for seat in range(1, players + 1) if seat != winner]
    ok("round", "--session", session, "--winner", str(winner), *hands)


def evening(count: int) -> dict[str, Any]:
    """A tournament of ``count`` players over 2 series of 2 games, with teams of two:
    series 1 played, series 2 drawn, its table 1 one game in and its last table not started."""
    players = [f"{name};Team {i // 2 + 1}" for i, name in enumerate(NAMES[:count])]
    ok("tournament", "new", "Abend", *players, "--games", "2", "--series", "2", "--seed", "5")
    first = json.loads(ok("tournament", "draw", "--json"))
    for t in first["tables"]:
        for game in range(2):
            play(t["session"], len(t["players"]), game)
    second = json.loads(ok("tournament", "draw", "--json"))
    table = second["tables"][0]
    play(table["session"], len(table["players"]), 0)
    drawn: dict[str, Any] = second
    return drawn


def serve(db: Path) -> Iterator[dict[str, Any]]:
    command = [sys.executable, "-m", "romme_score", "serve", "--db", str(db), "--tournament", "Abend"]
    command += ["--host", HOST, "--port", "0", "--json"]
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ)
    )
    try:
        yield json.loads(_first_line(proc, 30))
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


@pytest.fixture(params=[12, 40], ids=["12-players", "40-players"])
def board(request: pytest.FixtureRequest, isolated_data_dir: Path) -> Iterator[tuple[int, str]]:
    count = int(request.param)
    evening(count)
    yield from ((count, links["board"]) for links in serve(Path(os.environ["ROMME_DB"])))


def keep(png: bytes, name: str) -> None:
    where = os.environ.get("ROMME_SCREENSHOTS")
    if where:
        Path(where, name).write_bytes(png)


VISIBLE_JS = """() => {
  const rows = [...document.querySelectorAll('#ranks tbody tr')];
  const inside = (r) => r.top >= 0 && r.left >= 0
    && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5;
  return {
    rows: rows.length,
    shown: rows.filter((tr) => {
      const r = tr.getBoundingClientRect();
      const name = tr.querySelector('.name').getBoundingClientRect();
      const total = tr.querySelector('.total').getBoundingClientRect();
      return r.height > 0 && inside(r) && inside(name) && inside(total);
    }).map((tr) => tr.dataset.player),
    scrolls: document.documentElement.scrollHeight > innerHeight + 1
      || document.documentElement.scrollWidth > innerWidth + 1,
    pages: document.getElementById('pages').hidden ? '' : document.getElementById('pages').textContent,
    smallest: Math.min(...[...document.querySelectorAll('body *')]
      .filter((n) => n.offsetParent !== null && n.childNodes.length
        && [...n.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim()))
      .map((n) => parseFloat(getComputedStyle(n).fontSize))),
  };
}"""


# The right-hand column on a projector: every team row and table line in the page lies
# whole inside the screen and inside every box around it that clips (a row half cut off
# at a box's bottom is cut), and no box there holds more than it shows (none scrolls).
SIDE_JS = """() => {
  const inside = (r, box) => r.top >= box.top - 0.5 && r.left >= box.left - 0.5
    && r.bottom <= box.bottom + 0.5 && r.right <= box.right + 0.5;
  const screen = { top: 0, left: 0, bottom: innerHeight, right: innerWidth };
  const whole = (node) => {
    const r = node.getBoundingClientRect();
    if (r.height === 0 || !inside(r, screen)) return false;
    for (let a = node.parentElement; a && a !== document.body; a = a.parentElement) {
      const style = getComputedStyle(a);
      const clips = style.overflowX !== 'visible' || style.overflowY !== 'visible';
      if (clips && !inside(r, a.getBoundingClientRect())) return false;
    }
    return true;
  };
  const look = (selector, key) => {
    const nodes = [...document.querySelectorAll(selector)];
    return {
      shown: nodes.filter(whole).map((n) => n.dataset[key]),
      cut: nodes.filter((n) => !whole(n)).map((n) => n.dataset[key]),
    };
  };
  const boxes = ['.side', '#tables', '#table-list', '#team-ranking', '#team-ranking .scroll'];
  const label = (card) => {
    const p = document.querySelector(card + ' .pages');
    return p && !p.hidden ? p.textContent : '';
  };
  return {
    teams: look('#teams tbody tr', 'team'),
    tables: look('#table-list li', 'table'),
    lines: [...document.querySelectorAll('#table-list li')].map((li) => li.textContent),
    scrolling: boxes.filter((s) => {
      const n = document.querySelector(s);
      return n && (n.scrollHeight > n.clientHeight + 1 || n.scrollWidth > n.clientWidth + 1);
    }),
    teamPages: label('#team-ranking'),
    tablePages: label('#tables'),
  };
}"""


RANKS_INSIDE_JS = """() => {
  const box = document.getElementById('ranks').getBoundingClientRect();
  return [...document.querySelectorAll('#ranks tbody tr')]
    .every((tr) => tr.getBoundingClientRect().bottom <= box.bottom + 0.5);
}"""


def every_page(page: Any, key: str) -> list[dict[str, Any]]:
    """SIDE_JS on each page of the box whose label is ``key`` ("teamPages", "tablePages"),
    waiting for it to turn by itself (every 10 s), until every page has been seen."""
    seen = [page.evaluate(SIDE_JS)]
    label = seen[0][key]
    if not label:
        return seen
    pages = int(label.split()[-1])  # "Page 1 of 3", "Seite 1 von 3"
    assert label.split()[1] == "1", label
    for _ in range(pages - 1):
        page.wait_for_function(
            "([label, key]) => { const p = document.querySelector(key === 'teamPages' "
            "? '#team-ranking .pages' : '#tables .pages'); return p && p.textContent !== label; }",
            arg=[label, key],
            timeout=15_000,
        )
        seen.append(page.evaluate(SIDE_JS))
        label = seen[-1][key]
    return seen


def open_board(browser: Any, url: str, width: int, height: int, count: int) -> tuple[Any, Any]:
    context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1)
    context.set_default_timeout(20_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.script_errors = errors
    page.goto(url)
    page.wait_for_function(
        "(n) => document.querySelectorAll('#ranks tbody tr').length > 0 "
        "&& document.querySelectorAll('#table-list li').length > 0",
        arg=count,
    )
    return context, page


@pytest.mark.parametrize(
    "width, height, query",
    [(1280, 720, "?view=screen"), (1920, 1080, "?view=screen"), (1280, 720, "")],
    ids=["720p", "1080p", "720p-by-size"],
)
def test_the_projector_shows_every_player_without_scrolling_issue_29(
    browser: Any, board: tuple[int, str], width: int, height: int, query: str
) -> None:
    count, url = board
    context, page = open_board(browser, url + query, width, height, count)
    try:
        assert page.evaluate("() => document.documentElement.classList.contains('screen')")
        seen = page.evaluate(VISIBLE_JS)
        assert seen["rows"] == count and len(seen["shown"]) == count, seen
        assert seen["pages"] == "" and not seen["scrolls"]
        assert len(set(seen["shown"])) == count
        if height == 1080:
            assert seen["smallest"] >= 24, seen["smallest"]
        # the tables' progress beside the ranking, and the word that it is provisional
        tables = page.inner_text("#table-list")
        assert "Table 1: 1 of 2 games played" in tables and "Table 3: not started" in tables
        assert page.is_visible("#table-list") and page.is_visible("#provisional")
        assert "Provisional ranking" in page.inner_text("#provisional")
        box = page.eval_on_selector("#tables", "e => e.getBoundingClientRect().bottom")
        assert box <= height
        png = page.screenshot()
        not_blank_at(png, width)
        if count == 40 and query:
            keep(png, f"tournament-screen-{height}p.png")
        assert page.script_errors == []
    finally:
        context.close()


@pytest.mark.parametrize(
    "width, height, lang",
    [(1280, 720, "en"), (1920, 1080, "en"), (1280, 720, "de")],
    ids=["720p", "1080p", "720p-de"],
)
def test_the_projector_shows_every_team_and_table_whole_or_on_a_page_of_its_own(
    browser: Any, board: tuple[int, str], width: int, height: int, lang: str
) -> None:
    """The Teams box was cut off at the bottom with 20 teams (the 8th row in half at
    1280×720, beside the 10 tables' lines): every team row and table line is now whole on
    the screen, or on a page that turns by itself and says which ("Page 1 of 3"), and
    across the pages every team and every table appears once."""
    count, url = board
    context, page = open_board(browser, f"{url}?view=screen&lang={lang}", width, height, count)
    try:
        word = {"en": "Page", "de": "Seite"}[lang]
        for key, part, want in (
            ("teamPages", "teams", {f"Team {n}" for n in range(1, count // 2 + 1)}),
            ("tablePages", "tables", {str(n) for n in range(1, count // 4 + 1)}),
        ):
            found: list[str] = []
            for seen in every_page(page, key):
                assert seen[part]["cut"] == [] and seen[part]["shown"], seen
                assert seen["scrolling"] == [], seen
                assert seen[key] == "" or seen[key].startswith(f"{word} "), seen[key]
                found += seen[part]["shown"]
            assert sorted(found) == sorted(want), (part, found)
        if count == 12:  # six teams and three tables: all on one screen
            assert seen["teamPages"] == seen["tablePages"] == ""
        lines = page.evaluate(SIDE_JS)["lines"]
        if lang == "de":
            assert "Tisch 1: 1 von 2 Spielen gespielt" in lines, lines
        else:
            assert "Table 1: 1 of 2 games played" in lines, lines
        if height == 1080:
            assert page.evaluate(VISIBLE_JS)["smallest"] >= 24
        assert page.script_errors == []
    finally:
        context.close()


def test_a_phone_shows_place_name_and_total_and_a_tap_opens_series_and_team_issue_29(
    browser: Any, board: tuple[int, str]
) -> None:
    count, url = board
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, device_scale_factor=1, has_touch=True
    )
    context.set_default_timeout(20_000)
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_function("(n) => document.querySelectorAll('#ranks tbody tr').length === n", arg=count)
        assert not page.evaluate("() => document.documentElement.classList.contains('screen')")
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        first = page.query_selector("#ranks tbody tr")
        for part in (".place", ".name", ".total"):
            r = first.query_selector(part).bounding_box()
            assert r["x"] >= 0 and r["x"] + r["width"] <= 360 and r["y"] + r["height"] <= 740, part
        assert not first.query_selector(".opt").is_visible()  # series and team wait for a tap
        details = first.query_selector(".more")
        assert not details.is_visible()
        first.query_selector("button.who").tap()
        assert details.is_visible()
        text = details.inner_text()
        assert "S1 " in text and "Team " in text and "S2 so far" in text
        assert first.query_selector("button.who").get_attribute("aria-expanded") == "true"
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        second = page.query_selector_all("#ranks tbody tr")[1]
        second.query_selector(".total").tap()  # anywhere on the row
        assert second.query_selector(".more").is_visible()
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        png = page.screenshot()
        not_blank_at(png, 360)
        if count == 12:
            keep(png, "tournament-phone.png")
    finally:
        context.close()


def test_more_players_than_fit_turn_pages_saying_which_issue_29(
    browser: Any, isolated_data_dir: Path
) -> None:
    evening(40)
    for links in serve(Path(os.environ["ROMME_DB"])):
        context, page = open_board(browser, links["board"] + "?view=screen", 720, 720, 40)
        try:
            seen = page.evaluate(VISIBLE_JS)
            assert seen["pages"].startswith("Page 1 of "), seen
            assert not seen["scrolls"] and len(seen["shown"]) == seen["rows"] < 40
            # whole inside the ranking's box too: its last rows were hidden under the line
            # "Page 1 of 2" (the box was measured before that line was shown)
            assert page.evaluate(RANKS_INSIDE_JS), seen
            first = seen["shown"]
            page.wait_for_function(
                "() => document.getElementById('pages').textContent.startsWith('Page 2 of ')", timeout=15_000
            )
            assert page.evaluate(VISIBLE_JS)["shown"] != first
        finally:
            context.close()
