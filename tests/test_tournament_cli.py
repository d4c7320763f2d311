"""``romme tournament`` (issue 22): the commands, their JSON contracts and refusals, the
tables' sessions, teams, withdrawals, corrections, money, the CSV and the printable
sheets (with a Chromium screenshot, as for the report). The rules of RULES.md §10 that
need the sessions are tested here, named after the rule; the 13-player tournament of the
issue's "Done means" is test_tournament_thirteen.py."""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from clirun import ok, run
from test_report import Page, find_chromium, png_pixels

from romme_score.sessions import SessionService

SEVEN = ["Anna", "Ben", "Carl", "Dora", "Emil", "Fritz", "Gerd"]


def new(*args: str, players: list[str] = SEVEN) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(ok("tournament", "new", "Cup", *players, *args, "--json"))
    return data


def draw(*args: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(ok("tournament", "draw", *args, "--json"))
    return data


def play_series(tables: list[dict[str, Any]], games: int) -> None:
    """Every table plays its games: seat 1 wins, the others hold 5, 15, 25 (seat order)."""
    for table in tables:
        seats = len(table["players"])
        for _ in range(games):
            hands = [f"{seat}={10 * (seat - 1) - 5}" for seat in range(2, seats + 1)]
            ok("round", "--session", str(table["session"]), "--winner", "1", *hands)


# --- new ---------------------------------------------------------------------------------------


def test_new_gives_start_numbers_in_the_order_given_and_keeps_the_seed(tmp_path: Path) -> None:
    players = tmp_path / "players.txt"
    players.write_text("Anna;Nord\nBen;Süd\n\n# late entries\nCarl;Nord\nDora\n", encoding="utf-8")
    created = json.loads(
        ok(
            "tournament",
            "new",
            "Cup",
            "--players-file",
            str(players),
            "--seed",
            "42",
            "--games",
            "2",
            "--json",
        )
    )
    assert created["tournament"] == "Cup" and created["seed"] == 42
    assert created["players"] == [
        {"start": 1, "name": "Anna", "team": "Nord"},
        {"start": 2, "name": "Ben", "team": "Süd"},
        {"start": 3, "name": "Carl", "team": "Nord"},
        {"start": 4, "name": "Dora", "team": None},
    ]
    assert created["options"]["games"] == 2 and created["rules"]["game_end"] == "rounds:2"
    text = ok("tournament", "new", "Pokal", "Anna", "Ben", "Carl")
    assert "Tournament 'Pokal' with 3 players" in text and "seed of the draws is" in text


def test_new_reads_players_and_teams_on_the_line_too() -> None:
    created = new(players=["Anna;Nord", "Ben", "Carl;Nord"])
    assert [(p["start"], p["team"]) for p in created["players"]] == [(1, "Nord"), (2, None), (3, "Nord")]


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["Cup", "Anna", "Ben"], "2 players are too few"),
        (["Cup", "Anna", "Ben", "anna"], "given twice"),
        (["Cup"], "no players"),
        (["Cup", "A", "B", "C", "--players-file", "x.txt"], "not both"),
        (["Cup", "A", "B", "C", "--table-size", "9"], "--table-size: table_size=9 is out of range"),
        (["Cup", "A", "B", "C", "--games", "x"], "--games:"),
        (["Cup", "A", "B", "C", "--seed", "-1"], "--seed"),
        (["Cup", "A", "B", "C", "--prizes", "70%,40%"], "more than all of it"),
        (["Cup", "A", "B", "C", "--rule", "table_sise=5"], "did you mean table_size"),
        (["Cup", "A", "B", "C", "--rule", "wraparound=maybe"], "wraparound"),
        (["Cup", "A", "B", "C", "D", "E", "--preset", "speedromme"], "a table of 5 players"),
        (["A" * 36, "A", "B", "C"], "too long"),
    ],
)
def test_new_refuses_what_cannot_be_used_and_writes_nothing(args: list[str], fragment: str) -> None:
    code, _, err = run("tournament", "new", *args)
    assert code == 2 and fragment in err, err
    assert "Traceback" not in err
    code, _, err = run("tournament", "standings")
    assert code == 1 and "no database at" in err and "romme tournament new" in err  # nothing created


