"""Issue 20 on the command line: the one confirmation (``[j/N]`` in German, j/ja/y/yes
taken), ``romme round -i`` at the end of its input, points counted by hand that no hand
holds, and a winner's first letters that fit two players. The same items inside the
table mode are in tests/test_play_terminal_evening.py."""

from __future__ import annotations

import json

import pytest
from clirun import ok, run

from romme_score import scoring
from romme_score.rules import find_preset

UNLIKELY = 150  # scoring.UNLIKELY_POINTS, the threshold issue 20 item 16 names


@pytest.fixture
def friday() -> None:
    ok("new", "Friday", "Anna", "Ben", "Carl", "Dora")


@pytest.fixture
def at_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("romme_score.cli.options.stdin_is_terminal", lambda: True)


def rounds() -> list[dict[str, object]]:
    data = json.loads(ok("standings", "--json"))
    assert isinstance(data, dict)
    return list(data["rounds"])


# --- item 1: one confirmation, in the run's language ------------------------------------


@pytest.mark.parametrize(
    ("lang", "choices", "answer"),
    [
        ("de", "[j/N]", "j"),
        ("de", "[j/N]", "ja"),
        ("de", "[j/N]", "y"),
        ("de", "[j/N]", "JA"),
        ("en", "[y/N]", "y"),
        ("en", "[y/N]", "yes"),
        ("en", "[y/N]", "j"),
    ],
)
def test_undo_and_delete_ask_with_the_languages_letters_and_take_j_and_y(
    friday: None, at_a_terminal: None, lang: str, choices: str, answer: str
) -> None:
    ok("round", "--winner", "Anna", "Ben=5", "Carl=5", "Dora=5")
    code, out, err = run("--lang", lang, "undo", input=answer + "\n")
    assert code == 0, err
    assert choices in out and ("[y/N]" not in out if lang == "de" else "[j/N]" not in out)
    assert rounds() == []
    code, out, err = run("--lang", lang, "sessions", "delete", "Friday", input=answer + "\n")
    assert code == 0 and choices in out, err
    assert "Friday" not in ok("sessions")


@pytest.mark.parametrize(
    ("lang", "answer", "said"),
    [
        ("de", "n\n", "Runde 1 wurde nicht entfernt"),
        ("de", "nein\n", "Runde 1 wurde nicht entfernt"),
        ("de", "\n", "Runde 1 wurde nicht entfernt"),
        ("de", "", "Runde 1 wurde nicht entfernt"),  # Ctrl-D: the end of input
        ("en", "no\n", "round 1 was not removed"),
        ("en", "", "round 1 was not removed"),
    ],
)
def test_no_or_no_answer_at_a_terminal_removes_nothing_and_says_so(
    friday: None, at_a_terminal: None, lang: str, answer: str, said: str
) -> None:
    """Item 2 on the command line: Ctrl-D (and Ctrl-C, which Click turns into the same
    Abort) is a no, not the no-terminal sentence about --yes."""
    ok("round", "--winner", "Anna", "Ben=5", "Carl=5", "Dora=5")
    code, out, err = run("--lang", lang, "undo", input=answer)
    assert code == 0 and said in out, err
    assert "--yes" not in out + err
    assert len(rounds()) == 1


def test_an_answer_that_is_neither_yes_nor_no_is_asked_again(friday: None, at_a_terminal: None) -> None:
    ok("round", "--winner", "Anna", "Ben=5", "Carl=5", "Dora=5")
    code, out, err = run("--lang", "de", "undo", input="vielleicht\nj\n")
    assert code == 0 and "'vielleicht' ist hier keine Antwort: j oder n eingeben" in err
    assert out.count("[j/N]") == 2 and rounds() == []


# --- item 9: the interactive round at the end of its input ------------------------------


def test_interactive_round_at_the_end_of_input_exits_1_and_saves_nothing(friday: None) -> None:
    code, out, _ = run("round", "-i", input="")
    assert code == 1 and "Not saved." in out
    assert rounds() == []


