"""``romme play`` and the interactive ``romme round`` in a real pseudo-terminal (issue 9
item 9): keys are sent as a person types them, the screen is read through a VT100
emulator (pyte, which also answers the terminal's cursor-position requests), and the
database is checked afterwards."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pexpect
import pyte
import pytest

from romme_score.sessions import SessionService

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")

UP = "\x1b[A"
CTRL_C, CTRL_D, CTRL_U = "\x03", "\x04", "\x15"


class Screen(pyte.Screen):
    """A pyte screen that answers the program's cursor-position requests."""

    def __init__(self, cols: int, rows: int, answer: Callable[[str], object]) -> None:
        super().__init__(cols, rows)
        self.answer = answer

    def write_process_input(self, data: str) -> None:
        self.answer(data)


class Terminal:
    """A program in a pty of ``cols`` x ``rows``, its screen kept by pyte."""

    def __init__(
        self,
        args: list[str],
        db: Path,
        cols: int = 80,
        rows: int = 30,
        locale: dict[str, str] | None = None,
        encoding: str = "utf-8",
    ) -> None:
        env = {**os.environ, "ROMME_DB": str(db), "TERM": "xterm", "LANG": "C.UTF-8", **(locale or {})}
        env.pop("PROMPT_TOOLKIT_NO_CPR", None)
        for sized in ("COLUMNS", "LINES"):  # the pty's size, not what a test runner set
            env.pop(sized, None)
        self.child = pexpect.spawn(
            sys.executable, ["-m", "romme_score", *args], env=env, dimensions=(rows, cols), encoding=encoding
        )
        self.screen = Screen(cols, rows, self.child.send)
        self.stream = pyte.Stream(self.screen)
        self.keys = 0
        self.transcript = ""

    def pump(self, seconds: float = 0.05) -> None:
        end = time.monotonic() + seconds
        while True:
            try:
                data = self.child.read_nonblocking(65536, timeout=0.05)
            except pexpect.TIMEOUT:
                data = ""
            except pexpect.EOF:
                return
            self.transcript += data
            self.stream.feed(data)
            if not data and time.monotonic() >= end:
                return

    @property
    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def wait_for(self, needle: str, timeout: float = 15.0, count: int = 1) -> None:
        end = time.monotonic() + timeout
        while self.text.count(needle) < count:
            if time.monotonic() > end:
                raise AssertionError(f"{needle!r} not on the screen:\n{self.text}")
            self.pump(0.05)

    def type(self, keys: str, then: str | None = None) -> None:
        """Send keys (each character one keystroke) and wait until ``then`` shows."""
        self.child.send(keys)
        self.keys += len(keys)
        if then is not None:
            self.wait_for(then)

    def close(self) -> int:
        self.child.expect(pexpect.EOF, timeout=15)
        rest = self.child.before if isinstance(self.child.before, str) else ""
        self.transcript += rest
        self.stream.feed(rest)
        self.child.close()
        return int(self.child.exitstatus or 0)


@pytest.fixture
def friday(isolated_data_dir: Path) -> Path:
    with SessionService(isolated_data_dir) as service:
        service.create(
            "Friday",
            ["Anna", "Ben", "Carl", "Dora"],
            __import__("romme_score.rules").rules.find_preset("standard"),
            None,
            None,
        )
    return isolated_data_dir


@pytest.fixture
def table(friday: Path) -> Iterator[Terminal]:
    term = Terminal(["play"], friday)
    term.wait_for("Friday · round 1>")
    yield term
    if term.child.isalive():
        term.child.terminate(force=True)


def points(db: Path, session: str = "Friday") -> list[dict[str, int]]:
    with SessionService(db) as service:
        s = service.standings(service.session(session))
    return [dict(r.points) for r in s.rounds]


def test_a_round_of_three_two_card_hands_in_at_most_25_keystrokes(table: Terminal, friday: Path) -> None:
    table.type("1\r", "2 Ben>")  # Anna went out; hands from her left: Ben, Carl, Dora
    table.type("HK K10\r", "3 Carl>")
    table.type("P7 P8\r", "4 Dora>")
    table.type("T2 T3\r", "Enter saves>")
    assert "Round 1 of 'Friday': Anna went out" in table.text
    table.type("\r", "Friday · round 2>")
    assert table.keys <= 25, table.keys
    print(f"keystrokes for the round: {table.keys}")
    assert points(friday) == [{"Anna": 0, "Ben": 20, "Carl": 15, "Dora": 5}]
    # the standings are redrawn and stay in the toolbar
    assert "Anna 0 · Ben 20 · Carl 15 · Dora 5 │ Ben deals │ 480 to 500" in table.text
    assert "Round 1 of 'Friday' saved." in table.text


