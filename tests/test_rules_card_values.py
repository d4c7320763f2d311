"""``romme rules`` says what each card counts under the rules it shows (issue 30 item 4,
docs/rules.md §3): 2-10 their face value, jack, queen and king 10, the ace in a meld (and
1 in a low run) and left in the hand, the joker in the hand; read from the rule set, in
both languages, before the options, and in ``--json`` under ``card_values``."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from romme_score.cli import main
from romme_score.rules import OPTION_NAMES


def rules(*args: str) -> str:
    result = CliRunner().invoke(main, ["rules", *args], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return result.output


def card_lines(out: str) -> list[str]:
    """The lines before the options' table."""
    head = out.split("\n\n", 1)[0]
    return [" ".join(line.split()) for line in head.splitlines()]


def test_the_standard_rules_say_what_each_card_counts_before_the_options() -> None:
    out = rules()
    assert out.index("What each card counts") < out.index("first_meld_min")
    assert card_lines(out) == [
        "What each card counts:",
        "card in a meld left in the hand",
        "2-10 face value face value",
        "jack, queen, king (B, D, K) 10 10",
        "ace 11, 1 in a low run (A-2-3) 11",
        "joker the card it stands for 20",
    ]


def test_the_card_values_follow_the_rules_shown_not_a_fixed_table() -> None:
    """ "Rommé mit Auslegen" counts the ace 10; a table's own penalties are shown as set."""
    assert "ace 10, 1 in a low run (A-2-3) 10" in card_lines(rules("wiki-51"))
    lines = card_lines(rules("--rule", "joker_penalty=30", "--rule", "ace_penalty=15"))
    assert "ace 11, 1 in a low run (A-2-3) 15" in lines
    assert "joker the card it stands for 30" in lines


def test_no_joker_is_counted_where_none_is_in_play() -> None:
    """Basic rummy plays without jokers: the text names none (the JSON still says what one
    would count, for a table that adds them with --rule jokers=2)."""
    assert not [line for line in card_lines(rules("basic")) if line.startswith("joker")]
    assert "joker the card it stands for 20" in card_lines(rules("--preset", "basic", "--rule", "jokers=2"))


def test_the_card_values_in_german() -> None:
    assert card_lines(rules("--lang", "de", "wiki-51")) == [
        "Was jede Karte zählt:",
        "Karte in einer Auslage auf der Hand",
        "2-10 Augenzahl Augenzahl",
        "Bube, Dame, König (B, D, K) 10 10",
        "Ass 10, 1 in einer Folge von unten (A-2-3) 10",
        "Joker die Karte, für die er steht 20",
    ]


@pytest.mark.parametrize("preset", ["standard", "wiki-51", "basic"])
def test_rules_json_adds_the_card_values_and_keeps_every_option(preset: str) -> None:
    data = json.loads(rules(preset, "--json"))
    assert [name for name in data if name != "card_values"] == list(OPTION_NAMES)
    values = data["card_values"]
    assert {str(n): values[str(n)] for n in range(2, 11)} == {
        str(n): {"meld": n, "hand": n} for n in range(2, 11)
    }
    assert values["jack"] == values["queen"] == values["king"] == {"meld": 10, "hand": 10}
    assert values["ace"] == {"meld": data["ace_high_value"], "low_run": 1, "hand": data["ace_penalty"]}
    assert values["joker"] == {"meld": None, "hand": data["joker_penalty"]}


@pytest.mark.parametrize("where", [["wiki-51"], ["--preset", "wiki-51"]])
def test_a_preset_named_either_way_takes_the_rules_given_with_it_trial_issue30(where: list[str]) -> None:
    """`romme rules PRESET --rule KEY=VALUE` shows the preset with the rule changed, as
    `--preset PRESET --rule …` does (the argument used to drop every --rule)."""
    result = CliRunner().invoke(main, ["rules", *where, "--rule", "joker_penalty=30", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["joker_penalty"] == 30 and data["first_meld_min"] == 51  # wiki-51's own


@pytest.mark.parametrize(("lang", "words"), [("en", "two presets given"), ("de", "zwei Vorlagen angegeben")])
def test_two_different_presets_are_refused_in_one_sentence_trial_issue30(lang: str, words: str) -> None:
    result = CliRunner().invoke(main, ["--lang", lang, "rules", "classic", "--preset", "wiki-51"])
    assert result.exit_code == 2 and words in result.output and "Traceback" not in result.output