# --- item 16: points counted by hand that no hand holds ---------------------------------


def test_the_most_points_in_one_hand_follow_the_packs_and_jokers() -> None:
    most_points_in_hand = scoring.most_points_in_hand
    assert scoring.UNLIKELY_POINTS == UNLIKELY
    standard = find_preset("standard")  # two packs, six jokers: 8 aces, 7 tens or faces, 6 jokers
    assert most_points_in_hand(standard) == 8 * 11 + 7 * 10 + 6 * 20 == 278
    one_pack = standard.replace(packs=1, jokers=3)  # 4 aces, 11 tens or faces, 3 jokers
    assert most_points_in_hand(one_pack) == 4 * 11 + 11 * 10 + 3 * 20
    assert UNLIKELY < most_points_in_hand(standard)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_points_above_what_any_hand_holds_are_refused_naming_the_limit(friday: None, lang: str) -> None:
    code, out, err = run("--lang", lang, "round", "--winner", "Anna", "Ben=5", "Carl=320", "Dora=5")
    assert code == 2 and "Carl=320" in err and "278" in err
    assert ("did you mean 32?" if lang == "en" else "war 32 gemeint?") in err
    assert "Traceback" not in err and rounds() == []
    code, _, err = run("--lang", lang, "edit", "1", "Carl=320")
    assert code != 0 and rounds() == []


def test_edit_refuses_them_too(friday: None) -> None:
    ok("round", "--winner", "Anna", "Ben=5", "Carl=32", "Dora=5")
    code, _, err = run("edit", "1", "Carl=320")
    assert code == 2 and "278" in err
    assert rounds()[0]["points"] == {"Anna": 0, "Ben": 5, "Carl": 32, "Dora": 5}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_unlikely_points_are_saved_with_a_warning_and_nothing_is_asked(friday: None, lang: str) -> None:
    code, out, err = run("--lang", lang, "round", "--winner", "Anna", "Ben=5", "Carl=160", "Dora=5", input="")
    assert code == 0, err
    assert "Carl=160" in err and str(UNLIKELY) in err and "romme edit" in err
    assert ("warning" if lang == "en" else "Warnung") in err
    assert rounds()[0]["points"] == {"Anna": 0, "Ben": 5, "Carl": 160, "Dora": 5}
    assert "Carl=150" not in run("round", "--winner", "Anna", "Ben=5", "Carl=150", "Dora=5")[2]


# --- item 21: first letters of two players ---------------------------------------------


@pytest.mark.parametrize(
    ("lang", "said"), [("en", "'an' could be Ann or Anna"), ("de", "'an' könnte Ann oder Anna")]
)
def test_winner_an_with_ann_and_anna_could_be_either(lang: str, said: str) -> None:
    ok("new", "Paare", "Ann", "Anna", "Ben")
    code, _, err = run("--lang", lang, "round", "--winner", "an", "Anna=5", "Ben=5")
    assert code == 2 and said in err, err
    assert rounds() == []
    ok("round", "--winner", "ann", "Anna=5", "Ben=5")  # the whole name is Ann
    assert rounds()[0]["winner"] == "Ann"


# --- item 10: a line of the table mode that Click aborts says so in the run's language -----


@pytest.mark.parametrize(("lang", "said"), [("en", "Aborted!"), ("de", "Abgebrochen!")])
def test_an_aborted_line_of_the_table_mode_says_so_in_its_language(
    friday: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str, said: str
) -> None:
    import click

    from romme_score import i18n
    from romme_score.cli.inside import run_command

    def abort(question: str, refusal: str) -> bool:
        raise click.Abort

    ok("round", "--winner", "Anna", "Ben=5", "Carl=5", "Dora=5")
    monkeypatch.setattr("romme_score.cli.session.confirm", abort)
    with i18n.using_language(lang):
        assert run_command(["--lang", lang, "undo"], None, "Friday", ask=True) == 1
    assert capsys.readouterr().err.strip() == said
    assert len(rounds()) == 1