def test_new_takes_the_tournament_options_from_the_rules_file(tmp_path: Path) -> None:
    rules = tmp_path / "cup.toml"
    rules.write_text(
        'preset = "classic"\nscoring = "wertung"\nwertung_low = [[10, 4], [25, 2]]\ngames = 4\n'
        'prizes = ["50%", "20%"]\nentry_fee = 5\n',
        encoding="utf-8",
    )
    created = new("--rules-file", str(rules), "--games", "3")
    options, table_rules = created["options"], created["rules"]
    assert options["scoring"] == "wertung" and options["wertung_low"] == "10:4,25:2"
    assert options["games"] == 3 and options["prizes"] == "50%,20%" and options["entry_fee"] == "5"
    assert table_rules["wraparound"] is True and table_rules["game_end"] == "rounds:3"


@pytest.mark.parametrize(
    ("seating", "german", "english"),
    [
        ("standings", "nach der Rangliste (Serie 1 ausgelost)", "by the standings (series 1 by lot)"),
        ("draw", "durch das Los", "by lot"),
        ("fixed", "in der Reihenfolge der Startnummern", "in the order of the start numbers"),
    ],
)
def test_new_words_the_seating_in_the_runs_language_not_the_options_value_trial_issue30(
    seating: str, german: str, english: str
) -> None:
    """A new user's trial: the German line said "Sitzordnung: standings"."""
    text = ok("--lang", "de", "tournament", "new", "Cup", *SEVEN, "--seating", seating)
    line = next(line for line in text.splitlines() if line.startswith("Sitzordnung"))
    assert line.startswith(f"Sitzordnung: {german}; ") and seating not in line, line
    text = ok("--lang", "en", "tournament", "new", "Cup2", *SEVEN, "--seating", seating)
    assert f"Seating: {english}; the seed of the draws is " in text
    data = json.loads(ok("tournament", "new", "Cup3", *SEVEN, "--seating", seating, "--json"))
    assert data["options"]["seating"] == seating  # the JSON keeps the option's value


def test_a_tournament_of_that_name_exists_already() -> None:
    new()
    code, _, err = run("tournament", "new", "Cup", "A", "B", "C")
    assert code == 1 and "exists already" in err


# --- draw and the tables' sessions -----------------------------------------------------------------


def test_draw_prints_the_tables_in_seat_order() -> None:
    new("--seed", "7", "--games", "2")
    drawn = draw()
    assert set(drawn) == {"tournament", "series", "tables", "missing"} and drawn["series"] == 1
    assert drawn["missing"] == []
    tables = drawn["tables"]
    assert [t["table"] for t in tables] == [1, 2]
    assert [t["session"] for t in tables] == ["Cup S1 T1", "Cup S1 T2"]
    assert [len(t["players"]) for t in tables] == [4, 3]
    assert sorted(p for t in tables for p in t["players"]) == sorted(SEVEN)


def test_a_series_is_games_games_at_each_table_under_the_tournaments_house_rules_rules_10(
    isolated_data_dir: Path,
) -> None:
    new("--games", "2", "--preset", "classic", "--rule", "first_meld_min=30")
    tables = draw()["tables"]
    with SessionService(isolated_data_dir) as service:
        for table in tables:
            info = service.session(table["session"])
            assert str(info.rules.game_end) == "rounds:2"
            assert info.rules.wraparound is True and info.rules.first_meld_min == 30
            assert list(info.players) == table["players"]
    session = tables[1]["session"]
    ok("round", "--session", session, "--winner", "1", "2=5", "3=6")
    ok("round", "--session", session, "--winner", "2", "1=5", "3=6")
    code, _, err = run("round", "--session", session, "--winner", "1", "2=5", "3=6")
    assert code == 1 and "is over" in err  # the series is played at that table


def test_the_first_dealer_of_a_table_is_seat_1_rules_10() -> None:
    new("--games", "3")
    table = draw()["tables"][0]
    standings = json.loads(ok("standings", "--session", table["session"], "--json"))
    assert standings["next_dealer"] == table["players"][0]
    sheets = ok("tournament", "sheets")
    assert f"{table['players'][0]} (deals first)" in sheets


def test_the_same_seed_draws_the_same_tables_in_another_database(tmp_path: Path) -> None:
    new("--seed", "99")
    first = draw()["tables"]
    other = str(tmp_path / "other.sqlite3")
    ok("tournament", "new", "Cup", *SEVEN, "--seed", "99", "--db", other)
    again = json.loads(ok("tournament", "draw", "--json", "--db", other))["tables"]
    assert again == first