def test_typo_correction_of_an_earlier_hand_up_arrow_and_abbreviation(table: Terminal, friday: Path) -> None:
    table.type("b\r", "3 Carl>")  # Ben by his first letter
    table.type("HX K10\r", "X is not a rank")  # a typo: that hand only is asked again
    table.type(UP, "3 Carl> HX K10")  # asked again on an empty line; Up recalls the text
    table.wait_for("3 Carl> HX K10", count=2)
    table.type(CTRL_U + "HK K10\r", "4 Dora>")
    table.type(UP, "4 Dora> HK K10")  # Up recalls the last hand
    table.type(CTRL_U + "PA\r", "1 Anna>")
    table.type("7\r", "Enter saves>")
    table.type("3\r", "3 Carl had HK K10")  # correct Carl's hand by its number, on an empty line
    table.type(UP, "3 Carl> HK K10")  # Up recalls the hand it replaces
    table.type(CTRL_U + "P9\r")
    table.wait_for("Enter saves>", count=2)
    assert " 3 Carl  ♠9" in table.text
    table.type("\r", "round 2>")
    assert points(friday) == [{"Anna": 7, "Ben": 0, "Carl": 9, "Dora": 11}]


def test_tab_completes_a_winner_and_a_card(table: Terminal, friday: Path) -> None:
    table.type("Do\t", "round 1> Dora")
    table.type("\r", "1 Anna>")
    table.type("H\t", "HA")  # the cards of a suit offered
    assert "HK" in table.text
    table.type(CTRL_U + "HK\r", "2 Ben>")
    table.type("1\r2\r", "Enter saves>")
    table.type("\r", "round 2>")
    assert points(friday) == [{"Anna": 10, "Ben": 1, "Carl": 2, "Dora": 0}]


def test_ctrl_c_discards_only_the_round_being_typed(table: Terminal, friday: Path) -> None:
    table.type("a\r", "2 Ben>")
    table.type("HK K10\r", "3 Carl>")
    table.type("P2" + CTRL_C)  # the first Ctrl-C clears the line (issue 20 item 8) ...
    table.wait_for("Ctrl-C discards the round")
    table.type(CTRL_C, "Round 1 discarded: nothing was saved.")  # ... the second discards
    table.wait_for("Friday · round 1>")
    assert points(friday) == []
    table.type("a\r", "2 Ben>")
    table.type("5\r6\r", "4 Dora>")
    table.type("7\r", "Enter saves>")
    table.type("\r", "round 2>")
    table.type(CTRL_D)
    assert table.close() == 0
    assert "Bye." in table.transcript
    assert points(friday) == [{"Anna": 0, "Ben": 5, "Carl": 6, "Dora": 7}]


def test_commands_in_the_window_run_against_the_session(table: Terminal, friday: Path) -> None:
    table.type("a\r5\r6\r7\r", "Enter saves>")
    table.type("\r", "round 2>")
    table.type("edit 1 Ben=HK\r", "Round 1 corrected")
    table.wait_for("Anna 0 · Ben 10")
    table.type("value HA\r", "Total: 11 points")
    assert "rules of session 'Friday' (standard)" in table.text
    table.type('check "HK KK PK"\r', "legal set, 30 points")
    table.type("undo\r", "Remove round 1")
    table.type("y\r", "Round 1 removed")
    table.wait_for("Friday · round 1>")
    table.type("frobnicate\r", "unknown command or player 'frobnicate'")
    table.type(CTRL_C, "Friday · round 1>")
    table.type("quit\r")
    assert table.close() == 0
    assert points(friday) == []


def test_the_window_says_the_command_lines_sentence_for_a_player(table: Terminal, friday: Path) -> None:
    """The same mistake, the same sentence: a seat that is not there, typed in the window and
    given to ``romme round --winner`` (which puts the option's name in front)."""
    from click.testing import CliRunner

    from romme_score.cli import main

    said = CliRunner().invoke(main, ["round", "--winner", "7", "Anna=1", "Ben=2", "Carl=3"]).stderr
    assert said.startswith("Error: --winner: there is no seat 7")
    sentence = said.removeprefix("Error: --winner: ").strip()
    table.type("7\r", sentence)
    table.type(CTRL_C, "Friday · round 1>")
    table.type("quit\r")
    assert table.close() == 0 and points(friday) == []


