"""RULES.md §5: the Skat-order joker in sets (004, 002 b), and who may lay off or swap
(``joker_swap``, 003 lobby "Joker tauschen"; ``first_meld_layoff``, 003) -- issue 14."""

from __future__ import annotations

import pytest

from romme_score.cards import SUITS, parse_cards
from romme_score.layoff import LayOff, lay_off
from romme_score.melds import IllegalMeldError, Reason, interpret
from romme_score.rules import RuleSet, find_preset

CLUBS, SPADES, HEARTS, DIAMONDS = SUITS


def move(table: str, added: str, rules: RuleSet, came_out: bool = True) -> LayOff:
    return lay_off(parse_cards(table), parse_cards(added), rules, came_out)


def refused(table: str, added: str, rules: RuleSet, came_out: bool = True) -> Reason:
    with pytest.raises(IllegalMeldError) as info:
        move(table, added, rules, came_out)
    return info.value.reason


# --- Skat order: a joker's place in a set declares its suit (004, 002 b) ----------------


@pytest.mark.parametrize(
    "cards, suits",
    [
        ("T9 J K9", (SPADES,)),  # 002 b: "im Satz C9, J, K9 der Joker die P9 ersetzt"
        ("TA J HA KA", (SPADES,)),  # 004: "an zweiter Stelle ... die Pik-Karte"
        ("TA PA HA J", (DIAMONDS,)),  # 004: "an vierter Stelle die Karo-Karte"
        ("TA PA J", (HEARTS,)),  # 004's first meld: the third place is Herz
        ("J P9 H9", (CLUBS,)),
        ("J H9 K9", (CLUBS,)),  # first place: Kreuz
        ("P9 J K9", (HEARTS,)),  # the only suit between ♠ and ♦
        ("T9 H9 J", (DIAMONDS,)),  # the only suit after ♥
        ("T9 J J K9", (SPADES, HEARTS)),
        ("K9 H9 J", (CLUBS, SPADES)),  # not in Skat order: any missing suit (003)
        ("H9 J K9", (CLUBS, SPADES)),  # nothing lies between ♥ and ♦: not in Skat order
    ],
)
def test_skat_order_joker_place_declares_suit_004_002b(cards: str, suits: tuple[object, ...]) -> None:
    meld = interpret(parse_cards(cards), find_preset("classic"))
    joker = [s for s in meld.slots if s.is_joker]
    if len(joker) == 1 and len(suits) > 1:
        assert set(joker[0].options) == set(suits)  # still open
    else:
        assert tuple(s.stands_for.suit for s in joker) == suits
        assert all(s.options == (s.stands_for.suit,) for s in joker)


@pytest.mark.parametrize(
    "preset, added, freed, result",
    [
        # 002 b: ♠9 takes the place of the joker that stands for it; it is not laid beside it.
        ("classic", "P9", 1, "♣9 ♠9 ♦9"),
        ("standard", "P9", 1, "♣9 ♠9 ♦9"),
        ("speedromme", "P9", 1, "♣9 ♠9 ♦9"),
        # ♥9 was not declared: declared (002 b) keeps the joker; 003 lets any missing suit swap.
        ("classic", "H9", 0, "♣9 J=♠9 ♥9 ♦9"),
        ("standard", "H9", 1, "♣9 ♥9 ♦9"),
        # 000 (complete): a single card joins pair and joker; the joker only leaves for four naturals.
        ("wiki-51", "P9", 0, "♣9 ♠9 J=♥9 ♦9"),
        ("wiki-51", "H9", 0, "♣9 J=♠9 ♥9 ♦9"),
        ("wiki-51", "P9 H9", 1, "♣9 ♠9 ♥9 ♦9"),
    ],
)
def test_skat_order_joker_swapped_not_laid_beside_002b(
    preset: str, added: str, freed: int, result: str
) -> None:
    outcome = move("T9 J K9", added, find_preset(preset))
    assert (outcome.freed_jokers, outcome.meld.format()) == (freed, result)
    if added == "P9":  # laying ♠9 beside the ♠9 joker is no alternative
        assert outcome.alternative is None


def test_joker_declared_by_position_keeps_its_suit_when_cards_join_004() -> None:
    # ♣9 J ♦9 under 002 b: the joker is ♠9; a joker laid beside it takes the ♥.
    outcome = move("T9 J K9", "J", find_preset("classic"))
    assert outcome.meld.format() == "♣9 J=♠9 J=♥9 ♦9"


def test_joker_laid_off_with_a_declaration_must_fit_the_set_002b() -> None:
    rules = find_preset("classic")
    assert refused("T9 P9 K9", "J=P9", rules) == Reason.DUPLICATE_SUIT
    assert refused("T9 P9 K9", "J=H8", rules) == Reason.WRONG_RANK
    assert move("T9 P9 K9", "J=H9", rules).meld.format() == "♣9 ♠9 J=♥9 ♦9"


# --- joker_swap (003 lobby "Joker tauschen") and first_meld_layoff (003) ----------------

SWAP_RUN = ("H9 J HB", "H10")  # 002 c: "aus der Folge H9, J, HB den Joker entnehmen"
LAYOFF_RUN = ("♥2 ♥3 ♥4", "♥5")  # 000: "♥2–♥3–♥4 ... ♥5 ... anlegen"


