"""Issue 20 in the table mode, ``romme play`` in a real pseudo-terminal: each item at 60
and 80 columns, in English and in German (the harness of tests/test_play_terminal.py).

The screen kept by pyte is 40 columns wider than the pty the program is told about: a
line the program prints wider than its window shows whole there, so that
:meth:`Evening.assert_fits` catches it (in the real terminal it would wrap, breaking a
word). What prompt_toolkit draws (the toolbar) it cuts at the window's width itself, so
the toolbar is checked for its last words instead."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pyte
import pytest
from test_play_terminal import CTRL_C, CTRL_D, CTRL_U, UP, Screen, Terminal, points

from romme_score.rules import find_preset
from romme_score.sessions import SessionService
from romme_score.views.width import width

SIZES = [("en", 60), ("en", 80), ("de", 60), ("de", 80)]
WIDER = 40

# What the program says, by language.
SAYS = {
    "en": {
        "round": "round",
        "enter": "Enter saves>",
        "removed": "Round 1 removed.",
        "not_removed": "round 1 was not removed",
        "choices": "[y/N]",
        "yes": "yes",
        "no_seat": "there is no seat 5",
        "either": "'an' could be Ann or Anna",
        "unknown": "unknown command or player 'setle'; did you mean settle?",
        "unknown_stats": "unknown command or player 'stats'",
        "typo_player": "'bne'; did you mean Ben?",
        "legal": "legal set, 30 points",
        "run": "legal run, 29 points",
        "written": "written to",
        "discarded": "Round 1 discarded: nothing was saved.",
        "clears": "Ctrl-C clears the line",
        "discards": "Ctrl-C discards the round",
        "winner_hint": "a name or its first letters",
        "summary_w": "w=winner",
        "error": "Error: ",
        "quote": "cannot read the line: a quotation mark",
        "too_many": "no hand holds more than 278 points",
        "unlikely": "Carl=160: more than 150 points in one hand",
        "no_game": "No game yet",
        "name_prompt": "Name of the game>",
        "players_prompt": "Players, in seating order>",
        "help_word": "counted by hand",
        "check_short": "a meld needs at least 3 cards, this has 2",
        "did_you_mean_32": "did you mean 32?",
        "seats": "1 player, but these rules seat 2 to 6",
        "deals": "Ann deals",
        "start_help": "then its players in seating order",
        "not_a_name": "'undo' is a command here, not a name for a game",
        "table_hint": "Anna deals first. Type who went out at the prompt below.",
    },
    "de": {
        "round": "Runde",
        "enter": "Enter speichert>",
        "removed": "Runde 1 entfernt.",
        "not_removed": "Runde 1 wurde nicht entfernt",
        "choices": "[j/N]",
        "yes": "j",
        "no_seat": "es gibt keinen Platz 5",
        "either": "'an' könnte Ann oder Anna sein",
        "unknown": "unbekannter Befehl oder Spieler 'setle'; war settle gemeint?",
        "unknown_stats": "unbekannter Befehl oder Spieler 'stats'",
        "typo_player": "'bne'; war Ben gemeint?",
        "legal": "gültig als Satz, 30 Punkte",
        "run": "gültig als Folge, 29 Punkte",
        "written": "geschrieben",
        "discarded": "Runde 1 verworfen: nichts gespeichert.",
        "clears": "Strg-C: Zeile leeren",
        "discards": "Strg-C: Runde verwerfen",
        "winner_hint": "ein Name oder seine Anfangsbuchstaben",
        "summary_w": "w=Gewinner",
        "error": "Fehler: ",
        "quote": "die Zeile ist nicht lesbar: ein Anführungszeichen",
        "too_many": "keine Hand hat nach diesen Regeln mehr als 278 Minuspunkte",
        "unlikely": "Carl=160: mehr als 150 Minuspunkte in einer Hand",
        "no_game": "Noch keine Partie",
        "name_prompt": "Name der Partie>",
        "players_prompt": "Spieler, in Sitzreihenfolge>",
        "help_word": "gezählte",
        "check_short": "eine Auslage braucht mindestens 3 Karten, diese hat 2",
        "did_you_mean_32": "war 32 gemeint?",
        "seats": "1 Spieler, aber diese Regeln erlauben 2 bis 6 Spieler am Tisch",
        "deals": "Ann gibt",
        "start_help": "dann die Spieler in Sitzreihenfolge",
        "not_a_name": "'undo' ist hier ein Befehl, kein Name für eine Partie",
        "table_hint": "Anna gibt zuerst. Wer ausgemacht hat, in der Zeile unten eingeben.",
    },
}


class Evening(Terminal):
    """``romme`` in a pty of ``cols`` columns and language ``lang``, its screen wider."""

    def __init__(self, args: list[str], db: Path, lang: str, cols: int, rows: int = 50) -> None:
        super().__init__(["--lang", lang, *args], db, cols=cols, rows=rows, locale={"ROMME_LANG": lang})
        self.cols = cols
        self.lang = lang
        self.screen = Screen(cols + WIDER, rows, self.child.send)
        self.stream = pyte.Stream(self.screen)

    @property
    def flat(self) -> str:
        """The screen as one line, every run of spaces and line ends one space: a sentence
        wrapped to the window reads as one."""
        return " ".join(self.text.split())

    def wait_for(self, needle: str, timeout: float = 15.0, count: int = 1) -> None:
        """As the harness's, but a sentence wrapped over lines counts."""
        wanted = " ".join(needle.split())
        end = time.monotonic() + timeout
        while self.flat.count(wanted) < count:
            if time.monotonic() > end:
                raise AssertionError(f"{needle!r} not on the screen:\n{self.text}")
            self.pump(0.05)

    def says(self, key: str) -> str:
        return SAYS[self.lang][key]

    def prompt(self, number: int, session: str = "Friday") -> str:
        return f"{session} · {self.says('round')} {number}>"

    def assert_fits(self) -> None:
        """No line on the screen is wider than the program's window (by display width: an
        emoji takes two columns, and pyte keeps it in one cell)."""
        wide = [line for line in self.text.splitlines() if width(line) > self.cols]
        assert not wide, f"wider than {self.cols} columns:\n" + "\n".join(wide) + "\n\n" + self.text

    def leave(self) -> None:
        # Ctrl-D at the prompt; typed again if the first came before the prompt read its
        # keys (the terminal's line discipline then takes it as an end of input nobody reads)
        self.type(CTRL_D)
        try:
            self.child.expect(pexpect.EOF, timeout=5)
        except pexpect.TIMEOUT:
            self.type(CTRL_D)
        assert self.close() == 0
        assert "Traceback" not in self.transcript


