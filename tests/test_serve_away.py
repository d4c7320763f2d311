"""The phones' pages while the server is away and when it is back, in Chromium against
``romme serve``: a revoked link's copy is deleted from the phone, not shown offline
(issue 37 item 5); every sentence saying the server is away goes when it is back, over
plain HTTP as a phone on the Wi-Fi has it (issue 37 item 6); "not sent yet" has the
banner's colour (issue 38 item 15); a page open on a link revoked by ``--new-links`` says
so, stops asking and says which of its writes were not sent (issue 36 item 2)."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from browser import browser, chromium_or_skip, phone
from clirun import ok
from serving import HOST, Served, _first_line, in_process, start_serve, stop_process

from romme_score.rules import find_preset
from romme_score.sessions import SessionService

__all__ = ["browser"]  # the module-scoped fixture, used by name
PLAYERS = ["Anna", "Ben", "Carl", "Dora"]
LAN_HOST = "tisch.example"  # a name for 127.0.0.1: an insecure origin, as http://192.168... is
WORKER_READY = """() => Promise.race([
    navigator.serviceWorker.ready.then((r) => Boolean(r.active)),
    new Promise((resolve) => setTimeout(() => resolve(false), 10000)),
])"""
# What the phone keeps of a link: localStorage's boxes, the service worker's caches and registrations.
KEPT = """async () => ({
    boxes: Object.keys(localStorage).filter((k) => k.startsWith("romme-")),
    caches: (await caches.keys()).filter((k) => k.startsWith("romme-")),
    workers: (await navigator.serviceWorker.getRegistrations()).length,
})"""


@pytest.fixture
def db(isolated_data_dir: Path) -> Path:
    with SessionService(isolated_data_dir) as service:
        service.create("Friday", PLAYERS, find_preset("standard"), Decimal("0.01"), "EUR")
    return isolated_data_dir


@pytest.fixture(scope="module")
def lan_browser(browser: Any) -> Iterator[Any]:
    """Chromium that finds :data:`LAN_HOST` at 127.0.0.1: pages there are no secure context
    (no service worker, no ``crypto.randomUUID``), as on a phone over plain HTTP."""
    rules = f"--host-resolver-rules=MAP {LAN_HOST} {HOST}"
    launched = browser.browser_type.launch(
        executable_path=chromium_or_skip(), args=["--no-sandbox", "--disable-gpu", rules]
    )
    try:
        yield launched
    finally:
        launched.close()


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def pending_hands(db: Path) -> tuple[dict[str, Any], int]:
    """The round in progress's hands and the writes kept under a key."""
    with SessionService(db, create=False) as service:
        info = service.session("Friday")
        keys = service.store.query("SELECT COUNT(*) FROM write_keys WHERE session_id = ?", (info.id,))  # type: ignore[attr-defined]
        return dict(service.pending(info).hands), int(keys[0][0])


def nothing_kept(page: Any, timeout: float = 20.0) -> None:
    """Until the phone keeps nothing of any link (:data:`KEPT`)."""
    end = time.monotonic() + timeout
    kept = page.evaluate(KEPT)
    while kept != {"boxes": [], "caches": [], "workers": 0} and time.monotonic() < end:
        time.sleep(0.2)
        kept = page.evaluate(KEPT)
    assert kept == {"boxes": [], "caches": [], "workers": 0}, kept


def reloaded_text(page: Any) -> str:
    """The text of the page reloaded while the server is away: the browser's own error
    page where the phone has no copy of it."""
    try:
        page.reload()
    except Exception as exc:  # the browser's own page: the server cannot be reached
        assert "ERR_CONNECTION_REFUSED" in str(exc)
    for _attempt in range(50):
        try:
            page.wait_for_load_state()
            return str(page.evaluate("() => document.documentElement.innerText"))
        except Exception:  # the error page still arriving
            time.sleep(0.1)
    raise AssertionError("the reloaded page never settled")


def stop(served: Served | None) -> None:
    if served is not None and served.process is not None and served.process.poll() is None:
        served.stop()


