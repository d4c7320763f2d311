"""`romme best`: the solver against an exhaustive search built on the referee (melds.py)."""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Iterator
from functools import cache
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from romme_score.cards import Card, full_deck, parse_cards
from romme_score.layoff import lay_off
from romme_score.melds import IllegalMeldError, Meld, interpret, penalty_value
from romme_score.rules import PRESETS, RuleSet, find_preset
from romme_score.solver import MAX_HAND_CARDS, HandTooLarge, LayOffMove, Solver, solve

RULE_VARIANTS = [find_preset(name) for name in sorted(PRESETS)] + [
    find_preset("standard").replace(max_adjacent_jokers=1),
    find_preset("standard").replace(max_jokers_per_meld=1),
    find_preset("standard").replace(min_naturals=2),
    find_preset("classic").replace(max_adjacent_jokers=2, min_naturals=2),
    find_preset("standard").replace(ace_high_runs=False),
    find_preset("standard").replace(ace_high_value=10, first_meld_pure_run=True),
]


def exhaustive(hand: list[Card], rules: RuleSet) -> tuple[int, int, set[int]]:
    """Every partition of the hand into legal melds (judged by melds.interpret) and
    leftover: the best meld value, the least leftover penalty, every leftover size."""
    cards = sorted(hand, key=Card.sort_key)

    @cache
    def legal_value(group: tuple[int, ...]) -> int | None:
        try:
            return interpret([cards[i] for i in group], rules).value
        except IllegalMeldError:
            return None

    best_value = 0
    best_penalty = sum(penalty_value(c, rules) for c in cards)
    sizes: set[int] = set()

    def search(rest: tuple[int, ...], value: int, leftover: int, left_cards: int) -> None:
        nonlocal best_value, best_penalty
        if not rest:
            best_value = max(best_value, value)
            best_penalty = min(best_penalty, leftover)
            sizes.add(left_cards)
            return
        first, others = rest[0], rest[1:]
        search(others, value, leftover + penalty_value(cards[first], rules), left_cards + 1)
        for size in range(2, min(13, len(others)) + 1):
            for combo in _combinations(others, size):
                meld_value = legal_value((first, *combo))
                if meld_value is not None:
                    remaining = tuple(i for i in others if i not in combo)
                    search(remaining, value + meld_value, leftover, left_cards)

    search(tuple(range(len(cards))), 0, 0, 0)
    return best_value, best_penalty, sizes


def _combinations(items: tuple[int, ...], size: int) -> Iterator[tuple[int, ...]]:
    return combinations(items, size)


def random_hand(rnd: random.Random, rules: RuleSet, size: int) -> list[Card]:
    deck = full_deck(rules.packs, rules.jokers)
    rnd.shuffle(deck)
    return deck[:size]


def dense_hand(rnd: random.Random, rules: RuleSet, size: int) -> list[Card]:
    """Few ranks, few suits, jokers: many overlapping melds."""
    ranks = rnd.sample(range(1, 14), 4)
    pool = [
        c
        for c in full_deck(rules.packs, 0)
        if int(c.rank or 0) in ranks or (c.rank is not None and abs(int(c.rank) - ranks[0]) <= 3)
    ]
    pool += [Card.joker()] * rules.jokers
    rnd.shuffle(pool)
    return pool[:size]


CASES = [(rules, seed) for rules in RULE_VARIANTS for seed in range(12)]


@pytest.mark.parametrize("rules, seed", CASES)
def test_solver_agrees_with_exhaustive_search(rules: RuleSet, seed: int) -> None:
    rnd = random.Random(seed)
    hand = (dense_hand if seed % 2 else random_hand)(rnd, rules, rnd.randint(5, 8))
    value, penalty, sizes = exhaustive(hand, rules)
    solver = Solver(hand, rules)
    assert solver.max_meld_value()[0] == value, hand
    assert solver.min_leftover_penalty() == penalty, hand
    options = solver.leftover_options(len(hand))
    assert {n for n in range(len(hand) + 1) if options >> n & 1} == sizes, hand


def test_seeded_corpus_agrees_across_presets() -> None:
    rnd = random.Random(20261130)
    for _ in range(150):
        rules = rnd.choice(RULE_VARIANTS)
        hand = (dense_hand if rnd.random() < 0.5 else random_hand)(rnd, rules, rnd.randint(6, 9))
        value, penalty, sizes = exhaustive(hand, rules)
        solver = Solver(hand, rules)
        assert solver.max_meld_value()[0] == value, (hand, rules)
        assert solver.min_leftover_penalty() == penalty, (hand, rules)
        options = solver.leftover_options(len(hand))
        assert {n for n in range(len(hand) + 1) if options >> n & 1} == sizes, (hand, rules)


