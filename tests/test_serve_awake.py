"""Issue 36 item 6 ("Keep the screen on"): the board's and a seat's page offer "Keep screen
on". A phone on the Wi-Fi opens plain ``http://192.168...``, an insecure origin without
``navigator.wakeLock``: there the tap plays a muted inline video, unseen, which keeps the
screen on; where the Wake Lock API exists (a secure origin) it is asked first, and where
it refuses the video plays all the same. The choice is kept per phone and link, taken up
after a reload and when the page is shown again, and nothing reaches the console.

The insecure origin is a host name mapped to 127.0.0.1 (``--host-resolver-rules``,
admitted by ``romme serve --allow-host``); 127.0.0.1 itself counts as secure."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from browser import PHONE, TIMEOUT_MS, chromium_or_skip, phone
from serving import HOST, Served, serving

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
