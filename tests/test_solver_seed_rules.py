"""The solver under the seed options of RULES.md §5/§6 (issue 14): 003 "Joker abwerfen"
(discard_joker), 000's Hand-Rommé only before anybody melded (hand_romme_empty_table),
002's Hand-Rommé with lay-offs (hand_romme_layoff), and the Skat-order joker of a set
on the table (004, 002 b). Each is checked on the sources' cases and against an
exhaustive search built on melds.interpret and layoff.lay_off."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from itertools import combinations

import pytest
from test_solver import TABLE_MELDS, dense_hand, exhaustive, exhaustive_with_table, random_hand

from romme_score.cards import Card, full_deck, parse_cards
from romme_score.melds import IllegalMeldError, Meld, MeldKind, interpret
from romme_score.rules import RuleSet, find_preset
from romme_score.solver import solve


def table_of(*texts: str, rules: RuleSet) -> list[Meld]:
    return [interpret(parse_cards(t), rules) for t in texts]


# --- the sources' cases ---------------------------------------------------------------


def test_discard_joker_false_keeps_a_natural_or_cannot_go_out_003() -> None:
    hand = parse_cards("H2 H3 J T9 P9 J J")
    rules = find_preset("standard").replace(max_jokers_per_meld=1)
    assert solve(hand, rules).can_go_out and solve(hand, rules).discard == Card.joker()
    strict = solve(hand, rules.replace(discard_joker=False))
    assert not strict.can_go_out and strict.discard is None


def test_discard_joker_false_discards_the_cheapest_natural_003() -> None:
    hand = parse_cards("H2 H3 H4 T9 P9 K9 J HK")
    best = solve(hand, find_preset("standard").replace(discard_joker=False))
    assert best.can_go_out and best.discard is not None and not best.discard.is_joker


def test_hand_romme_empty_table_makes_going_out_an_ordinary_first_meld_000() -> None:
    rules = find_preset("wiki-51")
    hand = parse_cards("H2 H3 H4 P5 K5 T5 K2")  # 24 points: a Hand-Rommé only on an empty table
    table = table_of("T7 T8 T9", rules=rules)
    assert solve(hand, rules).hand_romme
    on_table = solve(hand, rules, table)
    assert not on_table.can_go_out and not on_table.hand_romme
    rich = parse_cards("HB HD HK PK KK TK H3")  # 30 + 30 = 60 >= 51
    ordinary = solve(rich, rules, table)
    assert ordinary.can_go_out and not ordinary.hand_romme
    assert sum(m.value for m in ordinary.out_melds) >= rules.first_meld_min


def test_hand_romme_layoff_may_lay_off_onto_the_table_002() -> None:
    rules = find_preset("classic")
    table = table_of("T7 T8 T9", rules=rules)
    hand = parse_cards("H2 H3 H4 T10 K2")
    best = solve(hand, rules, table)
    assert best.can_go_out and best.hand_romme and best.discard == parse_cards("K2")[0]
    assert [c for m in best.out_layoffs for c in m.cards] == parse_cards("T10")
    assert not solve(hand, rules.replace(hand_romme_layoff=False), table).can_go_out


def test_skat_order_joker_in_a_table_set_takes_no_card_beside_it_002_b() -> None:
    rules = find_preset("classic")
    table = table_of("T9 J K9", rules=rules)  # the joker stands for ♠9 by its place
    best = solve(parse_cards("P9 H2 H3 H4 HK"), rules, table, came_out=True)
    assert all(c != parse_cards("P9")[0] for m in best.layoffs for c in m.cards)
    assert parse_cards("P9")[0] in best.leftover


# --- exhaustive cross-checks ----------------------------------------------------------


def full_partitions(hand: list[Card], rules: RuleSet) -> set[tuple[int, bool]]:
    """(meld value, holds a run without jokers) of every way to lay the whole hand as
    melds judged by melds.interpret."""
    cards = sorted(hand, key=Card.sort_key)
    found: set[tuple[int, bool]] = set()

    @cache
    def meld(group: tuple[int, ...]) -> tuple[int, bool] | None:
        try:
            m = interpret([cards[i] for i in group], rules)
        except IllegalMeldError:
            return None
        return m.value, m.kind == MeldKind.RUN and m.jokers == 0

    def search(rest: tuple[int, ...], value: int, pure: bool) -> None:
        if not rest:
            found.add((value, pure))
            return
        first, others = rest[0], rest[1:]
        for size in range(2, len(others) + 1):
            for combo in combinations(others, size):
                got = meld((first, *combo))
                if got is not None:
                    search(tuple(i for i in others if i not in combo), value + got[0], pure or got[1])

    search(tuple(range(len(cards))), 0, False)
    return found


VARIANTS = [
    find_preset("standard"),
    find_preset("wiki-51"),
    find_preset("classic"),
    find_preset("standard").replace(max_jokers_per_meld=1),
    find_preset("standard").replace(first_meld_pure_run=True),
]


@pytest.mark.parametrize("seed", range(36))
def test_discard_joker_false_agrees_with_exhaustive_search_003(seed: int) -> None:
    rnd = random.Random(seed)
    rules = VARIANTS[seed % len(VARIANTS)].replace(discard_joker=False)
    hand = (dense_hand if seed % 2 else random_hand)(rnd, rules, rnd.randint(4, 8))
    if seed % 3 == 0:
        hand[-1] = Card.joker()
    naturals = {c for c in hand if not c.is_joker}
    expected = any(
        0 in exhaustive([*hand[: hand.index(d)], *hand[hand.index(d) + 1 :]], rules)[2] for d in naturals
    )
    if rules.out_without_discard:
        expected = expected or 0 in exhaustive(hand, rules)[2]
    best = solve(hand, rules)
    assert best.can_go_out == expected, hand
    assert best.discard is None or not best.discard.is_joker


@pytest.mark.parametrize("seed", range(30))
def test_hand_romme_empty_table_agrees_with_exhaustive_search_000(seed: int) -> None:
    rnd = random.Random(seed)
    rules = VARIANTS[seed % len(VARIANTS)].replace(hand_romme_empty_table=True)
    table = table_of("T7 T8 T9", rules=rules)
    hand = (dense_hand if seed % 2 else random_hand)(rnd, rules, rnd.randint(4, 8))
    hand = [c for c in hand if c not in table[0].cards] or parse_cards("H2 H3 H4 K5")

    def goes_out(rest: list[Card]) -> bool:
        return bool(rest) and any(
            value >= rules.first_meld_min and (pure or not rules.first_meld_pure_run)
            for value, pure in full_partitions(rest, rules)
        )

    discards = [d for d in set(hand) if rules.discard_joker or not d.is_joker]
    expected = any(goes_out([*hand[: hand.index(d)], *hand[hand.index(d) + 1 :]]) for d in discards)
    best = solve(hand, rules, table)
    assert best.can_go_out == expected, hand
    assert not best.hand_romme


@pytest.mark.parametrize("seed", range(30))
def test_hand_romme_layoff_goes_out_as_after_coming_out_002(seed: int) -> None:
    """With hand_romme_layoff the hand goes out at once exactly when it could after
    coming out (where lay-offs are checked exhaustively with layoff.lay_off)."""
    rnd = random.Random(seed)
    rules = find_preset("classic")
    table = []
    for text in rnd.sample(TABLE_MELDS, rnd.randint(1, 3)):
        try:
            table.append(interpret(parse_cards(text), rules))
        except IllegalMeldError:
            continue
    used = Counter(c for m in table for c in m.cards)
    pool = [c for c in full_deck(2, 6) if used[c] == 0 or c.is_joker]
    near = {c for m in table for c in m.cards if not c.is_joker}
    close = [
        c
        for c in pool
        if any(
            c.suit == n.suit and abs(int(c.rank or 0) - int(n.rank or 0)) <= 1 or c.rank == n.rank
            for n in near
        )
    ]
    hand = rnd.sample(close, rnd.randint(1, 3)) + rnd.sample(pool, rnd.randint(2, 4))
    _, sizes = exhaustive_with_table(hand, table, rules)
    best = solve(hand, rules, table)
    assert best.can_go_out == (1 in sizes), (hand, [m.format() for m in table])
    assert best.hand_romme == best.can_go_out