def test_a_revoked_links_page_and_state_are_deleted_from_the_phone_issue_37_item_5(
    browser: Any, db: Path
) -> None:
    """Anna's seat on 127.0.0.1 (a secure origin: the service worker keeps the page), a hand
    sent while the server is away; ``romme serve --new-links``; the old link again: the
    wrong-link page, which says that the phone's copy and the unsent hand were deleted;
    the server stopped, a reload: the browser's own page, never Anna's seat of before."""
    port = free_port()
    served: Served | None = start_serve(db, "--port", str(port))
    assert served is not None
    old = served.seats["Anna"]
    context = phone(browser)
    try:
        page = context.new_page()
        page.goto(old)
        page.wait_for_selector("#players li")
        assert page.evaluate(WORKER_READY), "no service worker keeps the page"
        assert "Seat of Anna" in page.title()
        served.stop(signal.SIGTERM)
        page.fill("#hand-text", "TA TK")
        page.click("#send-hand")
        page.wait_for_selector("#myhand-msg:has-text('Not sent yet')")
        kept = page.evaluate(KEPT)
        assert kept["caches"] and kept["workers"] and len(kept["boxes"]) == 2  # the state and the hand
        page.close()  # the phone put away, the hand waiting in it

        served = start_serve(db, "--port", str(port), "--new-links")
        assert served.seats["Anna"] != old
        page = context.new_page()
        page.goto(old)
        page.wait_for_selector("h1:has-text('Link not found')")
        page.wait_for_selector("#forgot:has-text('This phone has deleted its copy of this link')")
        page.wait_for_selector("#forgot-writes:has-text('deleted what was not sent yet')")
        assert page.evaluate(KEPT) == {"boxes": [], "caches": [], "workers": 0}

        served.stop(signal.SIGTERM)
        served = None
        text = reloaded_text(page)
        assert "Anna" not in text and "Seat of" not in text and "state of" not in text, text[:300]
        assert pending_hands(db) == ({}, 0)  # the unsent hand never reached the new links
    finally:
        context.close()
        stop(served)


def test_a_page_left_open_at_a_revoked_link_deletes_its_copy_too_issue_37_item_5(
    browser: Any, db: Path
) -> None:
    """Anna's seat left open (no reload) through ``romme serve --new-links``: its state is
    answered 404, the page says the link is no longer valid and the phone keeps nothing of
    it; the server stopped, a reload is not Anna's seat of before."""
    port = free_port()
    served: Served | None = start_serve(db, "--port", str(port))
    assert served is not None
    old = served.seats["Anna"]
    context = phone(browser)
    try:
        page = context.new_page()
        page.goto(old)
        page.wait_for_selector("#players li")
        assert page.evaluate(WORKER_READY), "no service worker keeps the page"
        served.stop(signal.SIGTERM)
        served = start_serve(db, "--port", str(port), "--new-links")
        page.wait_for_selector("#trouble:has-text('This link is wrong or no longer valid')", timeout=40_000)
        nothing_kept(page)
        served.stop(signal.SIGTERM)
        served = None
        text = reloaded_text(page)
        assert "Anna" not in text and "Seat of" not in text and "state of" not in text, text[:300]
    finally:
        context.close()
        stop(served)


def test_every_server_away_sentence_goes_when_it_is_back_issue_37_item_6(lan_browser: Any, db: Path) -> None:
    """Over plain HTTP: the server stopped (SIGTERM), ``TA TK`` typed on a seat and "Send my
    hand" tapped, the server started again on the same port: the hand arrives once, and 5 s
    later no sentence on the page says that the server cannot be reached (the reading of
    the typed hand is asked again as soon as the server is back)."""
    port = free_port()
    served: Served | None = start_serve(db, "--port", str(port), "--allow-host", LAN_HOST)
    assert served is not None
    context = phone(lan_browser)
    try:
        page = context.new_page()
        page.goto(served.seats["Anna"].replace(HOST, LAN_HOST))
        page.wait_for_selector("#players li")
        assert page.evaluate("() => window.isSecureContext") is False
        served.stop(signal.SIGTERM)
        page.fill("#hand-text", "TA TK")
        page.click("#send-hand")
        page.wait_for_selector("#myhand-msg:has-text('Not sent yet')")
        page.wait_for_selector("#reading:has-text('The server cannot be reached. Trying again')")
        time.sleep(1)

        served = start_serve(db, "--port", str(port), "--allow-host", LAN_HOST)
        page.wait_for_selector("#myhand-msg:has-text('Arrived: my hand, 21 points.')", timeout=40_000)
        page.wait_for_timeout(5000)
        text = page.evaluate("() => document.documentElement.innerText")
        for words in ("cannot be reached", "not answering", "Not sent yet", "Trying again"):
            assert words not in text, f"{words!r} still on the page: {text[:500]}"
        assert page.is_hidden("#offline") and page.is_hidden("#trouble")
        assert "21" in page.inner_text("#reading")  # the reading, read again
        hands, keys = pending_hands(db)
        assert hands["Anna"].cards == "TA TK" and keys == 1  # arrived once
    finally:
        context.close()
        stop(served)