def test_a_change_from_another_process_is_noticed_and_redrawn(table: Terminal, friday: Path) -> None:
    env = {**os.environ, "ROMME_DB": str(friday)}
    subprocess.run(
        [sys.executable, "-m", "romme_score", "round", "--winner", "Dora", "Anna=12", "Ben=0", "Carl=HK"],
        env=env,
        check=True,
        capture_output=True,
    )
    table.wait_for("was changed in another window")
    table.wait_for("Friday · round 2>")
    table.wait_for("Anna 12 · Ben 0 · Carl 10 · Dora 0")  # the toolbar may be drawn a moment later


def test_a_round_typed_while_another_process_saved_one_is_shown_again(table: Terminal, friday: Path) -> None:
    table.type("a\r5\r6\r", "4 Dora>")
    table.type("7\r", "Enter saves>")
    env = {**os.environ, "ROMME_DB": str(friday)}
    subprocess.run(
        [sys.executable, "-m", "romme_score", "round", "--winner", "Dora", "Anna=12", "Ben=0", "Carl=HK"],
        env=env,
        check=True,
        capture_output=True,
    )
    table.type("\r", "This is now round 2; Enter saves.")
    table.wait_for("Round 2 of 'Friday': Anna went out")
    assert points(friday) == [{"Anna": 12, "Ben": 0, "Carl": 10, "Dora": 0}]
    table.type("\r", "Friday · round 3>")
    assert points(friday)[1] == {"Anna": 0, "Ben": 5, "Carl": 6, "Dora": 7}


def test_interactive_round_is_the_same_entry(friday: Path) -> None:
    term = Terminal(["round"], friday)
    term.wait_for("Who went out? 1 Anna, 2 Ben, 3 Carl, 4 Dora")
    term.type("bne\r", "did you mean Ben?")
    term.type(CTRL_U + "be\r", "3 Carl>")
    term.type("J J\r", "4 Dora>")
    term.type("0\r", "1 Anna>")
    term.type("HA\r", "Enter saves>")
    term.type("h\r", "Ben went out with a Hand-Rommé")
    term.type("\r")
    assert term.close() == 0
    assert points(friday) == [{"Anna": 22, "Ben": 0, "Carl": 80, "Dora": 0}]


def test_six_players_at_60_columns(isolated_data_dir: Path) -> None:
    names = ["Annegret", "Bartholomäus", "Christiane", "Dorothea", "Emil", "Friedrich"]
    with SessionService(isolated_data_dir) as service:
        service.create(
            "Club", names, __import__("romme_score.rules").rules.find_preset("standard"), None, None
        )
    term = Terminal(["play"], isolated_data_dir, cols=60, rows=24)
    term.wait_for("Club · round 1>")
    term.type("e\r", "6 Friedrich>")
    for _ in range(5):
        term.type("5\r")
    term.wait_for("Enter saves>")
    term.type("\r", "Club · round 2>")
    assert "Annegret Barthol. Christi. Dorothea     Emil Friedri." in term.text
    term.type(CTRL_D)
    assert term.close() == 0


