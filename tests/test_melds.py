"""RULES.md §2-§4: melds, values, first meld; sources 000-004 and their worked examples."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from romme_score.cards import RANKS, SUITS, Card, Profile, Rank, parse_cards
from romme_score.melds import (
    FirstMeld,
    IllegalMeldError,
    Meld,
    MeldKind,
    Reason,
    check_supply,
    interpret,
    interpretations,
    is_legal,
    judge_first_meld,
    penalty_value,
    verify,
)
from romme_score.rules import PRESETS, RuleSet, build_rules, find_preset

ALL_PRESETS = sorted(PRESETS)


def meld(text: str, rules: RuleSet, profile: Profile = "de") -> Meld:
    return interpret(parse_cards(text, profile), rules)


def reason(text: str, rules: RuleSet) -> Reason:
    with pytest.raises(IllegalMeldError) as info:
        verify(parse_cards(text), rules)
    return info.value.reason


# --- §2 sets ------------------------------------------------------------------


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize(
    "text, value",
    [
        ("HK KK PK", 30),
        ("T2 K2 H2 P2", 8),
        ("PB HB KB", 30),
    ],
)
def test_set_three_or_four_of_a_rank_000_002_003_004(preset: str, text: str, value: int) -> None:
    m = meld(text, find_preset(preset))
    assert (m.kind, m.value) == (MeldKind.SET, value)


@pytest.mark.parametrize(
    "preset, value",
    [
        ("standard", 33),
        ("wiki-51", 30),
        ("classic", 33),
        ("speedromme", 33),
        ("basic", 33),
    ],
)
def test_ace_set_counts_the_high_ace_000_002_004(preset: str, value: int) -> None:
    # 000: ace 10 in wiki-51; the others 11 ("As-Satz = 33" in 004)
    m = meld("TA PA HA", find_preset(preset))
    assert (m.kind, m.value) == (MeldKind.SET, value)


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_set_never_holds_a_suit_twice_002_003(preset: str) -> None:
    assert reason("HK HK PK", find_preset(preset)) == Reason.DUPLICATE_SUIT


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_set_has_at_most_four_cards_003(preset: str) -> None:
    rules = find_preset(preset).replace(jokers=6, packs=2)
    assert reason("HK KK PK TK J", rules) == Reason.SET_TOO_LARGE


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_meld_needs_three_cards(preset: str) -> None:
    assert reason("HK KK", find_preset(preset)) == Reason.TOO_FEW_CARDS


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_mixed_ranks_and_suits_is_no_meld(preset: str) -> None:
    assert reason("H5 P6 H7", find_preset(preset)) == Reason.MIXED


# --- §2 runs --------------------------------------------------------------------


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize(
    "text, value",
    [
        ("T9 T10 TB TD TK", 49),
        ("H4 H5 H6 H7 H8 H9", 39),
        ("TA T2 T3", 6),
        ("P3 P4 P5", 12),
    ],
)
def test_run_three_or_more_in_suit_all_sources(preset: str, text: str, value: int) -> None:
    m = meld(text, find_preset(preset))
    assert (m.kind, m.value) == (MeldKind.RUN, value)


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_run_may_be_typed_in_any_order_section2(preset: str) -> None:
    assert meld("T3 TA T2", find_preset(preset)).value == 6


@pytest.mark.parametrize(
    "preset, value",
    [
        ("standard", 31),
        ("wiki-51", 30),
        ("classic", 31),
        ("speedromme", 31),
        ("basic", None),
    ],
)
def test_ace_high_run_dka_needs_ace_high_runs_001(preset: str, value: int | None) -> None:
    rules = find_preset(preset)
    assert is_legal(parse_cards("TD TK TA"), rules) is (value is not None)
    if value is not None:
        assert meld("TD TK TA", rules).value == value
    else:
        assert reason("TD TK TA", rules) == Reason.ACE_HIGH


@pytest.mark.parametrize(
    "preset, legal",
    [
        ("standard", False),
        ("wiki-51", False),
        ("classic", True),
        ("speedromme", False),
        ("basic", False),
    ],
)
def test_wraparound_run_needs_house_rule_000_002_003_004(preset: str, legal: bool) -> None:
    # 000: "nicht aber ♠K–♠A–♠2"; 002: "D, K, A, 2, 3" allowed; 002 c forbids it.
    rules = find_preset(preset)
    assert is_legal(parse_cards("♠K ♠A ♠2"), rules) is legal
    assert is_legal(parse_cards("HD HK HA H2 H3"), rules) is legal
    if not legal and rules.ace_high_runs:
        assert reason("♠K ♠A ♠2", rules) == Reason.WRAPAROUND


def test_wraparound_dka23_value_002() -> None:
    # 002: ace 11 in a run with a king ("nur 1 Punkt in der Folge ohne König").
    assert meld("HD HK HA H2 H3", find_preset("classic")).value == 10 + 10 + 11 + 2 + 3


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_run_never_holds_a_rank_twice(preset: str) -> None:
    assert reason("H4 H5 H5 H6", find_preset(preset)) == Reason.DUPLICATE_RANK


def test_run_at_most_thirteen_cards() -> None:
    rules = find_preset("standard")
    full = " ".join(f"H{r}" for r in ["A", 2, 3, 4, 5, 6, 7, 8, 9, 10, "B", "D", "K"])
    assert meld(full, rules).value == 1 + sum(range(2, 11)) + 30
    assert reason(full + " J", rules) == Reason.RUN_TOO_LONG


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_gap_in_run_is_named(preset: str) -> None:
    rules = find_preset(preset).replace(packs=2, jokers=6)
    with pytest.raises(IllegalMeldError, match="gap of 3 cards but only 1 joker"):
        verify(parse_cards("H5 H9 J"), rules)


# --- §2 jokers ------------------------------------------------------------------


def test_joker_has_fixed_place_in_run_003_004() -> None:
    m = meld("H9 J HB", find_preset("standard"))
    assert [str(s.stands_for) for s in m.slots] == ["♥9", "♥10", "♥B"]
    assert m.value == 29


def test_joker_in_set_stands_for_missing_suit_003() -> None:
    m = meld("K6 H6 J", find_preset("standard"))  # 002: "K6, H6, J"
    joker = [s for s in m.slots if s.is_joker][0]
    assert set(joker.options) == {SUITS[0], SUITS[1]}


def test_joker_declaration_is_honoured_002b_004() -> None:
    m = meld("T9 J=P9 K9", find_preset("classic"))  # 002 b: "C9, J, K9" declared as P9
    joker = [s for s in m.slots if s.is_joker][0]
    assert str(joker.stands_for) == "♠9"


def test_joker_declaration_must_fit() -> None:
    assert reason("T9 J=T9 K9", find_preset("classic")) == Reason.DECLARATION
    assert reason("J=P8 H9 H10", find_preset("standard")) == Reason.DECLARATION


def test_skat_order_declares_set_joker_004() -> None:
    # 004: "Liegt also der Joker an zweiter Stelle, so ersetzt er die Pik-Karte"
    m = meld("TA J HA KA", find_preset("classic"))
    joker = [s for s in m.slots if s.is_joker][0]
    assert joker.options == (SUITS[1],)


@pytest.mark.parametrize(
    "preset, legal",
    [
        ("standard", True),
        ("wiki-51", True),
        ("classic", True),
        ("speedromme", True),
    ],
)
def test_000_spade_3_jj_6_two_adjacent_jokers(preset: str, legal: bool) -> None:
    # 000: "♠3–J–J–♠6 eine erlaubte Kombination"
    assert is_legal(parse_cards("♠3 J J ♠6"), find_preset(preset)) is legal


def test_adjacent_jokers_forbidden_with_max_adjacent_one_003() -> None:
    rules = find_preset("speedromme").replace(max_adjacent_jokers=1)
    assert reason("♠3 J J ♠6", rules) == Reason.ADJACENT_JOKERS
    assert is_legal(parse_cards("♠3 J ♠5 J"), rules)
    # ♠5 J J is still legal as J ♠5 J (♠4 ♠5 ♠6): the jokers are not side by side
    assert str(interpret(parse_cards("♠5 J J"), rules).slots[0].stands_for) == "♠4"
    # "in Sätzen höchstens einer"
    assert reason("♠5 ♥5 J J", rules) == Reason.TOO_MANY_JOKERS


def test_min_naturals_two_000() -> None:
    # 000: "nicht gestattet, eine Figur mit nur einer natürlichen Karte und zwei Jokern"
    assert reason("♠5 J J", find_preset("wiki-51")) == Reason.TOO_FEW_NATURALS
    assert is_legal(parse_cards("♠5 J J"), find_preset("standard"))


def test_min_naturals_one_003() -> None:
    assert reason("J J J", find_preset("speedromme")) == Reason.TOO_FEW_NATURALS


def test_max_one_joker_per_meld_003() -> None:
    rules = find_preset("speedromme").replace(max_jokers_per_meld=1)
    assert reason("H4 J H6 J", rules) == Reason.TOO_MANY_JOKERS
    assert is_legal(parse_cards("H4 J H6"), rules)


def test_interpretation_written_order_fixes_joker_section2() -> None:
    rules = find_preset("standard")
    assert [str(s.stands_for) for s in meld("♥4 ♥5 J", rules).slots][-1] == "♥6"
    assert [str(s.stands_for) for s in meld("J ♥4 ♥5", rules).slots][0] == "♥3"


def test_interpretation_highest_value_when_open_section2() -> None:
    rules = find_preset("standard")
    # joker at either end: written out of order, the higher end counts
    assert meld("♥4 J ♥5", rules).value == 4 + 5 + 6
    # ♥5 J J as set (15) or run: the highest value, a run 5-6-7 (18)
    m = meld("♥5 J J", rules)
    assert (m.kind, m.value) == (MeldKind.RUN, 18)
    kinds = {i.kind for i in interpretations(parse_cards("♥5 J J"), rules)}
    assert kinds == {MeldKind.RUN, MeldKind.SET}


# --- §3 values ------------------------------------------------------------------


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_ace_low_run_counts_one_002_003(preset: str) -> None:
    assert meld("TA T2 T3", find_preset(preset)).value == 6


def test_ace_high_value_ten_000() -> None:
    assert meld("PA HA KA", find_preset("wiki-51")).value == 30
    assert meld("TD TK TA", find_preset("wiki-51")).value == 30


def test_joker_counts_as_the_card_it_stands_for_002() -> None:
    assert meld("HD J HA", find_preset("standard")).value == 10 + 10 + 11


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize(
    "text, points",
    [
        ("J", 20),
        ("HK", 10),
        ("HD", 10),
        ("HB", 10),
        ("H10", 10),
        ("H7", 7),
        ("H2", 2),
    ],
)
def test_penalty_values_000_002_003_004(preset: str, text: str, points: int) -> None:
    assert penalty_value(parse_cards(text)[0], find_preset(preset)) == points


@pytest.mark.parametrize(
    "preset, points",
    [
        ("standard", 11),
        ("wiki-51", 10),
        ("classic", 11),
        ("speedromme", 11),
        ("basic", 11),
    ],
)
def test_ace_penalty_000_002_003_004(preset: str, points: int) -> None:
    assert penalty_value(parse_cards("HA")[0], find_preset(preset)) == points


def test_penalty_values_configurable() -> None:
    rules = build_rules("standard", ["joker_penalty=25", "ace_penalty=15"])
    assert penalty_value(Card.joker(), rules) == 25
    assert penalty_value(Card(Rank.ACE, SUITS[0]), rules) == 15


# --- §4 first meld and the worked examples ------------------------------------------


def first(texts: list[str], rules: RuleSet) -> FirstMeld:
    return judge_first_meld([interpret(parse_cards(t), rules) for t in texts], rules)


def test_004_pik_345_and_three_jacks_make_42() -> None:
    verdict = first(["P3 P4 P5", "TB PB HB"], find_preset("standard"))
    assert (verdict.total, verdict.ok) == (42, True)


def test_004_ace_set_with_joker_and_herz_345_make_45() -> None:
    # 004: "As-Satz = 33, Herz-Folge = 12, zusammen 45 Augen"
    verdict = first(["TA PA J", "H3 H4 H5"], find_preset("standard"))
    assert (verdict.total, verdict.ok) == (45, True)


@pytest.mark.parametrize(
    "preset, minimum",
    [
        ("standard", 40),
        ("wiki-51", 51),
        ("classic", 40),
        ("speedromme", 40),
        ("basic", 0),
    ],
)
def test_first_meld_minimum_per_preset_000_002_003_004(preset: str, minimum: int) -> None:
    rules = find_preset(preset)
    verdict = first(["P3 P4 P5", "TB PB HB"], rules)
    assert verdict.required == minimum
    assert verdict.ok is (42 >= minimum)


@pytest.mark.parametrize("minimum, ok", [(30, True), (40, True), (60, False)])
def test_first_meld_house_minimums_002d_003(minimum: int, ok: bool) -> None:
    rules = find_preset("standard").replace(first_meld_min=minimum)
    assert first(["P3 P4 P5", "TB PB HB"], rules).ok is ok


def test_first_meld_pure_run_003() -> None:
    rules = find_preset("speedromme").replace(first_meld_pure_run=True)
    no_run = first(["TB PB HB", "TK PK J"], rules)
    assert (no_run.ok, no_run.reason) == (False, Reason.NO_PURE_RUN)
    joker_run = first(["TB PB HB", "H8 J H10"], rules)
    assert not joker_run.ok
    assert first(["TB PB HB", "H8 H9 H10"], rules).ok


def test_first_meld_fails_with_an_illegal_meld() -> None:
    rules = find_preset("standard")
    assert not judge_first_meld([None, meld("TB PB HB", rules)], rules).ok


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_no_card_more_often_than_the_packs_hold_section1(preset: str) -> None:
    rules = find_preset(preset)
    cards = parse_cards("HK KK PK HK TK PK")
    if rules.packs == 2:
        check_supply(cards, rules)
        with pytest.raises(IllegalMeldError):
            check_supply(cards + parse_cards("HK"), rules)
    else:
        with pytest.raises(IllegalMeldError) as info:
            check_supply(cards, rules)
        assert info.value.reason == Reason.TOO_MANY_COPIES


def test_no_more_jokers_than_in_play() -> None:
    with pytest.raises(IllegalMeldError) as info:
        check_supply(parse_cards("H5 J J"), find_preset("basic"))
    assert info.value.reason == Reason.NO_JOKERS_IN_PLAY


# --- properties --------------------------------------------------------------------


@st.composite
def legal_runs(draw: st.DrawFn) -> tuple[list[Card], RuleSet]:
    rules = find_preset(draw(st.sampled_from(ALL_PRESETS))).replace(jokers=6, packs=2)
    suit = draw(st.sampled_from(SUITS))
    length = draw(st.integers(3, 13))
    top = 14 if rules.ace_high_runs else 13
    start = draw(st.integers(1, top - length + 1))
    cards = [Card(RANKS[(p - 1) % 13], suit) for p in range(start, start + length)]
    jokers = draw(st.sets(st.integers(0, length - 1), max_size=length - rules.min_naturals))
    side_by_side = max(
        (len(stretch) for stretch in "".join("J" if i in jokers else " " for i in range(length)).split()),
        default=0,
    )
    assume(side_by_side <= (rules.max_adjacent_jokers or length))
    cards = [Card.joker() if i in jokers else c for i, c in enumerate(cards)]
    return cards, rules


@given(legal_runs())
def test_reversed_legal_run_stays_legal_with_same_value(case: tuple[list[Card], RuleSet]) -> None:
    cards, rules = case
    found = interpretations(cards, rules)
    assert found, "a run built to be legal was refused"
    assert interpret(cards[::-1], rules).value == found[0].value


@given(legal_runs())
def test_meld_value_at_least_natural_cards_low_values(case: tuple[list[Card], RuleSet]) -> None:
    cards, rules = case
    found = interpretations(cards, rules)
    assert found, "a run built to be legal was refused"
    low = sum(1 if c.rank == Rank.ACE else min(10, int(c.rank or 0)) for c in cards if not c.is_joker)
    assert found[0].value >= low


@given(
    st.lists(
        st.sampled_from([Card(r, s) for s in SUITS for r in RANKS] + [Card.joker()]), min_size=0, max_size=8
    ),
    st.sampled_from(ALL_PRESETS),
)
def test_any_cards_are_legal_or_get_a_reason(cards: list[Card], preset: str) -> None:
    rules = find_preset(preset)
    try:
        m = interpret(cards, rules)
    except IllegalMeldError as exc:
        assert isinstance(exc.reason, Reason) and str(exc)
    else:
        assert sorted(map(str, m.cards)) == sorted(map(str, cards))
        low = sum(1 if c.rank == Rank.ACE else min(10, int(c.rank or 0)) for c in cards if not c.is_joker)
        assert m.value >= low
