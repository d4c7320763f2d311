"""RULES.md §9: the six options of issue 14 in every preset, on the command line,
in house-rules files, and stored with a session (sources 000, 002 e/f, 003)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from romme_score.rules import (
    OPTION_NAMES,
    PRESETS,
    RuleError,
    RuleSet,
    allowed_values,
    build_rules,
    find_preset,
    option_doc,
    option_source,
)
from romme_score.store.sqlite import SQLiteStore

# The last six rows of RULES.md §9: standard, wiki-51, classic, speedromme, basic.
PRESET_ORDER = ("standard", "wiki-51", "classic", "speedromme", "basic")
TABLE = {
    "joker_swap": ("after-out",) * 5,
    "discard_joker": (True,) * 5,
    "hand_romme_empty_table": (False, True, False, False, False),  # 000
    "hand_romme_layoff": (False, False, True, False, False),  # 002 "aus- oder anlegt"
    "call_out_max": (None,) * 5,
    "color_romme": (None,) * 5,
}
NEW_OPTIONS = tuple(TABLE)


@pytest.mark.parametrize("option", NEW_OPTIONS)
@pytest.mark.parametrize("preset", PRESET_ORDER)
def test_seed_options_in_presets_match_rules_table_section9(preset: str, option: str) -> None:
    assert find_preset(preset).to_dict()[option] == TABLE[option][PRESET_ORDER.index(preset)]


@pytest.mark.parametrize(
    "option, source",
    [
        ("joker_swap", "003"),
        ("discard_joker", "003"),
        ("hand_romme_empty_table", "000"),
        ("hand_romme_layoff", "002"),
        ("call_out_max", "002 e"),
        ("color_romme", "002 f"),
    ],
)
def test_seed_option_documented_with_its_source(option: str, source: str) -> None:
    # `romme rules` shows option_doc and allowed_values for every option, and with
    # --verbose option_source: the source file of RULES.md (the meaning names it in words).
    assert option in OPTION_NAMES
    assert source in option_source(option)
    assert source not in option_doc(option)


@pytest.mark.parametrize(
    "option, allowed",
    [
        ("joker_swap", "after-out, anytime, never"),
        ("discard_joker", "true or false"),
        ("hand_romme_empty_table", "true or false"),
        ("hand_romme_layoff", "true or false"),
        ("call_out_max", "none or 1-1000"),
        ("color_romme", "none or 1-26"),
    ],
)
def test_seed_option_allowed_values_section9(option: str, allowed: str) -> None:
    assert allowed_values(option) == allowed


@pytest.mark.parametrize(
    "option, value, expected",
    [
        ("joker_swap", "never", "never"),
        ("joker_swap", "anytime", "anytime"),
        ("joker_swap", "after-out", "after-out"),
        ("discard_joker", "false", False),
        ("hand_romme_empty_table", "true", True),
        ("hand_romme_layoff", "true", True),
        ("call_out_max", "10", 10),
        ("call_out_max", "none", None),
        ("color_romme", "10", 10),
        ("color_romme", "none", None),
    ],
)
def test_seed_option_overridable_with_rule_flag(option: str, value: str, expected: object) -> None:
    base = find_preset("standard").replace(call_out_max=5, color_romme=5)
    rules = RuleSet.from_dict({option: value}, base)
    assert getattr(rules, option) == expected
    others = {k: v for k, v in rules.to_dict().items() if k != option}
    assert others == {k: v for k, v in base.to_dict().items() if k != option}
    assert getattr(build_rules("standard", [f"{option}={value}"]), option) == expected


def test_seed_options_in_house_rules_file_section9() -> None:
    text = (
        'preset = "classic"\njoker_swap = "never"\ndiscard_joker = false\n'
        'call_out_max = 10\ncolor_romme = "none"\n'
    )
    rules = build_rules(None, [], text)
    assert (rules.joker_swap, rules.discard_joker, rules.call_out_max, rules.color_romme) == (
        "never",
        False,
        10,
        None,
    )
    assert rules.hand_romme_layoff  # from the classic preset (002)
    assert build_rules(None, ["color_romme=10"], text).color_romme == 10


@pytest.mark.parametrize(
    "item, fragment",
    [
        ("joker_swap=sometimes", "after-out, anytime, never"),
        ("discard_joker=maybe", "use true or false"),
        ("call_out_max=0", "none or 1-1000"),
        ("color_romme=ten", "none or 1-26"),
        ("colour_romme=10", "did you mean color_romme"),
    ],
)
def test_seed_option_bad_values_say_what_is_allowed(item: str, fragment: str) -> None:
    with pytest.raises(RuleError) as info:
        build_rules("standard", [item])
    assert fragment in str(info.value)


def test_seed_options_round_trip_through_dict() -> None:
    rules = find_preset("classic").replace(
        joker_swap="anytime", discard_joker=False, call_out_max=10, color_romme=10
    )
    assert RuleSet.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules


def test_rules_stored_before_seed_options_load_with_defaults() -> None:
    old = {k: v for k, v in find_preset("standard").to_dict().items() if k not in NEW_OPTIONS}
    old["wraparound"] = True
    rules = RuleSet.from_dict(old)
    assert rules.wraparound
    assert {k: getattr(rules, k) for k in NEW_OPTIONS} == {k: getattr(RuleSet(), k) for k in NEW_OPTIONS}


def test_seed_options_stored_with_session(tmp_path: Path) -> None:
    rules = find_preset("wiki-51").replace(joker_swap="never", call_out_max=10)
    with SQLiteStore(tmp_path / "r.sqlite3") as store:
        store.create_session("Fri", ["Anna", "Ben"], rules, None, None, 0)
        assert store.session("Fri").rules == rules
        # A session written before these options existed still loads, with the defaults.
        old = {k: v for k, v in rules.to_dict().items() if k not in NEW_OPTIONS}
        with store.conn.write() as db:
            db.execute("UPDATE sessions SET rules = ? WHERE name = 'Fri'", (json.dumps(old),))
        loaded = store.session("Fri").rules
    assert loaded.first_meld_min == 51 and loaded.joker_swap == "after-out"
    assert loaded.call_out_max is None and not loaded.hand_romme_empty_table


def test_every_preset_keeps_the_new_options_valid() -> None:
    for rules in PRESETS.values():
        assert RuleSet.from_dict(rules.to_dict()) == rules


def test_example_house_rules_files_state_the_seed_options() -> None:
    examples = Path(__file__).parent.parent / "examples" / "house-rules"
    for path in sorted(examples.glob("*.toml")):
        build_rules(None, [], path.read_text(encoding="utf-8"), path.name)
    classic = build_rules(None, [], (examples / "classic-variants.toml").read_text(encoding="utf-8"))
    assert (classic.call_out_max, classic.color_romme, classic.hand_romme_layoff) == (10, 10, True)
    strict = build_rules(None, [], (examples / "strict-speed.toml").read_text(encoding="utf-8"))
    assert strict.discard_joker is False
