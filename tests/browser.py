"""Debian's Chromium driven by Playwright for the pages of ``romme serve`` (never
``playwright install``, which downloads a browser): where Chromium is missing, the
browser tests skip, saying why; on CI, ``make test`` installs it."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 360, "height": 740}
TIMEOUT_MS = 20_000  # generous: the machine is shared


def chromium_or_skip() -> str:
    if shutil.which(CHROMIUM) is None:
        pytest.skip("Chromium is not installed (Debian: apt-get install chromium): the pages are not driven")
    return CHROMIUM


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    path = chromium_or_skip()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=["--no-sandbox", "--disable-gpu"])
        try:
            yield launched
        finally:
            launched.close()


def phone(browser: Any, locale: str = "en-GB", service_workers: str = "allow") -> Any:
    """A browser context the size of a phone held upright. ``service_workers="block"`` for a
    test that answers requests itself (``page.route``): Playwright does not see the requests
    of a page its service worker controls, so whether the route applied would depend on
    whether the worker had taken the page yet."""
    context = browser.new_context(
        viewport=PHONE,
        device_scale_factor=1,
        locale=locale,
        has_touch=True,
        service_workers=service_workers,
    )
    context.set_default_timeout(TIMEOUT_MS)
    return context


def open_page(context: Any, url: str) -> Any:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))  # a script error, not a refused request
    page.script_errors = errors
    page.goto(url)
    page.wait_for_function("() => document.querySelectorAll('#players li').length > 0")
    return page


TOTALS_JS = """() => Object.fromEntries([...document.querySelectorAll('#players li')]
    .map(li => [li.dataset.player, Number(li.querySelector('.total').textContent)]))"""


def totals_on(page: Any) -> dict[str, int]:
    found: dict[str, int] = page.evaluate(TOTALS_JS)
    return found


def wait_for_totals(page: Any, want: dict[str, int]) -> None:
    """Until the page shows ``want`` as the totals (it updates itself, without a reload)."""
    page.wait_for_function(
        "(want) => { const got = (" + TOTALS_JS + ")(); "
        "return Object.keys(want).every(k => got[k] === want[k]); }",
        arg=want,
    )


def no_sideways_scrolling(page: Any) -> bool:
    return bool(page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"))
