"""Issue 28 in a real browser: a page load fetches ``state.json`` once; after a change
the page fetches it once more, and the chart is asked again with the ETag the browser
has: the server answers 304, and only the headers travel."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser import browser, open_page, phone
from clirun import ok
from serving import Served, in_process

from romme_score.rules import find_preset
from romme_score.sessions import SessionService

__all__ = ["browser"]  # the module-scoped fixture, used by name
PLAYERS = ["Anna", "Ben", "Carl", "Dora"]
# What the page fetched, as the browser's resource timing lists it: a revalidated answer
# (304) carries its headers only, fewer bytes than the body the browser kept.
FETCHED = """(path) => performance.getEntriesByType('resource')
    .filter(e => new URL(e.name).pathname.endsWith('/' + path))
    .map(e => ({transfer: e.transferSize, body: e.decodedBodySize}))"""


@pytest.fixture
def served(isolated_data_dir: Path) -> Iterator[Served]:
    with SessionService(isolated_data_dir) as service:
        service.create("Friday", PLAYERS, find_preset("standard"), None, "EUR")
    ok("round", "--winner", "Anna", "Ben=HK K10 J", "Carl=12", "Dora=P3 P4")
    with in_process(isolated_data_dir) as (links, _server):
        yield links


def fetched(page: Any, path: str) -> list[dict[str, int]]:
    found: list[dict[str, int]] = page.evaluate(FETCHED, path)
    return found


def test_a_page_load_fetches_state_json_once_and_the_chart_is_asked_with_its_etag_issue28(
    browser: Any, served: Served
) -> None:
    context = phone(browser)
    try:
        page = open_page(context, served.board)
        page.wait_for_selector("#chart-figure svg")
        time.sleep(1.5)  # the event stream opened meanwhile, and nothing changed
        assert len(fetched(page, "state.json")) == 1
        assert len(fetched(page, "chart.svg")) == 1
        with httpx.Client(timeout=10) as http:
            assert http.post(served.seats["Ben"] + "/hand", json={"points": 12}).status_code == 200
        end = time.monotonic() + 10
        while len(fetched(page, "chart.svg")) < 2:
            assert time.monotonic() < end, "the chart was not asked again"
            time.sleep(0.05)
        assert len(fetched(page, "state.json")) == 2
        first, again = fetched(page, "chart.svg")
        assert first["transfer"] > first["body"] > 1000  # the picture came
        assert 0 < again["transfer"] < 1000 and again["body"] == first["body"]  # 304: kept
        assert page.script_errors == []
    finally:
        context.close()
