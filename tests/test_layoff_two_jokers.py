"""Two lone jokers laid off together onto a run open at both ends (RULES.md §5, from 003's
"where its place is clear"): they take both ends, one each, under joker_layoff =
clear-place, never under with-natural (004). The referee (layoff.lay_off) and the solver
(romme best) agree on it, and on every lone joker, under every joker rule (issue 20 item 27).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest
from clirun import run
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from romme_score.cards import SUITS, Card, Rank, parse_cards
from romme_score.layoff import lay_off
from romme_score.melds import IllegalMeldError, Meld, Reason, interpret
from romme_score.rules import RuleSet, find_preset
from romme_score.solver import LayOffMove, Solver, solve

STANDARD = find_preset("standard")
JOKER_RULES = [
    STANDARD,
    STANDARD.replace(joker_layoff="with-natural"),
    STANDARD.replace(ace_high_runs=False),
    STANDARD.replace(wraparound=True),
    STANDARD.replace(max_adjacent_jokers=1),
    STANDARD.replace(max_adjacent_jokers=2, min_naturals=2),
    STANDARD.replace(max_jokers_per_meld=1),
    STANDARD.replace(max_jokers_per_meld=2),
    find_preset("wiki-51"),
    find_preset("basic").replace(jokers=3),
    find_preset("classic"),
]


def two_jokers() -> list[Card]:
    return [Card.joker(), Card.joker()]


# --- the rule, as the referee judges it ------------------------------------------------------


@pytest.mark.parametrize(
    "table, rules, laid",
    [
        ("HB HD HK", STANDARD, "J=H10 HB HD HK J=HA"),  # RULES.md §5's own example
        ("H5 H6 H7", STANDARD, "J=H4 H5 H6 H7 J=H8"),
        ("H2 H3 H4", STANDARD.replace(wraparound=True), "J=HA H2 H3 H4 J=H5"),
        ("J=H4 H5 H6 H7", STANDARD, "J=H3 J=H4 H5 H6 H7 J=H8"),
        ("HB HD HK", STANDARD.replace(ace_high_runs=False), "J=H9 J=H10 HB HD HK"),  # one end open
        ("HA H2 H3", STANDARD, "HA H2 H3 J=H4 J=H5"),  # one end open
        ("H5 H6 H7", STANDARD.replace(max_adjacent_jokers=1), "J=H4 H5 H6 H7 J=H8"),  # not side by side
    ],
)
def test_two_lone_jokers_take_both_open_ends_of_a_run_rules_5_003(
    table: str, rules: RuleSet, laid: str
) -> None:
    move = lay_off(parse_cards(table), two_jokers(), rules)
    assert move.meld.format() == interpret(parse_cards(laid), rules).format()
    assert move.freed_jokers == 0


@pytest.mark.parametrize(
    "table, added, rules, reason",
    [
        ("HB HD HK", "J J", STANDARD.replace(joker_layoff="with-natural"), Reason.JOKER_NEEDS_NATURAL),  # 004
        ("HB HD HK", "J", STANDARD, Reason.JOKER_PLACE_UNCLEAR),  # one lone joker: ♥10 or ♥A
        ("H5 H6 H7", "J J J", STANDARD, Reason.JOKER_PLACE_UNCLEAR),  # three: not one each
        ("H5 H6 H7", "J=H8 J", STANDARD, Reason.JOKER_PLACE_UNCLEAR),  # one of them declared: not lone
        ("J=H5 H6 H7", "J J", STANDARD.replace(max_adjacent_jokers=1), Reason.ADJACENT_JOKERS),
        ("H5 H6 H7", "J J", STANDARD.replace(max_jokers_per_meld=1), Reason.TOO_MANY_JOKERS),
    ],
)
def test_two_lone_jokers_on_both_ends_need_clear_place_and_the_limits_rules_5_004(
    table: str, added: str, rules: RuleSet, reason: Reason
) -> None:
    with pytest.raises(IllegalMeldError) as info:
        lay_off(parse_cards(table), parse_cards(added), rules)
    assert info.value.reason == reason


# --- the rule, as the solver plays it ---------------------------------------------------------


def replay(table: Sequence[Meld], moves: Sequence[LayOffMove], rules: RuleSet) -> list[list[Card]]:
    """The table after the solver's lay-offs, each judged by the referee (raises if refused)."""
    current = [list(m.cards) for m in table]
    for move in moves:
        added = list(move.cards) + [Card.joker()] * move.jokers
        result = lay_off(current[move.table], added, rules)
        kept_joker = result.freed_jokers and result.alternative is not None
        assert not result.freed_jokers or kept_joker
        current[move.table] = current[move.table] + added if kept_joker else declared(result.meld)
    return current


