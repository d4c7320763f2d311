"""Ending a game by agreement (issue 36 item 5): ``romme end [--session NAME]`` ends a game
before its rules do, as a family stops at eleven; it is then finished everywhere (the
standings, ``state.json``, the phones, the report, the league), a round after it is
refused naming ``romme end --reopen``, which takes it back. Kept in the game's history
and in its export."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from clirun import ok, run
from serving import Served, in_process

from romme_score.export import PLAIN_VERSION, SessionExport
from romme_score.sessions import SessionService

FAMILY = ["Oma", "Opa", "Kind"]


def family_evening() -> None:
    """Eleven o'clock, before 500: two rounds played."""
    ok("new", "Familie", *FAMILY, "--rate", "0.01")
    ok("round", "--winner", "Oma", "Opa=20", "Kind=35")
    ok("round", "--winner", "Kind", "Oma=10", "Opa=40")


def test_romme_end_finishes_the_game_and_reopen_takes_it_back_issue_36_item_5(tmp_path: Path) -> None:
    family_evening()
    ended = json.loads(ok("end", "--json"))
    assert ended["ended"] is True and ended["finished"] is True and ended["round"] == 2
    assert ended["game_winner"] == "Oma" and ended["totals"] == {"Oma": 10, "Opa": 60, "Kind": 25}
    standings = json.loads(ok("standings", "--json"))
    assert standings["finished"] is True and standings["ended_by_agreement"] is True
    assert standings["game_winner"] == "Oma"
    assert [e["ended"] for e in standings["endings"]] == [True]
    assert "Game ended by agreement: Oma won with 10 points." in ok("standings")
    assert "Ended by agreement after 2 rounds" in ok("standings")  # the game's history
    # a round after it: refused, naming the way back; nothing written
    code, out, err = run("round", "--winner", "Oma", "Opa=5", "Kind=5")
    assert code == 1 and out == ""
    assert "romme end --reopen" in err and "Familie" in err
    assert json.loads(ok("standings", "--json"))["rounds"][-1]["number"] == 2
    sessions = json.loads(ok("sessions", "--json"))
    assert [s["finished"] for s in sessions] == [True]
    # ended twice: refused; --reopen takes it back, once
    assert run("end")[0] == 1
    assert "goes on" in ok("end", "--reopen")
    code, _out, err = run("end", "--reopen")
    assert code == 1 and "nothing to take back" in err
    ok("round", "--winner", "Oma", "Opa=5", "Kind=5")
    standings = json.loads(ok("standings", "--json"))
    assert standings["finished"] is False and standings["ended_by_agreement"] is False
    assert [(e["ended"], e["round"]) for e in standings["endings"]] == [(True, 2), (False, 2)]
    # a game without a round may be ended too, by --session; the current game stays
    ok("new", "Leer", "Anna", "Ben")
    ok("use", "Familie")
    empty = json.loads(ok("end", "--session", "Leer", "--json"))
    assert empty["finished"] is True and empty["round"] == 0 and empty["tied"] == ["Anna", "Ben"]
    assert json.loads(ok("standings", "--json"))["session"] == "Familie"
    # the report says the game is over
    ok("end")
    report = tmp_path / "report.html"
    ok("report", "--session", "Familie", "-o", str(report))
    assert "Game over: Oma won" in report.read_text(encoding="utf-8"), "the report: not over yet"


def test_the_league_no_longer_marks_an_ended_game_not_finished_issue_36_item_5() -> None:
    family_evening()
    ok("league", "new", "Saison")
    ok("league", "add", "Saison", "--session", "Familie")
    assert "not finished" in ok("league", "standings", "Saison")
    ok("end", "--session", "Familie")
    data = json.loads(ok("league", "standings", "Saison", "--json"))
    assert [e["finished"] for e in data["events"]] == [True]
    assert "not finished" not in ok("league", "standings", "Saison")


def test_an_ended_game_is_exported_and_imported_ended_issue_36_item_5(tmp_path: Path) -> None:
    family_evening()
    plain = tmp_path / "plain.json"
    ok("export", "-o", str(plain))
    assert json.loads(plain.read_text(encoding="utf-8"))["version"] == PLAIN_VERSION  # read by 0.1 too
    assert "endings" not in json.loads(plain.read_text(encoding="utf-8"))
    ok("end")
    ended = tmp_path / "ended.json"
    ok("export", "-o", str(ended))
    data = json.loads(ended.read_text(encoding="utf-8"))
    # version 3: the import before it refuses it with its sentence ("export version 3 is
    # not supported"), rather than import an ended game as one that goes on
    assert data["version"] == 3
    assert [(e["ended"], e["round"]) for e in data["endings"]] == [(True, 2)]
    assert SessionExport.from_json(data).endings[0].ended
    ok("import", str(ended), "--name", "Kopie")
    copy = json.loads(ok("standings", "--session", "Kopie", "--json"))
    assert copy["finished"] is True and copy["ended_by_agreement"] is True
    assert copy["endings"] == data["endings"]
    # taken back in the copy, exported again: the history travels whole
    ok("end", "--reopen", "--session", "Kopie")
    again = tmp_path / "again.json"
    ok("export", "--session", "Kopie", "-o", str(again))
    assert [e["ended"] for e in json.loads(again.read_text(encoding="utf-8"))["endings"]] == [True, False]
    # an ending that cannot be read is refused in one sentence, nothing imported
    data["endings"] = [{"ended": "yes", "round": 2, "at": data["endings"][0]["at"]}]
    ended.write_text(json.dumps(data), encoding="utf-8")
    code, _out, err = run("import", str(ended), "--name", "Kaputt")
    assert code == 2 and "ending 1" in err and "Traceback" not in err


@pytest.fixture
def http() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=10) as client:
        yield client