def make_session(db: Path, name: str, players: list[str]) -> None:
    with SessionService(db) as service:
        service.create(name, players, find_preset("standard"), None, None)


@pytest.fixture(params=SIZES, ids=[f"{lang}-{cols}" for lang, cols in SIZES])
def size(request: pytest.FixtureRequest) -> tuple[str, int]:
    lang, cols = request.param
    return str(lang), int(cols)


@pytest.fixture
def evening(isolated_data_dir: Path, size: tuple[str, int]) -> Iterator[Evening]:
    make_session(isolated_data_dir, "Friday", ["Anna", "Ben", "Carl", "Dora"])
    term = Evening(["play"], isolated_data_dir, *size)
    term.wait_for(term.prompt(1))
    yield term
    if term.child.isalive():
        term.child.terminate(force=True)


def one_round(term: Evening, number: int = 1) -> None:
    term.type("a\r5\r6\r7\r", term.says("enter"))
    term.type("\r", term.prompt(number + 1))


# --- items 1 and 2: the undo question --------------------------------------------------


def test_undo_asks_with_the_languages_letters_and_takes_its_yes(
    evening: Evening, isolated_data_dir: Path
) -> None:
    one_round(evening)
    evening.type("undo\r", evening.says("choices"))
    other = "[j/N]" if evening.lang == "en" else "[y/N]"
    assert other not in evening.text
    evening.type(evening.says("yes") + "\r", evening.says("removed"))
    evening.wait_for(evening.prompt(1))
    assert points(isolated_data_dir) == []
    evening.assert_fits()
    evening.leave()


