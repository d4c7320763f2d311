"""Issue 31 ("Phones that never lose a tap"), in Chromium against ``romme serve`` on
127.0.0.1: four seats at 360×740; the server is stopped (SIGTERM, and kill -9) or the
network cut by the browser for 30 s while two seats send their hands and one taps "I went
out"; a page is reloaded meanwhile; the server comes back on the same port. Every one of
those writes is applied exactly once, the pages say "angekommen" without a tap, and no
page ever shows a browser's error text (every page's text is scanned after every step).
The writes sent, queued, resent and applied are counted and printed."""

from __future__ import annotations

import signal
import socket
import time
from decimal import Decimal
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx
import pytest
from browser import browser, phone
from serving import HOST, Served, in_process, start_serve

from romme_score.rules import find_preset
from romme_score.sessions import SessionService

__all__ = ["browser"]  # the module-scoped fixture, used by name
PLAYERS = ["Anna", "Ben", "Carl", "Dora"]
# What a browser says of a request that failed, in any of its words: never on a page.
BROWSER_WORDS = (
    "Failed to fetch",
    "NetworkError",
    "Load failed",
    "TypeError",
    "ERR_",
    "net::",
    "can’t be reached",
    "can't be reached",
    "nicht erreichbar ist",
    "ist nicht erreichbar\n",
    "internal error",
    "Not found",
    "undefined",
    "[object",
)
WORKER_READY = """() => Promise.race([
    navigator.serviceWorker.ready.then((r) => Boolean(r.active)),
    new Promise((resolve) => setTimeout(() => resolve(false), 10000)),
])"""
QUEUED = "sobald der Server wieder da ist"
ARRIVED = "Angekommen"


@pytest.fixture
def db(isolated_data_dir: Path) -> Path:
    with SessionService(isolated_data_dir) as service:
        service.create("Freitag", PLAYERS, find_preset("standard"), Decimal("0.01"), "EUR")
    return isolated_data_dir


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


class Counts:
    """The writes the pages sent, by their idempotency key: tried (each request), failed."""

    def __init__(self) -> None:
        self.tries: dict[str, int] = {}
        self.failed: set[str] = set()

    def watch(self, context: Any) -> None:
        context.on("request", self._request)
        context.on("requestfailed", self._failed)

    def _request(self, request: Any) -> None:
        if request.method == "POST":
            key = request.headers.get("idempotency-key", "")
            assert key, f"a write without an idempotency key: {request.url}"
            self.tries[key] = self.tries.get(key, 0) + 1

    def _failed(self, request: Any) -> None:
        if request.method == "POST":
            self.failed.add(request.headers.get("idempotency-key", ""))

    def line(self, applied: int) -> str:
        resent = sum(n - 1 for n in self.tries.values())
        return f"writes sent {len(self.tries)}, queued {len(self.failed)}, resent {resent}, applied {applied}"


def scan(pages: dict[str, Any], step: str) -> None:
    """No page shows a browser's words, whatever happened (``step`` says when)."""
    for name, page in pages.items():
        text = page.evaluate("() => document.documentElement.innerText")
        for words in BROWSER_WORDS:
            assert words not in text, f"{name}'s page shows {words!r} after {step}: {text[:400]}"


def applied(db: Path) -> tuple[int, int, dict[str, Any]]:
    """(the session's version, the writes kept under a key, the round in progress)."""
    with SessionService(db, create=False) as service:
        info = service.session("Freitag")
        keys = service.store.query("SELECT COUNT(*) FROM write_keys WHERE session_id = ?", (info.id,))  # type: ignore[attr-defined]
        pending = service.pending(info)
        return service.version(info), int(keys[0][0]), {"winner": pending.winner, "hands": pending.hands}


