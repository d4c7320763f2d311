"""What the organiser's page of ``romme serve --all`` said did not hold (issue 36 item 3,
a new user's findings): "Series 2 drawn." stayed on after a later series was drawn in a
terminal and after the tournament was over; "Draw the next series" was offered when
every series was drawn, and its refusal read "all 3 series of tournament 'Cup' are
drawn", the command line's clause. ``state.json`` says how many series a tournament has
(``"series"``); the page offers the draw only while one is left, its notice goes when the
night moves on, and the server's sentences have a capital letter and a full stop. Each
server here runs in this process, on 127.0.0.1 only."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser import TIMEOUT_MS, browser
from clirun import ok
from serving import night_in_process

__all__ = ["browser"]  # the module-scoped fixture, used by name
FOUR = ["Anna", "Ben", "Carl", "Dora"]
SAID = "() => document.getElementById('said').textContent"


@pytest.fixture
def http() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=30) as client:
        yield client


def organizers_page(browser: Any, organizer: str, lang: str = "en") -> tuple[Any, list[str]]:
    """The organiser's page at a laptop's size; no service worker, so that a test may stand
    between the page and the server (``page.route``)."""
    context = browser.new_context(
        viewport={"width": 1280, "height": 720},
        locale="de-DE" if lang == "de" else "en-GB",
        service_workers="block",
    )
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on(
        "console",
        lambda msg: (
            errors.append(f"{msg.text} {msg.location.get('url', '')}") if msg.type == "error" else None
        ),
    )
    page.goto(f"{organizer}?lang={lang}")
    page.locator("#tournament-list > li[data-name='Cup']").wait_for()
    return page, errors


ALL_CODES_SHOWN = "() => [...document.images].every(i => i.complete && i.naturalWidth > 0)"


def problems(page: Any, errors: list[str]) -> list[str]:
    """The script and console errors, but the browser's line for a code asked a moment
    before the night served the series just drawn (the page asks again, and every code is
    shown: checked here) and for a refused request (409)."""
    page.wait_for_function(ALL_CODES_SHOWN)
    return [e for e in errors if not ("status of 409" in e or ("status of 404" in e and "/qr.svg" in e))]


def said_is(page: Any, text: str) -> None:
    page.wait_for_function(f"() => document.getElementById('said').textContent === {text!r}")


def play_the_table(session: str) -> None:
    """The table's one game, won by its first seat."""
    ok("round", "--session", session, "--winner", "1", "2=5", "3=6", "4=7")


def test_state_json_says_how_many_series_a_tournament_has_issue_36_item_3(
    isolated_data_dir: Path, http: httpx.Client
) -> None:
    ok("tournament", "new", "Cup", *FOUR, "--games", "1", "--series", "3", "--seed", "7")
    with night_in_process(isolated_data_dir) as organizer:
        before = http.get(organizer + "/state.json").json()["tournaments"]
        drawn = http.post(organizer + "/tournaments/Cup/draw", json={})
        after = http.get(organizer + "/state.json").json()["tournaments"]
    assert before == [{"name": "Cup", "board": None, "series_drawn": 0, "series_finished": 0, "series": 3}]
    assert drawn.status_code == 200 and drawn.json()["series"] == 3
    assert [(t["series_drawn"], t["series"]) for t in after] == [(1, 3)]


def test_a_draws_notice_goes_when_a_later_series_is_drawn_in_a_terminal_issue_36_item_3(
    browser: Any, isolated_data_dir: Path
) -> None:
    """The page draws series 1 ("Series 1 drawn."); a terminal then draws series 2 (the
    last): the notice goes, and so does the button, nothing being left to draw."""
    ok("tournament", "new", "Cup", *FOUR, "--games", "1", "--series", "2", "--seed", "7")
    with night_in_process(isolated_data_dir) as organizer:
        page, errors = organizers_page(browser, organizer)
        try:
            cup = page.locator("#tournament-list > li[data-name='Cup']")
            cup.locator("button.draw").click()
            said_is(page, "Series 1 drawn.")
            ok("tournament", "draw", "Cup", "--force")  # series 1 still plays: forced
            cup.locator("p.sub", has_text="Series drawn: 2").wait_for()
            assert page.evaluate(SAID) == ""
            assert cup.locator("button.draw").count() == 0
            assert problems(page, errors) == []
        finally:
            page.context.close()


def test_a_draws_notice_goes_when_the_tournament_is_over_issue_36_item_3(
    browser: Any, isolated_data_dir: Path
) -> None:
    """Series 1 drawn and played in a terminal: the page offers the draw of series 2 and
    says "Series 2 drawn.", then no button (both drawn); the last game played in a
    terminal ends the tournament, and the notice goes."""
    ok("tournament", "new", "Cup", *FOUR, "--games", "1", "--series", "2", "--seed", "7")
    ok("tournament", "draw", "Cup")
    play_the_table("Cup S1 T1")
    with night_in_process(isolated_data_dir) as organizer:
        page, errors = organizers_page(browser, organizer)
        try:
            cup = page.locator("#tournament-list > li[data-name='Cup']")
            cup.locator("button.draw").click()
            said_is(page, "Series 2 drawn.")
            cup.locator("p.sub", has_text="Series drawn: 2").wait_for()
            assert cup.locator("button.draw").count() == 0
            assert page.evaluate(SAID) == "Series 2 drawn."  # still so: it stays
            play_the_table("Cup S2 T1")
            cup.locator("p.sub", has_text="finished: 2").wait_for()
            assert page.evaluate(SAID) == ""
            assert problems(page, errors) == []
        finally:
            page.context.close()


@pytest.mark.parametrize(
    ("lang", "sentence"),
    [
        ("en", "All 2 series of tournament 'Cup' are drawn."),
        ("de", "Alle 2 Serien des Turniers 'Cup' sind ausgelost."),
    ],
)
def test_a_draw_refused_shows_the_servers_sentence_as_a_sentence_issue_36_item_3(
    browser: Any, isolated_data_dir: Path, lang: str, sentence: str
) -> None:
    """The page still offers the draw of series 2 when a terminal draws it, between the tap
    and the request: the server refuses ("all 2 series of tournament 'Cup' are drawn", the
    command line's clause) and the page says it with a capital letter and a full stop;
    the button then goes, and the sentence stays while nothing else moves."""
    ok("tournament", "new", "Cup", *FOUR, "--games", "1", "--series", "2", "--seed", "7")
    ok("tournament", "draw", "Cup")
    play_the_table("Cup S1 T1")
    with night_in_process(isolated_data_dir) as organizer:
        page, errors = organizers_page(browser, organizer, lang)
        try:

            def drawn_in_a_terminal_first(route: Any) -> None:
                ok("tournament", "draw", "Cup")
                route.continue_()

            page.route(re.compile(r"/tournaments/Cup/draw(\?|$)"), drawn_in_a_terminal_first)
            cup = page.locator("#tournament-list > li[data-name='Cup']")
            cup.locator("button.draw").click()
            said_is(page, sentence)
            assert page.locator("#said.error").count() == 1
            cup.locator("button.draw").wait_for(state="detached")
            assert page.evaluate(SAID) == sentence
            assert problems(page, errors) == []
        finally:
            page.context.close()