def test_a_series_is_drawn_only_when_the_one_before_is_complete() -> None:
    new("--games", "2", "--series", "2")
    tables = draw()["tables"]
    ok("round", "--session", "Cup S1 T1", "--winner", "1", "2=5", "3=6", "4=7")
    code, _, err = run("tournament", "draw")
    assert code == 1
    assert "table 1 of series 1 has played 1 of 2 games; table 2 of series 1 has played 0 of 2 games" in err
    assert "--force" in err
    standings = json.loads(ok("tournament", "standings", "--json"))  # series 1 is not finished
    assert (standings["series_played"], standings["series_drawn"], standings["provisional"]) == (0, 1, True)
    forced = ok("tournament", "draw", "--force")
    assert forced.startswith("Drawn although not complete: table 1 of series 1 has played 1 of 2 games")
    assert "Series 2 of 'Cup'" in forced
    code, _, err = run("tournament", "draw", "--force")
    assert code == 1 and "all 2 series of tournament 'Cup' are drawn" in err
    assert len(tables) == 2


def test_seating_fixed_seats_the_start_numbers_in_order_every_series_rules_10() -> None:
    new("--seating", "fixed", "--games", "1", "--series", "2")
    assert [t["players"] for t in draw()["tables"]] == [SEVEN[:4], SEVEN[4:]]
    ok("tournament", "withdraw", "Cup", "2")
    second = json.loads(ok("tournament", "draw", "--force", "--json"))["tables"]
    assert [t["players"] for t in second] == [["Anna", "Carl", "Dora"], ["Emil", "Fritz", "Gerd"]]


def test_seating_by_the_standings_puts_the_best_at_table_1_seat_1_rules_10() -> None:
    new("--games", "1", "--series", "2", "--scoring", "augen")
    tables = draw()["tables"]
    play_series(tables, 1)  # seat 1 wins every game with 0, the others 5, 15, 25
    ranking = [p["name"] for p in json.loads(ok("tournament", "standings", "--json"))["players"]]
    second = draw()["tables"]
    assert [t["players"] for t in second] == [ranking[:4], ranking[4:]]


def test_a_session_name_taken_refuses_the_draw_and_writes_nothing() -> None:
    new()
    ok("new", "Cup S1 T2", "X", "Y")
    code, _, err = run("tournament", "draw")
    assert code == 1 and "'Cup S1 T2' exists already" in err and "romme sessions rename" in err
    assert json.loads(ok("sessions", "--json"))[0]["name"] == "Cup S1 T2"
    assert len(json.loads(ok("sessions", "--json"))) == 1


def test_a_tables_session_cannot_be_deleted() -> None:
    new()
    draw()
    code, _, err = run("sessions", "delete", "Cup S1 T1", "--yes")
    assert code == 1 and "is a table of tournament 'Cup'" in err and "romme edit" in err


# --- standings, teams, corrections ---------------------------------------------------------------


def test_standings_json_contract_and_augen_are_the_sessions_totals_rules_10() -> None:
    new("--games", "2", "--scoring", "augen", players=["Anna;Nord", "Ben;Süd", "Carl;Nord"])
    table = draw()["tables"][0]
    session = table["session"]
    ok("round", "--session", session, "--winner", "1", "2=12", "3=25")
    ok("round", "--session", session, "--winner", "2", "--hand-romme", "1=5", "3=10")
    totals = {
        p["name"]: p["total"] for p in json.loads(ok("standings", "--session", session, "--json"))["players"]
    }
    data = json.loads(ok("tournament", "standings", "--json"))
    assert set(data) == {
        "tournament",
        "scoring",
        "series_played",
        "series_drawn",
        "series_finished",
        "finished_series",
        "provisional",
        "players",
        "teams",
        "missing",
        "closed",
    }
    assert data["scoring"] == "augen" and data["series_played"] == 1 and data["missing"] == []
    assert data["closed"] == [] and data["finished_series"] == [1]
    assert data["series_drawn"] == data["series_finished"] == 1 and data["provisional"] is False
    for p in data["players"]:
        assert set(p) == {"start", "name", "team", "place", "series", "total", "withdrawn", "current"}
        assert p["current"] is None
        # Augen: the session's total, the Hand-Rommé doubling and the winner bonus included
        assert p["series"] == [totals[p["name"]]] and p["total"] == totals[p["name"]]
    seat = table["players"]
    assert totals[seat[0]] == 0 + 10 and totals[seat[1]] == 12 - 12 and totals[seat[2]] == 25 + 20
    assert [p["place"] for p in data["players"]] == [1, 2, 3]  # fewer Augen is better
    teams = {t["team"]: t for t in data["teams"]}
    assert set(data["teams"][0]) == {"team", "place", "total", "players"}
    nord = [p["total"] for p in data["players"] if p["team"] == "Nord"]
    assert teams["Nord"]["total"] == sum(nord) and sorted(teams["Nord"]["players"]) == ["Anna", "Carl"]


