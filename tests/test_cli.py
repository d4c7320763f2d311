"""The romme command line: check, value, rules, settle; exit codes and JSON contracts."""

from __future__ import annotations

import json
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from romme_score.cli import main


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    runner = CliRunner()
    result = runner.invoke(main, list(args), input=input)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def run_json(*args: str) -> tuple[int, dict[str, Any]]:
    code, out, _ = run(*args, "--json")
    data = json.loads(out)
    assert isinstance(data, dict), out
    return code, data


COMMANDS = {
    "best",
    "check",
    "edit",
    "export",
    "import",
    "new",
    "round",
    "rules",
    "sessions",
    "settle",
    "standings",
    "undo",
    "use",
    "value",
}


def test_every_command_has_help_with_an_example() -> None:
    ctx = click.Context(main)
    names = main.list_commands(ctx)
    assert COMMANDS <= set(names)  # else the loop below could check nothing
    for name in names:
        command = main.get_command(ctx, name)
        assert command is not None and command.help, name
        code, out, _ = run(name, "--help")
        assert code == 0
        assert "Example" in out, name


def test_check_sets_and_runs() -> None:
    code, data = run_json("check", "HK KK PK", "T9 T10 TB")
    assert code == 0
    assert data["valid"] is True and data["total"] == 59
    assert [m["kind"] for m in data["melds"]] == ["set", "run"]
    assert set(data["melds"][0]) >= {"input", "valid", "kind", "value", "cards", "reason"}


def test_check_illegal_exit_1_with_reason() -> None:
    code, data = run_json("check", "♠K ♠A ♠2")
    assert code == 1
    assert data["valid"] is False
    assert data["melds"][0]["reason"] == "wraparound-not-allowed"
    assert data["melds"][0]["kind"] is None and data["melds"][0]["value"] is None
    code, out, _ = run("check", "♠K ♠A ♠2")
    assert code == 1 and "around the corner" in out


def test_check_first_meld_contract() -> None:
    code, data = run_json("check", "--first", "P3 P4 P5", "TB PB HB")
    assert code == 0
    first = data["first_meld"]
    assert (first["required"], first["total"], first["ok"]) == (40, 42, True)
    code, data = run_json("check", "--first", "--preset", "wiki-51", "P3 P4 P5", "TB PB HB")
    assert code == 1 and data["first_meld"]["ok"] is False and data["first_meld"]["required"] == 51


def test_check_joker_shows_what_it_stands_for() -> None:
    code, data = run_json("check", "TA PA J", "H3 H4 H5")
    assert code == 0
    assert data["melds"][0]["cards"] == ["♣A", "♠A", "J=♥A"]
    assert data["total"] == 45


def test_check_both_notations() -> None:
    assert run_json("check", "--notation", "en", "KH KD KS")[1]["total"] == 30
    code, data = run_json("check", "--notation", "en", "--ascii", "10S JS QS")
    assert code == 0
    assert data["melds"][0]["cards"] == ["10S", "JS", "QS"]


@pytest.mark.parametrize(
    "lang, ends",
    [
        ("en", "did you mean 'KH'? Or read it with --notation de"),
        ("de", "war 'KH' gemeint? Oder mit --notation de lesen"),
    ],
)
def test_a_hint_after_a_question_is_a_sentence_of_its_own(lang: str, ends: str) -> None:
    """The other notation's way out follows 'did you mean …?' as a new sentence, not as
    '?: or read it' (trial, issue 30)."""
    result = CliRunner().invoke(main, ["--lang", lang, "check", "--notation", "en", "HK KK PK"])
    assert result.exit_code == 2
    assert result.output.strip().endswith(ends), result.output


def test_check_onto_contract() -> None:
    code, data = run_json("check", "--onto", "♥2 ♥3 ♥4", "♥A ♥5")
    assert code == 0
    assert data["onto"]["valid"] is True and data["onto"]["result"] == ["♥A", "♥2", "♥3", "♥4", "♥5"]
    code, data = run_json("check", "--onto", "♥2 ♥3 ♥4", "♠5")
    assert code == 1 and data["onto"]["reason"] == "wrong-suit" and data["valid"] is False


def test_check_wiki51_example_and_adjacent_rule() -> None:
    assert run("check", "--preset", "wiki-51", "♠3 J J ♠6")[0] == 0
    assert run("check", "--rule", "max_adjacent_jokers=1", "♠3 J J ♠6")[0] == 1


def test_check_classic_dka23() -> None:
    assert run("check", "--preset", "classic", "HD HK HA H2 H3")[0] == 0
    assert run("check", "HD HK HA H2 H3")[0] == 1


