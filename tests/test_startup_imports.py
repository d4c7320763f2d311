"""What each command's start-up imports (issue 28 item 3: ``romme --help`` imported every
command module, 245 modules; tabulate imported ``importlib.metadata`` and ``email``, and
wcwidth cost half of Click): a probe runs each line in a fresh Python and lists the modules
loaded, so that a heavy import cannot come back unnoticed. The instructions themselves are
counted by benchmarks/startup.py, never timed here."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from romme_score.cli import COMMANDS

ROOT = Path(__file__).resolve().parent.parent

# Never on a path that prints no table: tabulate (which reads its version through
# importlib.metadata, which imports email, and imports wcwidth).
HEAVY = ("tabulate", "importlib.metadata", "email", "wcwidth")
# Nor, for a help text or the version, the database or the session service.
NO_DATABASE = ("sqlite3", "psycopg", "romme_score.store.sql", "romme_score.sessions", "romme_score.export")


def loaded_by(args: list[str], db: Path) -> set[str]:
    """Every module a ``romme`` run of ``args`` loads, in a fresh Python on ``db``."""
    code = (
        "import sys\nfrom romme_score.cli import main\n"
        f"try:\n    main({args!r}, standalone_mode=False)\nexcept SystemExit:\n    pass\n"
        "finally:\n    print()\n    print(' '.join(sorted(sys.modules)))\n"
    )
    env = {**os.environ, "ROMME_DB": str(db), "COLUMNS": "80"}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    return set(result.stdout.splitlines()[-1].split())


def found(loaded: set[str], names: tuple[str, ...]) -> list[str]:
    return [n for n in names if n in loaded or any(m.startswith(n + ".") for m in loaded)]


def command_modules(loaded: set[str]) -> set[str]:
    modules = {f"romme_score.cli.{target.split(':')[0]}" for target in COMMANDS.values()}
    return modules & loaded


@pytest.fixture(scope="module")
def session_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("startup") / "romme.sqlite3"
    env = {**os.environ, "ROMME_DB": str(db)}
    for line in (
        ["new", "Friday", "Anna", "Ben", "Carl"],
        ["round", "--winner", "Anna", "Ben=12", "Carl=30"],
    ):
        subprocess.run([sys.executable, "-m", "romme_score", *line], env=env, check=True, capture_output=True)
    return db


def test_the_probe_sees_what_a_command_loads(session_db: Path) -> None:
    loaded = loaded_by(["best", "HK KK PK"], session_db)
    assert "romme_score.cli.best" in loaded and "romme_score.solver" in loaded


@pytest.mark.parametrize("lang", ["en", "de"])
def test_romme_help_lists_the_commands_without_importing_them(lang: str, tmp_path: Path) -> None:
    loaded = loaded_by(["--lang", lang, "--help"], tmp_path / "none.sqlite3")
    assert command_modules(loaded) == set()
    assert found(loaded, HEAVY + NO_DATABASE) == []


@pytest.mark.parametrize(
    "args, module",
    [
        (["--version"], None),
        (["tournament", "--help"], "romme_score.cli.tournament"),
        (["tournament", "draw", "--help"], "romme_score.cli.tournament"),
        (["serve", "--help"], "romme_score.cli.serve"),
    ],
)
def test_a_help_text_and_the_version_load_no_database_and_no_other_command(
    args: list[str], module: str | None, session_db: Path
) -> None:
    loaded = loaded_by(args, session_db)
    assert command_modules(loaded) == ({module} if module else set())
    assert found(loaded, HEAVY + NO_DATABASE) == []


def test_standings_of_a_session_load_tabulate_for_its_table_issue_38_item_18(session_db: Path) -> None:
    """A table is printed by tabulate, imported where one is printed (issue 38 item 18):
    standings load it; the help texts, the version and romme check above do not."""
    loaded = loaded_by(["standings"], session_db)
    assert "romme_score.sessions" in loaded  # the probe sees the session read
    assert "tabulate" in loaded


def test_a_command_without_a_table_loads_no_table_library_issue_38_item_18(session_db: Path) -> None:
    loaded = loaded_by(["note", "a note"], session_db)
    assert "romme_score.sessions" in loaded
    assert found(loaded, HEAVY) == []


@pytest.mark.parametrize("with_session", [False, True])
def test_check_loads_no_table_library_and_no_session_service(
    with_session: bool, session_db: Path, tmp_path: Path
) -> None:
    loaded = loaded_by(["check", "HK KK PK"], session_db if with_session else tmp_path / "none.sqlite3")
    assert "romme_score.referee" in loaded
    assert found(loaded, HEAVY + ("romme_score.sessions", "romme_score.export", "romme_score.scoring")) == []


def test_the_summaries_of_romme_help_are_what_the_commands_say() -> None:
    """romme_score/cli/summaries.py is written by tools/summaries.py (run by tools/messages.py)."""
    spec = importlib.util.spec_from_file_location("summaries_tool", ROOT / "tools" / "summaries.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    from romme_score.cli.summaries import SUMMARIES

    assert SUMMARIES == tool.summaries(), "the commands' summaries are stale: python tools/summaries.py"


def test_the_quick_look_knows_the_stores_application_id() -> None:
    from romme_score.store import peek
    from romme_score.store.sqlite.schema import APPLICATION_ID

    assert peek.APPLICATION_ID == APPLICATION_ID


@pytest.mark.parametrize("columns", [None, "", "0", "-3", "abc", "1", "132"])
def test_the_terminals_width_is_what_shutil_says(
    columns: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    from romme_score.cli.terminal import terminal_columns

    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert terminal_columns() == shutil.get_terminal_size().columns