def test_a_correction_in_a_tables_session_changes_the_ranking_at_once() -> None:
    new("--games", "1", "--scoring", "wertung", players=["Anna", "Ben", "Carl"])
    draw()
    ok("round", "--session", "Cup S1 T1", "--winner", "Anna", "Ben=40", "Carl=5")
    assert [p["name"] for p in json.loads(ok("tournament", "standings", "--json"))["players"]] == [
        "Anna",
        "Carl",
        "Ben",
    ]
    ok("edit", "1", "--session", "Cup S1 T1", "--winner", "Ben", "Anna=30")
    data = json.loads(ok("tournament", "standings", "--json"))
    assert [(p["name"], p["total"]) for p in data["players"]] == [("Ben", 5), ("Carl", 3), ("Anna", 1)]


def test_standings_after_series_k_and_an_unknown_series() -> None:
    new("--games", "1", "--series", "2", "--scoring", "wertung", players=["Anna", "Ben", "Carl"])
    play_series(draw()["tables"], 1)
    play_series(draw()["tables"], 1)
    assert json.loads(ok("tournament", "standings", "--series", "1", "--json"))["series_played"] == 1
    assert all(len(p["series"]) == 2 for p in json.loads(ok("tournament", "standings", "--json"))["players"])
    code, _, err = run("tournament", "standings", "--series", "3")
    assert code == 2 and "has no series 3 (series 1-2 are drawn)" in err


def test_standings_text_and_csv_list_every_series_the_teams_and_what_is_missing() -> None:
    new("--games", "2", "--scoring", "wertung", players=["Anna;Nord", "Ben;Süd", "Carl;Nord", "Dora;Süd"])
    draw()
    ok("round", "--session", "Cup S1 T1", "--winner", "1", "2=5", "3=15", "4=25")
    text = ok("tournament", "standings")
    assert "provisional: series 1 of 3 is being played · Wertung (more is better)" in text
    assert re.search(r"place\s+start\s+name\s+team\s+total\s+S1 so far", text)
    assert "Teams" in text and "Not complete: table 1 of series 1 has played 1 of 2 games." in text
    ok("round", "--session", "Cup S1 T1", "--winner", "2", "1=5", "3=15", "4=25")
    assert re.search(r"place\s+start\s+name\s+team\s+S1\s+total", ok("tournament", "standings"))
    rows = list(csv.reader(io.StringIO(ok("tournament", "standings", "--format", "csv"))))
    assert rows[0] == ["place", "start", "name", "team", "series_1", "total", "withdrawn"]
    assert len(rows) == 5 and all(len(r) == 7 for r in rows)
    assert json.loads(ok("tournament", "standings", "--format", "json"))["scoring"] == "wertung"


def test_standings_speak_german() -> None:
    new("--games", "2", players=["Anna", "Ben", "Carl"])
    draw()
    text = ok("--lang", "de", "tournament", "standings")
    assert "vorläufig: Serie 1 von 3 wird gespielt" in text and "Platz" in text and "Startnr." in text
    assert "Tisch 1 der Serie 1 hat 0 von 2 Spielen gespielt" in text


# --- withdrawals -----------------------------------------------------------------------------------


def test_a_withdrawn_player_keeps_start_number_and_series_and_is_not_seated_again_rules_10() -> None:
    new("--games", "1", "--series", "2", "--scoring", "wertung")
    play_series(draw()["tables"], 1)
    withdrawn = json.loads(ok("tournament", "withdraw", "Cup", "7", "--json"))  # by start number
    assert withdrawn == {"tournament": "Cup", "start": 7, "player": "Gerd", "after_series": 1}
    second = draw()["tables"]
    assert all("Gerd" not in t["players"] for t in second)
    assert [len(t["players"]) for t in second] == [3, 3]
    play_series(second, 1)
    gerd = next(
        p for p in json.loads(ok("tournament", "standings", "--json"))["players"] if p["name"] == "Gerd"
    )
    assert gerd["start"] == 7 and gerd["withdrawn"] is True and gerd["series"][1] is None
    assert len(gerd["series"]) == 2 and gerd["series"][0] is not None
    assert "Gerd (withdrawn)" in ok("tournament", "standings")


