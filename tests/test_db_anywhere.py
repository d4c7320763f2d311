"""``--db`` anywhere on the line, as ``--lang`` is (issue 30 item 3): before the command's
name (``romme --db club.sqlite3 new Freitag Anna Ben``), after it, and between a group and
its subcommand (``romme tournament --db FILE standings``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
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


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_the_table_modes_history_is_the_history_of_the_database_given_by_db_issue30_item3(
    tmp_path: Path, isolated_data_dir: Path
) -> None:
    """A new user's trial (issue 30): ``romme --db club.sqlite3 play`` kept its lines in the
    data directory's ``play-history`` whatever ``--db`` said; they belong to the club's file,
    wherever ``--db`` stands on the line, and the data directory is left alone."""
    from test_play_terminal import UP, Terminal

    from romme_score.paths import data_dir

    club = tmp_path / "club" / "club.sqlite3"
    assert run("--db", str(club), "new", "Freitag", "Anna", "Ben")[0] == 0
    first = Terminal(["--db", str(club), "play"], isolated_data_dir)  # ROMME_DB: another file
    first.wait_for("Freitag · round 1>")
    first.type("standings --all\r", "Freitag · round 1>")
    first.type("quit\r")
    assert first.close() == 0
    assert "standings --all" in (club.parent / "club.sqlite3.play-history").read_text()
    assert not (data_dir() / "play-history").exists() and not isolated_data_dir.exists()

    second = Terminal(["play", "--db", str(club)], isolated_data_dir)
    second.wait_for("Freitag · round 1>")
    second.type(UP, "Freitag · round 1> quit")
    second.type(UP, "Freitag · round 1> standings --all")
    second.child.terminate(force=True)
    assert not data_dir().exists()
