"""`python tools/screenshots.py`: the README's phone-sized screenshots of `romme serve`
(docs/serve-seat.png, docs/serve-board.png, docs/serve-scorekeeper.png), taken by
Debian's Chromium through Playwright at 360 px, of a demonstration evening in a
throw-away database, served on 127.0.0.1 only.

A development tool (needs the test and serve extras and /usr/bin/chromium).
"""

from __future__ import annotations

import json
from decimal import Decimal
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from romme_score.inputs import read_hand
from romme_score.rules import find_preset
from romme_score.scoring import Hand, RoundInput
from romme_score.sessions import SessionService

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PLAYERS = ["Anna", "Ben", "Carl", "Dora"]


def evening(db: Path) -> None:
    """Four rounds played, the fifth on its way: Anna out, Ben's and Carl's hands in."""
    with SessionService(db) as service:
        info = service.create("Freitag", PLAYERS, find_preset("standard"), Decimal("0.01"), "EUR")

        def cards(player: str, text: str) -> Hand:
            return read_hand(player, text)

        rounds = [
            RoundInput(
                "Anna",
                {"Ben": cards("Ben", "HK K10 J"), "Carl": Hand(points=12), "Dora": cards("Dora", "P3 P4")},
            ),
            RoundInput(
                "Ben",
                {"Anna": cards("Anna", "TA T2"), "Carl": Hand(points=0), "Dora": cards("Dora", "HD")},
                True,
            ),
            RoundInput(
                "Dora", {"Anna": Hand(points=23), "Ben": cards("Ben", "K7 K8"), "Carl": cards("Carl", "J PK")}
            ),
            RoundInput(
                "Carl",
                {"Anna": cards("Anna", "H9"), "Ben": Hand(points=31), "Dora": cards("Dora", "T5 T6 T7")},
            ),
        ]
        for rnd in rounds:
            service.record(info, rnd)
        service.declare_out(info, "Anna")
        service.set_hand(info, "Carl", Hand(points=14))


def main() -> None:
    DOCS.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        db = Path(scratch) / "demo.sqlite3"
        evening(db)
        command = [sys.executable, "-m", "romme_score", "serve", "--db", str(db), "--lang", "de"]
        server = subprocess.Popen(
            [*command, "--host", "127.0.0.1", "--port", "0", "--json"],
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "ROMME_LANG": "de"},
        )
        try:
            assert server.stdout is not None
            links = json.loads(server.stdout.readline())
            shoot(links)
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=15)


def shoot(links: dict[str, object]) -> None:
    seats = links["seats"]
    assert isinstance(seats, dict)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        context = browser.new_context(
            viewport={"width": 360, "height": 760}, device_scale_factor=2, locale="de-DE", has_touch=True
        )
        seat = context.new_page()
        seat.goto(seats["Ben"])
        seat.wait_for_selector("#players li")
        for suit, rank in (("H", "K"), ("K", "10")):
            seat.click(f"#suits button[data-suit='{suit}']")
            seat.click(f"#ranks button[data-rank='{rank}']")
        seat.click("#pick-joker")
        seat.wait_for_selector("#reading .sum")
        seat.screenshot(path=str(DOCS / "serve-seat.png"))
        board = context.new_page()
        board.goto(str(links["board"]))
        board.wait_for_selector("#chart-figure svg")
        board.screenshot(path=str(DOCS / "serve-board.png"), full_page=True)
        keeper = context.new_page()
        keeper.goto(str(links["scorekeeper"]))
        keeper.wait_for_selector("#pending-hands li")
        keeper.wait_for_timeout(300)
        keeper.screenshot(path=str(DOCS / "serve-scorekeeper.png"))
        browser.close()
    for name in ("serve-seat.png", "serve-board.png", "serve-scorekeeper.png"):
        print(DOCS / name, (DOCS / name).stat().st_size, "bytes")


if __name__ == "__main__":
    main()