@pytest.mark.parametrize(
    "player, code, fragment",
    [
        ("gerd", 0, "withdrew"),
        ("G", 0, "withdrew"),
        ("Gred", 2, "did you mean Gerd?"),
        ("9", 2, "there is no start number 9 (start numbers 1-7)"),
    ],
)
def test_withdraw_reads_a_name_its_first_letters_or_a_start_number(
    player: str, code: int, fragment: str
) -> None:
    new()
    got, out, err = run("tournament", "withdraw", "Cup", player)
    assert got == code and fragment in (out + err)


def test_withdrawing_twice_or_after_the_last_draw_is_refused() -> None:
    new("--series", "1")
    ok("tournament", "withdraw", "Cup", "Ben")
    code, _, err = run("tournament", "withdraw", "Cup", "Ben")
    assert code == 1 and "withdrew" in err and "already" in err
    draw()
    code, _, err = run("tournament", "withdraw", "Cup", "Carl")
    assert code == 1 and "has 1 series, and it is drawn" in err


def test_too_few_players_left_to_seat_is_refused() -> None:
    new("--series", "2", "--games", "1", players=["Anna", "Ben", "Carl", "Dora"])
    play_series(draw()["tables"], 1)
    ok("tournament", "withdraw", "Cup", "Anna")
    ok("tournament", "withdraw", "Cup", "Ben")
    code, _, err = run("tournament", "draw")
    assert code == 1 and "has 2 players left to seat; a table needs 3" in err


# --- money ------------------------------------------------------------------------------------------


def test_payout_json_contract_with_prizes_as_amounts() -> None:
    new(
        "--games", "2", "--entry-fee", "5", "--lost-game-fee", "1", "--prizes", "10,4.50", "--currency", "EUR"
    )
    play_series(draw()["tables"], 2)
    data = json.loads(ok("tournament", "payout", "--json"))
    assert set(data) == {"pot", "kept", "players"}
    assert all(set(p) == {"name", "place", "paid", "receives"} for p in data["players"])
    # 7 x 5 entry; the table of 4 loses 3 games a game, the table of 3 loses 2: 2 x (3 + 2) = 10
    assert data["pot"] == "45.00"
    # Augen: both seats 1 went out twice with 0 and share place 1, so they split 10 + 4.50
    assert [p["receives"] for p in data["players"]] == [
        "7.25",
        "7.25",
        "0.00",
        "0.00",
        "0.00",
        "0.00",
        "0.00",
    ]
    assert [p["place"] for p in data["players"]][:2] == [1, 1] and data["kept"] == "30.50"
    assert "Not final" in ok("tournament", "payout")  # series 2 and 3 are still to come


def test_a_stalemate_costs_every_player_the_lost_game_fee_rules_10() -> None:
    new("--games", "1", "--series", "1", "--lost-game-fee", "2", players=["Anna", "Ben", "Carl"])
    draw()
    ok("round", "--session", "Cup S1 T1", "--stalemate", "1=5", "2=6", "3=7")
    data = json.loads(ok("tournament", "payout", "--json"))
    assert data["pot"] == "6.00" and [p["paid"] for p in data["players"]] == ["2.00", "2.00", "2.00"]
    assert data["kept"] == "6.00"


def test_payout_money_in_german() -> None:
    new(
        "--games",
        "1",
        "--entry-fee",
        "10",
        "--prizes",
        "100%",
        "--currency",
        "EUR",
        players=["Anna", "Ben", "Carl"],
    )
    text = ok("--lang", "de", "tournament", "payout")
    assert "30,00 €" in text and "Topf" in text


# --- sheets ------------------------------------------------------------------------------------------


def sheets_page(*args: str) -> str:
    return ok("tournament", "sheets", *args)


def parse(html: str) -> Page:
    page = Page()
    page.feed(html)
    page.close()
    assert not page.stack and not page.errors, (page.stack, page.errors)
    return page