def test_reported_arrangements_are_legal_and_add_up() -> None:
    rnd = random.Random(7)
    for _ in range(60):
        rules = rnd.choice(RULE_VARIANTS)
        hand = dense_hand(rnd, rules, rnd.randint(8, 14))
        best = solve(hand, rules, came_out=True)
        # (a): the melds reported add up to the value reported, each judged by the referee
        assert sum(interpret(list(m.cards), rules).value for m in best.value_melds) == best.max_meld_value
        assert Counter(c for m in best.value_melds for c in m.cards) <= Counter(hand)
        # (b): melds and leftover are the hand, the penalty is the leftover's
        used = [c for m in best.melds for c in m.cards] + list(best.leftover)
        assert Counter(used) == Counter(hand)
        assert best.leftover_penalty == sum(penalty_value(c, rules) for c in best.leftover)
        for m in best.melds:
            interpret(list(m.cards), rules)
        # (c): going out lays everything but the discard
        if best.can_go_out:
            out = [c for m in best.out_melds for c in m.cards]
            out += [best.discard] if best.discard is not None else []
            assert Counter(out) == Counter(hand)


@st.composite
def hands(draw: st.DrawFn) -> tuple[list[Card], RuleSet]:
    rules = draw(st.sampled_from(RULE_VARIANTS))
    deck = full_deck(rules.packs, rules.jokers)
    indices = draw(st.lists(st.integers(0, len(deck) - 1), min_size=3, max_size=13, unique=True))
    return [deck[i] for i in indices], rules


@settings(max_examples=150, deadline=None)
@given(hands(), st.randoms())
def test_no_random_legal_arrangement_beats_the_solver(
    case: tuple[list[Card], RuleSet], rnd: random.Random
) -> None:
    hand, rules = case
    solver = Solver(hand, rules)
    best_value = solver.max_meld_value()[0]
    least_penalty = solver.min_leftover_penalty()
    rest = list(hand)
    value = 0
    for _ in range(40):  # lay random legal melds while some are found
        if len(rest) < 3:
            break
        group = rnd.sample(rest, rnd.randint(3, min(6, len(rest))))
        try:
            meld = interpret(group, rules)
        except IllegalMeldError:
            continue
        value += meld.value
        for card in group:
            rest.remove(card)
    assert value <= best_value
    assert sum(penalty_value(c, rules) for c in rest) >= least_penalty


@pytest.mark.parametrize(
    "hand, value, first_ok",
    [
        ("P3 P4 P5 TB PB HB", 42, True),  # 004: 42, enough for 40
        ("TA PA J H3 H4 H5", 45, True),  # 004: 33 + 12
        ("H2 H3 H4 H5 H6 H7", 27, False),
        ("HD HK HA", 31, False),
    ],
)
def test_first_meld_examples_004(hand: str, value: int, first_ok: bool) -> None:
    best = solve(parse_cards(hand), find_preset("standard"))
    assert (best.max_meld_value, best.first_meld_ok) == (value, first_ok)


def test_pure_run_needed_to_come_out_003() -> None:
    rules = find_preset("speedromme").replace(first_meld_pure_run=True)
    assert not solve(parse_cards("TB PB HB TK PK HK"), rules).first_meld_ok
    assert solve(parse_cards("TB PB HB TK PK HK H7 H8 H9"), rules).first_meld_ok


def test_going_out_needs_a_discard_unless_out_without_discard_001_003() -> None:
    hand = parse_cards("H2 H3 H4")
    assert not solve(hand, find_preset("standard")).can_go_out
    assert solve(hand, find_preset("basic")).can_go_out
    best = solve(parse_cards("H2 H3 H4 PK"), find_preset("standard"))
    assert best.can_go_out and best.hand_romme and str(best.discard) == "♠K"


def test_going_out_after_coming_out_is_no_hand_romme() -> None:
    best = solve(parse_cards("H2 H3 H4 PK"), find_preset("standard"), came_out=True)
    assert best.can_go_out and not best.hand_romme


def test_hand_romme_needs_no_minimum_002_003() -> None:
    best = solve(parse_cards("H2 H3 H4 P2 K2 T2 PK"), find_preset("standard"))
    assert best.max_meld_value < 40 and best.can_go_out and best.hand_romme
    assert best.leftover_penalty == 10