def test_a_seats_write_after_the_end_is_refused_as_in_a_finished_game_issue_36_item_5(
    isolated_data_dir: Path, http: httpx.Client
) -> None:
    family_evening()
    with in_process(isolated_data_dir) as (served, _server):
        assert isinstance(served, Served)
        assert http.post(served.seats["Opa"] + "/hand", json={"points": 12}).status_code == 200
        ok("end")
        state = http.get(served.board + "/state.json").json()
        assert state["finished"] is True and state["ended_by_agreement"] is True
        refused = http.post(served.seats["Kind"] + "/hand", json={"points": 7})
        assert refused.status_code == 400 and refused.json()["code"] == "game-over"
        # the way on is taking the end back, not a new game
        assert "'romme end --reopen' takes that back" in refused.json()["error"]
        ok("end", "--reopen")
        assert http.post(served.seats["Kind"] + "/hand", json={"points": 7}).status_code == 200


def test_ending_is_one_transaction_issue_36_item_5(
    isolated_data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failure inside the end's transaction (here: telling the others of the change, its
    last step) leaves the game as it was: neither ended nor an ending in its history."""
    family_evening()
    with SessionService(isolated_data_dir) as service:
        store = service.store

        def broken(cur: object, session_id: int) -> None:
            raise RuntimeError("power cut")

        monkeypatch.setattr(store, "_changed", broken)
        with pytest.raises(RuntimeError):
            service.end("Familie")
    with SessionService(isolated_data_dir) as service:
        info = service.session("Familie")
        assert not info.ended and service.store.endings(info) == []
        assert not service.state(info).finished


def test_the_table_mode_ends_with_beenden_and_leaves_with_ende_issue_36_item_5() -> None:
    """In the table mode ``beenden`` (English ``end``) ends the game, ``ende`` still quits."""
    family_evening()
    code, out, err = run("play", "Familie", "--lang", "de", input="beenden\nstand\nende\nstand\n")
    assert code == 0, err
    assert "Partie einvernehmlich beendet: Oma gewinnt" in out
    assert out.count("Gespielte Runden") == 1  # ende left: the last line never ran
    assert json.loads(ok("standings", "--json"))["ended_by_agreement"] is True
    code, out, err = run("play", "Familie", input="end --reopen\nround --winner Oma Opa=5 Kind=5\n")
    assert code == 0, err
    assert json.loads(ok("standings", "--json"))["rounds"][-1]["number"] == 3


def test_romme_stats_counts_a_game_ended_by_agreement_as_won_issue_36_item_5() -> None:
    family_evening()

    def won() -> dict[str, int]:
        return {p["name"]: p["games_won"] for p in json.loads(ok("stats", "--json"))["players"]}

    assert won() == {"Oma": 0, "Opa": 0, "Kind": 0}
    ok("end")
    assert won() == {"Oma": 1, "Opa": 0, "Kind": 0}


def test_a_tournament_table_is_not_ended_by_agreement_issue_36_item_5() -> None:
    """How many games a table plays is the tournament's to say: ``romme end`` refuses, and
    the way on is a forced draw; nothing is written."""
    ok("tournament", "new", "Cup", "Anna", "Ben", "Carl", "Dora", "--series", "2")
    table = json.loads(ok("tournament", "draw", "--json"))["tables"][0]["session"]
    code, _out, err = run("end", "--session", table)
    assert code == 1 and "tournament draw --force" in err
    assert json.loads(ok("standings", "--session", table, "--json"))["endings"] == []
    code, _out, err = run("end", "--session", table, "--json")
    assert code == 1 and json.loads(err)["error"]["tournament"] == "Cup"


def test_the_way_back_names_a_game_with_a_space_as_it_can_be_typed_issue_36_item_5() -> None:
    """The refused round names ``romme end --reopen --session NAME`` inside the hint's single
    quotes: a name with a space quoted so that the command can be copied as shown (it was
    ``'romme end --reopen --session 'Oma Abend''``, the quotes nested)."""
    ok("new", "Oma Abend", *FAMILY)
    ok("end", "--session", "Oma Abend")
    a_round = ("round", "--session", "Oma Abend", "--winner", "Oma", "Opa=1", "Kind=2")
    way_back = "'romme end --reopen --session \"Oma Abend\"'"
    code, _out, err = run(*a_round)
    assert code == 1 and f"{way_back} takes back its end by agreement" in err
    code, _out, err = run("--lang", "de", *a_round)
    assert code == 1 and f"{way_back} nimmt das vereinbarte Ende zurück" in err


def test_the_last_round_of_a_game_ended_by_agreement_is_not_undone_issue_36_item_5(
    isolated_data_dir: Path, http: httpx.Client
) -> None:
    """The end counted the rounds played: undoing one (the command line, the table mode's
    word, the scorekeeper's button) is refused as the game-over it is, naming the way back,
    and nothing is written; after ``--reopen`` it is undone as ever. (It took the round
    back and left "ended by agreement after 2 rounds" with one played.)"""
    family_evening()
    ok("end")
    before = ok("standings", "--json")
    code, out, err = run("undo", "--yes")
    assert code == 1 and out == ""
    assert "'romme end --reopen --session \"Familie\"' takes back its end by agreement" in err
    code, _out, err = run("undo", "--yes", "--json")
    assert code == 1 and json.loads(err)["error"]["code"] == "game-over"
    with in_process(isolated_data_dir) as (served, _server):
        assert isinstance(served, Served)
        refused = http.post(served.scorekeeper + "/undo", json={})
        assert refused.status_code == 400 and refused.json()["code"] == "game-over"
    assert ok("standings", "--json") == before
    ok("end", "--reopen")
    assert json.loads(ok("undo", "--yes", "--json"))["undone"] == 2