def test_the_waiting_message_has_the_banners_colour_issue_38_item_15(browser: Any, db: Path) -> None:
    """The network gone: "Noch nicht angekommen" under a hand sent meanwhile is in the
    colours of the banner above it ("waiting"), not green as an arrived hand."""
    with in_process(db) as (served, _server):
        context = phone(browser, locale="de-DE", service_workers="block")
        try:
            page = context.new_page()
            page.goto(served.seats["Ben"])
            page.wait_for_selector("#players li")
            context.set_offline(True)
            page.fill("#hand-text", "12")
            page.click("#send-hand")
            page.wait_for_selector("#myhand-msg:has-text('Noch nicht angekommen')")
            page.wait_for_selector("#offline", state="visible")
            colours = page.evaluate(
                """() => ['offline', 'myhand-msg'].map((id) => {
                    const style = getComputedStyle(document.getElementById(id));
                    return [style.color, style.backgroundColor];
                })"""
            )
            assert colours[0] == colours[1], colours
            context.set_offline(False)
            page.wait_for_function(
                "() => document.getElementById('myhand-msg').textContent.startsWith('Angekommen')",
                timeout=40_000,
            )
            arrived = page.evaluate("() => getComputedStyle(document.getElementById('myhand-msg')).color")
            assert arrived != colours[0][0]  # arrived: green again
        finally:
            context.close()


def start_all(db: Path, port: int, *args: str) -> tuple[subprocess.Popen[str], dict[str, Any]]:
    """``romme serve --all`` on ``port`` (known to pages open before a restart), reachable
    at :data:`LAN_HOST`: its process and the links' JSON it printed first."""
    command = [sys.executable, "-m", "romme_score", "serve", "--db", str(db), "--all", "--json"]
    command += ["--host", HOST, "--port", str(port), "--allow-host", LAN_HOST, *args]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        return proc, json.loads(_first_line(proc, 30))
    except BaseException:
        proc.kill()
        proc.wait()
        raise


def end(proc: subprocess.Popen[str] | None) -> None:
    if proc is not None:
        stop_process(proc)


def open_all(context: Any, opened: dict[str, tuple[str, str]], asked: dict[str, list[str]]) -> dict[str, Any]:
    """A page for each of ``opened`` (name: its link and what shows it ready), at the LAN
    host name, each request it makes kept in ``asked[name]``."""
    pages = {}
    for name, (url, ready) in opened.items():
        page = context.new_page()
        page.on("request", lambda request, name=name: asked[name].append(request.url))
        page.goto(on_lan(url))
        page.wait_for_selector(ready)
        pages[name] = page
    return pages


def on_lan(url: str) -> str:
    return url.replace(HOST, LAN_HOST)


LINK_GONE = "This link is wrong or no longer valid"
NOT_SENT = "Not sent: this link is no longer valid"


# The pages of one phone (one address: the server slows down an address that asks many
# wrong links, guard.Throttle, so a phone holds a few of them)
PHONES = [("board", "seat", "scorekeeper"), ("tournament", "organizer")]


