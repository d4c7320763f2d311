"""Issue 31 ("Accessible", "Labels never break inside a word"): every page of ``romme
serve`` — a seat, the scorekeeper, the board, a tournament's board and the 404 — in
German and English has no violation of axe-core's rules (the npm package ``axe-core``,
pinned in tools/js/package-lock.json, injected into the page), which include a contrast
of at least 4.5:1; a seat works with the keyboard alone; no label of a button breaks
inside a word at 360 px, and the winner's button is on a seat's first screen."""

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
from browser import PHONE, TIMEOUT_MS, browser
from clirun import ok
from serving import HOST, Served, _first_line, in_process

from romme_score.rules import find_preset
from romme_score.sessions import SessionService

__all__ = ["browser"]  # the module-scoped fixture, used by name
AXE = Path(__file__).resolve().parent.parent / "tools" / "js" / "node_modules" / "axe-core" / "axe.min.js"
PLAYERS = ["Anna", "Ben", "Carl", "Dora"]
LANGS = ["de", "en"]


@pytest.fixture
def served(isolated_data_dir: Path) -> Iterator[Served]:
    with SessionService(isolated_data_dir) as service:
        service.create("Freitag", PLAYERS, find_preset("standard"), Decimal("0.01"), "EUR")
    ok("round", "--winner", "Anna", "Ben=HK K10 J", "Carl=12", "Dora=P3 P4")
    with in_process(isolated_data_dir) as (links, _server):
        yield links


def axe_page(browser: Any, url: str, lang: str, ready: str | None = "#players li") -> Any:
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: make tools/js/node_modules/.installed (npm ci) installs axe-core")
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=1, locale="de-DE" if lang == "de" else "en-GB", bypass_csp=True
    )
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.goto(f"{url}?lang={lang}" if ready else url)
    if ready:
        page.wait_for_selector(ready)
    return page


def violations(page: Any) -> list[dict[str, Any]]:
    """axe-core's violations of the page as it is now (all of its rules that are not experimental)."""
    page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(
        "async () => (await axe.run(document)).violations.map(v => ({id: v.id, impact: v.impact, "
        "nodes: v.nodes.map(n => n.target.join(' ') + ': ' + n.failureSummary)}))"
    )
    return found


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", ["seat", "scorekeeper", "board"])
def test_every_page_of_a_session_has_no_axe_violation_issue_31(
    browser: Any, served: Served, kind: str, lang: str
) -> None:
    url = {"seat": served.seats["Ben"], "scorekeeper": served.scorekeeper, "board": served.board}[kind]
    page = axe_page(browser, url, lang)
    try:
        page.wait_for_function("() => document.querySelector('#last-hands li') !== null")
        assert page.evaluate("() => document.documentElement.lang") == lang
        assert violations(page) == []
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_the_404_page_has_no_axe_violation_issue_31(browser: Any, served: Served, lang: str) -> None:
    page = axe_page(browser, f"{served.origin}/no-such-link?lang={lang}", lang, ready=None)
    try:
        assert page.evaluate("() => document.documentElement.lang") == lang
        assert violations(page) == []
    finally:
        page.context.close()


@pytest.fixture
def tournament_board(isolated_data_dir: Path) -> Iterator[str]:
    ok("tournament", "new", "Cup", "Anna", "Ben", "Carl", "Dora", "Emil", "--games", "2", "--series", "1")
    ok("tournament", "draw", "--json")
    command = [sys.executable, "-m", "romme_score", "serve", "--db", str(isolated_data_dir)]
    command += ["--tournament", "Cup", "--host", HOST, "--port", "0", "--json"]
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ)
    )
    try:
        yield str(json.loads(_first_line(proc, 30))["board"])
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


@pytest.mark.parametrize("lang", LANGS)
def test_the_tournament_board_has_no_axe_violation_issue_31(
    browser: Any, tournament_board: str, lang: str
) -> None:
    page = axe_page(browser, tournament_board, lang, ready="#ranks tbody tr")
    try:
        assert violations(page) == []
    finally:
        page.context.close()


# --- labels and the first screen ---------------------------------------------------------

BROKEN_WORDS = """() => {
  const broken = [];
  for (const node of document.querySelectorAll('button, label, h2, th')) {
    if (!node.offsetParent) continue;
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      for (const match of text.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(text, match.index);
        range.setEnd(text, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        if (lines.size > 1) broken.push(match[0]);
      }
    }
  }
  return broken;
}"""


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", ["seat", "scorekeeper", "board"])
def test_no_label_breaks_inside_a_word_at_360_px_issue_31(
    browser: Any, served: Served, kind: str, lang: str
) -> None:
    url = {"seat": served.seats["Ben"], "scorekeeper": served.scorekeeper, "board": served.board}[kind]
    page = axe_page(browser, url, lang)
    try:
        page.wait_for_function("() => document.querySelector('#last-hands li') !== null")
        assert page.evaluate(BROKEN_WORDS) == []
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_the_winners_button_is_on_the_first_screen_of_a_seat_issue_31(
    browser: Any, served: Served, lang: str
) -> None:
    page = axe_page(browser, served.seats["Carl"], lang)
    try:
        page.click("#went-out")
        page.wait_for_selector("#went-out[aria-pressed='true']")
        page.evaluate("() => window.scrollTo(0, 0)")
        box = page.locator("#went-out").bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
        words = {"de": "Ich habe ausgemacht", "en": "I went out"}[lang]
        assert page.inner_text("#went-out") == words
    finally:
        page.context.close()


# --- the keyboard alone ------------------------------------------------------------------


def tab_to(page: Any, selector: str, most: int = 80) -> None:
    for _ in range(most):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"{selector} is not reached with the Tab key")


def test_a_seat_sends_its_hand_and_goes_out_with_the_keyboard_alone_issue_31(
    browser: Any, served: Served
) -> None:
    page = axe_page(browser, served.seats["Ben"], "en")
    try:
        tab_to(page, "#suits button[data-suit='H']")
        page.keyboard.press("Enter")
        tab_to(page, "#ranks button[data-rank='K']")
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.querySelector('#hand-text').value === 'HK'")
        tab_to(page, "#send-hand")
        page.keyboard.press("Enter")
        page.wait_for_selector("#myhand-status:has-text('My hand is in: 10 points')")
        page.keyboard.press("Shift+Tab")  # back up the page to the winner's button
        for _ in range(60):
            if page.evaluate("() => document.activeElement.id") == "went-out":
                break
            page.keyboard.press("Shift+Tab")
        page.keyboard.press("Space")
        page.wait_for_selector("#went-out[aria-pressed='true']")
        # the focus is always shown
        outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
        assert outline != "none"
    finally:
        page.context.close()