def test_sheets_are_one_page_per_table_and_the_ranking_rules_10() -> None:
    new("--games", "3", "--scoring", "wertung", players=["Anna;Nord", *SEVEN[1:]])
    draw()
    ok("round", "--session", "Cup S1 T1", "--winner", "1", "2=5", "3=15", "4=40")
    html = sheets_page()
    page = parse(html)
    sections = [a for tag, a in page.tags if tag == "section"]
    assert [a.get("class") for a in sections] == ["sheet", "sheet", "sheet ranking"]
    assert "@page { size: A4" in html and "page-break-after: always" in html
    assert "<script" not in html and "http" not in html.replace('http-equiv="Content-Security-Policy"', "")
    assert html.count("signature of") == 7 and "Ranking of Cup" in html
    assert html.count('<td class="game">') == 2 * 3  # a row per game at each table
    assert "0 *" in html  # the game recorded so far is filled in


def test_sheets_escape_every_name() -> None:
    new(players=["<b>Anna</b>", "Ben & Co", 'Carl "C"'])
    draw()
    html = sheets_page()
    assert "<b>Anna</b>" not in html and "&lt;b&gt;Anna&lt;/b&gt;" in html and "Ben &amp; Co" in html
    parse(html)


def test_sheets_in_german_and_english() -> None:
    new(players=["Anna", "Ben", "Carl"])
    draw()
    english = sheets_page()
    german = ok("--lang", "de", "tournament", "sheets")
    assert '<html lang="en">' in english and "start number" in english and "deals first" in english
    assert '<html lang="de">' in german and "Startnummer" in german and "Sitzplatz" in german
    assert "Rangliste" in german and "Unterschrift" in german


def test_sheets_are_written_to_a_file_and_refused_before_a_draw(tmp_path: Path) -> None:
    new()
    code, _, err = run("tournament", "sheets")
    assert code == 1 and "no series of tournament 'Cup' is drawn yet" in err
    draw()
    target = tmp_path / "sheets.html"
    said = ok("tournament", "sheets", "-o", str(target))
    assert "Sheets of series 1 of 'Cup' (2 tables and the ranking) written to" in said
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    code, _, err = run("tournament", "sheets", "--series", "2")
    assert code == 2 and "has no series 2" in err


def test_sheets_url_base_with_user_information_or_a_bad_port_is_refused_issue_37_item_10() -> None:
    """`--url-base http://127.0.0.1:8765@evil.example` put every seat's token in a QR code
    for evil.example (exit 0); a port that is not a number, another scheme or a path with a
    query passed too. Each is refused with exit 2 and one sentence, nothing printed."""
    new()
    draw()
    for base in (
        "http://127.0.0.1:8765@evil.example",
        "http://user@laptop:8765",
        "http://laptop:port",
        "http://laptop:65536",
        "http://laptop:",
        "ftp://laptop:8765",
        "javascript://x",
        "http://laptop:8765?x=1",
        "http://laptop:8765/p?x=1",
        "http://laptop:8765#x",
        "http://",
        "http://lap top",
    ):
        code, out, err = run("tournament", "sheets", "--links", "--url-base", base)
        assert (code, out) == (2, ""), base
        assert f"--url-base: '{base}' is no address like http://" in err and err.count("\n") == 1, err
    for base in ("http://laptop:8765", "https://romme.club.example/", "http://[::1]:8765"):
        assert ok("tournament", "sheets", "--links", "--url-base", base).count("<svg") > 1


def _chromium(tmp_path: Path, page: Path, *args: str) -> None:
    chromium = find_chromium()
    if chromium is None:
        pytest.skip(
            "Chromium is not installed (Debian: apt-get install chromium): the sheets are not rendered"
        )
    subprocess.run(
        [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            f"--user-data-dir={tmp_path / 'chromium-profile'}",
            "--hide-scrollbars",
            *args,
            page.as_uri(),
        ],
        capture_output=True,
        timeout=120,
        check=False,
    )


