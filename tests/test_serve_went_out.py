"""A seat that tapped "Ich habe ausgemacht" sends no hand (issue 38 item 14): the service
refuses one from its phone (409 ``out-no-hand``) while its claim stands, ``state.json``
says so (``pending.closed``), and the seat's page disables its card picker and "Senden",
saying why, until the scorekeeper saves the round or names another winner."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser import browser, phone
from serving import Served, in_process

from romme_score.rules import find_preset
from romme_score.sessions import SessionService

__all__ = ["browser"]  # the module-scoped fixture, used by name
PLAYERS = ["Anna", "Ben", "Carl", "Dora"]
CLOSED_DE = "Du hast ausgemacht: Von diesem Handy geht keine Hand mehr"
# the seat's controls of a hand, each disabled while its hand is closed (the ranks also
# before a suit is chosen)
OPEN = "#send-hand, #hand-text, #pick-joker, #pick-back, #pick-clear, #suits button"
DISABLED = "(selector) => [...document.querySelectorAll(selector)].map((node) => node.matches(':disabled'))"


@pytest.fixture
def served(isolated_data_dir: Path) -> Iterator[Served]:
    with SessionService(isolated_data_dir) as service:
        service.create("Friday", PLAYERS, find_preset("standard"), Decimal("0.01"), "EUR")
    with in_process(isolated_data_dir) as (links, _server):
        yield links


def test_the_seat_that_went_out_sends_no_hand_till_the_scorekeeper_changes_it_issue_38_item_14(
    served: Served,
) -> None:
    anna = served.seats["Anna"]
    with httpx.Client(timeout=10) as http:
        assert http.post(anna + "/out", json={"hand_romme": False}).status_code == 200
        state = http.get(anna + "/state.json").json()
        assert state["pending"]["closed"] == ["Anna"] and state["pending"]["winner"] == "Anna"
        refused = http.post(anna + "/hand", json={"cards": "TA TK"})
        assert refused.status_code == 409, refused.text
        body = refused.json()
        assert body["code"] == "out-no-hand"
        assert body["error"].startswith(
            "Anna went out: no hand is sent from their phone until the scorekeeper"
        )
        pending = http.get(served.board + "/state.json").json()["pending"]
        assert pending["winner"] == "Anna" and pending["hands"]["Anna"] is None  # nothing written

        assert http.post(served.scorekeeper + "/pending", json={"winner": "Ben"}).status_code == 200
        assert http.get(anna + "/state.json").json()["pending"]["closed"] == ["Ben"]
        taken = http.post(anna + "/hand", json={"cards": "TA TK"})
        assert taken.status_code == 200 and taken.json()["points"] == 21


def test_the_seat_that_went_out_has_its_picker_and_send_disabled_saying_why_issue_38_item_14(
    browser: Any, served: Served
) -> None:
    context = phone(browser, locale="de-DE", service_workers="block")
    try:
        page = context.new_page()
        page.goto(served.seats["Anna"])
        page.wait_for_selector("#players li")
        assert page.is_hidden("#hand-closed") and not any(page.evaluate(DISABLED, OPEN))
        page.click("#went-out")
        page.wait_for_selector(f"#hand-closed:has-text('{CLOSED_DE}')")
        assert all(page.evaluate(DISABLED, OPEN + ", #ranks button")), "a control of the hand is still active"
        assert "wer ausgemacht hat" in page.inner_text("#hand-closed")

        with httpx.Client(timeout=10) as http:  # the scorekeeper saves the round
            hands = {"Ben": 10, "Carl": 20, "Dora": 30}
            assert http.post(served.scorekeeper + "/pending", json={"hands": hands}).status_code == 200
            assert http.post(served.scorekeeper + "/save", json={}).status_code == 200
        page.wait_for_selector("#hand-closed", state="hidden")
        assert not any(page.evaluate(DISABLED, OPEN))
        page.fill("#hand-text", "TA TK")
        page.click("#send-hand")
        page.wait_for_function(
            "() => document.getElementById('myhand-msg').textContent.startsWith('Angekommen')"
        )
    finally:
        context.close()