def test_not_come_out_lays_nothing_below_the_minimum() -> None:
    best = solve(parse_cards("H2 H3 H4 PK KD"), find_preset("standard"))
    assert best.melds == () and best.leftover_penalty == 2 + 3 + 4 + 10 + 10
    best = solve(parse_cards("H2 H3 H4 PK KD"), find_preset("standard"), came_out=True)
    assert best.leftover_penalty == 20


def test_layoffs_onto_the_table_after_coming_out_000() -> None:
    rules = find_preset("standard")
    table = [interpret(parse_cards("♥2 ♥3 ♥4"), rules), interpret(parse_cards("HK KK PK"), rules)]
    best = solve(parse_cards("♥A ♥5 TK P9"), rules, table, came_out=True)
    assert best.leftover == tuple(parse_cards("P9"))
    assert best.can_go_out
    # before coming out, the table is out of reach
    assert solve(parse_cards("♥A ♥5 TK P9"), rules, table).leftover_penalty == 11 + 5 + 10 + 9


@pytest.mark.parametrize("seed", range(20))
def test_layoff_answers_match_the_lay_off_referee(seed: int) -> None:
    """Each reported lay-off, replayed with layoff.lay_off, is legal."""
    rnd = random.Random(seed)
    rules = find_preset("standard")
    table_texts = ["♥2 ♥3 ♥4", "HK KK PK", "T7 T8 T9 T10", "PA P2 P3"]
    table = [interpret(parse_cards(t), rules) for t in table_texts]
    pool = parse_cards("♥A ♥5 ♥6 TK ♣5 ♣6 ♣B ♣D P4 P5 J K9 H9 TA")
    hand = rnd.sample(pool, 7)
    best = solve(hand, rules, table, came_out=True)
    current = [list(m.cards) for m in table]
    laid: list[Card] = []
    for move in best.layoffs:
        added = list(move.cards) + [Card.joker()] * move.jokers
        result = lay_off(current[move.table], added, rules)
        assert result.freed_jokers == 0
        current[move.table] = list(result.meld.cards)
        laid += added
    for m in best.melds:
        interpret(list(m.cards), rules)
    used = [c for m in best.melds for c in m.cards] + laid + list(best.leftover)
    assert Counter(used) == Counter(hand)
    assert best.leftover_penalty == sum(penalty_value(c, rules) for c in best.leftover)


def test_layoff_takes_hand_cards_into_the_gap_000() -> None:
    """♣5 reaches the ♣7-♣10 run only with the ♣6 from the hand between them."""
    rules = find_preset("standard")
    table = [interpret(parse_cards("T7 T8 T9 T10"), rules)]
    best = solve(parse_cards("T5 T6 K2"), rules, table, came_out=True)
    assert best.layoffs == (LayOffMove(0, tuple(parse_cards("T5 T6")), 0),)
    assert best.leftover == tuple(parse_cards("K2"))


# --- the exhaustive search with melds on the table ------------------------------------------


def exhaustive_with_table(hand: list[Card], table: list[Meld], rules: RuleSet) -> tuple[int, set[int]]:
    """After coming out: every way to meld (melds.interpret), lay off (layoff.lay_off,
    the lowest card with any others of the hand at once, no joker swapped: where the
    referee offers to leave a set's joker, it stays) or keep each card; the least
    penalty left and every number of cards left."""
    cards = sorted(hand, key=Card.sort_key)
    best_penalty = sum(penalty_value(c, rules) for c in cards)
    sizes: set[int] = set()

    @cache
    def legal(group: tuple[int, ...]) -> bool:
        try:
            interpret([cards[i] for i in group], rules)
        except IllegalMeldError:
            return False
        return True

    @cache
    def laid_onto(on: tuple[Card, ...], group: tuple[int, ...]) -> tuple[Card, ...] | None:
        added = [cards[i] for i in group]
        try:
            result = lay_off(list(on), added, rules)
        except IllegalMeldError:
            return None
        if not result.freed_jokers:
            return result.meld.cards
        # 003 missing-suit: the referee offers to leave the joker in the set; no swap here
        return (*on, *added) if result.alternative is not None else None

    seen: set[tuple[tuple[int, ...], tuple[tuple[Card, ...], ...], int, int]] = set()

    def search(rest: tuple[int, ...], melds: tuple[tuple[Card, ...], ...], penalty: int, kept: int) -> None:
        nonlocal best_penalty
        if (rest, melds, penalty, kept) in seen:
            return
        seen.add((rest, melds, penalty, kept))
        if not rest:
            best_penalty = min(best_penalty, penalty)
            sizes.add(kept)
            return
        first, others = rest[0], rest[1:]
        search(others, melds, penalty + penalty_value(cards[first], rules), kept + 1)
        for size in range(0, min(12, len(others)) + 1):
            for combo in combinations(others, size):
                remaining = tuple(i for i in others if i not in combo)
                if size >= 2 and legal((first, *combo)):
                    search(remaining, melds, penalty, kept)
                for k, on in enumerate(melds):
                    laid = laid_onto(on, (first, *combo)) if size <= 3 else None
                    if laid is not None:
                        search(remaining, melds[:k] + (laid,) + melds[k + 1 :], penalty, kept)

    search(tuple(range(len(cards))), tuple(m.cards for m in table), 0, 0)
    return best_penalty, sizes


