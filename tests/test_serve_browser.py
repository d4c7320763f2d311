"""The pages of ``romme serve`` in a real browser (issue 19 items 6 and 7): Debian's
Chromium driven by Playwright, phone-sized. A seat enters its hand by tapping, another
by typing, the scorekeeper saves, and the board in another browser context shows the new
totals without a reload; every page is not blank, fits 360 pixels in German and English,
and says so when the server is gone, catching up when it is back."""

from __future__ import annotations

import json
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser import browser, no_sideways_scrolling, open_page, phone, totals_on, wait_for_totals
from clirun import ok
from serving import Served, in_process, start_serve
from test_report import png_pixels

from romme_score.rules import GameEnd, find_preset
from romme_score.sessions import SessionService

__all__ = ["browser"]  # the module-scoped fixture, used by name
PLAYERS = ["Anna", "Ben", "Carl", "Dora"]


@pytest.fixture
def db(isolated_data_dir: Path) -> Path:
    with SessionService(isolated_data_dir) as service:
        service.create("Friday", PLAYERS, find_preset("standard"), Decimal("0.01"), "EUR")
    return isolated_data_dir


@pytest.fixture
def served(db: Path) -> Iterator[Served]:
    with in_process(db) as (links, _server):
        yield links


def standings_totals() -> dict[str, int]:
    data = json.loads(ok("standings", "--json"))
    return {p["name"]: p["total"] for p in data["players"]}


def tap_card(page: Any, suit: str, rank: str) -> None:
    page.click(f"#suits button[data-suit='{suit}']")
    page.click(f"#ranks button[data-rank='{rank}']")


def not_blank(png: bytes) -> None:
    not_blank_at(png, 360)


def not_blank_at(png: bytes, wanted: int) -> None:
    """A screenshot ``wanted`` pixels wide with some ink on it, in more than a colour or two."""
    width, height, rows = png_pixels(png)
    assert width == wanted
    bpp = len(rows[0]) // width
    pixels = [row[i : i + 3] for row in rows[::4] for i in range(0, len(row), bpp * 4)]
    ink = sum(1 for p in pixels if min(p) < 200)
    assert ink > 0.03 * len(pixels), f"only {ink} of {len(pixels)} sampled pixels are not white"
    assert len(set(pixels)) > 20  # more than a flat colour or two


