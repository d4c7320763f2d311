"""Issue 36 item 6 ("Keep the screen on"): the board's and a seat's page offer "Keep screen
on". A phone on the Wi-Fi opens plain ``http://192.168...``, an insecure origin without
``navigator.wakeLock``: there the tap plays a muted inline video, unseen, which keeps the
screen on; where the Wake Lock API exists (a secure origin) it is asked first, and where
it refuses the video plays all the same. The choice is kept per phone and link, taken up
after a reload and when the page is shown again, and nothing reaches the console.

The insecure origin is a host name mapped to 127.0.0.1 (``--host-resolver-rules``,
admitted by ``romme serve --allow-host``); 127.0.0.1 itself counts as secure."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from browser import PHONE, TIMEOUT_MS, chromium_or_skip, phone
from clirun import ok
from serving import HOST, Served, _first_line, serving, stop_process

from romme_score.rules import find_preset
from romme_score.sessions import SessionService
from romme_score.views.web import TEXTS

PLAYERS = ["Anna", "Ben", "Carl"]
INSECURE = "romme.test"  # as a phone on the Wi-Fi sees the server: no secure context

VIDEO_PLAYING = """() => {
  const v = document.querySelector('video.awake-video');
  return v !== null && !v.paused && v.currentTime > 0;
}"""
VIDEO_JS = """() => {
  const v = document.querySelector('video.awake-video');
  return v && {paused: v.paused, muted: v.muted, inline: v.playsInline && v.hasAttribute('playsinline'),
               loop: v.loop, hidden: v.getAttribute('aria-hidden')};
}"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium with ``romme.test`` resolving to 127.0.0.1 (and nothing else changed: no
    autoplay switch, the tap is a real click)."""
    path = chromium_or_skip()
    from playwright.sync_api import sync_playwright

    args = ["--no-sandbox", "--disable-gpu", f"--host-resolver-rules=MAP {INSECURE} {HOST}"]
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=args)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def served(isolated_data_dir: Path) -> Iterator[Served]:
    with SessionService(isolated_data_dir) as service:
        service.create("Freitag", PLAYERS, find_preset("standard"), Decimal("0.01"), "EUR")
    with serving(isolated_data_dir, "--allow-host", INSECURE) as links:
        yield links


def watched(context: Any, url: str) -> tuple[Any, list[str]]:
    """The page at ``url``, with every script error and console error collected."""
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
    page.on("console", lambda msg: problems.append(f"console: {msg.text}") if msg.type == "error" else None)
    page.goto(url)
    page.wait_for_function("() => document.querySelectorAll('#players li').length > 0")
    return page, problems


def pressed(page: Any) -> str:
    return str(page.get_attribute("#awake", "aria-pressed"))


@pytest.mark.parametrize("kind", ["seat", "board"])
def test_keep_screen_on_over_plain_http_plays_an_inline_video_issue_36_item_6(
    browser: Any, served: Served, kind: str
) -> None:
    """On http://romme.test:PORT (as http://192.168... on the Wi-Fi): no secure context, no
    Wake Lock; the tap plays the muted inline video, the choice outlives a reload and is
    taken up again when the page is shown again; a second tap lets the screen go."""
    url = served.seats["Ben"] if kind == "seat" else served.board
    url = url.replace(f"//{HOST}:", f"//{INSECURE}:")
    context = phone(browser)
    try:
        page, problems = watched(context, url)
        assert page.evaluate("() => window.isSecureContext") is False
        assert page.evaluate("() => 'wakeLock' in navigator") is False
        button = page.get_by_role("button", name=TEXTS["awake"])
        assert pressed(page) == "false"
        assert page.evaluate(VIDEO_JS) is None

        button.click()
        page.wait_for_function(VIDEO_PLAYING)
        video = page.evaluate(VIDEO_JS)
        assert video == {"paused": False, "muted": True, "inline": True, "loop": True, "hidden": "true"}
        assert pressed(page) == "true"
        assert page.get_attribute("#awake", "data-by") == "video"
        assert page.text_content("#awake-msg") == TEXTS["awake_on"]
        token = "/" + url.rsplit("/", 1)[1]
        assert page.evaluate("(key) => localStorage.getItem(key)", f"romme-awake:{token}") == "true"

        # remembered for this link: after a reload it plays again, without a tap
        page.reload()
        page.wait_for_function("() => document.querySelectorAll('#players li').length > 0")
        page.wait_for_function(VIDEO_PLAYING)
        assert pressed(page) == "true"

        # the page hidden (the phone's screen off, another app): the video stops; shown
        # again, it plays again
        page.evaluate(
            """() => {
              document.querySelector('video.awake-video').pause();
              Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true});
              document.dispatchEvent(new Event('visibilitychange'));
              Object.defineProperty(document, 'visibilityState', {value: 'visible', configurable: true});
              document.dispatchEvent(new Event('visibilitychange'));
            }"""
        )
        page.wait_for_function(VIDEO_PLAYING)

        # another link on the same phone has its own choice
        other = served.board if kind == "seat" else served.seats["Anna"]
        page2, problems2 = watched(context, other.replace(f"//{HOST}:", f"//{INSECURE}:"))
        assert pressed(page2) == "false"
        assert page2.evaluate(VIDEO_JS) is None
        page2.close()

        button.click()
        page.wait_for_function("() => document.querySelector('video.awake-video').paused")
        assert pressed(page) == "false"
        assert page.text_content("#awake-msg") == ""
        assert page.evaluate("(key) => localStorage.getItem(key)", f"romme-awake:{token}") == "false"
        assert problems + problems2 == []
    finally:
        context.close()


REFUSED = """navigator.wakeLock.request = () => {
  window.asked = (window.asked || 0) + 1;
  return Promise.reject(new DOMException('refused for the test', 'NotAllowedError'));
};"""
COUNTED = """{
  const request = navigator.wakeLock.request.bind(navigator.wakeLock);
  navigator.wakeLock.request = (type) => { window.asked = (window.asked || 0) + 1; return request(type); };
}"""


@pytest.mark.parametrize("wake_lock", ["as the browser answers", "refused"])
def test_keep_screen_on_asks_the_wake_lock_on_a_secure_origin_issue_36_item_6(
    browser: Any, served: Served, wake_lock: str
) -> None:
    """On 127.0.0.1 (a secure origin) the tap asks navigator.wakeLock; held, no video plays;
    refused (headless Chromium may refuse, a phone's battery saver does), the video plays
    instead, and no error reaches the page or the console."""
    context = phone(browser)
    context.add_init_script(REFUSED if wake_lock == "refused" else COUNTED)
    try:
        page, problems = watched(context, served.seats["Carl"])
        assert page.evaluate("() => window.isSecureContext") is True
        assert page.evaluate("() => typeof navigator.wakeLock.request") == "function"
        page.get_by_role("button", name=TEXTS["awake"]).click()
        page.wait_for_function("() => document.getElementById('awake').dataset.by !== undefined")
        by = page.get_attribute("#awake", "data-by")
        assert page.evaluate("() => window.asked") == 1
        if wake_lock == "refused":
            assert by == "video"
        if by == "video":
            page.wait_for_function(VIDEO_PLAYING)
        else:
            assert page.evaluate(VIDEO_JS) is None
        assert pressed(page) == "true"
        assert page.text_content("#awake-msg") == TEXTS["awake_on"]
        assert problems == []
    finally:
        context.close()


NO_PLAY_WITHOUT_TAP = """{
  const play = HTMLMediaElement.prototype.play;
  HTMLMediaElement.prototype.play = function () {
    if (!navigator.userActivation.isActive) {
      return Promise.reject(new DOMException('needs a tap', 'NotAllowedError'));
    }
    return play.call(this);
  };
}"""


@pytest.mark.parametrize("tap", ["#heading", "#awake"])
def test_keep_screen_on_refused_without_a_tap_asks_for_one_issue_36_item_6(
    browser: Any, served: Served, tap: str
) -> None:
    """A browser that plays no video without a tap (stricter than Chromium's muted
    autoplay): after a reload the kept choice cannot be taken up by itself; the page says,
    calmly, to tap it once, and the next tap anywhere starts the video (on the button too:
    it then keeps the screen on rather than turning the choice off)."""
    url = served.seats["Anna"].replace(f"//{HOST}:", f"//{INSECURE}:")
    context = phone(browser)
    context.add_init_script(NO_PLAY_WITHOUT_TAP)
    try:
        page, problems = watched(context, url)
        page.get_by_role("button", name=TEXTS["awake"]).click()
        page.wait_for_function(VIDEO_PLAYING)
        page.reload()
        page.wait_for_function("() => document.querySelectorAll('#players li').length > 0")
        page.wait_for_function(
            f"() => document.getElementById('awake-msg').textContent === {TEXTS['awake_tap']!r}"
        )
        assert pressed(page) == "true"
        assert page.evaluate("() => document.querySelector('video.awake-video').paused") is True
        page.click(tap)
        page.wait_for_function(VIDEO_PLAYING)
        # the sentence follows play()'s promise, a moment after the video plays
        page.wait_for_function(
            f"() => document.getElementById('awake-msg').textContent === {TEXTS['awake_on']!r}"
        )
        assert pressed(page) == "true"
        assert problems == []
    finally:
        context.close()


def test_keep_screen_on_has_no_axe_violation_issue_36_item_6(browser: Any, served: Served) -> None:
    """axe-core on a seat over plain HTTP, before and after the tap (the button pressed, the
    video under the page)."""
    from test_serve_a11y import AXE, violations

    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: make tools/js/node_modules/.installed (npm ci) installs axe-core")
    context = browser.new_context(viewport=PHONE, locale="de-DE", bypass_csp=True)  # axe is injected
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page, problems = watched(
            context, served.seats["Ben"].replace(f"//{HOST}:", f"//{INSECURE}:") + "?lang=de"
        )
        assert violations(page) == []
        page.get_by_role("button", name="Bildschirm anlassen").click()
        page.wait_for_function(VIDEO_PLAYING)
        assert violations(page) == []
        assert problems == []
    finally:
        context.close()


# --- the tournament's board (the projector) and the league's board -----------------------

PROJECTOR = {"width": 1280, "height": 720}
READY = {"tournament": "#ranks tbody tr", "league": "#season-ranks tbody tr"}


def a_board(db: Path, *args: str) -> Iterator[str]:
    """``romme serve ARGS`` (``--tournament NAME`` or ``--league NAME``) admitting the
    insecure host name: its board's link, at that host name."""
    command = [sys.executable, "-m", "romme_score", "serve", "--db", str(db), "--host", HOST, "--port", "0"]
    command += ["--json", "--allow-host", INSECURE, *args]
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ)
    )
    try:
        board = str(json.loads(_first_line(proc, 30))["board"])
        yield board.replace(f"//{HOST}:", f"//{INSECURE}:")
    finally:
        stop_process(proc)


