"""RULES.md §5: laying off and swapping jokers (000, 002 c, 003, 004)."""

from __future__ import annotations

import pytest

from romme_score.cards import parse_cards
from romme_score.layoff import LayOff, lay_off
from romme_score.melds import IllegalMeldError, Reason
from romme_score.rules import PRESETS, RuleSet, build_rules, find_preset

ALL_PRESETS = sorted(PRESETS)


def move(table: str, added: str, rules: RuleSet) -> LayOff:
    return lay_off(parse_cards(table), parse_cards(added), rules)


def refused(table: str, added: str, rules: RuleSet) -> Reason:
    with pytest.raises(IllegalMeldError) as info:
        move(table, added, rules)
    return info.value.reason


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_layoff_extends_run_at_both_ends_000(preset: str) -> None:
    # 000: "Auf dem Tisch liegt ♥2–♥3–♥4. Hält ein Spieler ♥A und ♥5 ..."
    result = move("♥2 ♥3 ♥4", "♥A ♥5", find_preset(preset))
    assert result.meld.format() == "♥A ♥2 ♥3 ♥4 ♥5"
    assert result.freed_jokers == 0


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_layoff_completes_set_to_four(preset: str) -> None:
    assert move("HK KK PK", "TK", find_preset(preset)).meld.format() == "♣K ♠K ♥K ♦K"


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_layoff_refuses_wrong_cards(preset: str) -> None:
    rules = find_preset(preset)
    assert refused("♥2 ♥3 ♥4", "♠5", rules) == Reason.WRONG_SUIT
    assert refused("♥2 ♥3 ♥4", "♥3", rules) == Reason.DUPLICATE_RANK
    assert refused("♥2 ♥3 ♥4", "♥7", rules) == Reason.GAP
    assert refused("HK KK PK", "HK", rules) == Reason.DUPLICATE_SUIT
    assert refused("HK KK PK", "HD", rules) == Reason.WRONG_RANK
    assert refused("HK KK PK TK", "TK", rules) == Reason.DUPLICATE_SUIT


def test_layoff_onto_illegal_table_meld_is_refused() -> None:
    assert refused("♥2 ♥3 ♥7", "♥4", find_preset("standard")) == Reason.TABLE_MELD_ILLEGAL


def test_layoff_around_the_corner_needs_wraparound_002c() -> None:
    assert refused("HA H2 H3", "HK", find_preset("standard")) == Reason.WRAPAROUND
    assert move("HA H2 H3", "HK", find_preset("classic")).meld.format() == "♥K ♥A ♥2 ♥3"


def test_layoff_ace_above_king_needs_ace_high_runs_001() -> None:
    assert refused("HB HD HK", "HA", find_preset("basic")) == Reason.ACE_HIGH
    assert move("HB HD HK", "HA", find_preset("standard")).meld.value == 41


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_joker_swap_in_run_002c_003_004(preset: str) -> None:
    rules = find_preset(preset)
    if rules.jokers == 0:
        rules = rules.replace(jokers=3)
    # 002 c: "aus der Folge H9, J, HB den Joker entnehmen, wenn dafür H10 eingefügt wird"
    result = move("H9 J HB", "H10", rules)
    assert result.freed_jokers == 1 and result.meld.format() == "♥9 ♥10 ♥B"
    # 000: "♣B–J–♣K–♣A ... die ♣D"
    if rules.ace_high_runs:
        assert move("TB J TK TA", "TD", rules).freed_jokers == 1


def test_swapped_joker_meld_now_or_to_hand_000_003() -> None:
    assert "laid out again this turn" in move("H9 J HB", "H10", find_preset("standard")).note
    assert "goes to your hand" in move("H9 J HB", "H10", find_preset("classic")).note


def test_joker_swap_missing_suit_003() -> None:
    rules = find_preset("speedromme")
    assert move("♠6 ♥6 J", "♣6", rules).freed_jokers == 1
    assert move("♠6 ♥6 J", "♦6", rules).freed_jokers == 1


def test_joker_swap_declared_only_002b_004() -> None:
    rules = find_preset("classic")
    assert move("T9 J=P9 K9", "P9", rules).freed_jokers == 1
    not_declared = move("T9 J=P9 K9", "H9", rules)
    assert not_declared.freed_jokers == 0
    assert not_declared.meld.format() == "♣9 J=♠9 ♥9 ♦9"


def test_joker_swap_declared_by_skat_order_004() -> None:
    rules = find_preset("classic")
    # ♣9 ♠9 J laid in Skat order: the joker in third place is the Herz.
    assert move("T9 P9 J", "H9", rules).freed_jokers == 1
    assert move("T9 P9 J", "K9", rules).freed_jokers == 0


def test_joker_swap_complete_only_with_four_naturals_000() -> None:
    rules = find_preset("wiki-51")
    # "An eine Figur aus einem Paar und einem Joker kann eine weitere einzelne passende
    # Karte angelegt werden; der Joker darf jedoch erst aufgenommen werden, wenn die vier
    # wertgleichen Karten vollständig sind."
    single = move("♠6 ♥6 J", "♣6", rules)
    assert single.freed_jokers == 0 and len(single.meld.slots) == 4
    both = move("♠6 ♥6 J", "♣6 ♦6", rules)
    assert both.freed_jokers == 1 and both.meld.format() == "♣6 ♠6 ♥6 ♦6"


def test_joker_layoff_clear_place_003() -> None:
    rules = find_preset("speedromme")
    assert refused("♥2 ♥3 ♥4", "J", rules) == Reason.JOKER_PLACE_UNCLEAR
    assert move("♥2 ♥3 ♥4", "J=♥5", rules).meld.format().endswith("J=♥5")
    # only one end free: the place is clear
    assert move("HB HD HK HA", "J", rules).meld.slots[0].stands_for.format() == "♥10"
    assert move("HK KK PK", "J", rules).meld.jokers == 1


def test_joker_layoff_only_with_natural_004() -> None:
    # 004: "ich habe den Joker und Kreuz 8 in der Hand, so kann ich den Joker als die
    # fehlende Kreuz 7 mit der Kreuz 8 zusammen anlegen"
    rules = find_preset("standard").replace(joker_layoff="with-natural")
    result = move("T3 T4 T5 T6", "J T8", rules)
    assert result.meld.format() == "♣3 ♣4 ♣5 ♣6 J=♣7 ♣8"
    assert refused("HB HD HK HA", "J", rules) == Reason.JOKER_NEEDS_NATURAL
    # "An offenliegende Sätze kann der Joker nicht angelegt werden"
    assert refused("HK KK PK", "J", rules) == Reason.JOKER_ONTO_SET


@pytest.mark.parametrize(
    "table, added, limit, expected",
    [
        ("J H5 H6", "J=H3", "max_adjacent_jokers=1", Reason.ADJACENT_JOKERS),
        ("H4 H5 J", "J=H7", "max_adjacent_jokers=1", Reason.ADJACENT_JOKERS),
        ("H4 J H6", "J=H7", "max_jokers_per_meld=1", Reason.TOO_MANY_JOKERS),
        ("HK KK J", "J", "max_adjacent_jokers=1", Reason.TOO_MANY_JOKERS),  # 003: in sets one
    ],
)
def test_layoff_respects_joker_limits_003(table: str, added: str, limit: str, expected: Reason) -> None:
    rules = find_preset("standard")
    assert move(table, added, rules).meld.jokers == 2  # without the limit it is accepted
    assert refused(table, added, build_rules("standard", [limit])) == expected
