"""What a new user typed and romme-score read wrongly (issue 36, the trial of the input):
a hand of separators alone, a players file from Windows Notepad or in Latin-1 or with a
second ';', a prize typed with '%', and a round named in a game without rounds. Each is
one sentence and exit code 2 (on the web 400 and the JSON ``code``), nothing written."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from clirun import ok, run
from serving import Served, in_process

from romme_score.cli import main
from romme_score.inputs import HandInputError, HandProblem, read_hand
from romme_score.rules import find_preset
from romme_score.scoring import score_round
from romme_score.sessions import RoundReferee, SessionService
from romme_score.table.entry import RoundEntry, Step

PLAYERS = ["Anna", "Ben", "Carl"]
EMPTY_HAND = "Ben: type the cards left in hand, or a number of points (0 for none)"


def rounds() -> list[object]:
    played: list[object] = json.loads(ok("standings", "--json"))["rounds"]
    return played


# --- item 1: a hand of separators alone ------------------------------------------------


@pytest.mark.parametrize("typed", [",", ", ,", " ; , "])
def test_a_hand_of_separators_alone_is_refused_as_an_empty_one_issue_36_trial(typed: str) -> None:
    ok("new", "X", *PLAYERS)
    code, _out, err = run("round", "--winner", "1", f"2={typed}", "3=0")
    assert code == 2 and err.strip() == f"Error: {EMPTY_HAND}"
    assert run("round", "--winner", "1", "2=", "3=0")[2] == err  # the sentence of 2=""
    assert rounds() == []  # nothing written
    with pytest.raises(HandInputError) as refused:
        read_hand("Ben", typed)
    assert refused.value.problem is HandProblem.EMPTY and refused.value.code == "unreadable-hand"
    # a hand without cards is typed 0, and the winner's hand is not typed: both still taken
    ok("round", "--winner", "1", "2=0", "3=0")
    assert len(rounds()) == 1 and read_hand("Ben", "0").points == 0


def test_the_table_mode_asks_a_hand_of_separators_again_issue_36_trial() -> None:
    rules = find_preset("standard")
    players = tuple(PLAYERS)
    entry = RoundEntry(RoundReferee(players, rules, lambda r: score_round(players, {}, r, rules)))
    for line in ("a", ","):
        entry.answer(line)
    assert entry.step is Step.HAND and entry.current == "Ben" and entry.message == EMPTY_HAND
    assert "Ben" not in entry.hands


@pytest.fixture
def served(isolated_data_dir: Path) -> Iterator[Served]:
    with SessionService(isolated_data_dir) as service:
        service.create("Friday", PLAYERS, find_preset("standard"), None, "EUR")
    with in_process(isolated_data_dir) as (links, _server):
        yield links


@pytest.mark.parametrize(
    "lang, sentence",
    [("en", EMPTY_HAND), ("de", "Ben: die Restkarten tippen oder eine Punktzahl (0 für keine)")],
)
def test_a_seat_sending_separators_alone_is_refused_issue_36_trial(
    served: Served, lang: str, sentence: str
) -> None:
    with httpx.Client(timeout=10) as http:
        before = http.get(served.board + "/state.json").json()
        response = http.post(served.seats["Ben"] + "/hand", json={"cards": ","}, params={"lang": lang})
        assert response.status_code == 400
        assert response.json()["code"] == "unreadable-hand" and response.json()["error"] == sentence
        after = http.get(served.board + "/state.json").json()
    assert after["version"] == before["version"] and after["pending"]["hands"]["Ben"] is None


# --- items 2-4: the players file ----------------------------------------------------------


def test_a_players_file_with_a_byte_order_mark_is_read_issue_36_trial(tmp_path: Path) -> None:
    players = tmp_path / "players.txt"
    players.write_bytes("\ufeffJürgen\r\nAnna\r\nBen\r\n".encode())  # as Windows Notepad saves it
    ok("tournament", "new", "Cup", "--players-file", str(players))
    standings = json.loads(ok("tournament", "standings", "--json"))
    assert [p["name"] for p in standings["players"]] == ["Jürgen", "Anna", "Ben"]


def test_a_players_file_in_latin1_names_the_byte_and_its_line_issue_36_trial(
    tmp_path: Path, isolated_data_dir: Path
) -> None:
    players = tmp_path / "latin1.txt"
    players.write_bytes("Anna\nJürgen\nBen\n".encode("latin-1"))
    code, _out, err = run("tournament", "new", "Cup", "--players-file", str(players))
    assert code == 2
    assert err.strip() == (
        f"Error: {players}: line 2 is not valid text (byte 0xFC at position 2): "
        "a players file is read as UTF-8"
    )
    assert not isolated_data_dir.exists()  # nothing written
    args = ["--lang", "de", "tournament", "new", "Cup", "--players-file", "-"]
    piped = CliRunner().invoke(main, args, input="Anna\nJürgen\n".encode("latin-1"))
    assert (
        piped.exit_code == 2 and "-: Zeile 2 ist kein gültiger Text (Byte 0xFC an Stelle 2)" in piped.stderr
    )


def test_a_players_file_line_with_a_second_semicolon_is_refused_issue_36_trial(
    tmp_path: Path, isolated_data_dir: Path
) -> None:
    players = tmp_path / "players.txt"
    players.write_text("Ben;Nord\nCarl\nAnna;Nord;extra\n", encoding="utf-8")
    code, _out, err = run("tournament", "new", "Cup", "--players-file", str(players))
    assert code == 2
    assert (
        err.strip()
        == f"Error: {players}: line 3: 'Anna;Nord;extra' has more than one ';': give NAME or NAME;TEAM"
    )
    assert not isolated_data_dir.exists()
    # the same player given as an argument: the same sentence, without a line
    code, _out, err = run("tournament", "new", "Cup", "Anna;Nord;extra", "Ben", "Carl")
    assert (
        code == 2 and err.strip() == "Error: 'Anna;Nord;extra' has more than one ';': give NAME or NAME;TEAM"
    )
    assert not isolated_data_dir.exists()


# --- item 5: a prize as typed -----------------------------------------------------------


@pytest.mark.parametrize(
    "typed, sentence",
    [
        ("150%", "prizes '150%' is out of range: allowed from 0 to 100"),
        ("40%,-5%", "prizes '-5%' must not be negative"),
        ("x%", "prizes 'x%' is not a decimal number (e.g. 0.01)"),
    ],
)
def test_a_prize_out_of_range_is_shown_as_typed_issue_36_trial(
    typed: str, sentence: str, isolated_data_dir: Path
) -> None:
    code, _out, err = run("tournament", "new", "Cup", *PLAYERS, "--prizes", typed)
    assert code == 2 and err.strip() == f"Error: --prizes: {sentence}"
    assert not isolated_data_dir.exists()


# --- item 6: a round of a game without rounds -------------------------------------------


def test_a_round_of_a_game_without_rounds_says_none_is_played_issue_36_trial() -> None:
    ok("new", "X", *PLAYERS)
    code, _out, err = run("edit", "99", "--session", "X")
    assert code == 2
    assert err.strip() == "Error: there is no round 99 in session 'X': no round has been played yet"
    code, _out, err = run("edit", "99", "--session", "X", "--json")
    error = json.loads(err)["error"]
    assert code == 2 and error["code"] == "bad-input"
    assert (error["number"], error["session"], error["played"]) == (99, "X", 0)
    code, _out, err = run("--lang", "de", "edit", "99", "--session", "X")
    assert "in der Partie 'X' gibt es keine Runde 99: es wurde noch keine Runde gespielt" in err
    ok("round", "--winner", "1", "2=5", "3=0")  # with rounds: the rounds there are, as before
    assert "there is no round 99 in session 'X' (rounds 1-1)" in run("edit", "99", "--session", "X")[2]