@pytest.fixture
def tournament_board(isolated_data_dir: Path) -> Iterator[str]:
    """A tournament of 120 (30 tables): on a projector at 1280×720 its ranking turns pages."""
    players = [f"Spieler {n}" for n in range(1, 121)]
    ok("tournament", "new", "Cup", *players, "--games", "2", "--series", "2", "--seed", "7")
    ok("tournament", "draw", "--json")
    yield from a_board(isolated_data_dir, "--tournament", "Cup")


@pytest.fixture
def league_board(isolated_data_dir: Path) -> Iterator[str]:
    ok("new", "Abend 1", "Anna", "Ben", "Carl", "--until", "rounds:1")
    ok("round", "--session", "Abend 1", "--winner", "Anna", "Ben=10", "Carl=20")
    ok("league", "new", "Club", "--season", "2026")
    ok("league", "add", "Club", "--session", "Abend 1")
    yield from a_board(isolated_data_dir, "--league", "Club")


def projector(browser: Any, **options: Any) -> Any:
    context = browser.new_context(viewport=PROJECTOR, device_scale_factor=1, locale="en-GB", **options)
    context.set_default_timeout(TIMEOUT_MS)
    return context


def watched_board(context: Any, url: str, kind: str) -> tuple[Any, list[str]]:
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
    page.on("console", lambda msg: problems.append(f"console: {msg.text}") if msg.type == "error" else None)
    page.goto(url)
    page.wait_for_selector(READY[kind])
    return page, problems