@pytest.mark.parametrize("held", PHONES, ids=["-".join(p) for p in PHONES])
def test_pages_open_on_links_revoked_by_new_links_say_so_and_stop_asking_issue_36_item_2(
    lan_browser: Any, db: Path, held: tuple[str, ...]
) -> None:
    """Over plain HTTP, a session's board, a seat and the scorekeeper (or a tournament's
    board and the organiser's page) open at ``romme serve --all``; the server stopped and
    started again on the same port with ``--new-links``: within 10 s each page says that
    its link is no longer valid, the banner saying the server cannot be reached is hidden
    and stays hidden, and over the next 8 s no page asks the server anything (no retry,
    no event stream)."""
    ok("tournament", "new", "Cup", *PLAYERS, "--games", "1", "--series", "1", "--seed", "7")
    ok("tournament", "draw")
    port = free_port()
    proc: subprocess.Popen[str] | None
    proc, night = start_all(db, port)
    friday = next(g for g in night["games"] if g["name"] == "Friday")
    every = {
        "board": (friday["board"], "#players li"),
        "seat": (friday["seats"]["Anna"], "#players li"),
        "scorekeeper": (friday["scorekeeper"], "#players li"),
        "tournament": (night["tournaments"][0]["board"], "#table-list li"),
        "organizer": (night["organizer"], "#game-list li"),
    }
    opened = {name: every[name] for name in held}
    context = phone(lan_browser)
    asked: dict[str, list[str]] = {name: [] for name in opened}
    try:
        pages = open_all(context, opened, asked)
        end(proc)
        for page in pages.values():
            page.wait_for_selector("#offline", state="visible")  # the server away: said so
        proc, renewed = start_all(db, port, "--new-links")
        assert renewed["organizer"] != night["organizer"]
        began = time.monotonic()
        for name, page in pages.items():
            try:
                page.wait_for_selector(f"#trouble:has-text('{LINK_GONE}')", timeout=10_000)
            except Exception as exc:  # which page, and what it says instead
                shown = page.evaluate("() => document.querySelector('header').innerText")
                raise AssertionError(f"{name}: {shown}") from exc
            assert time.monotonic() - began < 10.0, name
        page.wait_for_timeout(500)  # what the last of them asked is answered
        counted = {name: len(urls) for name, urls in asked.items()}
        for _tick in range(8):
            page.wait_for_timeout(1000)
            for name, each in pages.items():
                assert each.is_hidden("#offline"), f"{name}: 'cannot be reached' shown again"
                assert LINK_GONE in each.inner_text("#trouble"), name
        after = {name: asked[name][counted[name] :] for name in asked}
        assert after == {name: [] for name in asked}, after
        for name, each in pages.items():
            text = each.evaluate("() => document.documentElement.innerText")
            assert "cannot be reached" not in text and "Trying again" not in text, (name, text[:300])
        assert page.evaluate(KEPT_HERE) == []  # the phone keeps nothing of the links
    finally:
        context.close()
        end(proc)


KEPT_HERE = "() => Object.keys(localStorage).filter((k) => k.startsWith('romme-'))"


def test_a_hand_waiting_on_a_revoked_link_is_said_not_sent_issue_36_item_2(
    lan_browser: Any, db: Path
) -> None:
    """Over plain HTTP, Anna's seat open; the server stopped, ``TA TK`` sent (it waits in
    the phone: "Not sent yet"); the server started again on the same port with
    ``--new-links``: the page says the hand was not sent (and the link no longer valid), no
    "Sending…" or "Not sent yet" remains, nothing reached the database and the phone keeps
    nothing of the link."""
    port = free_port()
    served: Served | None = start_serve(db, "--port", str(port), "--allow-host", LAN_HOST)
    assert served is not None
    context = phone(lan_browser)
    try:
        page = context.new_page()
        page.goto(on_lan(served.seats["Anna"]))
        page.wait_for_selector("#players li")
        served.stop(signal.SIGTERM)
        page.fill("#hand-text", "TA TK")
        page.click("#send-hand")
        page.wait_for_selector("#myhand-msg:has-text('Not sent yet')")
        served = start_serve(db, "--port", str(port), "--allow-host", LAN_HOST, "--new-links")
        page.wait_for_selector(f"#myhand-msg:has-text('{NOT_SENT}')", timeout=20_000)
        page.wait_for_selector(f"#trouble:has-text('{LINK_GONE}')", timeout=10_000)
        page.wait_for_timeout(3000)  # the outbox's next try would have come by now
        said = page.inner_text("#myhand-msg")
        assert said.startswith(NOT_SENT), said
        text = page.evaluate("() => document.documentElement.innerText")
        for words in ("Sending…", "Not sent yet", "cannot be reached"):
            assert words not in text, f"{words!r} still on the page: {text[:500]}"
        assert page.is_hidden("#offline")
        assert page.evaluate(KEPT_HERE) == []
        assert pending_hands(db) == ({}, 0)
    finally:
        context.close()
        stop(served)


# Counts each time the banner saying the server cannot be reached is shown, however briefly
# (each record's new value is the next one's old value; the last one's is the banner's now).
OFFLINE_SHOWN = """document.addEventListener("DOMContentLoaded", () => {
    const banner = document.getElementById("offline");
    window.offlineShown = 0;
    if (!banner) return;
    new MutationObserver((records) => {
        const changes = records.filter((r) => r.attributeName === "hidden");
        changes.forEach((record, i) => {
            const now = i + 1 < changes.length ? changes[i + 1].oldValue : banner.getAttribute("hidden");
            if (now === null) window.offlineShown += 1;
        });
    }).observe(banner, { attributes: true, attributeOldValue: true });
});"""