@pytest.mark.parametrize("key", [CTRL_C, CTRL_D], ids=["ctrl-c", "ctrl-d"])
def test_ctrl_c_or_ctrl_d_at_the_undo_question_removes_nothing_and_says_so(
    evening: Evening, isolated_data_dir: Path, key: str
) -> None:
    one_round(evening)
    evening.type("undo\r", evening.says("choices"))
    evening.type(key, evening.says("not_removed"))
    evening.wait_for(evening.prompt(2), count=2)
    assert "--yes" not in evening.text
    assert len(points(isolated_data_dir)) == 1
    evening.assert_fits()
    evening.leave()


# --- items 3 and 21: a refused winner ----------------------------------------------------


def test_a_refused_winner_leaves_the_line_empty(evening: Evening, isolated_data_dir: Path) -> None:
    evening.type("5\r", evening.says("no_seat"))  # there is no seat 5 ...
    evening.type("1\r", "2 Ben>")  # ... and 1 is Anna, not 51
    evening.type("5\r6\r7\r", evening.says("enter"))
    evening.type("\r", evening.prompt(2))
    assert points(isolated_data_dir) == [{"Anna": 0, "Ben": 5, "Carl": 6, "Dora": 7}]
    evening.assert_fits()
    evening.leave()


def test_an_with_ann_and_anna_could_be_either_and_ann_is_ann(
    isolated_data_dir: Path, size: tuple[str, int]
) -> None:
    make_session(isolated_data_dir, "Paare", ["Ann", "Anna", "Ben"])
    term = Evening(["play"], isolated_data_dir, *size)
    try:
        term.wait_for(term.prompt(1, "Paare"))
        term.type("an\r", term.says("either"))
        term.type("ann\r", "2 Anna>")  # not 'anann'
        term.type("5\r6\r", term.says("enter"))
        term.type("\r", term.prompt(2, "Paare"))
        term.assert_fits()
        term.leave()
    finally:
        if term.child.isalive():
            term.child.terminate(force=True)
    assert points(isolated_data_dir, "Paare") == [{"Ann": 0, "Anna": 5, "Ben": 6}]


# --- item 4: an unknown word -----------------------------------------------------------


def test_an_unknown_word_is_an_unknown_command_or_player_with_did_you_mean(
    evening: Evening, isolated_data_dir: Path
) -> None:
    evening.type("setle\r", evening.says("unknown"))
    evening.type("stats\r", evening.says("unknown_stats"))
    evening.wait_for(evening.prompt(1), count=3)  # no round was started
    assert "2 Ben>" not in evening.text
    evening.type("bne\r", evening.says("typo_player"))  # a player's typo still gets the player
    assert points(isolated_data_dir) == []
    evening.assert_fits()
    evening.leave()


# --- item 5: check without quotes -------------------------------------------------------


def test_check_unquoted_is_one_meld_and_quoted_words_are_melds(evening: Evening) -> None:
    evening.type("check HK KK PK\r", evening.says("legal"))
    assert "2." not in evening.text  # one meld, not three
    evening.type('check "HK KK PK" "T9 T10 TB"\r', evening.says("run"))
    evening.assert_fits()
    evening.leave()


# --- item 6: starting a game in the window ----------------------------------------------


