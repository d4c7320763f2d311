"""Keeping score (RULES.md §6-§7): sessions and rounds in SQLite, corrections, export."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import platformdirs
import pytest
from click.testing import CliRunner

from romme_score.cli import main
from romme_score.paths import default_location
from romme_score.store.sqlite import schema as store_module


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=input)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def ok(*args: str, input: str | None = None) -> str:
    code, out, err = run(*args, input=input)
    assert code == 0, err
    return out


def standings() -> dict[str, Any]:
    data = json.loads(ok("standings", "--json"))
    assert isinstance(data, dict)
    return data


@pytest.fixture
def friday() -> None:
    ok("new", "Friday", "Anna", "Ben", "Carl", "Dora", "--rate", "0.01", "--currency", "EUR")


def test_new_session_is_current_and_stores_rules(friday: None, isolated_data_dir: Path) -> None:
    data = standings()
    assert data["session"] == "Friday" and data["next_dealer"] == "Anna"
    db = sqlite3.connect(isolated_data_dir)
    rules = json.loads(db.execute("SELECT rules FROM sessions").fetchone()[0])
    assert rules["first_meld_min"] == 40 and rules["game_end"] == "500"


def test_tests_never_touch_real_data_dir(
    isolated_data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert Path(default_location()) == isolated_data_dir
    # without ROMME_DB the platform's data directory is used: conftest points it into tmp_path too
    monkeypatch.delenv("ROMME_DB")
    assert tmp_path in Path(default_location()).parents
    for where in (
        platformdirs.user_data_dir,
        platformdirs.user_config_dir,
        platformdirs.user_state_dir,
        platformdirs.user_cache_dir,
    ):
        assert tmp_path in Path(where("romme-score")).parents


@pytest.mark.parametrize(
    "args, fragment",
    [
        (("new", "X", "Anna"), "2 to 6"),
        (("new", "X", "A", "B", "C", "D", "E", "--preset", "speedromme"), "2 to 4"),
        (("new", "X", "Anna", "anna"), "given twice"),
        (("new", "X", "Anna", "Ben", "--until", "soon"), "rounds:N"),
        (("new", "X", "Anna", "Ben", "--dealer", "Carl"), "unknown player 'Carl'"),
        (("new", "X", "Anna", "Ben", "--rate", "ten"), "not a decimal"),
    ],
)
def test_new_session_bad_input(args: tuple[str, ...], fragment: str) -> None:
    code, _, err = run(*args)
    assert code == 2 and fragment in err


def test_round_from_card_notation_section6(friday: None) -> None:
    ok("round", "--winner", "Anna", "Ben=HK K10 J", "Carl=P7 P8", "Dora=23")
    data = standings()
    assert data["rounds"][0]["points"] == {"Anna": 0, "Ben": 40, "Carl": 15, "Dora": 23}
    assert [p["total"] for p in data["players"]] == [0, 40, 15, 23]
    assert data["next_dealer"] == "Ben"


def test_hand_romme_doubles_and_bonus_002(friday: None) -> None:
    ok("round", "--winner", "Anna", "Ben=HK K10 J", "Carl=P7 P8", "Dora=23")
    ok("round", "--winner", "Ben", "--hand-romme", "Anna=TA T2", "Carl=0", "Dora=J J")
    data = standings()
    r2 = data["rounds"][1]
    assert r2["hand_romme"] and r2["points"] == {"Anna": 26, "Ben": 0, "Carl": 0, "Dora": 80}
    assert r2["bonus"] == {"Ben": 20}
    totals = {p["name"]: p["total"] for p in data["players"]}
    assert totals == {"Anna": 26, "Ben": 20, "Carl": 15, "Dora": 103}
    for p in data["players"]:
        name = p["name"]
        assert p["total"] == sum(r["points"][name] - r["bonus"].get(name, 0) for r in data["rounds"])


@pytest.mark.parametrize(
    "hands, fragment",
    [
        (("--winner", "Anna", "Ben=HX", "Carl=0", "Dora=0"), "cannot read card 'HX'"),
        (("--winner", "Ana", "Ben=0", "Carl=0", "Dora=0"), "did you mean Anna"),
        (("--winner", "Anna", "Ben=0", "Carl=0"), "no hand given for Dora"),
        (("--winner", "Anna", "Ben=HK HK", "Carl=HK", "Dora=0"), "3 times"),
        (("--winner", "Anna", "Ben=J J J J", "Carl=J J J", "Dora=0"), "jokers"),
        (("--winner", "Anna", "Ben=0", "Ben=1", "Carl=0", "Dora=0"), "given twice"),
        (("--winner", "Anna", "Ben=-3", "Carl=0", "Dora=0"), "negative"),
    ],
)
def test_bad_round_refused_and_nothing_written(friday: None, hands: tuple[str, ...], fragment: str) -> None:
    code, _, err = run("round", *hands)
    assert code == 2 and fragment in err and "Traceback" not in err
    assert standings()["rounds"] == []


def test_stalemate_modes_003_001() -> None:
    ok("new", "S", "A", "B", "--preset", "speedromme")
    ok("round", "--stalemate", "A=5", "B=HK")
    assert standings()["rounds"][0]["points"] == {"A": 5, "B": 10}
    ok("new", "T", "A", "B", "--preset", "basic")
    ok("round", "--stalemate", "A=5", "B=HK")  # 001: the hands count nothing
    ok("round", "--stalemate")  # and may be left out
    assert [r["points"] for r in standings()["rounds"]] == [{"A": 0, "B": 0}] * 2


def test_game_over_at_target_names_winner(friday: None) -> None:
    ok("new", "Short", "A", "B", "--until", "50")
    out = ok("round", "--winner", "A", "B=HK PK TK KK HD")
    assert "Game over: A won" in out
    data = standings()
    assert data["finished"] and data["game_winner"] == "A"
    code, _, err = run("round", "--winner", "B", "A=3")
    assert code == 1 and "over" in err


def test_undo_keeps_history(friday: None, isolated_data_dir: Path, at_a_terminal: None) -> None:
    ok("round", "--winner", "Anna", "Ben=5", "Carl=5", "Dora=5")
    ok("round", "--winner", "Ben", "Anna=7", "Carl=5", "Dora=5")
    code, out, _ = run("undo", input="n\n")
    assert code == 0 and "Nothing removed" in out and len(standings()["rounds"]) == 2
    ok("undo", "--yes")
    assert len(standings()["rounds"]) == 1
    db = sqlite3.connect(isolated_data_dir)
    assert db.execute("SELECT count(*) FROM rounds WHERE status = 'undone'").fetchone()[0] == 1


def test_edit_recomputes_later_bonus_002i(friday: None, isolated_data_dir: Path) -> None:
    ok("new", "Club", "A", "B", "--preset", "classic")
    ok("round", "--winner", "B", "A=30")
    ok("round", "--winner", "A", "B=5")  # A's bonus: 10 struck from 30
    assert standings()["rounds"][1]["bonus"] == {"A": 10}
    ok("edit", "1", "A=HK")  # A had only 10 before round 2 now
    data = standings()
    assert data["rounds"][0]["points"]["A"] == 10
    assert data["rounds"][1]["bonus"] == {"A": 10}
    ok("edit", "1", "A=H4")  # only 4 to strike now
    data = standings()
    assert data["rounds"][1]["bonus"] == {"A": 4}
    assert {p["name"]: p["total"] for p in data["players"]} == {"A": 0, "B": 5}
    db = sqlite3.connect(isolated_data_dir)
    assert db.execute("SELECT count(*) FROM rounds WHERE status = 'replaced'").fetchone()[0] == 2
    assert [c["change"] for c in data["corrections"]] == ["edited", "edited"]
    assert "Corrections kept in the history:\n  round 1 edited" in ok("standings")  # two: a line each


def test_edit_winner(friday: None) -> None:
    ok("round", "--winner", "Anna", "Ben=5", "Carl=6", "Dora=7")
    ok("edit", "1", "--winner", "Ben", "Anna=HK")
    r = standings()["rounds"][0]
    assert r["winner"] == "Ben" and r["points"] == {"Anna": 10, "Ben": 0, "Carl": 6, "Dora": 7}
    code, _, err = run("edit", "1", "--winner", "Carl")
    assert code == 2 and "no hand given for Ben" in err
    code, _, err = run("edit", "9", "Ben=1")
    assert code == 2 and "no round 9" in err


def test_sessions_use_and_session_option(friday: None) -> None:
    ok("new", "Saturday", "X", "Y")
    out = ok("sessions")
    assert "Friday" in out and "* Saturday" in out
    ok("use", "Friday")
    assert standings()["session"] == "Friday"
    assert json.loads(ok("standings", "--session", "Saturday", "--json"))["session"] == "Saturday"
    code, _, err = run("use", "Fridy")
    assert code == 1 and "did you mean Friday" in err


def test_export_import_round_trip(friday: None, tmp_path: Path) -> None:
    ok("round", "--winner", "Anna", "Ben=HK K10 J", "Carl=P7 P8", "Dora=23")
    ok("round", "--winner", "Ben", "--hand-romme", "Anna=TA T2", "Carl=0", "Dora=J J")
    path = tmp_path / "friday.json"
    ok("export", "-o", str(path))
    before = standings()
    code, _, err = run("import", str(path))
    assert code == 1 and "exists already" in err
    ok("import", str(path), "--name", "Copy", "--use")
    after = standings()
    assert after["session"] == "Copy"
    assert after["rounds"] == before["rounds"] and [p["total"] for p in after["players"]] == [
        p["total"] for p in before["players"]
    ]
    ok("export", "-o", str(tmp_path / "copy.json"))
    first = json.loads(path.read_text())
    second = json.loads((tmp_path / "copy.json").read_text())
    for data in (first, second):
        data.pop("name"), data.pop("created")
    assert first == second
    ok("use", "Friday")
    ok("round", "--winner", "Anna", "Ben=1", "Carl=1", "Dora=1")
    ok("import", str(path), "--replace")  # Friday as exported: without the third round
    assert standings()["session"] == "Friday" and standings()["rounds"] == before["rounds"]


def test_import_keeps_the_current_session_unless_use(friday: None, tmp_path: Path) -> None:
    """Issue 20 item 22: an imported copy does not take the next round unless --use."""
    ok("round", "--winner", "Anna", "Ben=5", "Carl=5", "Dora=5")
    path = tmp_path / "friday.json"
    ok("export", "-o", str(path))
    said = ok("import", str(path), "--name", "Kopie")
    assert "imported with 1 round" in said and "current session is still 'Friday'" in said
    ok("round", "--winner", "Ben", "Anna=1", "Carl=1", "Dora=1")
    assert standings()["session"] == "Friday" and len(standings()["rounds"]) == 2
    assert len(json.loads(ok("standings", "--session", "Kopie", "--json"))["rounds"]) == 1
    said = ok("import", str(path), "--name", "Kopie2", "--use")
    assert "It is now the current session." in said
    assert standings()["session"] == "Kopie2"
    said = ok("--lang", "de", "import", str(path), "--name", "Kopie3")
    assert "Kopie2" in said and "current" not in said


def test_import_into_a_database_without_a_current_session_makes_it_current(tmp_path: Path) -> None:
    ok("new", "Friday", "Anna", "Ben")
    path = tmp_path / "friday.json"
    ok("export", "-o", str(path))
    ok("sessions", "delete", "Friday", "--yes")
    assert "It is now the current session." in ok("import", str(path))
    assert standings()["session"] == "Friday"


def test_import_validates_everything_first(friday: None, tmp_path: Path) -> None:
    ok("round", "--winner", "Anna", "Ben=5", "Carl=5", "Dora=5")
    path = tmp_path / "bad.json"
    ok("export", "-o", str(path))
    data = json.loads(path.read_text())
    data["name"] = "Broken"
    data["rounds"].append(
        {
            "number": 2,
            "winner": "Anna",
            "hand_romme": False,
            "stalemate": False,
            "hands": {"Ben": {"cards": "HX"}},
        }
    )
    path.write_text(json.dumps(data))
    code, _, err = run("import", str(path))
    assert code == 2 and "HX" in err
    assert "Broken" not in ok("sessions")
    path.write_text("{not json")
    assert run("import", str(path))[0] == 2


def test_export_csv(friday: None) -> None:
    ok("round", "--winner", "Anna", "Ben=HK", "Carl=5", "Dora=5")
    out = ok("export", "--format", "csv")
    assert out.splitlines()[0].startswith("round,winner")
    assert "HK" in out


def test_interactive_round_reasks_on_bad_input(friday: None) -> None:
    answers = "Anne\nAnna\nHX\nHK K10\n0\n5\n\n"  # the table mode's entry: Enter saves
    code, out, err = run("round", "--interactive", input=answers)
    assert code == 0, err
    assert "did you mean Anna" in err and "cannot read card 'HX'" in err
    assert standings()["rounds"][0]["points"] == {"Anna": 0, "Ben": 20, "Carl": 0, "Dora": 5}


def test_interactive_round_ended_before_saving_is_refused_with_exit_1(friday: None) -> None:
    """Issue 20 item 9: the input ending at the summary saves nothing, a refused action."""
    code, out, _ = run("round", "-i", input="Anna\n1\n2\n3\n")  # input ends at the summary
    assert code == 1 and "Not saved." in out
    assert standings()["rounds"] == []


def test_not_a_romme_database_is_never_overwritten(tmp_path: Path) -> None:
    text_file = tmp_path / "notes.sqlite3"
    text_file.write_text("my shopping list")
    code, _, err = run("new", "X", "A", "B", "--db", str(text_file))
    assert code == 1 and "not a romme-score database" in err
    assert text_file.read_text() == "my shopping list"
    other = tmp_path / "other.sqlite3"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE t (x)")
    db.commit()
    db.close()
    data = other.read_bytes()
    code, _, err = run("new", "X", "A", "B", "--db", str(other))
    assert code == 1 and "another program" in err
    assert other.read_bytes() == data


def test_damaged_database_gets_clear_message(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite3"
    ok("new", "X", "A", "B", "--db", str(path))
    for i in range(30):
        ok("round", "--db", str(path), "--winner", "A", f"B={i}")
    ok("standings", "--db", str(path))
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    raw = bytearray(path.read_bytes())
    raw[100 : 4096 * 2] = b"\xff" * (4096 * 2 - 100)
    path.write_bytes(bytes(raw))
    code, out, err = run("standings", "--db", str(path))
    assert code == 1 and ("damaged" in err or "database error" in err) and "Traceback" not in err


def test_no_current_session_message() -> None:
    code, _, err = run("standings")
    assert code == 1 and "romme new" in err


def test_settle_session_and_evening(friday: None) -> None:
    ok("round", "--winner", "Anna", "Ben=HK K10 J", "Carl=P7 P8", "Dora=23")
    data = json.loads(ok("settle", "--json"))
    assert {p["name"]: p["amount"] for p in data["players"]} == {
        "Anna": "0.78",
        "Ben": "-0.82",
        "Carl": "0.18",
        "Dora": "-0.14",
    }
    ok("new", "Late", "Anna", "Eve")
    ok("round", "--winner", "Eve", "Anna=HK")
    data = json.loads(ok("settle", "--session", "Friday", "--session", "Late", "--json"))
    net = {p["name"]: p["net"] for p in data["players"]}
    assert net["Eve"] == 10 and net["Anna"] == 78 - 10
    assert sum(net.values()) == 0


def test_leaderboard_003() -> None:
    ok("new", "Speed", "A", "B", "--preset", "speedromme", "--until", "rounds:1")
    ok("round", "--winner", "A", "B=35")
    data = standings()
    assert {p["name"]: p["leaderboard"] for p in data["players"]} == {"A": 30 + 30, "B": 6.5 + 15}


def test_leaderboard_tenths_everywhere_rules_7_003(tmp_path: Path) -> None:
    """RULES.md §7: 23 penalty points give 7.7 leaderboard points, exactly: in the standings
    (text in the language's style, JSON a number with one decimal), settle, the table mode's
    panel, the report and the export, which imports back to the same."""
    ok("new", "Speed", "A", "B", "C", "--preset", "speedromme")
    ok("round", "--winner", "A", "B=23", "C=HK P3")  # C: 13 points
    ok("round", "--winner", "B", "A=1", "C=0")
    data = standings()
    board = {p["name"]: p["leaderboard"] for p in data["players"]}
    assert board == {"A": 30 + 9.9, "B": 7.7 + 30, "C": 8.7 + 10}
    assert '"leaderboard": 39.9' in ok("standings", "--json")
    assert "39.9" in ok("standings") and "37.7" in ok("standings")
    german = ok("--lang", "de", "standings")
    assert "39,9" in german and "37,7" in german and "18,7" in german
    settle = json.loads(ok("settle", "--json"))
    assert {p["name"]: p["leaderboard"] for p in settle["players"]} == board
    assert "18,7" in ok("--lang", "de", "settle")
    path = tmp_path / "speed.json"
    ok("export", "-o", str(path))
    exported = json.loads(path.read_text())
    assert exported["rounds"][0]["leaderboard"] == {"A": 30.0, "B": 7.7, "C": 8.7}
    assert '"B": 7.7' in path.read_text()
    ok("import", str(path), "--name", "Copy", "--use")
    assert {p["name"]: p["leaderboard"] for p in standings()["players"]} == board
    html = tmp_path / "speed.html"
    ok("--lang", "de", "report", "--session", "Speed", "-o", str(html))
    assert "<td>39,9</td>" in html.read_text()


def test_an_old_export_with_whole_leaderboard_points_still_imports(tmp_path: Path) -> None:
    """Exports before the tenths carried whole numbers (rounded down): they import, and
    the rounds' points are scored again, exactly."""
    ok("new", "Speed", "A", "B", "--preset", "speedromme")
    ok("round", "--winner", "A", "B=23")
    path = tmp_path / "old.json"
    ok("export", "-o", str(path))
    data = json.loads(path.read_text())
    data["rounds"][0]["leaderboard"] = {"A": 30, "B": 7}
    path.write_text(json.dumps(data))
    ok("import", str(path), "--name", "Old", "--use")
    assert {p["name"]: p["leaderboard"] for p in standings()["players"]} == {"A": 30.0, "B": 7.7}
    data["rounds"][0]["leaderboard"] = {"A": 30, "B": 7.75}
    path.write_text(json.dumps(data))
    code, _, err = run("import", str(path), "--name", "Bad")
    assert code == 2 and "7.75 is not a number from 0 to" in err and "at most one decimal" in err


def test_migration_to_leaderboard_tenths_recomputes_the_stored_points_rules_7(tmp_path: Path) -> None:
    """A database of schema 6 kept the leaderboard rounded down (7 for 23 penalty points):
    opened, every hand's is computed again in tenths from its points, and the totals."""
    path = tmp_path / "old.sqlite3"
    ok("new", "Speed", "A", "B", "C", "--preset", "speedromme", "--db", str(path))
    ok("round", "--winner", "A", "B=23", "C=HK P3", "--db", str(path))
    ok("round", "--winner", "B", "--hand-romme", "A=5", "C=0", "--db", str(path))
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("UPDATE hands SET leaderboard = leaderboard / 10")  # as schema 6 kept them, about
    con.execute("UPDATE hands SET leaderboard = 7 WHERE player = 'B' AND points = 23")
    con.execute("UPDATE totals SET leaderboard = 0")
    for later in (
        "league_aliases",
        "league_events",
        "leagues",
        "write_keys",
        "endings",
    ):  # the tables of later migrations
        con.execute(f"DROP TABLE {later}")
    con.execute("ALTER TABLE sessions DROP COLUMN ended_at")  # schema 11 (issue 36)
    con.execute("DROP TABLE round_totals")  # nor what came after schema 7 (issue 28)
    con.execute("DROP INDEX rounds_hand_romme")
    con.execute("PRAGMA user_version = 6")
    con.close()
    data = json.loads(ok("standings", "--db", str(path), "--json"))
    assert {p["name"]: p["leaderboard"] for p in data["players"]} == {
        "A": 30 + 9.0,  # 5 points, doubled by the Hand-Rommé: 10 -> 9.0
        "B": 7.7 + 60,
        "C": 8.7 + 10,
    }
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == store_module.SCHEMA_VERSION


def test_migration_from_schema_1_keeps_data(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    con = sqlite3.connect(path, isolation_level=None)
    for statement in store_module.migrations()[0]:
        assert isinstance(statement, str)  # schema 1 is statements only
        con.execute(statement)
    con.execute(f"PRAGMA application_id = {store_module.APPLICATION_ID}")
    con.execute("PRAGMA user_version = 1")
    con.execute(
        "INSERT INTO sessions (name, created_at, rules) VALUES ('Old', 'then', ?)",
        (json.dumps({"winner_bonus": 0}),),
    )
    con.executemany("INSERT INTO players VALUES (1, ?, ?)", [(0, "A"), (1, "B")])
    con.execute("INSERT INTO rounds (session_id, number, winner, recorded_at) VALUES (1, 1, 'A', 'x')")
    con.executemany("INSERT INTO hands (round_id, player, points) VALUES (1, ?, ?)", [("A", 0), ("B", 17)])
    con.execute("INSERT INTO state VALUES ('current', 'Old')")
    con.close()
    data = json.loads(ok("standings", "--db", str(path), "--json"))
    assert {p["name"]: p["total"] for p in data["players"]} == {"A": 0, "B": 17}
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == store_module.SCHEMA_VERSION


def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    ok("new", "X", "A", "B", "--db", str(path))
    con = sqlite3.connect(path)
    con.execute("PRAGMA user_version = 99")
    con.commit()
    con.close()
    code, _, err = run("standings", "--db", str(path))
    assert code == 1 and "newer romme-score" in err


def test_undo_without_an_answer_removes_nothing(friday: None) -> None:
    ok("round", "--winner", "Anna", "Ben=5", "Carl=5", "Dora=5")
    code, _, err = run("undo", input="")
    assert code == 1 and "--yes" in err
    assert len(standings()["rounds"]) == 1


@pytest.fixture
def at_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """A person at a terminal answers the question (CliRunner's input is what they type)."""
    monkeypatch.setattr("romme_score.cli.options.stdin_is_terminal", lambda: True)


@pytest.mark.parametrize("answer", ["y\n", "yes\n", "j\n", "\n", ""])
def test_undo_and_delete_without_a_terminal_act_only_with_yes(friday: None, answer: str) -> None:
    """Issue 21 item 10: a piped 'y' is no answer; without a terminal only --yes confirms,
    as the refusal says."""
    ok("round", "--winner", "Anna", "Ben=5", "Carl=5", "Dora=5")
    code, out, err = run("undo", input=answer)
    assert code == 1 and "without a terminal, give --yes" in err and "Remove round" not in out
    assert len(standings()["rounds"]) == 1
    code, out, err = run("sessions", "delete", "Friday", input=answer)
    assert code == 1 and "without a terminal, give --yes" in err and "Delete session" not in out
    assert standings()["session"] == "Friday"
    ok("undo", "--yes")
    ok("sessions", "delete", "Friday", "--yes")
    assert "Friday" not in ok("sessions")


def test_undo_and_delete_ask_the_person_at_a_terminal(friday: None, at_a_terminal: None) -> None:
    ok("round", "--winner", "Anna", "Ben=5", "Carl=5", "Dora=5")
    assert "Nothing removed" in ok("undo", input="n\n")
    assert "Round 1 removed." in ok("undo", input="y\n") and standings()["rounds"] == []
    assert "Nothing deleted" in ok("sessions", "delete", "Friday", input="n\n")
    ok("sessions", "delete", "Friday", input="y\n")
    assert "Friday" not in ok("sessions")


def test_sessions_rename_and_delete_use_the_groups_db_over_romme_db(tmp_path: Path) -> None:
    """`romme sessions --db X rename ...` renamed in ROMME_DB's database when that was set
    (the subcommand's own --db, filled from the environment, won over the group's): a
    romme play script on --db X failed to rename its session (found by the harness)."""
    other = str(tmp_path / "other.sqlite3")
    ok("new", "Here", "A", "B")  # in ROMME_DB's database
    ok("new", "There", "A", "B", "--db", other)
    ok("sessions", "--db", other, "rename", "There", "Yonder")
    assert "Yonder" in ok("sessions", "--db", other) and "Here" in ok("sessions")
    ok("sessions", "--db", other, "delete", "Yonder", "--yes")
    assert "Yonder" not in ok("sessions", "--db", other) and "Here" in ok("sessions")
    code, _, err = run("sessions", "rename", "--db", other, "Here", "Elsewhere")  # its own --db wins
    assert code == 1 and "no session named 'Here'" in err