def test_tapped_and_typed_hands_saved_by_the_scorekeeper_reach_the_board_without_a_reload(
    browser: Any, served: Served
) -> None:
    board_phone, ben_phone, carl_phone, keeper_phone = (phone(browser) for _ in range(4))
    try:
        board = open_page(board_phone, served.board)
        ben = open_page(ben_phone, served.seats["Ben"])
        carl = open_page(carl_phone, served.seats["Carl"])
        keeper = open_page(keeper_phone, served.scorekeeper)
        # Ben taps his cards: ♥K, ♦10, a joker; the referee reads each at once
        tap_card(ben, "H", "K")
        tap_card(ben, "K", "10")
        ben.click("#pick-joker")
        assert ben.input_value("#hand-text") == "HK K10 J"
        ben.wait_for_selector("#reading .sum:has-text('= 40')")
        chips = ben.evaluate(
            "() => [...document.querySelectorAll('#reading .chips li')]"
            ".map(li => [li.querySelector('b').textContent, Number(li.querySelector('small').textContent)])"
        )
        assert chips == [["♥K", 10], ["♦10", 10], ["J", 20]]
        ben.click("#send-hand")
        ben.wait_for_selector("#myhand-status:has-text('My hand is in: 40 points')")
        # Carl types his, with a typo first: the command line's sentence, nothing sent
        carl.fill("#hand-text", "PX")
        carl.wait_for_selector("#reading.error:has-text('X is not a rank')")
        carl.click(
            "#send-hand"
        )  # refused: said once, under the hand, without his own name (issue 31 item 13)
        carl.wait_for_function("() => document.querySelector('#myhand-msg').textContent === ''")
        assert carl.inner_text("main").count("cannot read card") == 1
        assert not carl.inner_text("#reading").startswith("Carl")
        carl.fill("#hand-text", "P3 P4 P5")
        carl.click("#send-hand")
        carl.wait_for_selector("#myhand-status:has-text('12 points')")
        # the scorekeeper: Anna went out, Dora (no phone) counted 7, save with one tap
        keeper.wait_for_selector("#pending-hands li[data-player='Ben'] .what:has-text('40')")
        keeper.click("#pending-hands li[data-player='Anna'] button.toggle")
        keeper.fill("#pending-hands li[data-player='Dora'] input", "7")
        keeper.click("#pending-hands li[data-player='Dora'] .row-edit button")
        keeper.wait_for_selector("#save:not([disabled])")
        board.wait_for_selector("#pending-line:has-text('All hands are in')")
        keeper.click("#save")
        keeper.wait_for_selector("#keeper-msg:has-text('Round 1 saved.')")
        want = {"Anna": 0, "Ben": 40, "Carl": 12, "Dora": 7}
        assert standings_totals() == want
        for page in (board, ben, carl, keeper):
            wait_for_totals(page, want)  # each page updates itself from the event stream
        board.wait_for_selector("#last-hands li[data-player='Ben'] .what:has-text('♥K ♦10 J')")
        board.wait_for_selector("#chart-figure svg polyline", state="attached")
        board.wait_for_selector("#transfers li")
        for name, page in (("board", board), ("seat", ben), ("scorekeeper", keeper)):
            not_blank(page.screenshot())
            assert no_sideways_scrolling(page), name
            assert page.script_errors == [], name
    finally:
        for context in (board_phone, ben_phone, carl_phone, keeper_phone):
            context.close()


@pytest.mark.parametrize("locale, words", [("de-DE", "Meine Karten"), ("en-GB", "My hand")])
def test_every_page_fits_a_phone_held_upright_in_both_languages(
    browser: Any, served: Served, locale: str, words: str
) -> None:
    ok("round", "--winner", "Anna", "Ben=HK K10 J", "Carl=12", "Dora=P3 P4")
    ok("round", "--winner", "Ben", "--hand-romme", "Anna=TA T2", "Carl=0", "Dora=HD")  # "0 *H-20"
    context = phone(browser, locale)
    try:
        for url in (served.board, served.scorekeeper, served.seats["Ben"]):
            page = open_page(context, url)
            page.wait_for_selector("#chart-figure svg")
            assert no_sideways_scrolling(page), url
            assert page.evaluate(  # the recent rounds of four players fit without scrolling
                "() => { const s = document.querySelector('#recent .scroll'); "
                "return s.scrollWidth <= s.clientWidth; }"
            ), url
            assert page.script_errors == []
            small = page.evaluate(
                "() => [...document.querySelectorAll('button')].filter(b => b.offsetParent !== null)"
                ".filter(b => b.getBoundingClientRect().height < 44).map(b => b.textContent)"
            )
            assert small == [], f"touch targets under 44 px: {small}"
        assert words in page.inner_text("#myhand h2")
    finally:
        context.close()


def test_the_referee_on_the_seat_page(browser: Any, served: Served) -> None:
    context = phone(browser)
    try:
        page = open_page(context, served.seats["Anna"])
        page.fill("#ref-text", "HK KK PK\nT9 T10 TB")
        page.click("#ref-check")
        page.wait_for_selector("#ref-out:has-text('Total: 59 points')")
        page.click("#ref-value")
        page.wait_for_selector("#ref-out:has-text('= 59 points')")
        page.fill("#ref-text", "P3 P4 P5 TB PB HB H9 K2")
        page.click("#ref-best")
        page.wait_for_selector("#ref-out:has-text('Least left in hand')")
    finally:
        context.close()