@pytest.mark.parametrize("cut", ["SIGTERM", "SIGKILL", "offline"])
def test_writes_made_while_the_server_is_away_arrive_exactly_once_and_say_so_issue_31(
    browser: Any, db: Path, cut: str
) -> None:
    port = free_port()
    served: Served | None = start_serve(db, "--port", str(port))
    assert served is not None
    contexts = [phone(browser, locale="de-DE") for _ in PLAYERS]
    counts = Counts()
    try:
        pages: dict[str, Any] = {}
        for name, context in zip(PLAYERS, contexts, strict=True):
            counts.watch(context)
            page = context.new_page()
            page.goto(served.seats[name])
            page.wait_for_selector("#players li")
            # the service worker has kept the page (127.0.0.1 is a secure origin)
            assert page.evaluate(WORKER_READY), "no service worker keeps the page"
            pages[name] = page
        scan(pages, "opening")
        version, keys, _pending = applied(db)
        assert keys == 0

        if cut == "offline":
            for context in contexts:
                context.set_offline(True)
        else:
            served.stop(signal.SIGTERM if cut == "SIGTERM" else signal.SIGKILL)
        pages["Ben"].fill("#hand-text", "HK K10")
        pages["Ben"].click("#send-hand")
        pages["Carl"].fill("#hand-text", "12")
        pages["Carl"].click("#send-hand")
        pages["Anna"].click("#went-out")
        for name in ("Anna", "Ben", "Carl"):
            pages[name].wait_for_selector(f"#myhand-msg:has-text('{QUEUED}')")
        scan(pages, "the writes while the server is away")

        pages["Carl"].reload()  # the page again, from the phone (the service worker's copy)
        pages["Carl"].wait_for_selector("#players li")
        pages["Carl"].wait_for_selector(f"#myhand-msg:has-text('{QUEUED}')")
        if cut != "offline":  # the server is away: the last state, marked as such
            pages["Carl"].wait_for_selector("#trouble:has-text('Stand von')")
        scan(pages, "a reload while the server is away")

        if cut == "offline":
            time.sleep(30)
            scan(pages, "30 s without a network")
            for context in contexts:
                context.set_offline(False)
        else:
            time.sleep(2)
            again = start_serve(db, "--port", str(port))
            assert again.seats == served.seats  # the same links: the phones stay connected
            served = again
        for name in ("Anna", "Ben", "Carl"):
            pages[name].wait_for_selector(f"#myhand-msg:has-text('{ARRIVED}')", timeout=40_000)
        scan(pages, "the server back")
        for name, page in pages.items():  # every page follows: the round as the server holds it
            page.wait_for_selector("#pending-hands li[data-player='Anna'].out")
            page.wait_for_selector("#pending-hands li[data-player='Ben'].in")
            page.wait_for_selector("#pending-hands li[data-player='Carl'].in")
            assert page.is_hidden("#trouble") and page.is_hidden("#offline"), name
        pages["Dora"].wait_for_selector(
            "#myhand-status:has-text('Anna hat ausgemacht: deine Restkarten, bitte')"
        )
        scan(pages, "catching up")

        now, keys, pending = applied(db)
        assert pending["winner"] == "Anna"
        assert pending["hands"]["Ben"].cards is not None and pending["hands"]["Carl"].typed_points == 12
        assert now - version == 3 and keys == 3  # each of the three writes applied once
        assert (
            httpx.get(served.board + "/state.json", timeout=10).json()["pending"]["hands"]["Carl"]["points"]
            == 12
        )
        print(f"\n{cut}: {counts.line(keys)}")
        assert len(counts.tries) == 3 and len(counts.failed) == 3
    finally:
        for context in contexts:
            context.close()
        if served is not None and served.process is not None and served.process.poll() is None:
            served.stop()


def test_the_manifest_and_the_service_worker_are_each_links_own_issue_31(db: Path) -> None:
    """The manifest's scope and start are the link's own path; the service worker may take
    that scope (``Service-Worker-Allowed``) and is never kept stale by the browser."""
    with in_process(db) as (served, _server):
        for url in (served.seats["Ben"], served.scorekeeper, served.board):
            path = urlparse(url).path
            manifest = httpx.get(url + "/manifest.webmanifest", timeout=10)
            assert manifest.headers["content-type"].startswith("application/manifest+json")
            data = manifest.json()
            assert data["scope"] == data["start_url"] == path and data["icons"][0]["src"].startswith(
                path + "/"
            )
            worker = httpx.get(url + "/static/sw.js", timeout=10)
            assert worker.status_code == 200 and worker.headers["service-worker-allowed"] == "/"
            assert worker.headers["cache-control"] == "no-cache"
            assert "worker-src 'self'" in worker.headers["content-security-policy"]


def test_a_reload_while_the_server_is_away_shows_each_links_own_page_issue_31(browser: Any, db: Path) -> None:
    """Two seats in one browser (one phone, two links): each reload, the server away,
    shows that link's page and state, never the other's."""
    served = start_serve(db)
    context = phone(browser, locale="de-DE")
    try:
        pages = {}
        for name in ("Ben", "Carl"):
            page = context.new_page()
            page.goto(served.seats[name])
            page.wait_for_selector("#players li")
            assert page.evaluate(WORKER_READY)
            pages[name] = page
        served.stop(signal.SIGKILL)
        for name, page in pages.items():
            page.reload()
            page.wait_for_selector("#players li")
            assert page.evaluate("() => document.body.dataset.player") == name
            page.wait_for_selector("#trouble:has-text('Stand von')")
            assert name in page.inner_text("#distance") and name in page.title()
        scan(pages, "reloads while the server is away")
    finally:
        context.close()
        if served.process is not None and served.process.poll() is None:
            served.stop()