def test_sheets_screenshot_in_headless_chromium_is_not_blank(tmp_path: Path) -> None:
    new("--games", "6", "--scoring", "wertung", players=["Anna;Nord", *SEVEN[1:]])
    draw()
    ok("round", "--session", "Cup S1 T1", "--winner", "1", "--hand-romme", "2=5", "3=15", "4=40")
    page = tmp_path / "sheets.html"
    ok("--lang", "de", "tournament", "sheets", "-o", str(page))
    shot = tmp_path / "sheets.png"
    _chromium(tmp_path, page, "--window-size=900,1300", f"--screenshot={shot}")
    assert shot.exists(), "Chromium wrote no screenshot"
    width, height, rows = png_pixels(shot.read_bytes())
    assert (width, height) == (900, 1300)
    bpp = len(rows[0]) // width
    pixels = [row[i : i + 3] for row in rows for i in range(0, len(row), bpp)]
    white = sum(1 for p in pixels if min(p) > 250)
    ink = sum(1 for p in pixels if max(p) < 90)  # text and the table's lines
    assert white > 0.3 * len(pixels), "the sheet (white paper) is not on the screenshot"
    assert ink > 0.004 * len(pixels), f"only {ink} of {len(pixels)} pixels are dark: no text drawn"


def test_sheets_print_one_a4_page_per_table_and_one_for_the_ranking(tmp_path: Path) -> None:
    new("--games", "6", players=[f"P{i}" for i in range(1, 14)])  # 13 players: 4 tables
    draw()
    page = tmp_path / "sheets.html"
    ok("tournament", "sheets", "-o", str(page))
    pdf = tmp_path / "sheets.pdf"
    _chromium(tmp_path, page, "--no-pdf-header-footer", f"--print-to-pdf={pdf}")
    assert pdf.exists(), "Chromium wrote no PDF"
    data = pdf.read_bytes()
    pages = re.findall(rb"/Type\s*/Page[^s]", data)
    assert len(pages) == 4 + 1
    boxes = {
        tuple(round(float(x)) for x in box.split()) for box in re.findall(rb"/MediaBox\s*\[([^\]]*)\]", data)
    }
    assert boxes == {(0, 0, 595, 842)}  # A4: 210 x 297 mm in points


# --- the options listed ------------------------------------------------------------------------------


def test_romme_rules_lists_the_tournament_options() -> None:
    text = ok("rules")
    assert "Tournament options (romme tournament new)" in text
    for name in ("table_size", "seating", "wertung_low", "tie_break", "lost_game_fee", "prizes"):
        assert re.search(rf"^{name}\s", text, re.MULTILINE), name


def test_every_tournament_command_has_help_with_an_example() -> None:
    for command in ("new", "draw", "standings", "withdraw", "payout", "sheets"):
        text = ok("tournament", command, "--help")
        assert f"romme tournament {command}" in text
    assert "Startnummern" in ok("--lang", "de", "tournament", "new", "--help")


def test_a_draw_leaves_the_current_game_alone_issue_36_item_4() -> None:
    """``romme tournament draw`` prints each table's game and leaves the current game as
    it was: ``romme standings``, ``round`` and ``settle`` without ``--session`` go on
    with the game that was current before the draw."""
    ok("new", "Friday", "Ute", "Vera", "--rate", "0.01")
    ok("round", "--winner", "Ute", "Vera=20")
    new("--games", "1")
    drawn = draw()
    shown = ok("tournament", "draw", "--force")  # series 2, in words: each table's game
    assert all(t["session"] not in shown for t in drawn["tables"])
    assert "Cup S2 T1" in shown
    standings = json.loads(ok("standings", "--json"))
    assert standings["session"] == "Friday"
    ok("round", "--winner", "Vera", "Ute=10")
    assert json.loads(ok("standings", "--json"))["rounds"][-1]["number"] == 2
    assert "Ute" in ok("settle")  # a tournament table would be refused


def test_a_tournament_counts_its_series_and_games_each_in_its_own_number() -> None:
    """`romme tournament new` says "1 Serie zu 1 Spiel" and "2 Serien zu 16 Spielen": the
    series and the games each in their own singular or plural (it said "1 Serien zu 3
    Spielen", the plural by the players' count)."""
    players = ["Anna", "Ben", "Carl", "Dora"]
    one = ok("--lang", "de", "tournament", "new", "Eins", *players, "--series", "1", "--games", "1")
    assert "4 Spielern: 1 Serie zu 1 Spiel, Tische zu 4" in one
    two = ok("--lang", "de", "tournament", "new", "Zwei", *players, "--series", "2", "--games", "3")
    assert "4 Spielern: 2 Serien zu 3 Spielen, Tische zu 4" in two
    english = ok("--lang", "en", "tournament", "new", "Three", *players, "--series", "1", "--games", "1")
    assert "with 4 players: 1 series of 1 game, tables of 4" in english