TABLE_MELDS = [
    "H2 H3 H4",
    "HK KK PK",
    "T7 T8 T9 T10",
    "PA P2 P3",
    "K5 J K7",
    "T4 P4 H4",
    "HB HD HK",
    "P10 PB PD PK PA",
    "TD TK TA",
    "H8 H9 J",
    "T9 P9 H9 K9",
    "P6 H6 K6",
    "J H6 K6",
]
TABLE_RULES = RULE_VARIANTS + [find_preset("standard").replace(joker_layoff="with-natural")]


@pytest.mark.parametrize("seed", range(int(os.environ.get("SOLVER_TABLE_CASES", "80"))))
def test_solver_with_table_agrees_with_exhaustive_search_000_003(seed: int) -> None:
    """Lay-offs (§5) onto a few table melds: the least penalty and every number of
    cards left, against melds.interpret and layoff.lay_off tried every way."""
    rnd = random.Random(seed)
    rules = TABLE_RULES[seed % len(TABLE_RULES)]
    table = []
    for text in rnd.sample(TABLE_MELDS, rnd.randint(1, 4)):
        try:
            table.append(interpret(parse_cards(text), rules))
        except IllegalMeldError:
            continue
    used = Counter(c for m in table for c in m.cards)
    pool = [c for c in full_deck(rules.packs, rules.jokers) if used[c] == 0 or c.is_joker]
    near = {c for m in table for c in m.cards if not c.is_joker}
    close = [
        c
        for c in pool
        if any(
            c.suit == n.suit and abs(int(c.rank or 0) - int(n.rank or 0)) <= 2 or c.rank == n.rank
            for n in near
        )
    ]
    hand = rnd.sample(close if len(close) >= 7 else pool, rnd.randint(4, 7))
    if rules.jokers and seed % 3 == 0:
        hand[-1] = Card.joker()
    penalty, sizes = exhaustive_with_table(hand, table, rules)
    solver = Solver(hand, rules, table, came_out=True)
    assert solver.min_leftover_penalty() == penalty, (hand, [m.format() for m in table])
    options = solver.leftover_options(len(hand))
    assert {n for n in range(len(hand) + 1) if options >> n & 1} == sizes, (hand, [m.format() for m in table])


@pytest.mark.parametrize("came_out", [False, True])
def test_going_out_keeps_the_cheapest_discard_002(came_out: bool) -> None:
    """♣A ♣2 ♣3 ♣4: either end may stay for the discard; the ♣4 costs 4, the ♣A 11."""
    best = solve(parse_cards("TA T2 T3 T4 H9 H10 HB"), find_preset("standard"), came_out=came_out)
    assert best.can_go_out and str(best.discard) == "♣4"
    if not came_out:  # (b) goes out at once: what is left is the discard alone
        assert best.leftover == tuple(parse_cards("T4")) and best.leftover_penalty == 4


def test_going_out_keeps_a_natural_rather_than_a_joker() -> None:
    best = solve(parse_cards("H2 H3 H4 J K5"), find_preset("standard"), came_out=True)
    assert best.can_go_out and str(best.discard) == "♦5"


@pytest.mark.parametrize("size", [MAX_HAND_CARDS + 1, 38, 52])
def test_hands_beyond_the_limit_are_refused_with_the_limit_named(size: int) -> None:
    hand = full_deck(2, 6)[:size]
    with pytest.raises(HandTooLarge, match=f"up to {MAX_HAND_CARDS} cards, this one has {size}"):
        solve(hand, find_preset("standard"))