def test_pages_open_at_a_server_whose_links_another_renews_learn_it_issue_36_item_2(
    lan_browser: Any, db: Path
) -> None:
    """Over plain HTTP, a session's board, a seat, the scorekeeper and a tournament's board
    open at ``romme serve --all``; a second ``romme serve --all --new-links`` on another
    port while the first keeps running: the first server ends the streams of the links it
    no longer serves, so that each page says within 10 s that its link is no longer valid,
    never says that the server cannot be reached (it answers), and then asks nothing more."""
    ok("tournament", "new", "Cup", *PLAYERS, "--games", "1", "--series", "1", "--seed", "7")
    ok("tournament", "draw")
    first: subprocess.Popen[str] | None
    second: subprocess.Popen[str] | None = None
    first, night = start_all(db, free_port())
    friday = next(g for g in night["games"] if g["name"] == "Friday")
    opened = {
        "board": (friday["board"], "#players li"),
        "seat": (friday["seats"]["Anna"], "#players li"),
        "scorekeeper": (friday["scorekeeper"], "#players li"),
        "tournament": (night["tournaments"][0]["board"], "#table-list li"),
    }
    context = phone(lan_browser)
    context.add_init_script(OFFLINE_SHOWN)
    asked: dict[str, list[str]] = {name: [] for name in opened}
    try:
        pages = open_all(context, opened, asked)
        page = next(iter(pages.values()))
        page.wait_for_timeout(1000)  # every stream open
        second, renewed = start_all(db, free_port(), "--new-links")
        assert renewed["games"][0]["board"].rsplit("/", 1)[1] != friday["board"].rsplit("/", 1)[1]
        began = time.monotonic()
        for name, page in pages.items():
            try:
                page.wait_for_selector(f"#trouble:has-text('{LINK_GONE}')", timeout=10_000)
            except Exception as exc:  # which page, and what it says instead
                shown = page.evaluate("() => document.querySelector('header').innerText")
                raise AssertionError(f"{name}: {shown}") from exc
            assert time.monotonic() - began < 10.0, name
        page.wait_for_timeout(500)
        counted = {name: len(urls) for name, urls in asked.items()}
        page.wait_for_timeout(5000)
        after = {name: asked[name][counted[name] :] for name in asked}
        assert after == {name: [] for name in asked}, after
        for name, each in pages.items():
            assert each.evaluate("() => window.offlineShown") == 0, f"{name}: 'cannot be reached' shown"
            assert each.is_hidden("#offline"), name
    finally:
        context.close()
        end(second)
        end(first)


def test_pages_open_on_a_game_deleted_while_served_say_so_issue_36_item_2(lan_browser: Any, db: Path) -> None:
    """Over plain HTTP, Friday's board and Anna's seat open at ``romme serve --all``;
    ``romme sessions delete Friday`` while it runs: within 10 s both pages say that the
    link is no longer valid, never that the server cannot be reached, and ask nothing more."""
    ok("new", "Saturday", "Dora", "Emil")
    proc: subprocess.Popen[str] | None
    proc, night = start_all(db, free_port())
    friday = next(g for g in night["games"] if g["name"] == "Friday")
    context = phone(lan_browser)
    context.add_init_script(OFFLINE_SHOWN)
    asked: dict[str, list[str]] = {"board": [], "seat": []}
    try:
        opened = {"board": (friday["board"], "#players li"), "seat": (friday["seats"]["Anna"], "#players li")}
        pages = open_all(context, opened, asked)
        page = next(iter(pages.values()))
        page.wait_for_timeout(1000)  # every stream open
        ok("sessions", "delete", "Friday", "--yes")
        for page in pages.values():
            page.wait_for_selector(f"#trouble:has-text('{LINK_GONE}')", timeout=10_000)
        page.wait_for_timeout(500)
        counted = {name: len(urls) for name, urls in asked.items()}
        page.wait_for_timeout(5000)
        assert {name: asked[name][counted[name] :] for name in asked} == {"board": [], "seat": []}
        for name, each in pages.items():
            assert each.evaluate("() => window.offlineShown") == 0, f"{name}: 'cannot be reached' shown"
    finally:
        context.close()
        end(proc)