def test_a_fresh_machine_asks_for_the_game_and_new_and_use_work_inside(
    isolated_data_dir: Path, size: tuple[str, int]
) -> None:
    term = Evening(["play"], isolated_data_dir, *size)
    try:
        term.wait_for(term.says("no_game"))
        term.type("Kneipe\r", term.says("players_prompt"))
        assert term.says("name_prompt") in term.text
        term.type("Anna Ben Carl\r", term.prompt(1, "Kneipe"))
        term.type("new Zwei Xaver Yvonne\r", term.prompt(1, "Zwei"))
        term.type("1\r5\r", term.says("enter"))  # Xaver went out, Yvonne has 5
        term.type("\r", term.prompt(2, "Zwei"))
        term.type("use Kneipe\r", term.prompt(1, "Kneipe"))
        term.type("sessions\r", "Zwei")
        term.type("2\r3\r4\r", term.says("enter"))  # a round lands in Kneipe now
        term.type("\r", term.prompt(2, "Kneipe"))
        term.assert_fits()
        term.leave()
    finally:
        if term.child.isalive():
            term.child.terminate(force=True)
    assert points(isolated_data_dir, "Zwei") == [{"Xaver": 0, "Yvonne": 5}]
    assert points(isolated_data_dir, "Kneipe") == [{"Anna": 4, "Ben": 0, "Carl": 3}]


def test_leaving_at_the_question_for_a_game_starts_none(
    isolated_data_dir: Path, size: tuple[str, int]
) -> None:
    term = Evening(["play"], isolated_data_dir, *size)
    term.wait_for(term.says("name_prompt"))
    term.type(CTRL_D)
    assert term.close() == 0
    assert not isolated_data_dir.exists()  # no game, no database


# --- item 7: export without -o -----------------------------------------------------------