def test_names_are_shown_as_text_not_markup(browser: Any, isolated_data_dir: Path) -> None:
    with SessionService(isolated_data_dir) as service:
        service.create("Evil", ["<b>Bold</b>", "Ben"], find_preset("standard"), None, None)
    with in_process(isolated_data_dir) as (served, _server):
        context = phone(browser)
        try:
            page = open_page(context, served.seats["<b>Bold</b>"])
            assert page.inner_text("#players li[data-player='<b>Bold</b>'] .name") == "<b>Bold</b>"
            assert page.query_selector("#players b") is None
            assert "<b>Bold</b>" in page.title()
        finally:
            context.close()


def test_when_the_server_is_gone_the_page_says_so_and_catches_up_when_it_is_back(
    browser: Any, db: Path
) -> None:
    first = start_serve(db)
    port = first.origin.rsplit(":", 1)[1]
    context = phone(browser)
    second = None
    try:
        page = open_page(context, first.board)
        assert page.is_hidden("#offline")
        assert first.stop() == 0
        page.wait_for_selector("#offline", state="visible")
        ok("round", "--winner", "Anna", "Ben=5", "Carl=6", "Dora=7")  # while it is away
        second = start_serve(db, "--port", port)  # the same links after a restart
        assert second.board == first.board
        page.wait_for_selector("#offline", state="hidden")
        wait_for_totals(page, {"Anna": 0, "Ben": 5, "Carl": 6, "Dora": 7})
        # a phone that wakes (the page shown again) opens a new stream and reads the state
        ok("round", "--winner", "Ben", "Anna=1", "Carl=1", "Dora=1")
        page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
        wait_for_totals(page, standings_totals())
        assert totals_on(page) == standings_totals()
    finally:
        context.close()
        if second is not None:
            assert second.stop() == 0


# --- the pages' side of the service's rules (issue 27 item 5) ---------------------------------------


def test_points_above_150_are_asked_again_in_the_page_and_sent_again_with_confirm(
    browser: Any, served: Served
) -> None:
    seat_phone, keeper_phone = phone(browser), phone(browser)
    try:
        ben = open_page(seat_phone, served.seats["Ben"])
        ben.fill("#hand-text", "160")
        ben.click("#send-hand")
        ben.wait_for_selector("#confirm[open]")
        assert "160" in ben.inner_text("#confirm-question")  # the server's question, in the page's language
        ben.click("#confirm-no")  # no: nothing stored, the hand can be corrected
        ben.wait_for_selector("#confirm", state="hidden")
        assert current(served)["pending"]["hands"]["Ben"] is None
        ben.click("#send-hand")
        ben.wait_for_selector("#confirm[open]")
        ben.click("#confirm-yes")  # yes: the same body again, with "confirm": true
        ben.wait_for_selector("#myhand-status:has-text('My hand is in: 160 points')")
        keeper = open_page(keeper_phone, served.scorekeeper)
        keeper.fill("#pending-hands li[data-player='Dora'] input", "170")
        keeper.click("#pending-hands li[data-player='Dora'] .row-edit button")
        keeper.wait_for_selector("#confirm[open]")
        keeper.click("#confirm-yes")
        keeper.wait_for_selector("#pending-hands li[data-player='Dora'] .what:has-text('170')")
        assert current(served)["pending"]["hands"]["Dora"]["points"] == 170
        assert ben.script_errors == keeper.script_errors == []
    finally:
        seat_phone.close()
        keeper_phone.close()


