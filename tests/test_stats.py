"""``romme stats``: every player across all sessions (issue 11, item 2)."""

from __future__ import annotations

import json
import random
import sqlite3
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from clirun import ok, run

from romme_score.history import History, name_key
from romme_score.rules import GameEnd, find_preset
from romme_score.scoring import Hand, RoundInput
from romme_score.sessions import SessionService
from romme_score.store.sqlite import SQLiteStore as Store
from romme_score.views.stats import stats_json

KEYS = {
    "name",
    "games",
    "games_won",
    "rounds",
    "rounds_won",
    "hand_rommes",
    "average_penalty",
    "worst_round",
    "money",
}


def stats(*args: str) -> dict[str, dict[str, Any]]:
    data = json.loads(ok("stats", "--json", *args))
    assert list(data) == ["players"]
    return {p["name"]: p for p in data["players"]}


@pytest.fixture
def table() -> None:
    """Four sessions. Friday: the demo evening (with an undone round and an edit).
    Saturday: 'anna' and 'BEN' again, and Eve, two rounds, won by anna, rate 0.10.
    Sunday: Anna and Ben, one round without a rate. Empty: no rounds."""
    ok("new", "Friday", "Anna", "Ben", "Carl", "Dora", "--rate", "0.01", "--currency", "EUR")
    ok("round", "--winner", "Anna", "Ben=HK K10 J", "Carl=P7 P8", "Dora=23")
    ok("round", "--winner", "Ben", "--hand-romme", "Anna=TA T2", "Carl=0", "Dora=J J")
    ok("round", "--winner", "Carl", "Anna=H5 H6", "Ben=P10", "Dora=4")
    ok("round", "--winner", "Dora", "Anna=12", "Ben=KA KK", "Carl=T3")
    ok("undo", "--yes")
    ok("edit", "3", "Ben=P10 P9")
    ok(
        "new",
        "Saturday",
        " anna",
        "BEN ",
        "Eve",
        "--until",
        "rounds:2",
        "--rate",
        "0.10",
        "--currency",
        "EUR",
    )
    ok("round", "--winner", "Eve", "anna=10", "BEN=20")
    ok("round", "--winner", "anna", "BEN=5", "Eve=30")
    ok("new", "Sunday", "Anna", "Ben", "--until", "rounds:1")
    ok("round", "--winner", "Ben", "Anna=50")
    ok("new", "Empty", "Anna", "Carl")


def test_stats_json_has_exactly_the_keys_of_the_issue(table: None) -> None:
    for player in stats().values():
        assert KEYS <= set(player)


def test_stats_counts_every_session_of_a_person(table: None) -> None:
    s = stats()
    assert sorted(s) == ["Anna", "Ben", "Carl", "Dora", "Eve"]
    # Anna: Friday 0+26+11, Saturday 10+0, Sunday 50 = 97 in 6 rounds
    assert {k: s["Anna"][k] for k in KEYS} == {
        "name": "Anna",
        "games": 3,
        "games_won": 1,
        "rounds": 6,
        "rounds_won": 2,
        "hand_rommes": 0,
        "average_penalty": 16.17,
        "worst_round": 50,
        "money": "5.90",
    }
    # Ben: Friday 40+0+19, Saturday 20+5, Sunday 0 = 84; his Hand-Rommé in Friday's round 2
    assert {k: s["Ben"][k] for k in KEYS} == {
        "name": "Ben",
        "games": 3,
        "games_won": 1,
        "rounds": 6,
        "rounds_won": 2,
        "hand_rommes": 1,
        "average_penalty": 14.0,
        "worst_round": 40,
        "money": "-1.68",
    }
    # Carl's session without rounds is no game
    assert (s["Carl"]["games"], s["Carl"]["rounds"], s["Carl"]["average_penalty"]) == (1, 3, 5.0)
    assert (s["Dora"]["average_penalty"], s["Dora"]["worst_round"]) == (35.67, 80)  # 107 / 3
    assert (s["Eve"]["rounds_won"], s["Eve"]["money"]) == (1, "-3.50")