def test_twelve_rounds_at_a_table_of_four_without_leaving_the_window(table: Terminal, friday: Path) -> None:
    """Issue 9's 'done': 12 rounds with a Hand-Rommé, a stalemate, a typo, an undo and an
    edit, all in one ``romme play``."""

    def round_(n: int, winner: str, *hands: str, keys: str = "") -> None:
        table.type(winner + "\r")
        for hand in hands:
            table.type(hand + "\r")
        table.wait_for(f"round {n} · Enter saves>")
        for key in keys:
            table.type(key + "\r")
        table.type("\r", f"Round {n} of 'Friday' saved.")

    round_(1, "a", "HK K10", "P7 P8", "T2 T3")
    round_(2, "b", "J J", "5", "HA", keys="h")  # a Hand-Rommé
    table.type("0\r")  # 3: a stalemate
    for hand in ("3", "4", "HX 9"):
        table.type(hand + "\r")
    table.wait_for("X is not a rank")  # the typo, asked again
    table.type(CTRL_U + "H9\r8\r", "Enter saves>")
    table.type("\r", "round 4>")
    for n, winner in enumerate("cdabcdab", 4):
        round_(n, winner, "2", "3", "4")
    round_(12, "c", "5", "6", "7")  # then taken back
    table.type("undo\r", "Remove round 12")
    table.type("y\r", "Round 12 removed")
    table.type("edit 1\r", "Round 1 of 'Friday': Anna went out")  # correct round 1 ...
    table.type("2\r", "2 Ben had HK K10")  # ... Ben's hand, typed anew on an empty line
    table.type("HK\r", "Enter saves>")
    table.type("\r", "Round 1 of 'Friday' corrected")
    round_(12, "d", "1", "1", "1")
    table.wait_for("Friday · round 13>")
    print("\n" + table.text)
    with SessionService(friday) as service:
        s = service.standings(service.session("Friday"))
    assert s.rounds_played == 12
    assert s.rounds[1].hand_romme and s.rounds[1].points["Carl"] == 80  # J J = 40, doubled
    assert s.rounds[1].bonus["Ben"] == 10  # 002 i: 20 after a Hand-Rommé, but Ben had only 10
    # the stalemate: hands from the dealer's (Carl's) left, Ben's typo fixed to H9
    assert s.rounds[2].stalemate and s.rounds[2].points == {"Anna": 4, "Ben": 9, "Carl": 8, "Dora": 3}
    assert s.rounds[0].points["Ben"] == 10
    assert sorted(c.change for c in s.corrections) == ["edited", "undone"]
    assert f"Anna {s.totals['Anna']} · Ben {s.totals['Ben']}" in table.text


def test_a_finished_game_refuses_a_new_round_before_any_typing(isolated_data_dir: Path) -> None:
    from romme_score.rules import GameEnd, find_preset
    from romme_score.scoring import Hand, RoundInput

    with SessionService(isolated_data_dir) as service:
        info = service.create(
            "Quick",
            ["Anna", "Ben"],
            find_preset("standard").replace(game_end=GameEnd.parse("rounds:1")),
            None,
            None,
        )
        service.record(info, RoundInput("Anna", {"Ben": Hand(points=12)}))
    term = Terminal(["play"], isolated_data_dir)
    term.wait_for("Game over: Anna won with 0 points.")
    term.type("b\r", "No more rounds; 'settle' settles up.")
    term.wait_for("Quick · round 2>", count=2)
    term.type("quit\r")
    assert term.close() == 0


def test_a_kill_loses_at_most_the_round_being_typed(table: Terminal, friday: Path) -> None:
    import signal

    table.type("a\r5\r6\r7\r", "Enter saves>")
    table.type("\r", "round 2>")
    table.type("b\r1\r2\r", "round 2 · 1 Anna>")  # halfway through round 2
    table.child.kill(signal.SIGKILL)
    table.child.wait()
    assert points(friday) == [{"Anna": 0, "Ben": 5, "Carl": 6, "Dora": 7}]


def record_elsewhere(db: Path, winner: str, *hands: str, lang: str = "en") -> None:
    """``romme round`` in another terminal: another process on the same database."""
    env = {**os.environ, "ROMME_DB": str(db), "ROMME_LANG": lang}
    subprocess.run(
        [sys.executable, "-m", "romme_score", "round", "--winner", winner, *hands],
        env=env,
        check=True,
        capture_output=True,
    )


