"""Issue 19's "done means": a table of four plays six rounds with three phones (browser
contexts) and ``romme play`` on one database, beside ``romme serve``: two rounds entered
entirely from the phones, one in ``romme play`` while the phones watch, a Hand-Rommé
declared from a phone, a hand corrected by the scorekeeper, a round from ``romme round``
in a terminal, an undo, a round the phones sent and ``romme play`` saved. After every
step every view agrees with ``romme standings --json``: each phone's page, ``state.json``
and the panel of ``romme play``."""

from __future__ import annotations

import json
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser import browser, open_page, phone, wait_for_totals
from clirun import ok
from serving import Served, start_serve
from test_play_terminal import Terminal

from romme_score.rules import find_preset
from romme_score.sessions import SessionService

__all__ = ["browser"]  # the module-scoped fixture, used by name
PLAYERS = ["Anna", "Ben", "Carl", "Dora"]


@pytest.fixture
def db(isolated_data_dir: Path) -> Path:
    with SessionService(isolated_data_dir) as service:
        service.create("Friday", PLAYERS, find_preset("standard"), Decimal("0.01"), "EUR")
    return isolated_data_dir


def panel_totals(table: Terminal) -> list[int] | None:
    """The totals of the last standings panel ``romme play`` drew."""
    lines = [line for line in table.text.splitlines() if line.startswith("total ")]
    if not lines:
        return None
    try:
        return [int(x) for x in lines[-1].split()[1:]]
    except ValueError:
        return None


class Table:
    """The phones, the window and the server of one evening."""

    def __init__(self, served: Served, pages: dict[str, Any], terminal: Terminal, http: httpx.Client) -> None:
        self.served = served
        self.pages = pages
        self.terminal = terminal
        self.http = http

    @property
    def keeper(self) -> Any:
        return self.pages["keeper"]

    def agree(self, rounds: int) -> dict[str, int]:
        """Every view shows what ``romme standings --json`` says."""
        standings = json.loads(ok("standings", "--json"))
        want = {p["name"]: p["total"] for p in standings["players"]}
        assert len(standings["rounds"]) == rounds
        for page in self.pages.values():
            wait_for_totals(page, want)
        state = self.http.get(self.served.board + "/state.json").json()
        assert {k: state[k] for k in standings} == standings
        end = time.monotonic() + 15
        while panel_totals(self.terminal) != [want[p] for p in PLAYERS]:
            assert time.monotonic() < end, f"romme play shows {panel_totals(self.terminal)}, not {want}"
            self.terminal.pump(0.1)
        return want

    def tap(self, who: str, cards: list[tuple[str, str]]) -> None:
        page = self.pages[who]
        for suit, rank in cards:
            page.click(f"#suits button[data-suit='{suit}']")
            page.click(f"#ranks button[data-rank='{rank}']")
        page.click("#send-hand")
        page.wait_for_selector("#myhand-msg:not(.error):not(:empty)")

    def type_hand(self, who: str, text: str) -> None:
        page = self.pages[who]
        page.fill("#hand-text", text)
        page.click("#send-hand")
        page.wait_for_function(
            "() => !document.querySelector('#myhand-msg').classList.contains('error')"
            " && document.querySelector('#myhand-msg').textContent"
        )

    def went_out(self, who: str, hand_romme: bool = False) -> None:
        page = self.pages[who]
        page.set_checked("#hand-romme", hand_romme)
        page.click("#went-out")
        page.wait_for_selector("#went-out[aria-pressed='true']")

    def keeper_hand(self, player: str, text: str, points: int) -> None:
        row = f"#pending-hands li[data-player='{player}']"
        self.keeper.fill(f"{row} input", text)
        self.keeper.click(f"{row} .row-edit button")
        self.keeper.wait_for_function(
            "([row, points]) => document.querySelector(row + ' .what').textContent.startsWith(points + ' ')",
            arg=[row, points],
        )

    def save(self, number: int) -> None:
        self.keeper.wait_for_selector("#save:not([disabled])")
        self.keeper.click("#save")
        self.keeper.wait_for_selector(f"#keeper-msg:has-text('Round {number} saved.')")
        self.keeper.wait_for_selector("#save[disabled]")