@pytest.mark.parametrize(
    "args, fragment",
    [
        (("check", "HX K5"), "cannot read card 'HX' (1st card): X is not a rank"),
        (("check", "KH KD", "--notation", "de"), "did you mean 'HK'"),
        (("check", "--rule", "wrapround=true", "HK KK PK"), "did you mean wraparound"),
        (("check", "--rule", "packs=9", "HK KK PK"), "allowed 1-2"),
        (("check", "--preset", "nope", "HK KK PK"), "unknown preset 'nope'"),
        (("value", "HK Q10"), "'Q10'"),
        (("check", "--rules-file", "/nonexistent/r.toml", "HK KK PK"), "cannot read the rules file"),
    ],
)
def test_bad_input_exit_2_one_sentence(args: tuple[str, ...], fragment: str) -> None:
    code, out, err = run(*args)
    assert code == 2
    assert fragment in err
    assert "Traceback" not in err + out


def test_rules_file_option(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text('preset = "standard"\nwraparound = true\n', encoding="utf-8")
    assert run("check", "--rules-file", str(path), "♠K ♠A ♠2")[0] == 0
    path.write_text("wraparound = 3\n", encoding="utf-8")
    assert run("check", "--rules-file", str(path), "♠K ♠A ♠2")[0] == 2


def test_value_contract() -> None:
    code, data = run_json("value", "HK K10 J")
    assert code == 0
    assert data == {
        "points": 40,
        "cards": [{"card": "♥K", "points": 10}, {"card": "♦10", "points": 10}, {"card": "J", "points": 20}],
    }
    assert run_json("value", "HK", "K10", "J")[1]["points"] == 40
    assert run_json("value", "--rule", "joker_penalty=25", "J")[1]["points"] == 25


def test_rules_command() -> None:
    code, out, _ = run("rules", "wiki-51")
    assert code == 0 and "first_meld_min" in out and "51" in out
    code, data = run_json("rules", "--preset", "classic", "--rule", "first_meld_min=30")
    assert data["first_meld_min"] == 30 and data["wraparound"] is True
    code, out, _ = run("rules", "--list")
    assert code == 0
    assert all(p in out for p in ("standard", "wiki-51", "classic", "speedromme", "basic"))


def test_settle_002_example() -> None:
    code, data = run_json("settle", "A=220", "B=360", "C=140", "D=490", "--rate", "0.001")
    assert code == 0
    assert [(p["name"], p["net"], p["amount"]) for p in data["players"]] == [
        ("A", 330, "0.33"),
        ("B", -230, "-0.23"),
        ("C", 650, "0.65"),
        ("D", -750, "-0.75"),
    ]
    assert {"winner": "C", "loser": "D", "points": 350} in data["pairs"]
    assert sum(float(t["amount"]) for t in data["transfers"] if t["from"] == "D") == pytest.approx(0.75)


@pytest.mark.parametrize(
    ("lang", "notation", "amounts"),
    [
        ("en", "de", ("€0.33", "-€0.23", "D pays C €0.65")),
        ("en", "en", ("€0.33", "-€0.23", "D pays C €0.65")),
        ("de", "de", ("0,33 €", "-0,23 €", "C 0,65 €")),
        ("de", "en", ("0,33 €", "-0,23 €", "C 0,65 €")),
    ],
)
def test_settle_money_follows_the_language_not_the_notation(
    lang: str, notation: str, amounts: tuple[str, ...]
) -> None:
    """Issue 20 item 15: English printed "-0,54 €" beside "At 0.01 per point", German with
    --notation en "€0.33"; the notation is how cards are read, the language how money is written."""
    code, out, _ = run(
        "--lang", lang, "settle", "A=220", "B=360", "C=140", "D=490", "--rate", "0.001",
        "--currency", "EUR", "--notation", notation,
    )  # fmt: skip
    assert code == 0 and all(a in out for a in amounts), out
    code, out, _ = run("--lang", lang, "settle", "A=220", "B=360", "--currency", "EUR", "--ascii")
    assert code == 0 and "€" not in out and " EUR" in out


@pytest.mark.parametrize(
    "args, fragment",
    [
        (("A=1", "A=2"), "given twice"),
        (("A=1.5", "B=2"), "whole number"),
        (("A=-1", "B=2"), "cannot be negative"),
        (("A=1",), "at least two players"),
        (("A=1", "B=2", "--rate", "abc"), "not a decimal"),
        (("A", "B=2"), "NAME=POINTS"),
    ],
)
def test_settle_bad_input(args: tuple[str, ...], fragment: str) -> None:
    code, _, err = run("settle", *args)
    assert code == 2 and fragment in err


@pytest.mark.parametrize(
    "args",
    [
        ("check", "HK KK PK"),
        ("value", "HK"),
        ("rules",),
        ("rules", "--list"),
        ("settle", "A=1", "B=2"),
        ("best", "HK KK PK"),
    ],
)
def test_json_output_is_valid_for_every_referee_command(args: tuple[str, ...]) -> None:
    code, out, _ = run(*args, "--json")
    assert code == 0
    assert isinstance(json.loads(out), (dict, list)) and out.endswith("\n")


def test_ascii_output() -> None:
    code, out, _ = run("check", "--ascii", "TA PA J")
    assert code == 0 and "♣" not in out and "J=HA" in out


def test_click_group_is_the_entry_point() -> None:
    # the `romme` script installed from pyproject.toml runs this very group
    (script,) = entry_points(group="console_scripts", name="romme")
    assert script.load() is main
    assert isinstance(main, click.Group)


def test_best_contract() -> None:
    code, data = run_json("best", "P3 P4 P5 TB PB HB H9 K2")
    assert code == 0
    assert {
        k: data[k]
        for k in ("max_meld_value", "first_meld_ok", "leftover_penalty", "can_go_out", "hand_romme")
    } == {
        "max_meld_value": 42,
        "first_meld_ok": True,
        "leftover_penalty": 11,
        "can_go_out": False,
        "hand_romme": False,
    }
    assert sorted(data["leftover"]) == ["♥9", "♦2"]
    assert sorted(map(sorted, data["melds"])) == [["♠3", "♠4", "♠5"], ["♠B", "♣B", "♥B"]]


def test_best_with_table_and_hand_romme() -> None:
    code, data = run_json("best", "--came-out", "--table", "♥2 ♥3 ♥4", "--table", "HK KK PK", "♥A ♥5 TK P9")
    assert code == 0
    assert data["leftover"] == ["♠9"] and data["can_go_out"] and not data["hand_romme"]
    assert len(data["layoffs"]) == 3
    code, out, _ = run("best", "H2 H3 H4 P2 K2 T2 PK")
    assert code == 0 and "Hand-Rommé" in out


def test_best_going_out_by_layoffs_alone_names_them() -> None:
    """Going out with lay-offs and no meld lists the lay-offs, not 'nothing' before them."""
    code, out, _ = run("best", "--came-out", "--table", "♥2 ♥3 ♥4", "--table", "HK KK PK", "♥A ♥5 TK P9")
    assert code == 0
    assert "Can go out now: yes: lay off ♣K onto ♠K ♥K ♦K, lay off " in out
    assert "nothing" not in out


@pytest.mark.parametrize(
    "args, fragment",
    [
        (("best", "HK HX"), "'HX'"),
        (("best", "HK HK HK"), "3 times"),
        (("best", "--table", "H2 H5 H9", "HK"), "is not a legal meld"),
    ],
)
def test_best_bad_input(args: tuple[str, ...], fragment: str) -> None:
    code, _, err = run(*args)
    assert code == 2 and fragment in err


def test_check_first_and_onto_together_is_a_usage_error() -> None:
    code, _, err = run("check", "--first", "--onto", "♥2 ♥3 ♥4", "♥5")
    assert code == 2 and "give one of them" in err


@pytest.mark.parametrize(
    "text",
    ["[OPTIONS] KEY=VALUE...", "A", "AB", "A B", "A-", "[PLAYERS]...", "X =Y", "ab CD- E", "", "A  B -C"],
)
def test_placeholder_words_are_cut_as_the_pattern_finds_them(text: str) -> None:
    """worded_metavar scans by hand so that no pattern is compiled at every start."""
    import re

    from romme_score.cli import _METAVAR_WORD, metavar_words

    parts = metavar_words(text)
    assert "".join(part for _, part in parts) == text
    assert [part for word, part in parts if word] == re.findall(_METAVAR_WORD, text)


def test_a_translated_command_words_its_help_when_read_not_when_made() -> None:
    """Issue 20 item 31: a run that shows no help words none of it; read, it is German."""
    from romme_score import i18n
    from romme_score.cli import _translated, translate_command
    from romme_score.cli.check import check

    _translated.pop((check, "de"), None)  # a copy made fresh, whatever ran before here
    with i18n.using_language("de"):
        german = translate_command(check)
    assert german.__dict__.get("_worded", {}) == {}  # nothing worded yet
    assert german.help is not None and "Auslage" in german.help  # worded in its language,
    assert check.help is not None and "meld" in check.help  # the original left English
    english = next(p for p in check.params if p.name == "first")
    option = next(p for p in german.params if p.name == "first")
    assert english.help is not None and "first meld" in english.help
    assert option.help is not None and "first meld" not in option.help and "Erstmeldung" in option.help
