"""The table mode and the phones (issue 30 item 7), ``romme play`` beside ``romme serve``
in a real pseudo-terminal: a hand a phone sends is shown as one line ("Dora (phone):
♦7 ♦8 = 15"), at the prompt and inside the round being typed, never as the whole
standings redrawn under "'Friday' was changed in another window"; the sentence after a
phone changed the round wraps at spaces (the harness of tests/test_play_terminal.py, the
screen wider than the window, so that a line the program did not wrap is caught)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from serving import Served, in_process
from test_play_terminal import points
from test_play_terminal_evening import Evening, make_session

CHANGED = {"en": "was changed in another window", "de": "wurde in einem anderen Fenster geändert"}
PHONE = {"en": "phone", "de": "Handy"}
PANEL_TOTAL = {"en": "total", "de": "Summe"}


@pytest.fixture
def friday(isolated_data_dir: Path) -> Path:
    make_session(isolated_data_dir, "Friday", ["Anna", "Ben", "Carl", "Dora"])
    return isolated_data_dir


@pytest.fixture
def phones(friday: Path) -> Iterator[Served]:
    with in_process(friday) as (served, _server):
        yield served


def post(url: str, body: dict[str, object]) -> None:
    with httpx.Client(timeout=10) as http:
        assert http.post(url, json=body).status_code == 200


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_phones_hand_at_the_prompt_is_one_line_not_the_standings_redrawn_issue30_item7(
    friday: Path, phones: Served, lang: str
) -> None:
    term = Evening(["play"], friday, lang, 80)
    try:
        term.wait_for(term.prompt(1))
        post(phones.seats["Anna"] + "/out", {})  # the round begins on the phones
        term.wait_for({"en": "Anna went out.", "de": "Anna hat ausgemacht."}[lang])
        post(phones.seats["Ben"] + "/hand", {"cards": "HK K10 J"})
        term.wait_for(f"Ben ({PHONE[lang]}): ♥K ♦10 J = 40")
        post(phones.seats["Dora"] + "/hand", {"cards": "K7 K8"})
        term.wait_for(f"Dora ({PHONE[lang]}): ♦7 ♦8 = 15")
        assert CHANGED[lang] not in term.text
        assert term.flat.count(f" {PANEL_TOTAL[lang]} ") == 1  # the standings drawn once, at the start
        term.assert_fits()
        term.leave()
    finally:
        if term.child.isalive():
            term.child.terminate(force=True)


def test_a_phones_hand_while_a_round_is_typed_joins_it_in_one_line_issue30_item7(
    friday: Path, phones: Served
) -> None:
    term = Evening(["play"], friday, "de", 80)
    try:
        term.wait_for(term.prompt(1))
        term.type("anna\r", "2 Ben>")  # Anna went out; the window asks Ben's hand
        post(phones.seats["Dora"] + "/hand", {"cards": "K7 K8"})
        term.wait_for("Dora (Handy): ♦7 ♦8 = 15")  # shown while Ben's hand is asked
        assert CHANGED["de"] not in term.text
        term.type("HK K10 J\r", "3 Carl>")
        term.type("5\r", term.says("enter"))  # Dora's hand is not asked: the phone sent it
        assert "4 Dora>" not in term.text
        term.type("\r", term.prompt(2))
        term.assert_fits()
        term.leave()
    finally:
        if term.child.isalive():
            term.child.terminate(force=True)
    assert points(friday) == [{"Anna": 0, "Ben": 40, "Carl": 5, "Dora": 15}]


def test_the_sentence_after_a_phone_changed_the_round_wraps_at_spaces_issue30_item7(
    friday: Path, phones: Served
) -> None:
    post(phones.scorekeeper + "/pending", {"winner": "Dora", "hands": {"Anna": 1, "Ben": 2}})
    post(phones.seats["Carl"] + "/hand", {"points": 3})
    term = Evening(["play"], friday, "de", 80)
    try:
        term.wait_for(term.prompt(1))
        term.type("phones\r", term.says("enter"))
        term.type(" ")  # something typed: the prompt waits for Enter, not for the phones
        post(phones.seats["Carl"] + "/hand", {"points": 30})  # Carl corrects his hand meanwhile
        time.sleep(1.2)  # more than two polls
        term.type("\r", "Ein Handy hat die Runde inzwischen geändert")
        term.wait_for(term.says("enter"), count=2)
        term.assert_fits()  # "... Enter speichert." wrapped at a space, not by the terminal
        term.type("\r", term.prompt(2))
        term.leave()
    finally:
        if term.child.isalive():
            term.child.terminate(force=True)
    assert points(friday) == [{"Anna": 1, "Ben": 2, "Carl": 30, "Dora": 0}]
