"""Without a database, only a command that starts something creates one (issue 20 item 23).

Every other command (reading or changing a session) says there is none, or lists
nothing, and leaves neither a database file nor its folder behind: a mistyped
``romme standings`` on a fresh machine must not leave an empty database.
"""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from romme_score.cli import main

# Every command line that may not create the database, by command.
NOT_CREATING: dict[str, list[list[str]]] = {
    "standings": [["standings"], ["standings", "--json"], ["standings", "--session", "Friday"]],
    "sessions": [["sessions"], ["sessions", "--json"]],
    "sessions rename": [["sessions", "rename", "Friday", "Saturday"]],
    "sessions delete": [["sessions", "delete", "Friday", "--yes"]],
    "export": [["export"], ["export", "--format", "csv"]],
    "stats": [["stats"], ["stats", "--json"]],
    "report": [["report"]],
    "chart": [["chart"]],
    "settle": [["settle"]],
    "round": [["round", "--winner", "Anna", "Ben=5"]],
    "undo": [["undo", "--yes"]],
    "edit": [["edit", "1", "Ben=5"]],
    "note": [["note", "a note"]],
    "use": [["use", "Friday"]],
    "end": [["end"], ["end", "--reopen", "--session", "Friday"]],
    "play": [["play"]],
    "serve": [["serve", "--port", "0"]],
    "check": [["check", "HK HD HB", "--session", "Friday"], ["check", "HK HD HB"]],
    "best": [["best", "HK HD HB"]],
    "value": [["value", "HK"]],
    "rules": [["rules"]],
    "tournament draw": [["tournament", "draw"]],
    "tournament standings": [["tournament", "standings"]],
    "tournament withdraw": [["tournament", "withdraw", "Cup", "Anna"]],
    "tournament payout": [["tournament", "payout"]],
    "tournament sheets": [["tournament", "sheets"]],
    "league add": [["league", "add", "Club", "--session", "Friday"]],
    "league remove": [["league", "remove", "Club", "--session", "Friday"]],
    "league alias": [["league", "alias", "Club", "Hansi", "Hans"]],
    "league list": [["league", "list"], ["league", "list", "--json"]],
    "league standings": [["league", "standings", "Club"], ["league", "standings", "Club", "--json"]],
    "league report": [["league", "report", "Club"]],
}
# The commands that start something, and so create the database where there is none.
CREATING = {"new", "import", "tournament new", "league new"}


def every_command() -> set[str]:
    ctx = click.Context(main)
    names = set()
    for name in main.list_commands(ctx):
        command = main.get_command(ctx, name)
        if isinstance(command, click.Group):
            names |= {f"{name} {sub}" for sub in command.list_commands(ctx)}
            if name not in ("tournament", "league"):  # `romme sessions` alone lists
                names.add(name)
        else:
            names.add(name)
    return names


def test_every_command_is_known_to_create_the_database_or_not() -> None:
    assert every_command() == set(NOT_CREATING) | CREATING


def left_behind(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*")) if folder.exists() else []


@pytest.mark.parametrize("args", [args for lines in NOT_CREATING.values() for args in lines], ids=" ".join)
@pytest.mark.parametrize("where", ["ROMME_DB", "data dir"])
def test_no_command_but_new_and_import_creates_a_database(
    args: list[str], where: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "nothing-here"
    if where == "ROMME_DB":
        monkeypatch.setenv("ROMME_DB", str(folder / "romme.sqlite3"))
    else:
        monkeypatch.delenv("ROMME_DB")
        monkeypatch.setenv("XDG_DATA_HOME", str(folder))
    result = CliRunner().invoke(main, args, input="")
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), (
        result.exception
    )
    assert left_behind(folder) == [], result.output
    assert "Traceback" not in result.output
    if args[0] in ("standings", "export", "round", "undo", "edit", "note", "report", "chart"):
        assert result.exit_code == 1 and "no database at" in result.stderr


def test_sessions_without_a_database_lists_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROMME_DB", str(tmp_path / "none" / "romme.sqlite3"))
    result = CliRunner().invoke(main, ["sessions"])
    assert result.exit_code == 0 and "No sessions yet" in result.stdout
    assert not (tmp_path / "none").exists()


@pytest.mark.parametrize(
    "args",
    [["new", "Friday", "Anna", "Ben"], ["tournament", "new", "Cup", "A", "B", "C", "D"]],
    ids=" ".join,
)
def test_new_creates_the_database_and_its_folder(
    args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "new" / "folder" / "romme.sqlite3"
    monkeypatch.setenv("ROMME_DB", str(db))
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert db.is_file()


@pytest.mark.parametrize(
    "args",
    [
        ["new", "Friday", "Anna"],
        ["new", "Friday", "Anna", "anna"],
        ["new", "Friday", "Anna", "Ben", "--dealer", "Xaver"],
        ["tournament", "new", "Cup", "Anna", "Ben"],
        ["tournament", "new", "Cup", "A", "B", "C", "D", "E", "--preset", "speedromme"],
    ],
    ids=" ".join,
)
def test_a_failing_new_leaves_no_database_behind(
    args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "new" / "folder"
    monkeypatch.setenv("ROMME_DB", str(folder / "romme.sqlite3"))
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert not (tmp_path / "new").exists()


def test_a_failing_import_leaves_no_database_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert CliRunner().invoke(main, ["new", "Friday", "Anna", "Ben"]).exit_code == 0
    assert CliRunner().invoke(main, ["round", "--winner", "Anna", "Ben=HK"]).exit_code == 0
    path = tmp_path / "friday.json"
    assert CliRunner().invoke(main, ["export", "-o", str(path)]).exit_code == 0
    data = json.loads(path.read_text())
    data["rounds"][0]["points"]["Ben"] += 5  # refused when the rounds are scored again
    path.write_text(json.dumps(data))
    monkeypatch.setenv("ROMME_DB", str(tmp_path / "other" / "romme.sqlite3"))
    result = CliRunner().invoke(main, ["import", str(path)])
    assert result.exit_code == 2 and "the export says 15 points" in result.stderr, result.output
    assert not (tmp_path / "other").exists()


def test_a_failing_new_keeps_a_database_that_was_there(isolated_data_dir: Path) -> None:
    assert CliRunner().invoke(main, ["new", "Friday", "Anna", "Ben"]).exit_code == 0
    assert CliRunner().invoke(main, ["new", "Friday", "Anna", "Ben"]).exit_code == 1  # exists already
    assert CliRunner().invoke(main, ["sessions"]).output.count("Friday") == 1