def test_the_slowest_hands_at_the_limit_are_answered() -> None:
    """One suit and two cards of it again, with six jokers: the hardest 21 cards measured."""
    hand = parse_cards("HA H2 H3 H4 H5 H6 H7 H8 H9 H10 HB HD HK H5 H6 J J J J J J")
    assert len(hand) == MAX_HAND_CARDS
    best = solve(hand, find_preset("standard"))
    assert best.can_go_out and best.leftover_penalty == 0


def test_one_suit_with_six_jokers_by_three_runs_of_it_is_answered_issue_12() -> None:
    """One suit held almost whole, six jokers, three runs of that suit on the table: once
    refused at the move limit, now answered (everything can be laid)."""
    rules = find_preset("standard")
    hand = parse_cards("HA H2 H3 H4 H5 H6 H7 H8 H9 H10 HB HD HK HA H5 J J J J J J")
    table = [interpret(parse_cards(t), rules) for t in ("H2 H3 H4", "H6 H7 H8", "H9 H10 HB")]
    solver = Solver(hand, rules, table, came_out=True)
    assert solver.min_leftover_penalty() == 0
    assert solver.leftover_options() == 0b11


def test_a_search_outgrowing_its_limit_is_refused_with_the_limit_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The move limit stays as a guard: with a small one the same search is refused."""
    monkeypatch.setattr("romme_score.solver.search.MAX_TABLE_WORK", 50)
    rules = find_preset("standard")
    hand = parse_cards("HA H2 H3 H4 H5 H6 H7 H8 H9 H10 HB HD HK HA H5 J J J J J J")
    table = [interpret(parse_cards(t), rules) for t in ("H2 H3 H4", "H6 H7 H8", "H9 H10 HB")]
    with pytest.raises(HandTooLarge, match="3 table melds needs more than the 50 moves best tries"):
        Solver(hand, rules, table, came_out=True).min_leftover_penalty()


def test_layoffs_onto_two_sets_of_one_rank_go_where_each_fits_000() -> None:
    """♣6 fits only the set without it, ♠6 only the one with a joker for ♣ or ♠ (002 b:
    the joker stays, it was not declared)."""
    rules = find_preset("speedromme").replace(set_joker_swap="declared")
    table = [interpret(parse_cards(t), rules) for t in ("J ♥6 ♦6", "♠6 ♥6 ♦6")]
    best = solve(parse_cards("♣6 ♠6 K2"), rules, table, came_out=True)
    assert best.leftover == tuple(parse_cards("K2"))
    current = [list(m.cards) for m in table]
    for move in best.layoffs:
        result = lay_off(current[move.table], list(move.cards) + [Card.joker()] * move.jokers, rules)
        assert result.freed_jokers == 0
        current[move.table] = list(result.meld.cards)
    assert sorted(len(m) for m in current) == [4, 4]


@pytest.mark.parametrize("seed", range(int(os.environ.get("SOLVER_REPLAY_CASES", "30"))))
def test_every_reported_layoff_is_one_the_referee_accepts_000_003(seed: int) -> None:
    """solve() on bigger hands and tables: (b)'s and (c)'s lay-offs replayed in order
    with layoff.lay_off, every card accounted for."""
    rnd = random.Random(1000 + seed)
    rules = TABLE_RULES[seed % len(TABLE_RULES)]
    table = []
    for text in rnd.sample(TABLE_MELDS, rnd.randint(3, 8)):
        try:
            table.append(interpret(parse_cards(text), rules))
        except IllegalMeldError:
            continue
    used = Counter(c for m in table for c in m.cards)
    pool = [c for c in full_deck(rules.packs, rules.jokers) if used[c] < rules.packs and not c.is_joker]
    hand = rnd.sample(pool, rnd.randint(8, 13)) + [Card.joker()] * min(rules.jokers, seed % 3)
    best = solve(hand, rules, table, came_out=True)
    for melds, layoffs, kept in (
        (best.melds, best.layoffs, list(best.leftover)),
        (best.out_melds, best.out_layoffs, [best.discard] if best.discard is not None else []),
    ):
        if layoffs is best.out_layoffs and not best.can_go_out:
            continue
        current = [list(m.cards) for m in table]
        laid: list[Card] = []
        for move in layoffs:
            added = list(move.cards) + [Card.joker()] * move.jokers
            result = lay_off(current[move.table], added, rules)  # raises if not allowed
            kept_joker = result.freed_jokers and result.alternative is not None
            assert not result.freed_jokers or kept_joker
            current[move.table] = current[move.table] + added if kept_joker else list(result.meld.cards)
            laid += added
        for m in melds:
            interpret(list(m.cards), rules)
        assert Counter([c for m in melds for c in m.cards] + laid + kept) == Counter(hand)


@pytest.mark.parametrize("seed", range(24))
def test_branch_and_bound_agrees_with_the_plain_search_issue_12(seed: int) -> None:
    """(a) and (b) with their bounds on and off, on hands of 12-16 cards with jokers, with
    and without a table and a first meld: too large for the exhaustive search, so the
    plain memoised search (every state to the end) is the reference."""
    rnd = random.Random(4200 + seed)
    rules = TABLE_RULES[seed % len(TABLE_RULES)]
    table = []
    for text in rnd.sample(TABLE_MELDS, rnd.randint(0, 8)):
        try:
            table.append(interpret(parse_cards(text), rules))
        except IllegalMeldError:
            continue
    used = Counter(c for m in table for c in m.cards)
    pool = [c for c in full_deck(rules.packs, 0) if used[c] < rules.packs]
    hand = (dense_hand if seed % 2 else random_hand)(rnd, rules, rnd.randint(10, 13))
    hand = [c for c in hand if not c.is_joker and used[c] < rules.packs] or rnd.sample(pool, 12)
    hand += [Card.joker()] * min(rules.jokers, seed % 5)
    came_out = seed % 3 != 0
    if not came_out:
        rules = rules.replace(first_meld_layoff=seed % 2 == 0)
    plain = Solver(hand, rules, table, came_out, bounded=False)
    bounded = Solver(hand, rules, table, came_out)
    assert bounded.max_meld_value() == plain.max_meld_value(), hand
    assert bounded.min_leftover_penalty() == plain.min_leftover_penalty(), hand
    best, reference = solve_with(bounded), solve_with(plain)
    assert best == reference, hand


def solve_with(solver: Solver) -> tuple[object, ...]:
    best = solver.solve()
    return (
        best.max_meld_value,
        best.first_meld_ok,
        best.leftover_penalty,
        best.can_go_out,
        best.discard,
        best.hand_romme,
        sum(m.value for m in best.value_melds),
        len(best.leftover),
    )


def test_wraparound_run_counts_the_ace_after_the_king_high_002() -> None:
    """♣B ♣D ♣K ♣A ♣2 ♣3 under wraparound is one run worth 46 (the ace follows the king:
    11); cut into ♣B ♣D ♣K and ♣A ♣2 ♣3 it would be worth 36, so the whole run must stay
    a candidate even though it splits into two legal runs (found by review, issue 12)."""
    rules = find_preset("classic").replace(first_meld_min=45)
    hand = parse_cards("TB TD TK TA T2 T3")
    assert interpret(hand, rules).value == 46
    best = solve(hand, rules)
    assert best.max_meld_value == 46 and best.first_meld_ok
    assert Solver(hand, rules, bounded=False).max_meld_value()[0] == 46


HAND_MELDS = [
    "PB PD PK",
    "TK HK KK",
    "H10 HB HD HK",
    "T2 T3 T4",
    "K7 K8 K9 K10",
    "P5 H5 K5",
    "HA H2 H3",
    "TD PD HD KD",
    "K3 K4 K5",
]


@pytest.mark.parametrize("preset", ["wiki-51", "classic", "standard"])
def test_can_go_out_answers_as_solve_does_000_002(preset: str) -> None:
    """can_go_out() (the benchmark's (c)) and solve() agree, ordinary going out
    (hand_romme_empty_table, 000) and a Hand-Rommé with lay-offs (hand_romme_layoff, 002)
    included: hands that have not come out, beside melds on the table (found by review)."""
    rnd = random.Random(preset)
    rules = find_preset(preset)
    agreed = going_out = 0
    for _ in range(40):
        table = []
        for text in rnd.sample(TABLE_MELDS, rnd.randint(1, 5)):
            try:
                table.append(interpret(parse_cards(text), rules))
            except IllegalMeldError:
                continue
        hand = [c for text in rnd.sample(HAND_MELDS, rnd.randint(1, 3)) for c in parse_cards(text)]
        hand += rnd.sample(full_deck(1, 0), rnd.randint(1, 2))  # a discard, or a card in the way
        used = Counter(c for m in table for c in m.cards) + Counter(hand)
        if any(n > rules.packs for c, n in used.items() if not c.is_joker):
            continue
        best = solve(hand, rules, table)
        assert Solver(hand, rules, table).can_go_out() == best.can_go_out, (hand, table)
        agreed += 1
        going_out += best.can_go_out
    assert agreed > 20 and going_out > 3
