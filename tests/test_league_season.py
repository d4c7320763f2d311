"""A club's season, RULES.md §11, as issue 29's "Done means" asks: a 12-player tournament of
two series and a club evening are played through the command line (no pty), put into a
league with a second evening, and ``romme league standings --json`` is checked against
sums made by hand here (shared places, --best, --attendance, an alias, most-wins). Then
the commands' refusals: one sentence, the exit code, nothing written, in English and German."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from clirun import ok, run

TWELVE = ["Anna", "Ben", "Carl", "Dora", "Emil", "Fritz", "Gerd", "Hans", "Ida", "Jan", "Karl", "Lena"]
# Each player's penalty points in the one game of each series (0: went out), by name. Fixed
# seating keeps the tables: Anna-Dora, Emil-Hans, Ida-Lena.
SERIES = [
    {"Anna": 0, "Ben": 10, "Carl": 20, "Dora": 30, "Emil": 0, "Fritz": 10, "Gerd": 25, "Hans": 30,
     "Ida": 0, "Jan": 15, "Karl": 20, "Lena": 40},
    {"Anna": 20, "Ben": 0, "Carl": 10, "Dora": 30, "Emil": 10, "Fritz": 0, "Gerd": 35, "Hans": 5,
     "Ida": 30, "Jan": 0, "Karl": 25, "Lena": 40},
]  # fmt: skip


def play_cup() -> None:
    ok(
        "tournament", "new", "Cup", *TWELVE, "--series", "2", "--games", "1", "--seating", "fixed",
        "--rule", "winner_bonus=0",
    )  # fmt: skip
    for points in SERIES:
        drawn = json.loads(ok("tournament", "draw", "--json"))
        for table in drawn["tables"]:
            players = table["players"]
            (winner,) = [p for p in players if points[p] == 0]
            hands = [f"{p}={points[p]}" for p in players if p != winner]
            ok("round", "--session", table["session"], "--winner", winner, *hands)


def play_evenings() -> None:
    # Abend 1: Hansi is Hans (an alias); two rounds, then it is over
    ok("new", "Abend 1", "Anna", "Hansi", "Carl", "Dora", "--until", "rounds:2", "--rule", "winner_bonus=0")
    ok("round", "--session", "Abend 1", "--winner", "Anna", "Hansi=20", "Carl=30", "Dora=40")
    ok("round", "--session", "Abend 1", "--winner", "Hansi", "Anna=10", "Carl=15", "Dora=5")
    # Abend 2: 'anna' is Anna (case folding); one round of an open game, not finished
    ok("new", "Abend 2", "Ben", "anna", "Jan", "Hans", "--until", "open", "--rule", "winner_bonus=0")
    ok("round", "--session", "Abend 2", "--winner", "Ben", "anna=10", "Jan=25", "Hans=10")


def result(event: str, place: int, points: int, counted: bool = True) -> dict[str, Any]:
    return {"event": event, "place": place, "points": points, "counted": counted}


def player(name: str, place: int, points: int, *results: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "place": place, "points": points, "played": len(results), "results": list(results)}


def test_a_season_of_a_tournament_and_two_evenings_adds_up_by_hand_issue_29_rules_11() -> None:
    play_cup()
    play_evenings()
    ok(
        "league",
        "new",
        "Club",
        "--season",
        "2026",
        "--best",
        "2",
        "--attendance",
        "1",
        "--tie-break",
        "most-wins",
    )
    ok("league", "add", "Club", "--tournament", "Cup", "--session", "Abend 1", "--session", "Abend 2")
    ok("league", "alias", "Club", "Hansi", "Hans")
    data = json.loads(ok("league", "standings", "Club", "--json"))
    today = datetime.now().date().isoformat()  # every event was created today (local date)

    # The Cup (Augen, fewer is better), the two series summed by hand:
    #   Ben 10+0=10, Emil 0+10=10, Fritz 10+0=10 -> place 1 (shared by three), 10 + 1 = 11
    #   Jan 15+0=15 -> 4: 5+1 = 6;  Anna 0+20=20 -> 5: 4+1 = 5
    #   Carl 20+10=30, Ida 0+30=30 -> 6 (shared): 3+1 = 4;  Hans 30+5=35 -> 8: 1+1 = 2
    #   Karl 20+25=45 -> 9: 0+1 = 1;  Dora 60, Gerd 60 -> 10 (shared): 1;  Lena 80 -> 12: 1
    # Abend 1: Anna 10 -> 1: 11; Hansi 20 -> 2: 9; Carl 45, Dora 45 -> 3 (shared): 6+1 = 7
    # Abend 2 (not finished): Ben 0 -> 1: 11; anna 10, Hans 10 -> 2 (shared): 9; Jan 25 -> 4: 6
    # --best 2: Anna 5, 11, 9 -> 11+9 = 20 (the Cup dropped); Hans 2, 9, 9 -> 18 (Cup dropped)
    # most-wins among the 11s: Emil and Fritz won the Cup, Carl won nothing -> 5, 5, 7;
    # among the 1s: Karl's 9th place beats Gerd's 10th, Gerd's 10th Lena's 12th.
    assert data == {
        "league": "Club",
        "season": "2026",
        "points": [10, 8, 6, 5, 4, 3, 2, 1],
        "best": 2,
        "attendance": 1,
        "tie_break": "most-wins",
        "events": [
            {"name": "Cup", "kind": "tournament", "date": today, "finished": True},
            {"name": "Abend 1", "kind": "session", "date": today, "finished": True},
            {"name": "Abend 2", "kind": "session", "date": today, "finished": False},
        ],
        "players": [
            player("Ben", 1, 22, result("Cup", 1, 11), result("Abend 2", 1, 11)),
            player(
                "Anna", 2, 20, result("Cup", 5, 5, False), result("Abend 1", 1, 11), result("Abend 2", 2, 9)
            ),
            player(
                "Hans", 3, 18, result("Cup", 8, 2, False), result("Abend 1", 2, 9), result("Abend 2", 2, 9)
            ),
            player("Jan", 4, 12, result("Cup", 4, 6), result("Abend 2", 4, 6)),
            player("Emil", 5, 11, result("Cup", 1, 11)),
            player("Fritz", 5, 11, result("Cup", 1, 11)),
            player("Carl", 7, 11, result("Cup", 6, 4), result("Abend 1", 3, 7)),
            player("Dora", 8, 8, result("Cup", 10, 1), result("Abend 1", 3, 7)),
            player("Ida", 9, 4, result("Cup", 6, 4)),
            player("Karl", 10, 1, result("Cup", 9, 1)),
            player("Gerd", 11, 1, result("Cup", 10, 1)),
            player("Lena", 12, 1, result("Cup", 12, 1)),
        ],
    }
    # every number an integer, never 11.0
    assert all(type(p["points"]) is int for p in data["players"])

    # without most-wins, equal points share: Emil, Fritz and Carl 5; Gerd, Karl, Lena 10
    ok("league", "new", "Plain", "--best", "2", "--attendance", "1")
    ok("league", "add", "Plain", "--tournament", "Cup", "--session", "Abend 1", "--session", "Abend 2")
    ok("league", "alias", "Plain", "Hansi", "Hans")
    plain = json.loads(ok("league", "standings", "Plain", "--json"))
    assert [(p["name"], p["place"], p["points"]) for p in plain["players"]][4:] == [
        ("Carl", 5, 11),
        ("Emil", 5, 11),
        ("Fritz", 5, 11),
        ("Dora", 8, 8),
        ("Ida", 9, 4),
        ("Gerd", 10, 1),
        ("Karl", 10, 1),
        ("Lena", 10, 1),
    ]
    # a correction at a table changes the season at once: Abend 2's round 1 now won by Jan
    ok("edit", "1", "--session", "Abend 2", "--winner", "Jan", "Ben=30", "anna=10", "Hans=10")
    after = {p["name"]: p for p in json.loads(ok("league", "standings", "Plain", "--json"))["players"]}
    assert after["Jan"]["results"][-1] == result("Abend 2", 1, 11)


def test_the_text_standings_list_every_event_and_mark_dropped_results_rules_11() -> None:
    play_evenings()
    ok("league", "new", "Club", "--best", "1")
    ok("league", "add", "Club", "--session", "Abend 1", "--session", "Abend 2")
    text = ok("league", "standings", "Club")
    assert "1. Abend 1 (game," in text and "2. Abend 2 (game," in text and "not finished" in text
    assert "(8)" in text  # anna's 8 in Abend 2 is dropped: her 10 of Abend 1 counts
    listed = json.loads(ok("league", "list", "--json"))
    assert [(lg["name"], lg["events"], lg["best"]) for lg in listed["leagues"]] == [("Club", 2, 1)]


def _database(db: Path) -> bytes:
    return db.read_bytes() if db.exists() else b""


REFUSED: list[tuple[str, list[str], int, str]] = [
    ("an unknown tournament", ["add", "Club", "--tournament", "Nope"], 1, "no tournament named 'Nope'"),
    (
        "an unknown session",
        ["add", "Club", "--session", "Abend 1", "--session", "Nope"],
        1,
        "no session named",
    ),
    ("an event added twice", ["add", "Club", "--session", "Abend 2"], 1, "counts in league 'Club' already"),
    (
        "an event given twice",
        ["add", "Club", "--session", "Abend 1", "--session", "Abend 1"],
        2,
        "given twice",
    ),
    ("a bad points list", ["new", "X", "--points", "10,8,x"], 2, "points list"),
    ("a rising points list", ["new", "X", "--points", "5,8"], 2, "place 2 would score more"),
    ("--best 0", ["new", "X", "--best", "0"], 2, "--best"),
    ("a bad attendance", ["new", "X", "--attendance", "-1"], 2, "--attendance"),
    ("a bad tie break", ["new", "X", "--tie-break", "best-series"], 2, "best-series"),
    ("an alias onto itself", ["alias", "Club", "HANS", "hans"], 2, "another spelling"),
    ("an alias that makes two players of one event one", ["alias", "Club", "Jan", "Ben"], 1, "both played"),
    ("a league taken", ["new", "Club"], 1, "exists already"),
    ("an unknown league", ["standings", "Clb"], 1, "did you mean Club"),
    ("remove without an event", ["remove", "Club"], 2, "give one event"),
    ("remove an event not in it", ["remove", "Club", "--session", "Abend 1"], 1, "is not in league"),
]


@pytest.mark.parametrize(("case", "args", "code", "said"), REFUSED, ids=[c[0] for c in REFUSED])
def test_every_refusal_is_one_sentence_with_its_exit_code_and_writes_nothing_issue_29(
    isolated_data_dir: Path, case: str, args: list[str], code: int, said: str
) -> None:
    play_evenings()
    ok("league", "new", "Club")
    ok("league", "add", "Club", "--session", "Abend 2")
    before = _database(isolated_data_dir)
    status, out, err = run("league", *args)
    assert status == code, (out, err)
    assert said in err and len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
    assert _database(isolated_data_dir) == before


def test_the_same_session_given_twice_in_one_add_is_said_as_given_twice_not_in_the_league_trial(
    isolated_data_dir: Path,
) -> None:
    """A new user's trial (issue 29): ``league add Club --session S --session S`` said "is in
    league 'Club' already" of a session that was not; it is one input sentence (exit 2), and
    nothing is added. A session that does count in the league already is named, with the
    league, whichever of the events given it is; nothing is added either (exit 1, a refused
    action as docs/league.md lists it)."""
    play_evenings()
    ok("league", "new", "Club")
    before = _database(isolated_data_dir)
    status, out, err = run("league", "add", "Club", "--session", "Abend 1", "--session", "Abend 1")
    assert (status, out) == (2, "") and _database(isolated_data_dir) == before
    assert err.strip() == (
        "Error: session 'Abend 1' was given twice; an event counts once in league 'Club', so nothing "
        "was added"
    )
    status, _out, err = run(
        "--lang", "de", "league", "add", "Club", "--session", "Abend 1", "--session", "Abend 1"
    )
    assert status == 2 and err.strip() == (
        "Fehler: die Partie 'Abend 1' wurde zweimal angegeben; eine Veranstaltung zählt in der Liga 'Club' "
        "nur einmal, darum wurde nichts hinzugefügt"
    )
    assert json.loads(ok("league", "standings", "Club", "--json"))["events"] == []

    ok("league", "add", "Club", "--session", "Abend 1")
    before = _database(isolated_data_dir)
    status, out, err = run("league", "add", "Club", "--session", "Abend 2", "--session", "Abend 1")
    assert (status, out) == (1, "") and _database(isolated_data_dir) == before
    assert err.strip() == "Error: session 'Abend 1' counts in league 'Club' already; nothing was added"
    status, _out, err = run("--lang", "de", "league", "add", "Club", "--session", "Abend 1")
    assert status == 1 and err.strip() == (
        "Fehler: die Partie 'Abend 1' zählt schon in der Liga 'Club'; nichts wurde hinzugefügt"
    )
    events = json.loads(ok("league", "standings", "Club", "--json"))["events"]
    assert [e["name"] for e in events] == ["Abend 1"]


def test_an_alias_for_a_spelling_nobody_played_is_refused_naming_the_likely_one_trial(
    isolated_data_dir: Path,
) -> None:
    """A new user's trial (issue 29): ``league alias Club Hansy Hans`` was accepted although
    nobody played as Hansy (a typo of Hansi). An alias maps a spelling played in the
    league's events: any other is one sentence naming it and the nearest spelling played
    (not the person it was to count as), exit 2, nothing written. Case does not matter."""
    play_evenings()
    ok("league", "new", "Club")
    status, _out, err = run("league", "alias", "Club", "Hansi", "Hans")
    assert (
        status == 2
        and err.strip() == "Error: nobody played as 'Hansi' in league 'Club': it holds no event yet"
    )
    ok("league", "add", "Club", "--session", "Abend 1", "--session", "Abend 2")
    before = _database(isolated_data_dir)
    status, out, err = run("league", "alias", "Club", "Hansy", "Hans")
    assert (status, out) == (2, "") and _database(isolated_data_dir) == before
    assert err.strip() == (
        "Error: nobody played as 'Hansy' in league 'Club'; did you mean 'Hansi'? "
        "(players: Anna, Hansi, Carl, Dora, Ben, Jan, Hans)"
    )
    status, _out, err = run("--lang", "de", "league", "alias", "Club", "Hansy", "Hans")
    assert status == 2 and err.strip().startswith(
        "Fehler: in der Liga 'Club' hat niemand als 'Hansy' gespielt; war 'Hansi' gemeint? (Spieler: Anna,"
    )
    status, _out, err = run("league", "alias", "Club", "Zorro", "Hans")
    assert status == 2 and "nobody played as 'Zorro' in league 'Club' (players: " in err
    assert _database(isolated_data_dir) == before
    ok("league", "alias", "Club", "HANSI", "Hans")  # a spelling played, in any case
    names = [p["name"] for p in json.loads(ok("league", "standings", "Club", "--json"))["players"]]
    assert "Hans" in names and "Hansi" not in names


def test_the_refusals_speak_german_issue_29() -> None:
    play_evenings()
    ok("league", "new", "Club")
    ok("league", "add", "Club", "--session", "Abend 2")
    status, _out, err = run("league", "add", "Club", "--session", "Abend 2", "--lang", "de")
    assert status == 1 and "zählt schon in der Liga 'Club'" in err, err
    status, _out, err = run("league", "new", "X", "--best", "0", "--lang", "de")
    assert status == 2 and "ganze Zahl" in err, err
    text = ok("league", "standings", "Club", "--lang", "de")
    assert "Platz" in text and "nicht beendet" in text


def test_an_event_before_its_first_game_gives_no_places_rules_11() -> None:
    ok("tournament", "new", "Cup", "Anna", "Ben", "Carl", "Dora")
    ok("new", "Abend 1", "Anna", "Ben", "Carl")
    ok("league", "new", "Club")
    ok("league", "add", "Club", "--tournament", "Cup", "--session", "Abend 1")
    data = json.loads(ok("league", "standings", "Club", "--json"))
    assert [(e["name"], e["finished"]) for e in data["events"]] == [("Cup", False), ("Abend 1", False)]
    assert data["players"] == []
    ok("round", "--session", "Abend 1", "--winner", "Ben", "Anna=10", "Carl=20")
    data = json.loads(ok("league", "standings", "Club", "--json"))
    assert [(p["name"], p["place"], p["points"]) for p in data["players"]] == [
        ("Ben", 1, 10),
        ("Anna", 2, 8),
        ("Carl", 3, 6),
    ]


def test_events_by_the_local_date_they_were_created_then_the_order_added_rules_11_dates(
    isolated_data_dir: Path,
) -> None:
    import sqlite3

    ok("new", "Late", "Anna", "Ben")
    ok("new", "Early", "Anna", "Ben")
    ok("new", "Same day", "Anna", "Ben")
    con = sqlite3.connect(isolated_data_dir)
    with con:  # created on other days (as stored: UTC, at noon, the same local date anywhere near)
        con.execute("UPDATE sessions SET created_at = '2026-03-06T12:00:00+00:00' WHERE name = 'Late'")
        con.execute("UPDATE sessions SET created_at = '2026-01-09T12:00:00+00:00' WHERE name = 'Early'")
        con.execute("UPDATE sessions SET created_at = '2026-03-06T12:00:00+00:00' WHERE name = 'Same day'")
    con.close()
    ok("league", "new", "Club")
    ok("league", "add", "Club", "--session", "Same day", "--session", "Late", "--session", "Early")
    data = json.loads(ok("league", "standings", "Club", "--json"))
    assert [(e["name"], e["date"]) for e in data["events"]] == [
        ("Early", "2026-01-09"),
        ("Same day", "2026-03-06"),  # the same date: in the order added
        ("Late", "2026-03-06"),
    ]


def test_a_tournaments_table_is_no_game_of_its_own_in_a_league_rules_11(isolated_data_dir: Path) -> None:
    """A table's games count in the tournament's places (§11 "Place in an event"): added
    as a game of its own it would count them twice (a new user's trial: Dora 6 -> 16)."""
    play_cup()
    ok("league", "new", "Club")
    ok("league", "add", "Club", "--tournament", "Cup")
    before = _database(isolated_data_dir)
    for league in ("Club", "Other"):
        if league == "Other":
            ok("league", "new", "Other")
            before = _database(isolated_data_dir)
        status, out, err = run("league", "add", league, "--session", "Cup S1 T1")
        assert status == 1, (out, err)
        assert "'Cup S1 T1' is a table of tournament 'Cup'" in err, err
        assert f"romme league add {league} --tournament Cup" in err, err
        assert len(err.strip().splitlines()) == 1
        assert _database(isolated_data_dir) == before


def test_a_league_that_places_nobody_yet_says_why_instead_of_an_empty_table_rules_11(tmp_path: Path) -> None:
    """Its events begun but none placing anybody yet (a tournament before its first finished
    series): a sentence in each language, in the text and on the board, not a table's head."""
    ok("tournament", "new", "Cup", "Anna", "Ben", "Carl", "Dora", "--games", "2")
    ok("tournament", "draw")
    ok("round", "--session", "Cup S1 T1", "--winner", "1", "2=12", "3=25", "4=40")
    ok("league", "new", "Club", "--attendance", "1")
    ok("league", "add", "Club", "--tournament", "Cup")
    text = ok("league", "standings", "Club")
    assert "Nobody has a place yet: a game counts from its first round" in text
    assert "played" not in text, text  # no table's head
    german = ok("--lang", "de", "league", "standings", "Club")
    assert "Noch hat niemand einen Platz" in german and "gespielt" not in german, german
    from romme_score.league.service import LeagueService
    from romme_score.sessions import SessionService
    from romme_score.views import league as views

    with SessionService(None, create=False) as sessions:
        board = views.board_json(LeagueService(sessions).standings("Club"), 1)
    assert board["players"] == [] and "Nobody has a place yet" in board["view"]["status"]
    ok("league", "report", "Club", "-o", str(tmp_path / "season.html"))
    page = (tmp_path / "season.html").read_text(encoding="utf-8")
    assert page.count("Nobody has a place yet") == 2  # the standings and the event
    assert "<table" not in page and "<svg" not in page and "Nobody played" not in page