@pytest.mark.parametrize("kind", ["tournament", "league"])
def test_the_tournament_and_league_boards_keep_the_screen_on_issue_36_item_6(
    browser: Any, request: pytest.FixtureRequest, kind: str
) -> None:
    """The projector's laptop opens the tournament's (or the league's) board over plain
    HTTP: it offers "Keep screen on" as a session's board does; the tap plays the muted
    inline video, the choice outlives a reload, nothing reaches the console."""
    url = request.getfixturevalue(f"{kind}_board")
    context = projector(browser)
    try:
        page, problems = watched_board(context, url, kind)
        assert page.evaluate("() => window.isSecureContext") is False
        button = page.get_by_role("button", name=TEXTS["awake"])
        assert button.is_visible()
        assert pressed(page) == "false"
        button.click()
        page.wait_for_function(VIDEO_PLAYING)
        assert pressed(page) == "true"
        assert page.get_attribute("#awake", "data-by") == "video"
        assert page.text_content("#awake-msg") == TEXTS["awake_on"]
        token = "/" + url.rsplit("/", 1)[1]
        assert page.evaluate("(key) => localStorage.getItem(key)", f"romme-awake:{token}") == "true"

        page.reload()
        page.wait_for_selector(READY[kind])
        page.wait_for_function(VIDEO_PLAYING)
        assert pressed(page) == "true"
        assert problems == []
    finally:
        context.close()


