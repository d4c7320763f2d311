"""The ranking of a club's season, RULES.md §11, as a table of cases (each summed by hand):
points per place, shared places, attendance, best results (Streichergebnisse), the tie
break most-wins, people by NFC and case folding, aliases and the names shown."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from romme_score.league.options import (
    BadNumber,
    BadPoints,
    LeagueInputError,
    LeagueOptions,
    parse_attendance,
    parse_best,
    parse_points,
)
from romme_score.league.rules import Event, SamePersonTwice, counted_flags, ordered, person_key, rank_league


def ev(name: str, places: str, day: int = 1, order: int = 0, kind: Any = "session") -> Event:
    """``"Anna:1 Ben:2 Carl:2"`` -> an event with those places."""
    pairs = tuple((item.rsplit(":", 1)[0], int(item.rsplit(":", 1)[1])) for item in places.split())
    return Event(name, kind, date(2026, 1, day), True, pairs, order)


def table(standings: list[Any]) -> list[tuple[str, int, int]]:
    return [(s.name, s.place, s.points) for s in standings]


CASES: list[tuple[str, list[Event], dict[str, Any], dict[str, str], list[tuple[str, int, int]]]] = [
    (
        "points_per_place_default_10_8_6",
        [ev("E1", "Anna:1 Ben:2 Carl:3 Dora:4")],
        {},
        {},
        [("Anna", 1, 10), ("Ben", 2, 8), ("Carl", 3, 6), ("Dora", 4, 5)],
    ),
    (
        "places_beyond_the_list_score_0",
        [ev("E1", "Anna:1 Ben:2 Carl:3")],
        {"points": (3, 1)},
        {},
        [("Anna", 1, 3), ("Ben", 2, 1), ("Carl", 3, 0)],
    ),
    (
        "shared_place_2_scores_8_each_and_the_next_place_is_4",
        [ev("E1", "Anna:1 Ben:2 Carl:2 Dora:4")],
        {},
        {},
        [("Anna", 1, 10), ("Ben", 2, 8), ("Carl", 2, 8), ("Dora", 4, 5)],
    ),
    (
        "shared_first_place_scores_10_each",
        [ev("E1", "Anna:1 Ben:1 Carl:3")],
        {},
        {},
        [("Anna", 1, 10), ("Ben", 1, 10), ("Carl", 3, 6)],
    ),
    (
        "attendance_on_top_of_every_place_even_beyond_the_list",
        [ev("E1", "Anna:1 Ben:2 Carl:3")],
        {"points": (5, 3), "attendance": 2},
        {},
        [("Anna", 1, 7), ("Ben", 2, 5), ("Carl", 3, 2)],
    ),
    (
        "points_add_up_over_events",
        # Anna 10+6=16, Ben 8+10=18, Carl 6+8=14
        [ev("E1", "Anna:1 Ben:2 Carl:3", 1), ev("E2", "Ben:1 Carl:2 Anna:3", 2)],
        {},
        {},
        [("Ben", 1, 18), ("Anna", 2, 16), ("Carl", 3, 14)],
    ),
    (
        "best_2_drops_the_lowest_result",
        # Anna 10,5,6 -> best two 16; Ben 8,10,8 -> 18; Carl 6,8,10 -> 18
        [
            ev("E1", "Anna:1 Ben:2 Carl:3", 1),
            ev("E2", "Ben:1 Carl:2 Dora:3 Anna:4", 2),
            ev("E3", "Carl:1 Ben:2 Anna:3", 3),
        ],
        {"best": 2},
        {},
        [("Ben", 1, 18), ("Carl", 1, 18), ("Anna", 3, 16), ("Dora", 4, 6)],
    ),
    (
        "best_a_player_with_fewer_events_counts_all",
        # best 3, Dora played one event: 10; Anna 6+6=12
        [ev("E1", "Dora:1 Anna:3 Ben:2", 1), ev("E2", "Ben:1 Anna:3 Carl:2", 2)],
        {"best": 3},
        {},
        [("Ben", 1, 18), ("Anna", 2, 12), ("Dora", 3, 10), ("Carl", 4, 8)],
    ),
    (
        "best_with_attendance_counts_attendance_only_of_counted_events",
        # points 3,2,1 attendance 1, best 1: Anna 4,2 -> 4; Ben 3,4 -> 4; Carl 2,3 -> 3
        [ev("E1", "Anna:1 Ben:2 Carl:3", 1), ev("E2", "Ben:1 Carl:2 Anna:3", 2)],
        {"points": (3, 2, 1), "attendance": 1, "best": 1},
        {},
        [("Anna", 1, 4), ("Ben", 1, 4), ("Carl", 3, 3)],
    ),
    (
        "equal_totals_share_a_place_1_2_2_4_listed_by_name_casefolded",
        [ev("E1", "zoe:1 Anna:2 bert:2 Carl:4")],
        {"points": (5, 5, 5, 1)},
        {},
        [("Anna", 1, 5), ("bert", 1, 5), ("zoe", 1, 5), ("Carl", 4, 1)],
    ),
    (
        "most_wins_more_first_places_go_first",
        # Anna 10 + 5 = 15 (a win); Ben 8 + 6 + 1 = 15 over three events, no win
        [
            ev("E1", "Anna:1 Ben:2", 1),
            ev("E2", "Ben:3 Anna:4 X:1 Y:2", 2),
            ev("E3", "Ben:8 Z:1", 3),
        ],
        {"tie_break": "most-wins"},
        {},
        [("Anna", 1, 15), ("Ben", 2, 15), ("X", 3, 10), ("Z", 3, 10), ("Y", 5, 8)],
    ),
    (
        "most_wins_then_second_places",
        # points 10,8,8: Carl 8 + 8 = 16 (two second places), Emil 8 + 8 = 16 (a second
        # and a third): Carl first
        [
            ev("E1", "Dora:1 Carl:2 Emil:3", 1),
            ev("E2", "Carl:2 Emil:2 Dora:3 Fritz:1", 2),
        ],
        {"tie_break": "most-wins", "points": (10, 8, 8)},
        {},
        # Dora 10 + 8 = 18, Fritz 10
        [("Dora", 1, 18), ("Carl", 2, 16), ("Emil", 3, 16), ("Fritz", 4, 10)],
    ),
    (
        "most_wins_counts_dropped_results_too",
        # best 1: Anna 10 (two wins, one dropped), Ben 10 (a win, a dropped second place)
        [ev("E1", "Anna:1 Ben:2", 1), ev("E2", "Ben:1 Anna:1", 2)],
        {"tie_break": "most-wins", "best": 1},
        {},
        [("Anna", 1, 10), ("Ben", 2, 10)],
    ),
    (
        "most_wins_still_equal_share",
        [ev("E1", "Anna:1 Ben:2", 1), ev("E2", "Ben:1 Anna:2", 2)],
        {"tie_break": "most-wins"},
        {},
        [("Anna", 1, 18), ("Ben", 1, 18)],
    ),
    (
        "tie_break_none_ignores_wins",
        [ev("E1", "Anna:1 Ben:2", 1), ev("E2", "Ben:3 Anna:4 X:1 Y:2", 2), ev("E3", "Ben:8 Z:1", 3)],
        {},
        {},
        [("Anna", 1, 15), ("Ben", 1, 15), ("X", 3, 10), ("Z", 3, 10), ("Y", 5, 8)],
    ),
    (
        "people_equal_after_case_folding",
        [ev("E1", "Anna:1 Ben:2", 1), ev("E2", "anna:2 BEN:1", 2)],
        {},
        {},
        [("Anna", 1, 18), ("Ben", 1, 18)],
    ),
    (
        "people_equal_after_nfc_shown_as_first_seen",
        [ev("E1", "Ju\u0308rgen:1 Ben:2", 1), ev("E2", "JÜRGEN:1 Ben:2", 2)],
        {},
        {},
        [("Ju\u0308rgen", 1, 20), ("Ben", 2, 16)],
    ),
    (
        "strasse_casefolds_to_strasse",
        [ev("E1", "Straße:1", 1), ev("E2", "STRASSE:1", 2)],
        {},
        {},
        [("Straße", 1, 20)],
    ),
    (
        "first_seen_in_event_order_not_added_order",
        # E2 added first but dated later: the name is E1's spelling
        [ev("E2", "ANNA:1", 5, order=0), ev("E1", "Anna:2", 1, order=1)],
        {},
        {},
        [("Anna", 1, 18)],
    ),
    (
        "an_alias_maps_a_spelling_onto_a_person_shown_as_the_alias_names_them",
        [ev("E1", "Hansi:1 Ben:2", 1), ev("E2", "Hans:1 Ben:2", 2)],
        {},
        {"hansi": "Hans Meier"},
        [("Ben", 1, 16), ("Hans", 2, 10), ("Hans Meier", 2, 10)],
    ),
]


@pytest.mark.parametrize(
    ("rule", "events", "options", "aliases", "expected"), CASES, ids=[c[0] for c in CASES]
)
def test_league_ranking_rules_11(
    rule: str,
    events: list[Event],
    options: dict[str, Any],
    aliases: dict[str, str],
    expected: list[tuple[str, int, int]],
) -> None:
    assert table(rank_league(events, LeagueOptions(**options), aliases)) == expected


def test_an_alias_joins_two_spellings_into_one_person_rules_11() -> None:
    events = [ev("E1", "Hansi:1 Ben:2", 1), ev("E2", "hans:1 Ben:2", 2)]
    ranked = rank_league(events, LeagueOptions(), {"Hansi": "Hans"})
    assert table(ranked) == [("Hans", 1, 20), ("Ben", 2, 16)]
    assert [(r.event, r.place) for r in ranked[0].results] == [("E1", 1), ("E2", 1)]


def test_two_players_of_one_event_cannot_be_one_person_rules_11() -> None:
    with pytest.raises(SamePersonTwice):
        rank_league([ev("E1", "Hansi:1 Hans:2")], LeagueOptions(), {"Hansi": "Hans"})


def test_results_in_event_order_with_counted_flags_rules_11_best() -> None:
    events = [ev("E3", "Anna:3", 3, 0), ev("E1", "Anna:1", 1, 1), ev("E2", "Anna:2", 2, 2)]
    (anna,) = rank_league(events, LeagueOptions(best=2))
    assert [(r.event, r.points, r.counted) for r in anna.results] == [
        ("E1", 10, True),
        ("E2", 8, True),
        ("E3", 6, False),
    ]
    assert anna.points == 18 and anna.played == 3


def test_of_equal_scores_the_earlier_counts_rules_11_best() -> None:
    assert counted_flags([8, 8, 8], 2) == [True, True, False]


def test_events_by_date_then_order_added_rules_11_events() -> None:
    events = [ev("B", "x:1", 2, 0), ev("A", "x:1", 2, 1), ev("C", "x:1", 1, 2)]
    assert [e.name for e in ordered(events)] == ["C", "B", "A"]


def test_person_key_is_nfc_and_casefold_rules_11_people() -> None:
    assert person_key("Ju\u0308rgen") == person_key("JÜRGEN") == "jürgen"


@pytest.mark.parametrize(
    ("text", "error"),
    [("", BadPoints), ("10,x", BadPoints), ("-1", BadPoints), ("1,2", BadPoints), ("10,,8", None)],
)
def test_a_bad_points_list_is_refused_rules_11_points(text: str, error: type[Exception] | None) -> None:
    if error is None:
        assert LeagueOptions(points=parse_points(text)).points == (10, 8)
        return
    with pytest.raises(error):
        LeagueOptions(points=parse_points(text))


@pytest.mark.parametrize("text", ["0", "-1", "x", "1001"])
def test_best_0_is_refused_rules_11_best(text: str) -> None:
    with pytest.raises(BadNumber):
        parse_best(text)


def test_options_validate_themselves() -> None:
    with pytest.raises(LeagueInputError):
        LeagueOptions(best=0)
    with pytest.raises(LeagueInputError):
        LeagueOptions(tie_break="best-series")  # type: ignore[arg-type]
    with pytest.raises(LeagueInputError):
        parse_attendance("-2")
    assert LeagueOptions.from_dict(LeagueOptions(best=3).to_dict()) == LeagueOptions(best=3)
