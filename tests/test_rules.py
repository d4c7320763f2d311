"""RULES.md §9: every option of every preset, overrides, house-rules files."""

from __future__ import annotations

import pytest

from romme_score.cards import parse_cards
from romme_score.melds import interpretations
from romme_score.rules import (
    LEGALITY_OPTIONS,
    OPTION_NAMES,
    PRESETS,
    GameEnd,
    RuleError,
    RuleSet,
    build_rules,
    find_preset,
)

# The table of RULES.md §9, column by column: standard, wiki-51, classic, speedromme, basic.
TABLE = {
    "packs": (2, 2, 2, 2, 1),
    "jokers": (6, 6, 6, 6, 0),
    "max_players": (6, 6, 6, 4, 4),
    "first_meld_min": (40, 51, 40, 40, 0),
    "first_meld_pure_run": (False,) * 5,
    "first_meld_layoff": (False, False, False, False, True),
    "ace_high_runs": (True, True, True, True, False),
    "wraparound": (False, False, True, False, False),
    "ace_high_value": (11, 10, 11, 11, 11),
    "ace_penalty": (11, 10, 11, 11, 11),
    "joker_penalty": (20,) * 5,
    "min_naturals": (1, 2, 1, 1, 1),
    "max_jokers_per_meld": (None,) * 5,
    "max_adjacent_jokers": (None, 2, None, None, None),
    "set_joker_swap": ("missing-suit", "complete", "declared", "missing-suit", "missing-suit"),
    "swapped_joker": ("meld-now", "meld-now", "to-hand", "meld-now", "to-hand"),
    "out_without_discard": (False, False, False, False, True),
    "hand_romme_multiplier": (2, 2, 2, 2, 1),
    "joker_in_hand_doubles": (False,) * 5,
    "never_out_doubles": (False,) * 5,
    "winner_bonus": (10, 0, 10, 0, 0),
    "winner_bonus_hand_romme": (20, 0, 20, 0, 0),
    "stalemate": ("everyone-counts",) * 4 + ("nobody-scores",),
    "game_end": ("500", "open", "open", "500", "open"),
    "leaderboard": (False, False, False, True, False),
    "joker_layoff": ("clear-place",) * 5,
    "joker_swap": ("after-out",) * 5,
    "discard_joker": (True,) * 5,
    "hand_romme_empty_table": (False, True, False, False, False),
    "hand_romme_layoff": (False, False, True, False, False),
    "call_out_max": (None,) * 5,
    "color_romme": (None,) * 5,
}
PRESET_ORDER = ("standard", "wiki-51", "classic", "speedromme", "basic")


@pytest.mark.parametrize("option", sorted(TABLE))
@pytest.mark.parametrize("preset", PRESET_ORDER)
def test_preset_matches_rules_table_section9(preset: str, option: str) -> None:
    expected = TABLE[option][PRESET_ORDER.index(preset)]
    assert find_preset(preset).to_dict()[option] == expected


def test_every_option_is_in_the_table_section9() -> None:
    # an option added to the rule set needs its row here (and in RULES.md §9)
    assert set(TABLE) == set(OPTION_NAMES)
    assert set(PRESETS) == set(PRESET_ORDER)


@pytest.mark.parametrize(
    "preset, option, value, expected",
    [
        ("standard", "wraparound", "true", True),
        ("standard", "first_meld_min", "30", 30),
        ("standard", "first_meld_min", "60", 60),
        ("wiki-51", "max_adjacent_jokers", "none", None),
        ("standard", "max_jokers_per_meld", "1", 1),
        ("standard", "set_joker_swap", "declared", "declared"),
        ("standard", "stalemate", "nobody-scores", "nobody-scores"),
        ("standard", "game_end", "rounds:5", GameEnd("rounds", 5)),
        ("standard", "game_end", "1000", GameEnd("points", 1000)),
        ("standard", "game_end", "open", GameEnd("open")),
        ("standard", "joker_penalty", "25", 25),
        ("standard", "ace_penalty", "15", 15),
        ("standard", "joker_layoff", "with-natural", "with-natural"),
    ],
)
def test_each_option_overridable_on_its_own(preset: str, option: str, value: str, expected: object) -> None:
    assert getattr(find_preset(preset), option) != expected  # else the override shows nothing
    rules = build_rules(preset, [f"{option}={value}"])
    assert getattr(rules, option) == expected
    others = {k: v for k, v in rules.to_dict().items() if k != option}
    assert others == {k: v for k, v in find_preset(preset).to_dict().items() if k != option}


@pytest.mark.parametrize(
    "item, fragment",
    [
        ("foo=1", "unknown rule option 'foo'"),
        ("wrapround=true", "did you mean wraparound"),
        ("wraparound=maybe", "use true or false"),
        ("packs=3", "allowed 1-2"),
        ("min_naturals=0", "allowed 1-2"),
        ("first_meld_min=-5", "out of range"),
        ("set_joker_swap=any", "missing-suit, declared, complete"),
        ("game_end=soon", "rounds:N"),
        ("max_adjacent_jokers=0", "none or"),
        ("jokers", "KEY=VALUE"),
    ],
)
def test_unknown_options_and_bad_values_list_what_is_allowed(item: str, fragment: str) -> None:
    with pytest.raises(RuleError) as info:
        build_rules("standard", [item])
    assert fragment in str(info.value)


