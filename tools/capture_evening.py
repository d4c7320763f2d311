"""`python tools/capture_evening.py --write` (or `make readme-evening`): a German evening of
12 rounds of four players typed into `romme play` in a pseudo-terminal of 80x24, and the
screens it ends with written into the block of docs/table-mode.md between the two markers
below (in its German section). Without `--write` it prints the block; `--check` exits 1
when that block is not what the table mode shows now.

The keys are sent as a person types them (pexpect), the screen is read through a VT100
emulator (pyte, which also answers the terminal's cursor-position requests), as in
tests/test_play_terminal.py; tests/test_readme_evening.py holds docs/table-mode.md to it and
checks the screens for English. A development tool (needs the test extra).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import pexpect
import pyte

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "docs" / "table-mode.md"
BEGIN = "<!-- tools/capture_evening.py: begin -->"
END = "<!-- tools/capture_evening.py: end -->"
COLS, ROWS = 80, 24

PLAYERS = ["Anna", "Ben", "Carl", "Dora"]
# Each round as typed: who went out (a seat number, first letters, or 0 for a stalemate),
# the other hands in the order the table mode asks for them (cards, or points counted by
# hand), and the keys typed at the summary before Enter saves (h: Hand-Rommé).
ROUNDS: list[tuple[str, list[str], list[str]]] = [
    ("1", ["HK K10", "P7 P8", "T2 T3"], []),
    ("b", ["12", "HA", "K5 K6 K7"], []),
    ("c", ["J", "8", "PD"], []),
    ("dora", ["HB HD", "T4", "0"], []),
    ("0", ["P9", "K2 K3", "14", "H5"], []),
    ("2", ["KB", "T10 TB", "6"], ["h"]),
    ("a", ["PA", "H8 H9", "3"], []),
    ("3", ["KK", "22", "T6 T7"], []),
    ("4", ["H4", "P3 P4 P5", "9"], []),
    ("b", ["TD", "K8", "H2 H3"], []),
    ("c", ["17", "PB", "J K9"], []),
    ("1", ["T5", "H6 H7", "KD"], []),
]


class Screen(pyte.Screen):
    """A pyte screen that answers the program's cursor-position requests."""

    def __init__(self, cols: int, rows: int, answer: Callable[[str], object]) -> None:
        super().__init__(cols, rows)
        self.answer = answer

    def write_process_input(self, data: str) -> None:
        self.answer(data)


class Terminal:
    """`romme` in a pseudo-terminal of COLS x ROWS, its screen kept by pyte."""

    def __init__(self, args: Sequence[str], db: Path) -> None:
        env = {**os.environ, "ROMME_DB": str(db), "TERM": "xterm", "LANG": "C.UTF-8", "ROMME_LANG": "de"}
        for name in ("PROMPT_TOOLKIT_NO_CPR", "COLUMNS", "LINES", "LC_ALL", "LC_MESSAGES", "LANGUAGE"):
            env.pop(name, None)
        self.child = pexpect.spawn(
            sys.executable, ["-m", "romme_score", *args], env=env, dimensions=(ROWS, COLS), encoding="utf-8"
        )
        self.screen = Screen(COLS, ROWS, self.child.send)
        self.stream = pyte.Stream(self.screen)

    @property
    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display).rstrip("\n")

    def settle(self, before: str | None = None, timeout: float = 30.0, quiet: float = 0.2) -> None:
        """Read until the program waits at a prompt (the cursor after '> '), has been quiet
        for ``quiet`` seconds and, given the screen ``before`` a line was sent, shows
        another one: a slow answer is waited for, never taken for the old prompt."""
        end = time.monotonic() + timeout
        last = time.monotonic()
        while True:
            try:
                data = self.child.read_nonblocking(65536, timeout=0.05)
            except pexpect.TIMEOUT:
                data = ""
            except pexpect.EOF:
                return
            if data:
                self.stream.feed(data)
                last = time.monotonic()
            line = self.screen.display[self.screen.cursor.y][: self.screen.cursor.x]
            waiting = line.endswith("> ") and (before is None or self.text != before)
            if waiting and time.monotonic() - last >= quiet:
                return
            if time.monotonic() > end:
                raise RuntimeError(f"the table mode did not come back to a prompt:\n{self.text}")

    def line(self, keys: str) -> None:
        """Type one answer and Enter, then wait for the next prompt."""
        before = self.text
        self.child.send(keys + "\r")
        self.settle(before)


def capture() -> list[str]:
    """The screens of the evening: the summary of round 12 before it is saved, the
    standings after it, and the settlement (``settle`` typed at the prompt)."""
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "abend.sqlite3"
        env = {**os.environ, "ROMME_DB": str(db), "ROMME_LANG": "de"}
        subprocess.run(
            [
                sys.executable,
                "-m",
                "romme_score",
                "new",
                "Freitag",
                *PLAYERS,
                "--rate",
                "0.01",
                "--currency",
                "EUR",
            ],
            env=env,
            check=True,
            capture_output=True,
        )
        term = Terminal(["play", "Freitag"], db)
        try:
            term.settle()
            screens = []
            for number, (winner, hands, keys) in enumerate(ROUNDS, 1):
                term.line(winner)
                for hand in hands:
                    term.line(hand)
                for key in keys:
                    term.line(key)
                if number == len(ROUNDS):
                    screens.append(term.text)
                term.line("")
            screens.append(term.text)
            term.line("settle")
            screens.append(term.text)
            term.child.send("\x04")  # Ctrl-D: leave the table mode
            term.child.expect(pexpect.EOF, timeout=15)
        finally:
            term.child.close(force=True)
    return screens


def block(screens: Sequence[str]) -> str:
    """The block of docs/table-mode.md: each screen in a fence of its own."""
    return "\n\n".join(f"```text\n{screen}\n```" for screen in screens)


def readme_block(readme: str) -> str:
    start = readme.index(BEGIN) + len(BEGIN)
    return readme[start : readme.index(END, start)].strip("\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write the screens into docs/table-mode.md")
    parser.add_argument("--check", action="store_true", help="exit 1 if docs/table-mode.md shows other screens")
    args = parser.parse_args(argv)
    new = block(capture())
    readme = README.read_text(encoding="utf-8")
    if args.check:
        same = readme_block(readme) == new
        print(
            "docs/table-mode.md shows the table mode as it is now"
            if same
            else "docs/table-mode.md is stale: make readme-evening"
        )
        return 0 if same else 1
    if args.write:
        start = readme.index(BEGIN) + len(BEGIN)
        README.write_text(
            readme[:start] + "\n" + new + "\n" + readme[readme.index(END, start) :], encoding="utf-8"
        )
        print(f"docs/table-mode.md: {len(ROUNDS)} rounds, {new.count('```text')} screens written")
        return 0
    print(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