def test_stats_money_is_the_sum_of_the_settlements_of_the_sessions_with_a_rate(table: None) -> None:
    s = stats()
    total: dict[str, Decimal] = {}
    for session in ("Friday", "Saturday"):  # Sunday has no rate: it is not counted
        for p in json.loads(ok("settle", "--session", session, "--json"))["players"]:
            key = name_key(p["name"])
            total[key] = total.get(key, Decimal(0)) + Decimal(p["amount"])
    assert {name_key(n): Decimal(p["money"]) for n, p in s.items()} == total
    assert sum(Decimal(p["money"]) for p in s.values()) == 0


def test_stats_money_is_zero_without_a_rate() -> None:
    ok("new", "Free", "Anna", "Ben")
    ok("round", "--winner", "Ben", "Anna=50")
    assert stats()["Anna"]["money"] == "0"


def test_stats_games_won_follow_each_session_s_game_end(table: None) -> None:
    s = stats()
    # Saturday (rounds:2) went to anna, Sunday (rounds:1) to Ben; Friday (to 500) is not over
    assert (s["Anna"]["games_won"], s["Ben"]["games_won"], s["Eve"]["games_won"]) == (1, 1, 0)


def test_stats_a_tied_game_is_won_by_nobody() -> None:
    ok("new", "Tie", "Anna", "Ben", "Carl", "--until", "rounds:1")
    ok("round", "--stalemate", "Anna=10", "Ben=10", "Carl=20")
    assert all(p["games_won"] == 0 for p in stats().values())


def test_stats_player_is_matched_ignoring_case_and_spaces(table: None) -> None:
    only = stats("--player", "  aNNa ")
    assert list(only) == ["Anna"] and only["Anna"]["games"] == 3


def test_stats_unknown_player_is_refused_with_the_closest_name(table: None) -> None:
    code, _, err = run("stats", "--player", "Ana")
    assert code == 2 and "--player: no player named 'Ana'" in err and "did you mean Anna?" in err
    code, _, err = run("stats", "--vs", "Zed")
    assert code == 2 and err.startswith("Error: --vs: no player named 'Zed'")


def test_stats_since_counts_the_sessions_started_that_day_or_later(
    table: None, isolated_data_dir: Path
) -> None:
    with sqlite3.connect(isolated_data_dir) as db:
        db.execute("UPDATE sessions SET created_at = '2020-05-01T20:00:00+00:00' WHERE name = 'Friday'")
    s = stats("--since", "2021-01-01")
    assert "Dora" not in s and "Carl" not in s
    assert (s["Anna"]["games"], s["Anna"]["rounds"], s["Anna"]["money"]) == (2, 3, "5.50")
    assert stats("--since", "2020-05-01")["Dora"]["games"] == 1
    vs = stats("--since", "2021-01-01", "--player", "Anna", "--vs", "Ben")["Anna"]["vs"]
    assert (vs["rounds"], vs["rounds_lower"], vs["rounds_higher"], vs["games"]) == (3, 2, 1, 2)
    code, _, err = run("stats", "--since", "1.5.20")
    assert code == 2 and "--since '1.5.20' is not a date" in err


def test_stats_vs_counts_rounds_and_games_both_played(table: None) -> None:
    s = stats("--player", "anna", "--vs", "ben")
    assert s["Anna"]["vs"] == {
        "name": "Ben",
        "rounds": 6,
        "rounds_lower": 4,
        "rounds_higher": 2,
        "rounds_equal": 0,
        "games": 3,
        "games_lower": 2,
        "games_higher": 1,
        "games_equal": 0,
    }
    everyone = stats("--vs", "Dora")
    assert "vs" not in everyone["Dora"] and "vs" in everyone["Eve"]
    assert everyone["Eve"]["vs"]["rounds"] == 0 and everyone["Carl"]["vs"]["rounds"] == 3


def test_stats_vs_counts_rounds_with_equal_points_apart() -> None:
    ok("new", "Even", "Anna", "Ben", "Carl", "--until", "open")
    ok("round", "--stalemate", "Anna=10", "Ben=10", "Carl=5")
    ok("round", "--winner", "Carl", "Anna=3", "Ben=7")
    vs = stats("--player", "Ben", "--vs", "Anna")["Ben"]["vs"]
    assert (vs["rounds"], vs["rounds_lower"], vs["rounds_higher"], vs["rounds_equal"]) == (2, 0, 1, 1)
    assert (vs["games"], vs["games_lower"], vs["games_higher"]) == (1, 0, 1)