def test_six_rounds_with_three_phones_and_romme_play_on_one_database(browser: Any, db: Path) -> None:
    served = start_serve(db)
    terminal = Terminal(["play"], db, cols=80, rows=44)
    anna_phone, ben_phone, carl_phone = phone(browser), phone(browser, "de-DE"), phone(browser)
    try:
        terminal.wait_for("Friday · round 1>")
        pages = {
            "Anna": open_page(anna_phone, served.seats["Anna"]),
            "keeper": open_page(anna_phone, served.scorekeeper),  # Anna keeps the score, on her phone
            "Ben": open_page(ben_phone, served.seats["Ben"]),
            "Carl": open_page(carl_phone, served.seats["Carl"]),
        }
        with httpx.Client(timeout=10) as http:
            table = Table(served, pages, terminal, http)

            # 1. entirely from the phones (Dora has none: the scorekeeper enters hers)
            table.went_out("Anna")
            table.tap("Ben", [("H", "K"), ("K", "10")])  # ♥K ♦10: 20
            table.type_hand("Carl", "P3 P4 P5")  # 12
            table.keeper_hand("Dora", "7", 7)
            terminal.wait_for("From the phones: Anna went out.")  # romme play sees them arrive
            table.save(1)
            assert table.agree(1) == {"Anna": 0, "Ben": 20, "Carl": 12, "Dora": 7}

            # 2. entirely from the phones, Ben declaring a Hand-Rommé on his (German) phone
            assert "Meine Karten" in pages["Ben"].inner_text("#myhand h2")
            table.went_out("Ben", hand_romme=True)
            table.type_hand("Anna", "TA T2")  # 13, doubled
            table.tap("Carl", [("T", "9")])  # ♣9: 9, doubled
            table.keeper_hand("Dora", "0", 0)
            table.save(2)
            assert table.agree(2) == {"Anna": 26, "Ben": 0, "Carl": 30, "Dora": 7}

            # 3. typed in romme play while the phones watch
            terminal.type("c\r", "4 Dora>")  # Carl went out; hands from his left
            terminal.type("5\r", "1 Anna>")
            terminal.type("6\r", "2 Ben>")
            terminal.type("HK\r", "Enter saves>")
            terminal.type("\r", "Friday · round 4>")
            assert table.agree(3) == {"Anna": 32, "Ben": 10, "Carl": 20, "Dora": 12}

            # 4. a hand corrected by the scorekeeper before saving
            table.keeper.click("#pending-hands li[data-player='Dora'] button.toggle")  # Dora went out
            table.type_hand("Anna", "12")
            table.type_hand("Ben", "HK KK")
            table.type_hand("Carl", "PA PK")  # Carl counted wrong: he holds only ♠K
            table.keeper_hand("Carl", "PK", 10)
            table.save(4)
            assert table.agree(4) == {"Anna": 44, "Ben": 30, "Carl": 30, "Dora": 2}

            # 5. romme round in a terminal, then undone by the scorekeeper
            ok("round", "--winner", "Anna", "Ben=3", "Carl=4", "Dora=5")
            table.agree(5)
            table.keeper.click("#undo")
            table.keeper.click("#undo")  # the second tap confirms
            table.keeper.wait_for_selector("#keeper-msg:has-text('Round 5 undone.')")
            assert table.agree(4) == {"Anna": 44, "Ben": 30, "Carl": 30, "Dora": 2}

            # 5 again: the phones send it, romme play takes it over and saves it
            table.went_out("Ben")
            table.type_hand("Anna", "HA")  # 11
            table.type_hand("Carl", "KD")  # 10
            terminal.wait_for("Carl (phone): ♦D = 10")  # each hand from a phone as one line
            terminal.type("phones\r", "4 Dora>")  # Dora tells the window
            terminal.type("8\r", "Enter saves>")
            terminal.type("\r")
            terminal.wait_for("Friday · round 6>", count=2)  # the first: round 5 of romme round
            assert table.agree(5) == {"Anna": 55, "Ben": 20, "Carl": 40, "Dora": 10}
            assert http.get(served.board + "/state.json").json()["pending"]["winner"] is None

            # 6. from the phones again
            table.went_out("Carl")
            table.type_hand("Anna", "0")
            table.tap("Ben", [("P", "2")])
            table.keeper_hand("Dora", "P9 P10", 19)
            table.save(6)
            final = table.agree(6)
            assert final == {"Anna": 55, "Ben": 22, "Carl": 30, "Dora": 29}

        standings = json.loads(ok("standings", "--json"))
        assert [c["round"] for c in standings["corrections"]] == [5]
        assert standings["rounds"][1]["hand_romme"] and standings["rounds"][1]["winner"] == "Ben"
        for name, page in pages.items():
            assert page.script_errors == [], name
        terminal.type("quit\r")
        assert terminal.close() == 0
    finally:
        for context in (anna_phone, ben_phone, carl_phone):
            context.close()
        if terminal.child.isalive():
            terminal.child.terminate(force=True)
        assert served.stop() == 0