@pytest.mark.parametrize(
    "joker_swap, came_out, first_meld_layoff, expected",
    [
        ("after-out", True, False, 1),
        ("anytime", True, False, 1),
        ("never", True, False, Reason.JOKER_SWAP_FORBIDDEN),
        ("after-out", False, False, Reason.SWAP_NOT_OUT_YET),
        ("after-out", False, True, Reason.SWAP_NOT_OUT_YET),
        ("anytime", False, False, 1),  # a swap within the first meld's turn
        ("never", False, True, Reason.JOKER_SWAP_FORBIDDEN),
    ],
)
def test_joker_swap_in_run_by_house_rule_joker_swap_003(
    joker_swap: str, came_out: bool, first_meld_layoff: bool, expected: int | Reason
) -> None:
    rules = find_preset("standard").replace(joker_swap=joker_swap, first_meld_layoff=first_meld_layoff)
    if isinstance(expected, Reason):
        assert refused(*SWAP_RUN, rules, came_out) == expected
    else:
        assert move(*SWAP_RUN, rules, came_out).freed_jokers == expected


@pytest.mark.parametrize(
    "joker_swap, came_out, first_meld_layoff, expected",
    [
        ("after-out", True, False, None),
        ("never", True, False, None),  # joker_swap does not touch ordinary lay-offs
        ("after-out", False, False, Reason.NOT_OUT_YET),
        ("anytime", False, False, Reason.NOT_OUT_YET),
        ("after-out", False, True, None),  # 003 "Anlegen beim Rauskommen"
    ],
)
def test_layoff_before_coming_out_needs_first_meld_layoff_003(
    joker_swap: str, came_out: bool, first_meld_layoff: bool, expected: Reason | None
) -> None:
    rules = find_preset("standard").replace(joker_swap=joker_swap, first_meld_layoff=first_meld_layoff)
    if expected is None:
        assert move(*LAYOFF_RUN, rules, came_out).meld.format() == "♥2 ♥3 ♥4 ♥5"
    else:
        assert refused(*LAYOFF_RUN, rules, came_out) == expected


def test_swap_and_layoff_together_before_coming_out_003() -> None:
    rules = find_preset("standard").replace(joker_swap="anytime")
    assert refused("H9 J HB", "H10 HD", rules, came_out=False) == Reason.NOT_OUT_YET
    both = move("H9 J HB", "H10 HD", rules.replace(first_meld_layoff=True), came_out=False)
    assert both.freed_jokers == 1 and both.meld.format() == "♥9 ♥10 ♥B ♥D"


@pytest.mark.parametrize(
    "preset, joker_swap, came_out, first_meld_layoff, expected",
    [
        # ♠6 ♥6 J in Skat order: the joker is ♦6 (003, 004). ♣6 may swap it (003) or join.
        ("standard", "after-out", True, False, "swap or lay off"),
        ("standard", "never", True, False, "lay off"),  # no swap: ♣6 joins the set
        ("standard", "after-out", False, True, "lay off"),  # not out: no swap, lay-off allowed
        ("standard", "anytime", False, False, "swap"),  # not out: swap only
        ("standard", "after-out", False, False, Reason.NOT_OUT_YET),
        # declared (002 b): ♣6 was not declared, so it only joins
        ("classic", "never", True, False, "lay off"),
        # complete (000): "eine weitere einzelne passende Karte angelegt werden"
        ("wiki-51", "never", True, False, "lay off"),
    ],
)
def test_joker_swap_in_set_by_house_rule_joker_swap_003(
    preset: str, joker_swap: str, came_out: bool, first_meld_layoff: bool, expected: str | Reason
) -> None:
    rules = find_preset(preset).replace(joker_swap=joker_swap, first_meld_layoff=first_meld_layoff)
    if isinstance(expected, Reason):
        assert refused("♠6 ♥6 J", "♣6", rules, came_out) == expected
        return
    outcome = move("♠6 ♥6 J", "♣6", rules, came_out)
    if expected == "lay off":
        assert (outcome.freed_jokers, outcome.meld.format()) == (0, "♣6 ♠6 ♥6 J=♦6")
    else:
        assert (outcome.freed_jokers, outcome.meld.format()) == (1, "♣6 ♠6 ♥6")
        assert (outcome.alternative is not None) == (expected == "swap or lay off")


@pytest.mark.parametrize(
    "preset, added",
    [
        ("standard", "♦6"),  # the joker stands for ♦6 by its place (004): it must give way
        ("classic", "♦6"),
        ("wiki-51", "♣6 ♦6"),  # 000: the four naturals complete free the joker
    ],
)
def test_needed_joker_swap_refused_under_joker_swap_never_003(preset: str, added: str) -> None:
    rules = find_preset(preset)
    assert move("♠6 ♥6 J", added, rules).freed_jokers == 1
    assert refused("♠6 ♥6 J", added, rules.replace(joker_swap="never")) == Reason.JOKER_SWAP_FORBIDDEN
    assert (
        refused("♠6 ♥6 J", added, rules.replace(first_meld_layoff=True), came_out=False)
        == Reason.SWAP_NOT_OUT_YET
    )


def test_refusals_name_the_rule_003() -> None:
    """Each refusal names its rule as the table says it, and carries its key (issue 38 item 4)."""
    rules = find_preset("classic")
    with pytest.raises(IllegalMeldError, match=r"\(no joker swaps\)") as never:
        move(*SWAP_RUN, rules.replace(joker_swap="never"))
    assert never.value.rule == "joker_swap=never"
    with pytest.raises(IllegalMeldError, match=r"\(jokers swapped only after coming out\)") as after:
        move(*SWAP_RUN, rules, came_out=False)
    assert after.value.rule == "joker_swap=after-out"
    with pytest.raises(
        IllegalMeldError,
        match=r"\(no laying off in the first meld's turn\).*\(a Hand-Rommé may lay off\)",
    ) as not_out:
        move(*LAYOFF_RUN, rules, came_out=False)
    assert not_out.value.rule == "first_meld_layoff=false"