def test_a_second_went_out_says_who_went_out_and_every_page_follows_the_scorekeepers_winner(
    browser: Any, served: Served
) -> None:
    contexts = [phone(browser) for _ in range(3)]
    try:
        anna, ben, keeper = (
            open_page(c, u)
            for c, u in zip(
                contexts, (served.seats["Anna"], served.seats["Ben"], served.scorekeeper), strict=True
            )
        )
        anna.click("#went-out")
        anna.wait_for_selector("#myhand-status:has-text('You went out.')")
        ben.wait_for_selector("#pending-hands li[data-player='Anna'].out")
        ben.click("#went-out")
        ben.wait_for_selector("#myhand-msg.error:has-text('Anna has already gone out')")
        assert ben.inner_text("#myhand-msg").count("Anna") == 1
        assert current(served)["pending"]["winner"] == "Anna"
        keeper.click("#pending-hands li[data-player='Ben'] button.toggle")  # the scorekeeper: it was Ben
        ben.wait_for_selector("#myhand-status:has-text('You went out.')")
        anna.wait_for_selector("#myhand-status:has-text('Ben went out')")
        assert anna.get_attribute("#went-out", "aria-pressed") == "false"
        assert "You went out" not in anna.inner_text("#myhand")
        anna.wait_for_selector("#pending-hands li[data-player='Ben'].out")
    finally:
        for context in contexts:
            context.close()


def test_impossible_points_show_the_servers_sentence_once(browser: Any, served: Served) -> None:
    context = phone(browser)
    try:
        ben = open_page(context, served.seats["Ben"])
        ben.fill("#hand-text", "300")
        ben.click("#send-hand")
        ben.wait_for_selector("#reading.error:not(:empty)")
        said = ben.inner_text("#reading")
        answer = httpx.post(served.seats["Ben"] + "/hand", json={"points": 300}, timeout=10)
        assert answer.status_code == 400
        assert answer.json()["code"] == "unreadable-hand" and answer.json()["problem"] == "too-many"
        assert said == answer.json()["error"].removeprefix("Ben=")  # as the server says it
        assert ben.inner_text("main").count(said) == 1  # once (issue 31 item 13)
        assert "Ben" not in said and current(served)["pending"]["hands"]["Ben"] is None
    finally:
        context.close()


def test_a_finished_game_shows_no_card_picker_and_no_send_on_the_seat_page(
    browser: Any, isolated_data_dir: Path
) -> None:
    rules = find_preset("standard").replace(game_end=GameEnd("rounds", 1))
    with SessionService(isolated_data_dir) as service:
        service.create("Short", ["Anna", "Ben"], rules, None, None)
    with in_process(isolated_data_dir) as (links, _server):
        context = phone(browser)
        try:
            anna = open_page(context, links.seats["Anna"])
            assert anna.is_visible("#picker") and anna.is_visible("#send-hand")
            ok("round", "--winner", "Ben", "Anna=HK")
            anna.wait_for_selector("#picker", state="hidden")
            assert anna.is_hidden("#send-hand") and anna.is_hidden("#went-out")
            assert "over" in anna.inner_text("#myhand-status")
            assert anna.script_errors == []
        finally:
            context.close()


def current(served: Served) -> dict[str, Any]:
    data: dict[str, Any] = httpx.get(served.board + "/state.json", timeout=10).json()
    return data


def test_a_hand_sent_while_the_server_is_away_waits_in_the_page_and_is_sent_again(
    browser: Any, served: Served
) -> None:
    context = phone(browser, service_workers="block")  # the route answers the hand
    try:
        ben = open_page(context, served.seats["Ben"])
        tries: list[int] = []

        def lost_twice(route: Any) -> None:  # the Wi-Fi drops the first two tries
            tries.append(1)
            route.abort() if len(tries) < 3 else route.continue_()

        ben.route("**/hand", lost_twice)
        ben.fill("#hand-text", "12")
        ben.click("#send-hand")
        ben.wait_for_selector("#myhand-msg:has-text('as soon as the server is back')")
        ben.wait_for_selector("#myhand-status:has-text('My hand is in: 12 points')")
        ben.wait_for_selector("#myhand-msg:has-text('Arrived: my hand, 12 points')")
        assert len(tries) == 3 and current(served)["pending"]["hands"]["Ben"]["points"] == 12
    finally:
        context.close()
