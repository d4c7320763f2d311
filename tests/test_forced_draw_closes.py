"""A forced draw closes the tables of the series before it (issue 36 item 2): a table of an
earlier series keeps its links and shows its final state, and every write to it is
refused with the usual finished-game answer (exit code 1 and one sentence, the phones'
``game-over``), nothing written; the tournament counts it as the forced draw did."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser import browser
from clirun import ok, run
from serving import Served, in_process, night_in_process

__all__ = ["browser"]  # the module-scoped fixture, used by name
EIGHT = ["Anna", "Ben", "Carl", "Dora", "Emil", "Fritz", "Gerd", "Hanna"]


def series_one(*, complete_t2: bool = False) -> list[list[str]]:
    """Cup of two series of two games: series 1 drawn, table 1 played out, table 2 one game
    short (unless ``complete_t2``). The players of each table in seat order."""
    ok("tournament", "new", "Cup", *EIGHT, "--series", "2", "--games", "2", "--seed", "7")
    drawn = json.loads(ok("tournament", "draw", "--json"))
    for _game in range(2):
        ok("round", "--session", "Cup S1 T1", "--winner", "1", "2=5", "3=6", "4=7")
    ok("round", "--session", "Cup S1 T2", "--winner", "2", "1=9", "3=4", "4=12")
    if complete_t2:
        ok("round", "--session", "Cup S1 T2", "--winner", "2", "1=9", "3=4", "4=12")
    return [t["players"] for t in drawn["tables"]]


def dump(db: Path) -> list[str]:
    """Everything the database holds, row by row."""
    with sqlite3.connect(db) as conn:
        return list(conn.iterdump())


def test_a_round_at_an_earlier_table_after_a_forced_draw_is_refused_issue_36_item_2(
    isolated_data_dir: Path,
) -> None:
    series_one()
    forced = ok("tournament", "draw", "--force")
    assert "table 2 of series 1 has played 1 of 2 games" in forced
    before = dump(isolated_data_dir)
    standings = ok("tournament", "standings", "--json")
    code, out, err = run("round", "--session", "Cup S1 T2", "--winner", "1", "2=5", "3=6", "4=7")
    assert code == 1 and out == ""  # exit as for a finished game
    assert err.count("\n") == 1 and "Traceback" not in err  # one sentence
    assert "'Cup S1 T2' is closed since series 2 of tournament 'Cup' was drawn" in err
    assert "'romme tournament standings' shows the ranking" in err
    code, _out, err = run("round", "--session", "Cup S1 T2", "--winner", "1", "2=5", "3=6", "4=7", "--json")
    error = json.loads(err)["error"]
    assert code == 1 and error["code"] == "game-over"
    assert (error["tournament"], error["series_drawn"]) == ("Cup", 2)
    # every other write to it: the same answer
    for args in (
        ("undo", "--yes"),
        ("end",),
        ("end", "--reopen"),
        ("edit", "1", "2=5"),
    ):
        code, _out, err = run(*args, "--session", "Cup S1 T2", "--json")
        assert code == 1 and json.loads(err)["error"]["code"] == "game-over", (args, err)
    # in German, as a card table speaks it
    code, _out, err = run(
        "--lang", "de", "round", "--session", "Cup S1 T2", "--winner", "1", "2=5", "3=6", "4=7"
    )
    assert code == 1 and "ist geschlossen, seit Serie 2 des Turniers 'Cup' ausgelost ist" in err
    # nothing written, the ranking as the forced draw counted it
    assert dump(isolated_data_dir) == before
    assert ok("tournament", "standings", "--json") == standings
    # the table stays readable and says it is over
    table = json.loads(ok("standings", "--session", "Cup S1 T2", "--json"))
    assert table["finished"] is True and table["closed"] is True and table["ended_by_agreement"] is False
    # stopped short of its games, counted for nothing: nobody won it (it named the leader)
    assert table["game_winner"] is None and table["tied"] == []
    assert "Cup S1 T2" in (listing := ok("sessions")) and "yes, closed" in listing
    assert "Table closed: the next series was drawn" in ok("standings", "--session", "Cup S1 T2")
    listed = {s["name"]: s["finished"] for s in json.loads(ok("sessions", "--json"))}
    assert listed == {"Cup S1 T1": True, "Cup S1 T2": True, "Cup S2 T1": False, "Cup S2 T2": False}
    # the table mode says it where a round is asked (the service's GameOver, worded)
    from romme_score.sessions import GameOver, SessionService
    from romme_score.views.play import game_over_no_round

    with SessionService(isolated_data_dir) as service, pytest.raises(GameOver) as over:
        service.check_open(service.session("Cup S1 T2"))
    line = game_over_no_round("…", over.value.tournament, over.value.ended, over.value.series_drawn)
    assert line.endswith("No more games at this table; the ranking is the tournament's.")
    # the tables of the series drawn play on
    ok("round", "--session", "Cup S2 T1", "--winner", "1", "2=5", "3=6", "4=7")


def test_a_table_that_played_its_games_is_corrected_but_not_undone_after_the_next_draw_issue_36_item_2(
    isolated_data_dir: Path,
) -> None:
    """A correction of a table that played its games goes on counting (docs/tournaments.md);
    undoing its last game after the next series is drawn would make it a table short of
    games, which the draw did not count so: refused."""
    series_one(complete_t2=True)
    ok("tournament", "draw")
    code, _out, err = run("undo", "--session", "Cup S1 T1", "--yes", "--json")
    assert code == 1 and json.loads(err)["error"]["code"] == "game-over"
    ok("edit", "1", "--session", "Cup S1 T1", "2=9")
    assert json.loads(ok("standings", "--session", "Cup S1 T1", "--json"))["closed"] is False


@pytest.fixture
def http() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=10) as client:
        yield client


def test_a_phones_write_to_an_earlier_table_after_a_forced_draw_is_refused_issue_36_item_2(
    isolated_data_dir: Path, http: httpx.Client
) -> None:
    seats = series_one()[1]
    with in_process(isolated_data_dir, "Cup S1 T2") as (served, _server):
        assert isinstance(served, Served)
        # a hand arrived before the draw: the round in progress stays as it was
        assert http.post(served.seats[seats[2]] + "/hand", json={"points": 12}).status_code == 200
        ok("tournament", "draw", "--force")
        before = dump(isolated_data_dir)
        standings = ok("tournament", "standings", "--json")
        writes: list[tuple[str, dict[str, Any]]] = [
            (served.seats[seats[1]] + "/hand", {"points": 7}),
            (served.seats[seats[0]] + "/out", {}),
            (served.scorekeeper + "/pending", {"winner": seats[0], "hands": {seats[1]: 5}}),
            (served.scorekeeper + "/save", {}),
            (served.scorekeeper + "/discard", {}),
            (served.scorekeeper + "/undo", {}),
        ]
        for url, body in writes:
            refused = http.post(url, json=body)
            # the usual answer of a finished game (docs/phones.md)
            assert refused.status_code == 400 and refused.json()["code"] == "game-over", (url, refused.text)
            assert refused.json()["series_drawn"] == 2
            assert "series 2 of tournament 'Cup' was drawn" in refused.json()["error"]
        assert dump(isolated_data_dir) == before
        assert ok("tournament", "standings", "--json") == standings
        # its links keep working: the final state, finished and closed
        assert http.get(served.seats[seats[0]]).status_code == 200
        state = http.get(served.board + "/state.json").json()
        assert state["finished"] is True and state["closed"] is True
        mine = http.get(served.seats[seats[0]] + "/state.json").json()
        assert mine["shown"]["mine"].startswith("Table closed: the next series was drawn")
        german = http.post(served.seats[seats[1]] + "/hand?lang=de", json={"points": 7})
        assert german.status_code == 400 and "Serie 2" in german.json()["error"]


def test_the_organizers_forced_draw_closes_the_tables_before_it_issue_36_item_2(
    isolated_data_dir: Path, http: httpx.Client
) -> None:
    series_one()
    with night_in_process(isolated_data_dir) as organizer:
        refused = http.post(organizer + "/tournaments/Cup/draw", json={})
        assert refused.status_code == 409  # a table still plays
        entry = {g["name"]: g for g in http.get(organizer + "/state.json").json()["games"]}["Cup S1 T2"]
        assert entry["finished"] is False
        drawn = http.post(organizer + "/tournaments/Cup/draw", json={"force": True})
        assert drawn.status_code == 200 and drawn.json()["series_drawn"] == 2
        games = {g["name"]: g for g in http.get(organizer + "/state.json").json()["games"]}
        assert games["Cup S1 T2"]["finished"] is True and games["Cup S2 T1"]["finished"] is False
        assert drawn.json()["series_finished"] == 0  # series 1 counts as the forced draw counted it
        seat = games["Cup S1 T2"]["seats"]
        name = next(iter(seat))
        refused = http.post(seat[name] + "/hand", json={"points": 3})
        assert refused.status_code == 400 and refused.json()["code"] == "game-over"
    code, _out, err = run("round", "--session", "Cup S1 T2", "--winner", "1", "2=5", "3=6", "4=7")
    assert code == 1 and "closed since series 2" in err


def test_a_forced_draw_closes_the_tables_before_it_on_postgresql_issue_36_item_2() -> None:
    """The same on PostgreSQL: the open check's read is asked with the command's others
    (one transaction, its round trips as before), and the refusal writes nothing."""
    from pgtest import fresh_database

    with fresh_database() as url:
        ok("tournament", "new", "Cup", *EIGHT, "--series", "2", "--games", "2", "--seed", "7", "--db", url)
        ok("tournament", "draw", "--db", url)
        ok("round", "--session", "Cup S1 T2", "--winner", "2", "1=9", "3=4", "4=12", "--db", url)
        ok("tournament", "draw", "--force", "--db", url)
        standings = ok("tournament", "standings", "--json", "--db", url)
        code, _out, err = run(
            "round", "--session", "Cup S1 T2", "--winner", "1", "2=5", "3=6", "4=7", "--json", "--db", url
        )
        assert code == 1 and json.loads(err)["error"]["series_drawn"] == 2
        code, _out, err = run("end", "--session", "Cup S1 T2", "--json", "--db", url)
        assert code == 1 and json.loads(err)["error"]["code"] == "game-over"
        assert ok("tournament", "standings", "--json", "--db", url) == standings
        table = json.loads(ok("standings", "--session", "Cup S1 T2", "--json", "--db", url))
        assert table["finished"] is True and table["closed"] is True and len(table["rounds"]) == 1
        ok("round", "--session", "Cup S2 T1", "--winner", "1", "2=5", "3=6", "4=7", "--db", url)


def test_a_series_closed_by_a_forced_draw_is_over_not_still_played_issue_36_item_2(
    isolated_data_dir: Path,
) -> None:
    """A table a forced draw closed short of games is played by nobody again: its series
    is over (counting for nothing, docs/tournaments.md), not "being played". So the next
    series is drawn without --force once the one before it is complete, the ranking is
    final after the last series, the payout too, and a league counts the tournament as
    finished. (It stayed "missing" for ever: every later draw refused with "record the
    missing games", which the closed table refuses; provisional; never final.)"""
    ok("tournament", "new", "Cup", *EIGHT, "--series", "3", "--games", "1", "--seed", "7")
    ok("league", "new", "Season")
    ok("league", "add", "Season", "--tournament", "Cup")
    ok("tournament", "draw")
    ok("round", "--session", "Cup S1 T1", "--winner", "1", "2=5", "3=6", "4=7")
    forced = json.loads(ok("tournament", "draw", "--force", "--json"))  # table 2 of series 1 never played
    assert forced["missing"] == [{"series": 1, "table": 2, "session": "Cup S1 T2", "played": 0, "games": 1}]
    for table in (1, 2):
        ok("round", "--session", f"Cup S2 T{table}", "--winner", "1", "2=5", "3=6", "4=7")
    standings = json.loads(ok("tournament", "standings", "--json"))
    assert standings["missing"] == [] and standings["provisional"] is False
    assert standings["closed"] == [{"series": 1, "table": 2, "session": "Cup S1 T2", "played": 0, "games": 1}]
    assert (standings["series_finished"], standings["series_drawn"]) == (1, 2)
    assert all(p["current"] is None for p in standings["players"])  # no "S1 so far"
    shown = ok("tournament", "standings")
    assert shown.startswith("Tournament 'Cup' after series 2 of 3")
    closed = "table 2 of series 1 has played 0 of 1 game (closed when the next series was drawn)."
    assert f"Not counted: {closed}" in shown
    german = ok("--lang", "de", "tournament", "standings")
    assert "Nicht gewertet: " in german and "Traceback" not in german
    assert "Not final" in ok("tournament", "payout")
    drawn = ok("tournament", "draw")  # no --force: series 2 is complete
    assert drawn.startswith("Series 3 of 'Cup'") and "Drawn although" not in drawn
    for table in (1, 2):
        ok("round", "--session", f"Cup S3 T{table}", "--winner", "1", "2=5", "3=6", "4=7")
    final = json.loads(ok("tournament", "standings", "--json"))
    assert (final["provisional"], final["series_finished"], final["missing"]) == (False, 2, [])
    assert final["finished_series"] == [2, 3]  # the series each player's "series" holds
    assert ok("tournament", "standings").startswith("Tournament 'Cup' after series 3 of 3")
    payout = ok("tournament", "payout")
    assert "Not final" not in payout and "Not counted: table 2 of series 1" in payout
    league = json.loads(ok("league", "standings", "Season", "--json"))
    assert [e["finished"] for e in league["events"]] == [True]


def _draw_while_a_last_game_is_saved(db: str) -> None:
    """Table 2's last game of series 1 saved in a transaction that waits; the draw of
    series 2 (without --force) meanwhile. It must wait for that game and count it: it read
    the games before its transaction, refused the series as incomplete, and on a refusal
    the other way round would have closed a table its last game had just completed."""
    import threading

    from romme_score.inputs import read_hand
    from romme_score.sessions import SessionService
    from romme_score.tournament import TournamentService

    ok("tournament", "new", "Cup", *EIGHT, "--series", "2", "--games", "1", "--seed", "7", "--db", db)
    ok("tournament", "draw", "--db", db)
    ok("round", "--session", "Cup S1 T1", "--winner", "1", "2=5", "3=6", "4=7", "--db", db)
    saving, go = threading.Event(), threading.Event()
    failures: list[BaseException] = []

    def save_last_game() -> None:
        try:
            with SessionService(db) as service:
                info = service.session("Cup S1 T2")
                hands = {p: read_hand(p, "7") for p in info.players[1:]}
                service.change_pending(info, winner=info.players[0], hands=hands, confirm=True)
                with service.store.held():
                    service.save_pending(service.session("Cup S1 T2"))
                    saving.set()
                    go.wait(20)
        except BaseException as exc:  # the test says it, not the thread
            failures.append(exc)
            saving.set()

    drawn: list[Any] = []

    def draw() -> None:
        try:
            with SessionService(db) as service:
                drawn.append(TournamentService(service).draw("Cup"))
        except BaseException as exc:
            drawn.append(exc)

    saver = threading.Thread(target=save_last_game)
    saver.start()
    assert saving.wait(20) and not failures
    drawer = threading.Thread(target=draw)
    drawer.start()
    drawer.join(0.5)
    waited = drawer.is_alive()
    go.set()
    saver.join(20)
    drawer.join(30)
    assert not failures
    assert waited, f"the draw did not wait for the game being saved: {drawn}"
    assert len(drawn) == 1 and not isinstance(drawn[0], BaseException), drawn
    assert drawn[0].series == 2 and drawn[0].missing == ()
    standings = json.loads(ok("tournament", "standings", "--json", "--db", db))
    assert standings["series_finished"] == 1 and standings["closed"] == []
    assert [m["series"] for m in standings["missing"]] == [2, 2]  # series 2 being played


def test_a_draw_waits_for_a_last_game_being_saved_issue_36_item_2(isolated_data_dir: Path) -> None:
    _draw_while_a_last_game_is_saved(str(isolated_data_dir))


def test_a_draw_waits_for_a_last_game_being_saved_on_postgresql_issue_36_item_2() -> None:
    from pgtest import fresh_database

    with fresh_database() as url:
        _draw_while_a_last_game_is_saved(url)


def test_the_board_says_why_a_closed_series_has_no_column_issue_36_item_2(
    isolated_data_dir: Path, http: httpx.Client, browser: Any
) -> None:
    """The projector's board after a forced draw: series 1 has no column (it counts for
    nothing), and the board says why, as ``tournament standings`` does, in the page's
    language."""
    series_one()
    ok("tournament", "draw", "--force")
    with night_in_process(isolated_data_dir) as organizer:
        board = http.get(organizer + "/state.json").json()["tournaments"][0]["board"]
        view = http.get(board + "/state.json").json()["view"]
        closed = "table 2 of series 1 has played 1 of 2 games (closed when the next series was drawn)."
        assert view["closed"] == f"Not counted: {closed}"
        german = http.get(board + "/state.json", headers={"Accept-Language": "de"}).json()["view"]
        assert german["closed"].startswith("Nicht gewertet: Tisch 2 der Serie 1 hat 1 von 2 Spielen gespielt")
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        try:
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(board)
            page.wait_for_selector("#closed:has-text('Not counted: table 2 of series 1')", timeout=20_000)
            assert errors == []
        finally:
            context.close()