def declared(meld: Meld) -> list[Card]:
    """The meld's cards with each joker declared as what it stands for (read back as laid)."""
    return [
        Card.joker(s.stands_for) if s.is_joker and s.card.declared is None else s.card for s in meld.slots
    ]


def test_the_solver_lays_two_lone_jokers_onto_both_ends_rules_5_003() -> None:
    table = [interpret(parse_cards("HB HD HK"), STANDARD)]
    best = solve(parse_cards("J J T2"), STANDARD, table, came_out=True)
    assert best.can_go_out and str(best.discard) == "♣2"
    assert best.out_layoffs == (LayOffMove(0, (), 2),)
    replay(table, best.out_layoffs, STANDARD)
    assert lay_off(list(table[0].cards), two_jokers(), STANDARD).meld.format() == "J=♥10 ♥B ♥D ♥K J=♥A"
    # one lone joker has no clear place there, and 004 lays none
    assert not solve(parse_cards("J T2"), STANDARD, table, came_out=True).can_go_out
    with_natural = STANDARD.replace(joker_layoff="with-natural")
    assert not solve(parse_cards("J J T2"), with_natural, table, came_out=True).can_go_out


def test_the_solver_lays_an_odd_joker_where_an_end_is_closed_rules_5_003() -> None:
    """Three jokers: two onto the run open at both ends, the third where its place is clear."""
    table = [interpret(parse_cards(t), STANDARD) for t in ("H5 H6 H7", "TA T2 T3")]
    best = solve(parse_cards("J J J P9"), STANDARD, table, came_out=True)
    assert best.can_go_out and str(best.discard) == "♠9"
    assert sorted(best.out_layoffs) == [LayOffMove(0, (), 2), LayOffMove(1, (), 1)]
    replay(table, best.out_layoffs, STANDARD)
    alone = [table[0]]  # the run open at both ends alone takes two, never three
    solver = Solver(parse_cards("J J J"), STANDARD, alone, came_out=True)
    assert solver.leftover_options(3) == 0b1010  # 1 or 3 jokers left, never 0 or 2


def test_romme_best_lays_two_lone_jokers_onto_both_ends(tmp_path: object) -> None:
    code, out, err = run("best", "J J T2", "--table", "HB HD HK", "--came-out")
    assert code == 0, err
    assert "J=♥10" in out and "J=♥A" in out, out
    code, out, err = run("best", "J J T2", "--table", "HB HD HK", "--came-out", "--json")
    data = json.loads(out)
    assert data["can_go_out"] is True, data


# --- the referee and the solver agree ---------------------------------------------------------


@st.composite
def table_run(draw: st.DrawFn, rules: RuleSet) -> list[Card]:
    """A run on the table: any suit, place and length, jokers declared at either end."""
    top = 14 if rules.ace_high_runs else 13
    length = draw(st.integers(3, 12))
    start = draw(st.integers(1, max(1, top - length + 1)))
    suit = draw(st.sampled_from(SUITS))
    cards = [Card(Rank((start + i - 1) % 13 + 1), suit) for i in range(min(length, top - start + 1))]
    for end in (0, -1):
        if draw(st.booleans()) and draw(st.booleans()):
            cards[end] = Card.joker(cards[end])
    return cards


