"""``--db`` anywhere on the line, as ``--lang`` is (issue 30 item 3): before the command's
name (``romme --db club.sqlite3 new Freitag Anna Ben``), after it, and between a group and
its subcommand (``romme tournament --db FILE standings``)."""

from __future__ import annotations

import json
from pathlib import Path

from clirun import ok, run


def test_db_before_the_command_name_is_the_commands_database_issue30_item3(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite3"
    code, out, err = run("--lang", "de", "--db", str(db), "new", "Freitag", "Anna", "Ben")
    assert code == 0, err
    assert "Unbekannte Option" not in err and db.is_file()
    data = json.loads(ok("standings", "--db", str(db), "--json"))
    assert data["session"] == "Freitag"
    assert "Freitag" in ok(f"--db={db}", "sessions")
    assert run("standings", "--json")[0] != 0  # nothing in the default database


def test_db_before_the_name_beats_romme_db_and_after_the_name_beats_both_issue30_item3(
    tmp_path: Path,
) -> None:
    env_db, before, after = (tmp_path / f"{n}.sqlite3" for n in ("env", "before", "after"))
    env = {"ROMME_DB": str(env_db)}
    assert run("--db", str(before), "new", "B", "Anna", "Ben", env=env)[0] == 0
    assert before.is_file() and not env_db.exists()
    assert run("--db", str(before), "new", "A", "Anna", "Ben", "--db", str(after), env=env)[0] == 0
    assert json.loads(ok("standings", "--db", str(after), "--json"))["session"] == "A"
    assert json.loads(ok("standings", "--db", str(before), "--json"))["session"] == "B"


def test_db_before_play_serve_and_the_tournament_subcommands_issue30_item3(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite3"
    assert run("--db", str(db), "new", "Freitag", "Anna", "Ben")[0] == 0
    code, out, err = run("--db", str(db), "play", "Freitag", input="round --winner Anna Ben=12\n")
    assert code == 0, err
    assert json.loads(ok("standings", "--db", str(db), "--json"))["players"][1]["total"] == 12

    none = str(tmp_path / "none.sqlite3")
    code, _out, err = run("--db", none, "serve", "--host", "127.0.0.1", "--port", "0")
    assert code != 0 and "none.sqlite3" in err and "No such option" not in err

    players = [f"P{i}" for i in range(8)]
    assert run("--db", str(db), "tournament", "new", "Cup", *players)[0] == 0
    assert "Cup" in ok("tournament", "--db", str(db), "standings")
    assert "Cup" in ok("--db", str(db), "tournament", "standings")
    assert run("tournament", "standings")[0] != 0  # not in the default database


def test_db_before_a_subcommand_of_sessions_issue30_item3(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite3"
    assert run("--db", str(db), "new", "Freitag", "Anna", "Ben")[0] == 0
    assert run("--db", str(db), "sessions", "rename", "Freitag", "Fr")[0] == 0
    assert json.loads(ok("--db", str(db), "sessions", "--json"))[0]["name"] == "Fr"