def test_unknown_preset_suggests_closest() -> None:
    with pytest.raises(RuleError, match="did you mean wiki-51"):
        find_preset("wiki51")


def test_house_rules_file_names_preset_and_overrides_section9() -> None:
    text = 'preset = "standard"\nfirst_meld_min = 30\nwraparound = true\njoker_in_hand_doubles = true\n'
    rules = build_rules(None, [], text)
    assert (rules.first_meld_min, rules.wraparound, rules.joker_in_hand_doubles) == (30, True, True)
    # --rule on the command line wins over the file
    assert build_rules(None, ["first_meld_min=60"], text).first_meld_min == 60


def test_rules_file_errors_are_clear() -> None:
    with pytest.raises(RuleError, match="cannot read"):
        build_rules(None, [], "preset = ")
    with pytest.raises(RuleError, match="unknown rule option"):
        build_rules(None, [], "colour = 1")


def test_too_many_jokers_for_one_pack() -> None:
    with pytest.raises(RuleError, match="more than 3 per pack"):
        RuleSet(packs=1, jokers=6)


def test_max_adjacent_one_means_one_joker_per_set_003() -> None:
    assert RuleSet(max_adjacent_jokers=1).max_jokers_in_set == 1
    assert RuleSet(max_adjacent_jokers=2).max_jokers_in_set is None


def test_rule_set_round_trips_through_dict() -> None:
    unusual = build_rules(
        "classic",
        [
            "game_end=rounds:7",
            "max_jokers_per_meld=2",
            "packs=1",
            "jokers=3",
            "joker_layoff=with-natural",
            "stalemate=nobody-scores",
        ],
    )
    for rules in [*PRESETS.values(), unusual]:
        assert RuleSet.from_dict(rules.to_dict()) == rules


# Every option, classified: does it decide which cards form a legal meld, or what a
# meld is worth? Those join RuleSet.legality_key(), which keys the solver's caches
# shared across hands; an option missing here, or classified True but left out of the
# key, fails the test below. Lay-off and scoring options are False: the solver reads
# them afresh for every hand.
AFFECTS_MELD_LEGALITY = {
    "packs": False,
    "jokers": False,
    "max_players": False,
    "first_meld_min": False,
    "first_meld_pure_run": False,
    "first_meld_layoff": False,
    "ace_high_runs": True,
    "wraparound": True,
    "ace_high_value": True,
    "ace_penalty": False,
    "joker_penalty": False,
    "min_naturals": True,
    "max_jokers_per_meld": True,
    "max_adjacent_jokers": True,
    "set_joker_swap": False,
    "swapped_joker": False,
    "joker_layoff": False,
    "out_without_discard": False,
    "hand_romme_multiplier": False,
    "joker_in_hand_doubles": False,
    "never_out_doubles": False,
    "winner_bonus": False,
    "winner_bonus_hand_romme": False,
    "stalemate": False,
    "game_end": False,
    "leaderboard": False,
    # RULES.md §5-§6 seed options: who may swap or discard a joker, what a Hand-Rommé is,
    # and how a round may end with cards in hand; none makes a meld legal or not.
    "joker_swap": False,
    "discard_joker": False,
    "hand_romme_empty_table": False,
    "hand_romme_layoff": False,
    "call_out_max": False,
    "color_romme": False,
}


def test_every_option_is_classified_and_legality_options_join_the_key() -> None:
    assert set(AFFECTS_MELD_LEGALITY) == set(OPTION_NAMES), "classify the new option above"
    assert {name for name, joins in AFFECTS_MELD_LEGALITY.items() if joins} == set(LEGALITY_OPTIONS)


@pytest.mark.parametrize(
    "option, value, meld",
    [
        ("ace_high_runs", False, "HD HK HA"),
        ("wraparound", True, "HK HA H2"),
        ("ace_high_value", 10, "TA PA HA"),
        ("min_naturals", 2, "H5 J J"),
        ("max_jokers_per_meld", 1, "H5 J J"),
        ("max_adjacent_jokers", 1, "H5 J J H8"),
    ],
)
def test_legality_options_change_a_meld_and_the_key_section2(option: str, value: object, meld: str) -> None:
    base = find_preset("standard")
    changed = base.replace(**{option: value})
    cards = parse_cards(meld)
    assert [m.value for m in interpretations(cards, base)] != [
        m.value for m in interpretations(cards, changed)
    ]
    assert base.legality_key() != changed.legality_key()


def test_top_run_position_is_the_ace_above_the_king_or_the_king_001() -> None:
    assert find_preset("standard").top_run_position == 14
    assert find_preset("basic").top_run_position == 13


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_passes_the_checks_it_skips_at_import(name: str) -> None:
    """The presets are built without checking their values (a start of `romme check` does
    less work, issue 20 item 31); rebuilt with the checks on, each is the same."""
    from dataclasses import fields

    preset = PRESETS[name]
    rebuilt = RuleSet(**{f.name: getattr(preset, f.name) for f in fields(preset)})
    assert rebuilt == preset
    with pytest.raises(RuleError):  # the checks are on again after the presets
        RuleSet(packs=0)