@st.composite
def position(draw: st.DrawFn) -> tuple[RuleSet, list[Meld], list[Card]]:
    rules = draw(st.sampled_from(JOKER_RULES))
    table = []
    for _ in range(draw(st.integers(1, 3))):
        try:
            table.append(interpret(draw(table_run(rules)), rules))
        except IllegalMeldError:
            continue
    assume(table)
    used = {c for m in table for c in m.cards}
    naturals = draw(
        st.lists(
            st.sampled_from([Card(r, s) for s in SUITS for r in Rank if Card(r, s) not in used]),
            max_size=4,
            unique=True,
        )
    )
    hand = naturals + [Card.joker()] * draw(st.integers(0, min(5, rules.jokers)))
    assume(hand)
    return rules, table, hand


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position())
def test_whatever_the_solver_lays_off_the_referee_accepts_rules_5(
    found: tuple[RuleSet, list[Meld], list[Card]],
) -> None:
    rules, table, hand = found
    best = solve(hand, rules, table, came_out=True)
    replay(table, best.layoffs, rules)
    if best.can_go_out:
        replay(table, best.out_layoffs, rules)


def referee_counts(run_cards: list[Card], jokers: int, rules: RuleSet) -> set[int]:
    """Every number of lone jokers the referee lets a player lay onto one run, in as many
    lay-offs as they like, each of one or more jokers."""
    seen: set[tuple[tuple[str, ...], int]] = set()
    counts = {0}

    def search(cards: list[Card], left: int) -> None:
        key = (tuple(c.format(ascii=True) for c in cards), left)
        if key in seen:
            return
        seen.add(key)
        counts.add(jokers - left)
        for k in range(1, left + 1):
            try:
                move = lay_off(cards, [Card.joker()] * k, rules)
            except IllegalMeldError:
                continue
            search(list(move.meld.cards), left - k)

    search(run_cards, jokers)
    return counts


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(JOKER_RULES).flatmap(lambda r: st.tuples(st.just(r), table_run(r))), st.integers(1, 5))
def test_the_solver_lays_as_many_lone_jokers_as_the_referee_lets_it_rules_5(
    found: tuple[RuleSet, list[Card]], jokers: int
) -> None:
    """Vice versa, for small cases: a hand of jokers only, one run on the table."""
    rules, cards = found
    try:
        table = [interpret(cards, rules)]
    except IllegalMeldError:
        assume(False)
        return
    solver = Solver([Card.joker()] * jokers, rules, table, came_out=True)
    options = solver.leftover_options(jokers)
    solver_counts = {jokers - left for left in range(jokers + 1) if options >> left & 1}
    assert solver_counts == referee_counts(list(table[0].cards), jokers, rules), table[0].format()


@pytest.mark.parametrize(
    "table, hand, rules",
    [
        ("TA T2 T3 T4 T5 T6 T7 T8 T9 J=T10", "TD J", STANDARD.replace(wraparound=True)),  # J=♣B or J=♣K
        ("T3 T4 T5 T6 T7 T8 T9 T10 TB TD", "TA J", STANDARD),  # ♣A J=♣2 below or J=♣K ♣A above
    ],
)
def test_a_natural_with_a_joker_that_fits_either_end_is_laid_where_clear(
    table: str, hand: str, rules: RuleSet
) -> None:
    """Found by the property test above: a card that fits both ends (an ace, or any card
    around the corner) laid with a joker: the referee refuses it (the joker's place is not
    clear), so the solver does not lay it either (it did: its blocks looked at one end at
    a time)."""
    melds = [interpret(parse_cards(table), rules)]
    best = solve(parse_cards(hand), rules, melds, came_out=True)
    replay(melds, best.layoffs, rules)
    assert not best.layoffs  # the natural alone has no place, and with the joker no clear one