def test_export_without_o_writes_a_new_file_here_and_names_it(
    isolated_data_dir: Path, size: tuple[str, int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "here"
    folder.mkdir()
    monkeypatch.chdir(folder)  # the program's current folder
    make_session(isolated_data_dir, "Friday", ["Anna", "Ben", "Carl", "Dora"])
    term = Evening(["play"], isolated_data_dir, *size)
    try:
        term.wait_for(term.prompt(1))
        one_round(term)
        term.type("export\r", "Friday.json")
        assert term.says("written") in term.text and '"rounds"' not in term.text
        term.type("export --format csv\r", "Friday.csv")
        term.type("export\r", "Friday-2.json")  # the first is not overwritten
        term.assert_fits()
        term.leave()
    finally:
        if term.child.isalive():
            term.child.terminate(force=True)
    assert sorted(p.name for p in folder.iterdir()) == ["Friday-2.json", "Friday.csv", "Friday.json"]
    assert json.loads((folder / "Friday.json").read_text())["name"] == "Friday"


# --- item 8: Ctrl-C while typing a round -------------------------------------------------


def test_ctrl_c_clears_the_line_and_only_a_second_one_discards_the_round(
    evening: Evening, isolated_data_dir: Path
) -> None:
    evening.type("a\r", "2 Ben>")
    evening.type("HK K10\r", "3 Carl>")
    evening.type("P2", evening.says("clears"))  # the toolbar says what Ctrl-C does now
    evening.type(CTRL_C, evening.says("discards"))  # the line is cleared, Ben's hand kept
    assert evening.says("discarded") not in evening.text
    evening.type("P3\r", "4 Dora>")
    evening.type(CTRL_C, evening.says("discarded"))  # on an empty line: the round goes
    evening.wait_for(evening.prompt(1), count=2)
    assert points(isolated_data_dir) == []
    evening.assert_fits()
    evening.leave()


# --- item 10: German in German ----------------------------------------------------------


def test_an_unclosed_quote_is_said_in_the_language_with_its_error_prefix(evening: Evening) -> None:
    evening.type('check "HK KK\r', evening.says("quote"))
    assert evening.says("error") + evening.says("quote") in evening.flat
    if evening.lang == "de":
        assert "Error" not in evening.text and "No closing quotation" not in evening.text
    evening.type("setle\r", evening.says("error") + evening.says("unknown")[:20])
    evening.assert_fits()
    evening.leave()


# --- item 12: every line fits the window -------------------------------------------------


def test_every_line_of_a_round_and_of_help_fits_the_window(evening: Evening) -> None:
    evening.wait_for(evening.says("winner_hint"))  # the winner's hint whole, not cut
    evening.type("a\r", "2 Ben>")
    evening.wait_for(evening.says("discards"))  # the hand's toolbar to its last word
    evening.type("HK K10\rP7 P8\rT2 T3\r", evening.says("enter"))
    evening.wait_for(evening.says("summary_w"))  # the summary's keys, the last one too
    evening.assert_fits()
    evening.type("\r", evening.prompt(2))
    evening.type("help\r", "phones")
    evening.wait_for(evening.says("help_word"))  # a word of help, not broken
    evening.assert_fits()
    evening.leave()


def test_six_long_names_fit_the_panel_toolbar_and_summary(
    isolated_data_dir: Path, size: tuple[str, int]
) -> None:
    names = ["Annegret", "Bartholomäus", "Christiane", "Dorothea", "Emil", "Friedrich"]
    make_session(isolated_data_dir, "Club", names)
    term = Evening(["play"], isolated_data_dir, *size)
    try:
        term.wait_for(term.prompt(1, "Club"))
        term.type("e\r", "6 Friedrich>")
        for _ in range(5):
            term.type("5\r")
        term.wait_for(term.says("enter"))
        term.wait_for(term.says("summary_w"))
        term.assert_fits()
        term.type("\r", term.prompt(2, "Club"))
        term.assert_fits()
        term.leave()
    finally:
        if term.child.isalive():
            term.child.terminate(force=True)


# --- item 16: points no hand holds --------------------------------------------------------


def test_points_no_hand_holds_are_refused_and_unlikely_ones_asked_again(
    evening: Evening, isolated_data_dir: Path
) -> None:
    evening.type("a\r5\r", "3 Carl>")
    evening.type("320\r", evening.says("too_many"))  # refused, the limit named
    evening.type(CTRL_U + "160\r", evening.says("unlikely"))  # asked again ...
    evening.wait_for("3 Carl> 160")  # ... with the points in the line
    evening.type("\r", "4 Dora>")  # Enter keeps them
    evening.type("7\r", evening.says("enter"))
    evening.assert_fits()
    evening.type("\r", evening.prompt(2))
    assert points(isolated_data_dir) == [{"Anna": 0, "Ben": 5, "Carl": 160, "Dora": 7}]
    evening.leave()


# --- the new user's trial after issue 20 ---------------------------------------------------

SIX = ["Ann", "Anna", "Ben", "Carl", "Dora", "Zoë🃏"]


def test_a_refused_hand_leaves_the_line_empty_and_up_recalls_it(
    evening: Evening, isolated_data_dir: Path
) -> None:
    evening.type("a\r", "2 Ben>")
    evening.type("HK Q\r", "'Q'")  # refused ...
    evening.type(UP, "2 Ben> HK Q")  # ... Up recalls it to correct ...
    evening.wait_for("2 Ben> HK Q", count=2)
    evening.type(CTRL_U + "HK KD\r", "3 Carl>")  # ... and typed anew it is not 'HK QHK KD'
    evening.type("x\r", "'x'")  # the rank is missing ...
    evening.type("b\r", "'b'")  # ... and 'b' is no card: not 'xb', the jack of clubs
    evening.type("5\r6\r", evening.says("enter"))
    evening.type("\r", evening.prompt(2))
    assert points(isolated_data_dir) == [{"Anna": 0, "Ben": 20, "Carl": 5, "Dora": 6}]
    evening.assert_fits()
    evening.leave()


def test_a_verdict_and_an_error_of_a_line_are_wrapped_to_the_window(evening: Evening) -> None:
    evening.type("check HK KK\r", evening.says("check_short"))
    evening.wait_for(evening.prompt(1), count=2)
    evening.type("round --winner Anna Ben=320\r", evening.says("did_you_mean_32"))
    evening.wait_for(evening.prompt(1), count=3)
    evening.assert_fits()
    evening.leave()


def test_six_players_with_an_emoji_fit_the_toolbar_by_its_columns(
    isolated_data_dir: Path, size: tuple[str, int]
) -> None:
    make_session(isolated_data_dir, "Samstag", SIX)
    term = Evening(["play"], isolated_data_dir, *size)
    try:
        term.wait_for(term.prompt(1, "Samstag"))
        term.wait_for("│")  # the toolbar is drawn a moment after the prompt
        toolbar = [line for line in term.text.splitlines() if "│" in line]
        assert toolbar and all(width(line) <= term.cols for line in toolbar), term.text
        # the dealer's words whole: the toolbar is measured in columns, not characters
        assert term.says("deals") + " " in toolbar[-1] + " ", term.text
        term.leave()
    finally:
        if term.child.isalive():
            term.child.terminate(force=True)


def test_the_undo_question_naming_an_emoji_is_wrapped_to_the_window(
    isolated_data_dir: Path, size: tuple[str, int]
) -> None:
    make_session(isolated_data_dir, "Samstag", SIX)
    term = Evening(["play"], isolated_data_dir, *size)
    try:
        term.wait_for(term.prompt(1, "Samstag"))
        term.type("1\r", "2 Anna>")
        for typed in ("1", "2", "3", "4", "5"):
            term.type(typed + "\r")
        term.wait_for(term.says("enter"))
        term.type("\r", term.prompt(2, "Samstag"))
        term.type("undo\r", term.says("choices"))
        term.assert_fits()
        term.type("\r", term.says("not_removed"))
        term.assert_fits()
        term.leave()
    finally:
        if term.child.isalive():
            term.child.terminate(force=True)


def test_a_refused_player_list_asks_for_the_players_again_and_new_says_what_to_type(
    isolated_data_dir: Path, size: tuple[str, int]
) -> None:
    term = Evening(["play"], isolated_data_dir, *size)
    try:
        term.wait_for(term.says("name_prompt"))
        term.type("Kneipe\r", term.says("players_prompt"))
        term.type("Anna\r", term.says("seats"))  # one player: refused ...
        term.wait_for(term.says("players_prompt"), count=2)  # ... and the players asked again
        term.assert_fits()
        term.type("Anna Ben Carl\r", term.prompt(1, "Kneipe"))  # the name kept
        assert term.flat.count(term.says("name_prompt")) == 1
        term.wait_for(term.says("table_hint"))  # what to type here, not the command line
        assert "romme round" not in term.text
        term.type("new Zwei Xaver Yvonne\r", term.prompt(1, "Zwei"))
        assert "romme round" not in term.text
        term.assert_fits()
        term.leave()
    finally:
        if term.child.isalive():
            term.child.terminate(force=True)
    assert points(isolated_data_dir, "Kneipe") == []


def test_help_at_the_name_of_a_new_game_says_what_to_type_and_commands_are_no_names(
    isolated_data_dir: Path, size: tuple[str, int]
) -> None:
    term = Evening(["play"], isolated_data_dir, *size)
    try:
        term.wait_for(term.says("name_prompt"))
        term.type("help\r", term.says("start_help"))
        term.wait_for(term.says("name_prompt"), count=2)  # the name asked again
        term.type("undo\r", term.says("not_a_name"))
        term.wait_for(term.says("name_prompt"), count=3)
        term.assert_fits()
        term.type("quit\r")
        assert term.close() == 0
    finally:
        if term.child.isalive():
            term.child.terminate(force=True)
    assert not isolated_data_dir.exists()  # no game called help, undo or quit