def test_stats_table_for_people(table: None) -> None:
    out = ok("stats", "--player", "Anna", "--vs", "Ben")
    assert out.startswith("All sessions: 3.")
    assert " avg " in out and "16.17" in out and "€5.90" in out
    assert (
        "Anna vs Ben: 6 rounds together, fewer points: Anna 4, Ben 2, equal 0;\n"
        "  3 games together, lower total: Anna 2, Ben 1, equal 0" in out
    )
    assert "ignoring case and surrounding spaces" in out
    assert max(len(line) for line in out.split("\n")) <= 80


def test_stats_of_an_empty_database_says_so() -> None:
    ok("new", "Empty", "Anna", "Ben")
    assert ok("stats").startswith("No games yet")


def test_stats_never_loads_the_rounds(
    table: None, isolated_data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("stats must aggregate in SQL, not load the rounds")

    for method in ("rounds", "round_points", "session"):
        monkeypatch.setattr(Store, method, refuse)
    with SessionService(isolated_data_dir) as service:
        result = History(service).stats(vs="Ben")
    assert {p.name for p in result.players} == {"Anna", "Ben", "Carl", "Dora", "Eve"}


def test_stats_equal_what_the_standings_of_every_session_add_up_to(tmp_path: Path) -> None:
    """Random sessions with random names' spellings; the statistics against a count
    from every session's standings."""
    rng = random.Random(11)
    people = ["Anna", "Ben", "Carl", "Dora", "Eve", "Jörg"]
    expected: dict[str, dict[str, Any]] = {}
    with SessionService(tmp_path / "r.sqlite3") as service:
        for number in range(12):
            seated = rng.sample(people, rng.randint(2, 5))
            spelled = [rng.choice([p, p.upper(), p.lower()]) for p in seated]
            rules = find_preset("standard").replace(
                game_end=GameEnd.parse(rng.choice(["open", "rounds:3", "100"]))
            )
            rate = rng.choice([None, Decimal("0.01"), Decimal("0.05")])
            info = service.create(f"S{number}", spelled, rules, rate, "EUR")
            for _ in range(rng.randint(0, 6)):
                if service.state(info).finished:
                    break
                winner = rng.choice(spelled)
                hr = rng.random() < 0.15
                hands = {p: Hand(points=rng.randint(0, 60)) for p in spelled if p != winner}
                service.record(info, RoundInput(winner, hands, hr))
            standings = service.standings(info)
            for p in spelled:
                e = expected.setdefault(
                    name_key(p),
                    {
                        "games": 0,
                        "rounds": 0,
                        "rounds_won": 0,
                        "hand_rommes": 0,
                        "points": 0,
                        "worst_round": 0,
                        "games_won": 0,
                        "money": Decimal(0),
                    },
                )
                if not standings.rounds:
                    continue
                e["games"] += 1
                e["rounds"] += len(standings.rounds)
                e["rounds_won"] += sum(r.winner == p for r in standings.rounds)
                e["hand_rommes"] += sum(r.winner == p and r.hand_romme for r in standings.rounds)
                e["points"] += sum(r.points[p] for r in standings.rounds)
                e["worst_round"] = max(e["worst_round"], *(r.points[p] for r in standings.rounds))
                e["games_won"] += standings.state.winner == p
            if rate is not None and standings.rounds:
                from romme_score.settlement import settle

                for res in settle(standings.totals, rate).players:
                    expected[name_key(res.name)]["money"] += res.amount
        result = stats_json(History(service).stats())
    got = {name_key(p["name"]): p for p in result["players"]}
    assert set(got) == {k for k, e in expected.items() if e["games"]}
    for key, p in got.items():
        e = expected[key]
        assert (
            p["games"],
            p["rounds"],
            p["rounds_won"],
            p["hand_rommes"],
            p["points"],
            p["worst_round"],
            p["games_won"],
        ) == (
            e["games"],
            e["rounds"],
            e["rounds_won"],
            e["hand_rommes"],
            e["points"],
            e["worst_round"],
            e["games_won"],
        ), key
        assert Decimal(p["money"]) == e["money"]
        assert p["average_penalty"] == float(
            (Decimal(e["points"]) / e["rounds"]).quantize(Decimal("0.01"), "ROUND_HALF_UP")
        )
