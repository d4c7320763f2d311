"""RULES.md §8: the pairwise settlement of 002 section 6, money and transfers."""

from __future__ import annotations

import itertools
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from romme_score.settlement import (
    SettlementError,
    format_money,
    min_transfers,
    nets,
    pairs,
    round_to_unit,
    settle,
    settle_games,
)

EXAMPLE = {"A": 220, "B": 360, "C": 140, "D": 490}


def test_002_settlement_example_exactly() -> None:
    s = settle(EXAMPLE, Decimal("0.001"))
    assert {p.name: p.net for p in s.players} == {"A": 330, "B": -230, "C": 650, "D": -750}
    assert {p.name: str(p.amount) for p in s.players} == \
        {"A": "0.33", "B": "-0.23", "C": "0.65", "D": "-0.75"}
    table = {(p.winner, p.loser): p.points for p in s.pairs}
    # the matrix of 002: vs A: B -140, C +80, D -270 ...
    assert table == {("A", "B"): 140, ("C", "A"): 80, ("A", "D"): 270, ("C", "B"): 220,
                     ("B", "D"): 130, ("C", "D"): 350}
    paid = {p: Decimal(0) for p in EXAMPLE}
    for t in s.transfers:
        paid[t.payer] -= t.amount
        paid[t.payee] += t.amount
    assert paid == {p.name: p.amount for p in s.players}
    assert len(s.transfers) == 3


def test_money_format_de_en() -> None:
    assert format_money(Decimal("0.33"), "EUR", "de") == "0,33 €"
    assert format_money(Decimal("0.33"), "EUR", "en") == "€0.33"
    assert format_money(Decimal("-0.23"), "EUR", "en") == "-€0.23"
    assert format_money(Decimal("5"), None, "en") == "5.00"


def test_largest_remainder_rounding_sums_to_zero() -> None:
    exact = {"A": Decimal("0.005"), "B": Decimal("0.005"), "C": Decimal("-0.01")}
    amounts, note = round_to_unit(exact, Decimal("0.01"))
    assert sum(amounts.values()) == 0
    assert note and "A" in note


def test_equal_totals_pair_with_zero_points() -> None:
    assert pairs({"A": 10, "B": 10}) == [pairs({"A": 10, "B": 10})[0]]
    assert pairs({"A": 10, "B": 10})[0].points == 0


@pytest.mark.parametrize("totals", [{"A": 1}, {}, {"A": -1, "B": 2}])
def test_bad_totals_refused(totals: dict[str, int]) -> None:
    with pytest.raises(SettlementError):
        settle(totals, Decimal("0.01"))


def test_multi_game_evening_settles_each_game_among_its_players() -> None:
    s = settle_games([{"A": 10, "B": 30}, {"B": 0, "C": 20}], [Decimal("1"), Decimal("1")])
    net = {p.name: p.net for p in s.players}
    assert net == {"A": 20, "B": -20 + 20, "C": -20}


totals_strategy = st.dictionaries(st.sampled_from("ABCDEFGHIJKL"), st.integers(0, 2000),
                                  min_size=2, max_size=6)
rate_strategy = st.sampled_from([Decimal("0.01"), Decimal("0.001"), Decimal("0.005"),
                                 Decimal("0.1"), Decimal("1"), Decimal("0.0033")])


@given(totals_strategy, rate_strategy)
def test_nets_and_amounts_sum_to_zero(totals: dict[str, int], rate: Decimal) -> None:
    s = settle(totals, rate)
    assert sum(p.net for p in s.players) == 0
    assert sum(p.amount for p in s.players) == 0


@given(totals_strategy)
def test_pairwise_table_is_antisymmetric(totals: dict[str, int]) -> None:
    table = {(p.winner, p.loser): p.points for p in pairs(totals)}
    for (w, loser), points in table.items():
        assert points == totals[loser] - totals[w] >= 0
        assert (loser, w) not in table or points == 0
    assert nets(totals) == {p: sum(totals[q] - totals[p] for q in totals) for p in totals}


@given(totals_strategy, rate_strategy)
def test_transfers_settle_every_net_exactly(totals: dict[str, int], rate: Decimal) -> None:
    s = settle(totals, rate)
    balance = {p.name: p.amount for p in s.players}
    for t in s.transfers:
        assert t.amount > 0
        balance[t.payer] += t.amount
        balance[t.payee] -= t.amount
    assert all(v == 0 for v in balance.values())


@given(totals_strategy, rate_strategy, st.randoms())
def test_result_does_not_depend_on_player_order(totals: dict[str, int], rate: Decimal,
                                               rnd: object) -> None:
    names = list(totals)
    rnd.shuffle(names)  # type: ignore[attr-defined]
    a = settle(totals, rate)
    b = settle({n: totals[n] for n in names}, rate)
    assert {p.name: (p.net, p.amount) for p in a.players} == \
        {p.name: (p.net, p.amount) for p in b.players}
    assert sorted((t.payer, t.payee, t.amount) for t in a.transfers) == \
        sorted((t.payer, t.payee, t.amount) for t in b.transfers)


def brute_force_min_transfers(balances: dict[str, int]) -> int:
    """Smallest n - k over every partition into zero-sum groups (exhaustive)."""
    items = [v for v in balances.values() if v]
    n = len(items)
    best = 0

    def partitions(rest: list[int]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        top = -1
        for size in range(len(others) + 1):
            for combo in itertools.combinations(range(len(others)), size):
                group = first + sum(others[i] for i in combo)
                if group == 0:
                    remaining = [others[i] for i in range(len(others)) if i not in combo]
                    if sum(remaining) == 0:
                        top = max(top, 1 + partitions(remaining))
        return top

    best = partitions(items)
    return n - best if n else 0


@settings(max_examples=200)
@given(st.lists(st.integers(-6, 6), min_size=1, max_size=7))
def test_number_of_transfers_is_minimal(values: list[int]) -> None:
    balances = {f"P{i}": v for i, v in enumerate(values)}
    balances["X"] = -sum(values)
    transfers = min_transfers(balances)
    assert len(transfers) == brute_force_min_transfers(balances)
    check = dict(balances)
    for payer, payee, amount in transfers:
        check[payer] += amount
        check[payee] -= amount
    assert all(v == 0 for v in check.values())


def test_twelve_players_instant() -> None:
    balances = {f"P{i}": (i % 5) - 2 for i in range(11)}
    balances["X"] = -sum(balances.values())
    assert len(min_transfers(balances)) <= 11