LAYOUT = """() => {
  const box = (node) => { const r = node.getBoundingClientRect();
                          return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
  const first = document.querySelector('#ranks .rank-table');
  return {
    main: box(document.querySelector('main')),
    ranks: box(document.getElementById('ranks')),
    tables: box(document.getElementById('tables')),
    columns: document.querySelectorAll('#ranks .rank-table').length,
    rows: first ? first.tBodies[0].rows.length : 0,
    table_lines: document.querySelectorAll('#table-list li').length,
    scroll: document.documentElement.scrollHeight,
  };
}"""


def test_keep_screen_on_takes_no_room_from_the_projectors_board_issue_36_item_6(
    browser: Any, tournament_board: str
) -> None:
    """At 1280×720 the control sits at the right end of the header's line, as high as the
    line: the boxes below are where they are without it, the ranking's pages as full (the
    same rows per column), nothing to scroll; its sentence after the tap changes nothing;
    axe-core finds nothing there either."""
    from test_serve_a11y import AXE, violations

    context = projector(browser, bypass_csp=True)  # axe is injected
    try:
        page, problems = watched_board(context, tournament_board, "tournament")
        assert page.evaluate("() => document.documentElement.classList.contains('screen')") is True
        with_control = page.evaluate(LAYOUT)
        button = page.locator("#awake").bounding_box()
        heading = page.locator("#heading").bounding_box()
        assert button is not None and heading is not None
        assert button["y"] + button["height"] <= with_control["main"]["top"]  # in the header's line
        assert button["x"] + button["width"] <= PROJECTOR["width"]
        assert button["x"] >= heading["x"] + heading["width"]
        assert with_control["scroll"] <= PROJECTOR["height"]
        assert with_control["main"]["bottom"] <= PROJECTOR["height"]
        assert page.inner_text("#pages") != ""  # 120 players: the ranking turns pages

        page.locator("#awake").click()
        page.wait_for_function(VIDEO_PLAYING)
        page.wait_for_function(
            f"() => document.getElementById('awake-msg').textContent === {TEXTS['awake_on']!r}"
        )
        assert page.evaluate(LAYOUT) == with_control
        if AXE.exists():
            assert violations(page) == []

        # the same board without the control: the boxes are where they were
        page.add_style_tag(content=".awake { display: none !important; }")
        page.evaluate("() => window.dispatchEvent(new Event('resize'))")
        page.wait_for_timeout(600)  # the board draws again 150 ms after a resize
        without = page.evaluate(LAYOUT)
        assert without == with_control
        assert problems == []
    finally:
        context.close()