@pytest.mark.parametrize(
    ("lang", "command", "shown_again", "saved"),
    [
        ("en", "value HK", "This is now round 3", "Round 3 of 'Friday' saved."),
        ("en", "check 'HK KK PK'", "This is now round 3", "Round 3 of 'Friday' saved."),
        # wrapped at a space to the window since issue 30 item 7: "... Das ist jetzt Runde / 3; ..."
        ("de", "standings", "Das ist jetzt Runde", "Runde 3 von 'Friday' gespeichert."),
    ],
)
def test_two_windows_after_an_in_window_command_lose_no_round_issue_18(
    friday: Path, lang: str, command: str, shown_again: str, saved: str
) -> None:
    """The sequence that lost rounds: an in-window command (which opened the database a
    second time in the table's process), a round from another terminal, a round started
    in the window, another round from the other terminal, then Enter."""
    term = Terminal(["play", "--lang", lang], friday)
    try:
        term.wait_for("Friday · ")
        term.type(command + "\r")
        term.pump(0.5)
        record_elsewhere(friday, "Dora", "Anna=12", "Ben=0", "Carl=HK", lang=lang)
        term.wait_for("Friday · " + ("Runde" if lang == "de" else "round") + " 2>")
        term.type("a\r5\r6\r", "4 Dora>")
        record_elsewhere(friday, "Ben", "Anna=3", "Carl=4", "Dora=5", lang=lang)
        term.type("7\r")
        term.wait_for("Enter")
        term.type("\r", shown_again)
        term.type("\r", saved)
        term.wait_for("Friday · " + ("Runde" if lang == "de" else "round") + " 4>")
        assert points(friday)[2] == {"Anna": 0, "Ben": 5, "Carl": 6, "Dora": 7}
        assert len(points(friday)) == 3
        # the panel and the toolbar are right: the totals of the three rounds saved
        with SessionService(friday) as service:
            totals = service.standings(service.session("Friday")).totals
        # (the panel is drawn again a moment after the prompt: waited for, not read at once)
        term.wait_for(" · ".join(f"{p} {totals[p]}" for p in ("Anna", "Ben", "Carl", "Dora")))
        term.type(CTRL_D)
        assert term.close() == 0
    finally:
        if term.child.isalive():
            term.child.terminate(force=True)


def test_the_window_in_a_latin1_terminal_shows_what_latin1_can(
    isolated_data_dir: Path, built_locales: tuple[Path, dict[str, str | None]]
) -> None:
    """Issue 21 item 2: names that Latin-1 cannot hold stopped the table mode of a Latin-1
    terminal; they show with a '?' for the letter it cannot show, suits as letters, and
    a round is typed and saved as anywhere."""
    folder, problems = built_locales
    if problems["de_DE.ISO-8859-1"]:
        pytest.skip(str(problems["de_DE.ISO-8859-1"]))
    with SessionService(isolated_data_dir) as service:
        rules = __import__("romme_score.rules").rules.find_preset("standard")
        service.create("Freitag", ["Łukasz", "Zoë", "Ğül"], rules, None, "EUR")
    locale = {"LC_ALL": "de_DE.ISO-8859-1", "LOCPATH": str(folder), "ROMME_LANG": ""}
    term = Terminal(["play"], isolated_data_dir, locale=locale, encoding="latin-1")
    try:
        term.wait_for("Freitag · Runde 1>")
        assert "?ukasz" in term.text and "Zoë" in term.text
        term.type("1\r", "2 Zoë>")
        term.type("HK K10\r", "3 ?ül>")
        term.type("5\r", "Enter speichert>")
        assert "HK K10" in term.text and "♥" not in term.transcript
        term.type("\r", "Runde 2>")
        term.type("standings\r", "Summe")
        term.type("quit\r")
        assert term.close() == 0
    finally:
        if term.child.isalive():
            term.child.terminate(force=True)
    assert points(isolated_data_dir, "Freitag") == [{"Łukasz": 0, "Zoë": 20, "Ğül": 5}]
    assert "internal error" not in term.transcript and "interner Fehler" not in term.transcript


def test_the_window_follows_its_session_through_a_rename(table: Terminal, friday: Path) -> None:
    """Issue 21 item 9, in the window: a rename typed there, and one made from another
    terminal, and the rounds typed after them land in the session under its new name."""
    table.type("1\r5\r6\r7\r", "Enter saves>")
    table.type("\r", "Friday · round 2>")
    table.type('sessions rename Friday "Fri 28"\r', "Fri 28 · round 2>")
    table.type("2\r1\r2\r3\r", "Enter saves>")
    table.type("\r", "Fri 28 · round 3>")
    done = subprocess.run(
        [sys.executable, "-m", "romme_score", "sessions", "rename", "Fri 28", "Samstag"],
        env={**os.environ, "ROMME_DB": str(friday)},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    table.wait_for("Samstag · round 3>")
    table.type("3\r1\r1\r1\r", "Enter saves>")
    table.type("\r", "Samstag · round 4>")
    table.type("standings\r", "Session 'Samstag'")  # a command line runs against it too
    table.type("quit\r")
    assert table.close() == 0
    assert len(points(friday, "Samstag")) == 3
