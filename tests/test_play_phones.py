"""``romme play`` beside ``romme serve`` on one database (issue 19 item 3): the window shows
the hands as they arrive from the phones and saves the round itself (``phones``); a hand
the phones changed meanwhile is shown again, never saved unseen."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from serving import Served, in_process
from test_play_terminal import Terminal, points

from romme_score.rules import find_preset
from romme_score.sessions import SessionService


@pytest.fixture
def friday(isolated_data_dir: Path) -> Path:
    with SessionService(isolated_data_dir) as service:
        service.create("Friday", ["Anna", "Ben", "Carl", "Dora"], find_preset("standard"), None, None)
    return isolated_data_dir


@pytest.fixture
def phones(friday: Path) -> Iterator[Served]:
    with in_process(friday) as (served, _server):
        yield served


def test_the_window_shows_the_phones_hands_and_saves_the_round(friday: Path, phones: Served) -> None:
    table = Terminal(["play"], friday, rows=40)
    try:
        table.wait_for("Friday · round 1>")
        with httpx.Client(timeout=10) as http:
            assert http.post(phones.seats["Anna"] + "/out", json={}).status_code == 200
            assert http.post(phones.seats["Ben"] + "/hand", json={"cards": "HK K10 J"}).status_code == 200
            assert http.post(phones.seats["Carl"] + "/hand", json={"points": 12}).status_code == 200
        table.wait_for("Ben: ♥K ♦10 J = 40")  # redrawn while the window waits at its prompt
        assert "From the phones: Anna went out." in table.text and "waiting for Dora" in table.text
        table.type("phones\r", "4 Dora>")  # the hand still missing is asked here
        table.type("P3 P4\r", "Enter saves>")
        assert "Round 1 of 'Friday': Anna went out" in table.text
        table.type("\r", "Friday · round 2>")
        assert points(friday) == [{"Anna": 0, "Ben": 40, "Carl": 12, "Dora": 7}]
        with httpx.Client(timeout=10) as http:
            state = http.get(phones.board + "/state.json").json()
        assert state["rounds_played"] == 1 and state["pending"]["hands"] == dict.fromkeys(
            state["pending"]["hands"]
        )
        table.type("phones\r", "No round has come from the phones.")
        table.type("quit\r")
        assert table.close() == 0
    finally:
        if table.child.isalive():
            table.child.terminate(force=True)


def test_a_hand_changed_on_a_phone_before_enter_is_shown_again(friday: Path, phones: Served) -> None:
    with httpx.Client(timeout=10) as http:
        http.post(phones.scorekeeper + "/pending", json={"winner": "Dora", "hands": {"Anna": 1, "Ben": 2}})
        http.post(phones.seats["Carl"] + "/hand", json={"points": 3})
    table = Terminal(["play"], friday, rows=40)
    try:
        table.wait_for("Friday · round 1>")
        table.type("phones\r", "Enter saves>")
        with httpx.Client(timeout=10) as http:  # Carl corrects his hand on his phone meanwhile
            assert http.post(phones.seats["Carl"] + "/hand", json={"points": 30}).status_code == 200
        # shown while the window waits at the summary (issue 30 item 7); the correction made
        # between a look and Enter: tests/test_play_phones_lines.py
        table.wait_for("Carl (phone): counted = 30")
        table.wait_for("Enter saves>", count=2)
        table.type("\r", "Friday · round 2>")
        assert points(friday) == [{"Anna": 1, "Ben": 2, "Carl": 30, "Dora": 0}]
        table.type("quit\r")
        assert table.close() == 0
    finally:
        if table.child.isalive():
            table.child.terminate(force=True)
