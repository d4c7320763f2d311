"""The tournament's core (RULES.md §10): tables, seating, scoring, ranking, teams, money,
and the options that hold every number of §10. One test per rule, named after it; the
tournament over sessions and the command line are in test_tournament_cli.py."""

from __future__ import annotations

import random
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from romme_score.rules import RuleError
from romme_score.tournament.options import (
    TOURNAMENT_OPTION_NAMES,
    Prize,
    TournamentOptions,
    build_tournament,
)
from romme_score.tournament.rules import (
    Game,
    PrizesAbovePot,
    Ranked,
    Result,
    TooFewPlayers,
    TooManyPlayers,
    check_entrants,
    deal_tables,
    draw_order,
    game_wertung,
    largest_remainder,
    lost_games,
    paid_in,
    payout,
    prize_shares,
    rank,
    rank_teams,
    read_entrant,
    read_players_file,
    seat_series,
    table_results,
    table_sizes,
)

WERTUNG = TournamentOptions(scoring="wertung")
AUGEN = TournamentOptions(scoring="augen")


# --- tables ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(3, 501))
def test_tables_differ_by_at_most_one_player_rules_10(players: int) -> None:
    sizes = table_sizes(players)
    assert sum(sizes) == players
    assert max(sizes) - min(sizes) <= 1
    assert min(sizes) >= 3  # never fewer than 3 at a table
    assert sizes == sorted(sizes, reverse=True)  # tables with more players come first
    if players == 5:  # 4 + 1 would leave a table below 3: one table of 5
        assert sizes == [5]
    else:
        assert len(sizes) == -(-players // 4) and max(sizes) <= 4


def test_thirteen_and_fourteen_players_sit_at_four_tables_rules_10() -> None:
    assert table_sizes(13) == [4, 3, 3, 3]
    assert table_sizes(14) == [4, 4, 3, 3]
    assert table_sizes(12) == [4, 4, 4]


def test_a_table_below_three_means_fewer_tables_with_one_player_more_rules_10() -> None:
    assert table_sizes(5) == [5]
    assert table_sizes(7, size=6) == [4, 3]
    assert table_sizes(5, size=3) == [5]  # 3 + 2: the 2 would be too few
    assert table_sizes(8, size=3) == [4, 4]  # 3 + 3 + 2: two tables of 4 instead
    assert table_sizes(5, size=2, smallest=2) == [3, 2]


def test_at_least_three_players_in_all_rules_10() -> None:
    with pytest.raises(TooFewPlayers):
        table_sizes(2)
    with pytest.raises(TooFewPlayers):
        check_entrants([read_entrant("Anna"), read_entrant("Ben")], TournamentOptions())
    assert len(check_entrants([read_entrant(n) for n in ("Anna", "Ben", "Carl")], TournamentOptions())) == 3
    with pytest.raises(TooManyPlayers):
        check_entrants([read_entrant(f"P{i}") for i in range(501)], TournamentOptions())


def test_table_size_and_min_table_are_options_rules_10() -> None:
    assert table_sizes(12, size=5, smallest=3) == [4, 4, 4]
    assert table_sizes(11, size=6, smallest=4) == [6, 5]
    _, options = build_tournament(None, ["table_size=5", "min_table=4"])
    assert (options.table_size, options.min_table) == (5, 4)
    with pytest.raises(RuleError, match="smaller than min_table"):
        build_tournament(None, ["table_size=3", "min_table=4"])


# --- seating ---------------------------------------------------------------------------


def test_seating_draw_is_by_lot_from_a_recorded_seed_and_can_be_repeated_rules_10() -> None:
    starts = list(range(1, 14))
    first = draw_order(starts, seed=2026, series=1)
    assert first == draw_order(reversed(starts), seed=2026, series=1)  # the same seed, the same draw
    assert sorted(first) == starts and first != starts
    assert draw_order(starts, seed=2027, series=1) != first  # another seed, another draw
    assert draw_order(starts, seed=2026, series=2) != first  # each series drawn anew
    checked = list(starts)  # anyone can check it with Python alone
    random.Random("2026:1").shuffle(checked)
    assert checked == first
    options = TournamentOptions(seating="draw")
    assert seat_series(options, starts, 2026, 1) == deal_tables(first, [4, 3, 3, 3])


def test_seating_standings_draws_series_1_then_table_1_takes_places_1_to_4_rules_10() -> None:
    options = TournamentOptions(seating="standings")
    starts = list(range(1, 14))
    assert seat_series(options, starts, 5, 1) == deal_tables(draw_order(starts, 5, 1), [4, 3, 3, 3])
    ranking = [7, 3, 12, 1, 9, 2, 13, 4, 5, 6, 8, 10, 11]  # the places after series 1, best first
    assert seat_series(options, starts, 5, 2, ranking) == [
        (7, 3, 12, 1),  # table 1: places 1-4, seat 1 the best
        (9, 2, 13),
        (4, 5, 6),
        (8, 10, 11),
    ]


def test_seating_fixed_keeps_the_order_given_table_by_table_rules_10() -> None:
    options = TournamentOptions(seating="fixed")
    assert seat_series(options, [3, 1, 2, 4, 5, 6, 7], 1, 1) == [(1, 2, 3, 4), (5, 6, 7)]
    assert seat_series(options, [1, 2, 4, 5, 6, 7], 1, 2) == [(1, 2, 4), (5, 6, 7)]


def test_tables_with_more_players_come_first_rules_10() -> None:
    for seating in ("draw", "standings", "fixed"):
        options = TournamentOptions(seating=seating)
        tables = seat_series(options, list(range(1, 15)), 9, 2, list(range(14, 0, -1)))
        assert [len(t) for t in tables] == [4, 4, 3, 3]


def test_a_withdrawn_player_is_not_seated_again_rules_10() -> None:
    options = TournamentOptions(seating="standings")
    active = [s for s in range(1, 14) if s != 5]  # 5 withdrew
    tables = seat_series(options, active, 1, 3, [5, *active])
    assert [len(t) for t in tables] == [4, 4, 4] and all(5 not in t for t in tables)
    assert tables[0] == tuple(active[:4])


# --- scoring -------------------------------------------------------------------------------

GAMES = [
    Game("Anna", False, {"Anna": 0, "Ben": 12, "Carl": 31}),
    Game("Ben", True, {"Anna": 16, "Ben": 0, "Carl": 40}, {"Ben": 10}),  # a Hand-Rommé: doubled
    Game(None, False, {"Anna": 10, "Ben": 20, "Carl": 30}),  # a stalemate
]


def test_scoring_augen_sums_the_penalty_points_at_the_table_lower_is_better_rules_10() -> None:
    # The session's totals: points as recorded (doubled after a Hand-Rommé) less the bonus.
    assert table_results(["Anna", "Ben", "Carl"], GAMES, AUGEN) == {
        "Anna": 0 + 16 + 10,
        "Ben": 12 + 0 - 10 + 20,
        "Carl": 31 + 40 + 30,
    }
    assert AUGEN.better() == "low"


def test_scoring_wertung_win_5_hand_romme_8_losers_3_2_1_by_their_points_rules_10() -> None:
    assert table_results(["Anna", "Ben", "Carl"], GAMES, WERTUNG) == {
        "Anna": 5 + 2 + 3,  # won; 16 after the doubling: at most 20 -> 2; 10 -> 3
        "Ben": 2 + 8 + 2,  # 12 -> 2; a Hand-Rommé; 20 -> 2
        "Carl": 0 + 0 + 1,  # 31 and 40 are above 30; 30 -> 1
    }
    assert WERTUNG.better() == "high"


def test_wertung_counts_the_points_recorded_after_any_doubling_rules_10() -> None:
    assert game_wertung(8, won=False, hand_romme=False, options=WERTUNG) == 3
    assert game_wertung(16, won=False, hand_romme=True, options=WERTUNG) == 2  # 8 doubled


def test_every_wertung_number_is_an_option_rules_10() -> None:
    _, options = build_tournament(
        None, ["scoring=wertung", "wertung_win=4", "wertung_hand_romme=10", "wertung_low=5:2,15:1"]
    )
    assert table_results(["Anna", "Ben", "Carl"], GAMES, options) == {
        "Anna": 4 + 0 + 1,  # won; 16 is above 15; 10 is at most 15
        "Ben": 1 + 10 + 0,
        "Carl": 0,
    }
    _, options = build_tournament(None, [], 'wertung_low = [[10, 3], [20, 2]]\nscoring = "wertung"')
    assert options.wertung_low == ((10, 3), (20, 2))
    _, options = build_tournament(None, ["wertung_low=none"])
    assert options.wertung_low == () and game_wertung(0, False, False, options) == 0


# --- ranking ---------------------------------------------------------------------------------


def test_the_tournament_result_is_the_sum_of_the_series_results_rules_10() -> None:
    ranked = rank([Result(1, (3, 9, 4)), Result(2, (10, 1, 1))], WERTUNG)
    assert [(r.start, r.total) for r in ranked] == [(1, 16), (2, 12)]


def test_equal_totals_share_a_place_and_the_next_place_skips_rules_10() -> None:
    results = [Result(1, (10,)), Result(2, (12,)), Result(3, (12,)), Result(4, (9,))]
    assert [(r.start, r.place) for r in rank(results, WERTUNG)] == [(2, 1), (3, 1), (1, 3), (4, 4)]
    assert [(r.start, r.place) for r in rank(results, AUGEN)] == [(4, 1), (1, 2), (2, 3), (3, 3)]


def test_tie_break_best_series_then_the_last_series_rules_10() -> None:
    options = TournamentOptions(scoring="wertung", tie_break="best-series")
    results = [
        Result(1, (10, 10, 10)),  # 30, best 10
        Result(2, (5, 5, 20)),  # 30, best 20
        Result(3, (12, 12, 6)),  # 30, best 12, last 6
        Result(4, (6, 12, 12)),  # 30, best 12, last 12
        Result(5, (12, 6, 12)),  # 30, best 12, last 12: the same as 4
    ]
    assert [(r.start, r.place) for r in rank(results, options)] == [(2, 1), (4, 2), (5, 2), (3, 4), (1, 5)]
    augen = TournamentOptions(scoring="augen", tie_break="best-series")
    assert [r.start for r in rank([Result(1, (50, 50)), Result(2, (70, 30))], augen)] == [2, 1]


def test_a_withdrawn_player_keeps_the_series_played_rules_10() -> None:
    # In wertung a missing series scores nothing; in augen it cannot count as a good one:
    # a player who played fewer series ranks after those who played them all.
    results = [Result(1, (40, 50, 60)), Result(2, (20, 30, None)), Result(3, (50, 50, 50))]
    ranked = rank(results, AUGEN)
    assert [(r.start, r.place, r.total, r.series) for r in ranked] == [
        (1, 1, 150, (40, 50, 60)),
        (3, 1, 150, (50, 50, 50)),
        (2, 3, 50, (20, 30, None)),
    ]
    assert [(r.start, r.place) for r in rank(results, WERTUNG)] == [(1, 1), (3, 1), (2, 3)]


def test_a_teams_result_is_the_sum_of_its_players_results_rules_10() -> None:
    totals = {1: 30, 2: 12, 3: 25, 4: 17, 5: 40}
    teams = {"Nord": [1, 2], "Süd": [3, 4], "Ost": [5]}
    assert [(t.team, t.place, t.total, t.players) for t in rank_teams(teams, totals, WERTUNG)] == [
        ("Nord", 1, 42, (1, 2)),
        ("Süd", 1, 42, (3, 4)),
        ("Ost", 3, 40, (5,)),
    ]
    assert [t.team for t in rank_teams(teams, totals, AUGEN)] == ["Ost", "Nord", "Süd"]


# --- money ------------------------------------------------------------------------------------


def test_every_game_not_won_costs_the_lost_game_fee_and_a_stalemate_everyone_rules_10() -> None:
    assert lost_games(["Anna", "Ben", "Carl"], GAMES) == {"Anna": 2, "Ben": 2, "Carl": 3}
    options = TournamentOptions(entry_fee=Decimal(10), lost_game_fee=Decimal("0.50"))
    assert paid_in({1: 2, 2: 2, 3: 3}, options) == {
        1: Decimal("11.00"),
        2: Decimal("11.00"),
        3: Decimal("11.50"),
    }


def test_the_pot_is_the_entry_fees_plus_the_lost_game_fees_rules_10() -> None:
    options = TournamentOptions(entry_fee=Decimal(10), lost_game_fee=Decimal("0.50"))
    ranking = [Ranked(1, 1, 0, ()), Ranked(2, 2, 0, ()), Ranked(3, 3, 0, ())]
    result = payout(ranking, paid_in({1: 2, 2: 2, 3: 3}, options), options)
    assert result.pot == Decimal("33.50") and result.kept == Decimal("33.50")  # no prizes: all kept


def test_prizes_are_amounts_or_percentages_of_the_pot_paid_by_place_rules_10() -> None:
    prizes = (Prize(Decimal(50), True), Prize(Decimal(10), False), Prize(Decimal(5), True))
    options = TournamentOptions(entry_fee=Decimal(10), prizes=prizes)
    ranking = [Ranked(s, p, 0, ()) for s, p in ((4, 1), (1, 2), (2, 3), (3, 4))]
    result = payout(ranking, paid_in(dict.fromkeys((1, 2, 3, 4), 0), options), options)
    assert result.pot == Decimal("40.00")
    assert [(m.start, m.receives) for m in result.players] == [
        (4, Decimal("20.00")),
        (1, Decimal("10.00")),
        (2, Decimal("2.00")),
        (3, Decimal("0.00")),
    ]
    assert result.kept == Decimal("8.00")
    _, options = build_tournament(None, ["prizes=100,50,25.50"])
    assert options.prizes == (
        Prize(Decimal(100), False),
        Prize(Decimal(50), False),
        Prize(Decimal("25.50"), False),
    )


def test_shared_places_split_the_prizes_of_the_places_they_cover_rules_10() -> None:
    prizes = (Prize(Decimal(40), True), Prize(Decimal(25), True), Prize(Decimal(15), True))
    ranking = [Ranked(1, 1, 0, ()), Ranked(2, 2, 0, ()), Ranked(3, 2, 0, ()), Ranked(4, 4, 0, ())]
    assert prize_shares(ranking, prizes, Decimal(100)) == {1: 40, 2: 20, 3: 20, 4: 0}
    ranking = [Ranked(1, 1, 0, ()), Ranked(2, 1, 0, ()), Ranked(3, 1, 0, ()), Ranked(4, 4, 0, ())]
    assert prize_shares(ranking, prizes, Decimal(100)) == {
        1: Fraction(80, 3),
        2: Fraction(80, 3),
        3: Fraction(80, 3),
        4: 0,
    }
    options = TournamentOptions(entry_fee=Decimal(25), prizes=prizes)
    result = payout(ranking, paid_in(dict.fromkeys((1, 2, 3, 4), 0), options), options)
    # 80 % of 100 split three ways is 26.666...: the cents go to the largest remainders,
    # equal ones to the better place and then the lower start number, so the sum stays exact
    assert [m.receives for m in result.players] == [Decimal("26.67"), Decimal("26.67"), Decimal("26.66"), 0]
    assert result.kept == Decimal("20.00")


def test_prizes_above_the_pot_are_refused_rules_10() -> None:
    options = TournamentOptions(entry_fee=Decimal(5), prizes=(Prize(Decimal(100), False),))
    with pytest.raises(PrizesAbovePot):
        payout([Ranked(1, 1, 0, ())], {1: Decimal(5)}, options)
    with pytest.raises(RuleError, match="more than all of it"):
        build_tournament(None, ["prizes=60%,50%"])


money = st.decimals(min_value=0, max_value=100, places=2)


@settings(max_examples=200, deadline=None)
@given(
    fee=money,
    lost_fee=money,
    lost=st.lists(st.integers(0, 60), min_size=3, max_size=30),
    percents=st.lists(st.integers(0, 40), max_size=6),
    places=st.data(),
)
def test_the_payout_sums_to_the_pot_exactly_rules_10(
    fee: Decimal, lost_fee: Decimal, lost: list[int], percents: list[int], places: st.DataObject
) -> None:
    percents = percents if sum(percents) <= 100 else [100 // max(1, len(percents))] * len(percents)
    prizes = tuple(Prize(Decimal(p), True) for p in percents)
    options = TournamentOptions(entry_fee=fee, lost_game_fee=lost_fee, prizes=prizes)
    totals = places.draw(st.lists(st.integers(0, 5), min_size=len(lost), max_size=len(lost)))
    ranking = rank([Result(i + 1, (t,)) for i, t in enumerate(totals)], WERTUNG)
    result = payout(ranking, paid_in({i + 1: n for i, n in enumerate(lost)}, options), options)
    assert result.pot == sum(fee + lost_fee * n for n in lost)
    assert sum(m.receives for m in result.players) + result.kept == result.pot
    assert all(m.receives >= 0 and m.receives % options.unit == 0 for m in result.players)
    assert result.kept >= 0
    for a in result.players:  # shared places: amounts at most a unit apart
        for b in result.players:
            if a.place == b.place:
                assert abs(a.receives - b.receives) <= options.unit


def test_largest_remainder_keeps_the_sum() -> None:
    assert largest_remainder([Fraction(1, 3), Fraction(1, 3), Fraction(1, 3)], Decimal(1)) == [1, 0, 0]
    assert sum(largest_remainder([Fraction(211, 3), Fraction(422, 3)], Decimal("0.01"))) == 211


# --- options and players ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "item, name, value",
    [
        ("table_size=5", "table_size", 5),
        ("min_table=2", "min_table", 2),
        ("series=5", "series", 5),
        ("games=20", "games", 20),
        ("seating=fixed", "seating", "fixed"),
        ("scoring=wertung", "scoring", "wertung"),
        ("wertung_win=6", "wertung_win", 6),
        ("wertung_hand_romme=9", "wertung_hand_romme", 9),
        ("wertung_low=10:4,20:2", "wertung_low", ((10, 4), (20, 2))),
        ("tie_break=best-series", "tie_break", "best-series"),
        ("entry_fee=12,50", "entry_fee", Decimal("12.50")),
        ("lost_game_fee=0.2", "lost_game_fee", Decimal("0.2")),
        ("prizes=50%,30%", "prizes", (Prize(Decimal(50), True), Prize(Decimal(30), True))),
        ("currency=chf", "currency", "CHF"),
        ("unit=0.05", "unit", Decimal("0.05")),
    ],
)
def test_every_number_is_an_option_on_the_line_and_in_the_rules_file_rules_10(
    item: str, name: str, value: object
) -> None:
    _, options = build_tournament(None, [item])
    assert getattr(options, name) == value
    key, _, typed = item.partition("=")
    _, from_file = build_tournament(None, [], f'{key} = "{typed}"')
    assert getattr(from_file, name) == value
    assert TournamentOptions.from_dict(options.to_dict()) == options  # stored as typed, read back the same


def test_every_tournament_option_is_tested_above() -> None:
    tested = {
        "table_size",
        "min_table",
        "series",
        "games",
        "seating",
        "scoring",
        "wertung_win",
        "wertung_hand_romme",
        "wertung_low",
        "tie_break",
        "entry_fee",
        "lost_game_fee",
        "prizes",
        "currency",
        "unit",
    }
    assert set(TOURNAMENT_OPTION_NAMES) == tested


def test_house_rules_and_tournament_options_share_the_line_and_the_file() -> None:
    rules, options = build_tournament(
        "wiki-51", ["games=6", "wraparound=true"], "series = 2\nfirst_meld_min = 30\n"
    )
    assert (rules.first_meld_min, rules.wraparound, str(rules.game_end)) == (30, True, "rounds:6")
    assert (options.series, options.games) == (2, 6)
    with pytest.raises(RuleError, match="did you mean table_size"):
        build_tournament(None, ["table_sise=4"])


@pytest.mark.parametrize(
    "item, fragment",
    [
        ("table_size=9", "out of range"),
        ("games=0", "out of range"),
        ("seating=random", "use one of"),
        ("wertung_low=20:2,10:3", "must rise"),
        ("wertung_low=ten", "AUGEN:POINTS"),
        ("entry_fee=-5", "must not be negative"),
        ("entry_fee=0.005", "whole number of the unit"),
        ("prizes=40%,x", "not a decimal"),
        ("prizes=40%%", "not a decimal"),
        ("unit=0", "out of range"),
        ("currency=€", "code of letters"),
    ],
)
def test_tournament_options_refuse_values_out_of_their_range(item: str, fragment: str) -> None:
    with pytest.raises(RuleError, match=fragment):
        build_tournament(None, [item])


def test_the_players_file_holds_a_name_a_line_with_an_optional_team() -> None:
    entrants = read_players_file("Anna;Nord\nBen\n\n# Carl comes later\nDora ; Süd \n")
    assert [(e.name, e.team) for e in entrants] == [("Anna", "Nord"), ("Ben", None), ("Dora", "Süd")]
    with pytest.raises(ValueError, match="line 2"):
        read_players_file("Anna\nB=en\n")
