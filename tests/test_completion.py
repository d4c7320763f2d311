"""Shell completion (issue 20 item 28): the names the database holds are offered as Click's
own tests ask for them (``_ROMME_COMPLETE=bash_complete`` with ``COMP_WORDS`` and
``COMP_CWORD``), from the database that ``--db`` names earlier on the line, read-only;
a missing or foreign database gives no names, creates nothing and prints no error."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from clirun import ok

from romme_score.cli import main


def offered(line: str, env: dict[str, str] | None = None) -> list[str]:
    """What bash would be offered for the last word of ``line`` (a trailing space: a new word)."""
    words = shlex.split(line) + ([""] if line.endswith(" ") else [])
    result = CliRunner().invoke(
        main,
        [],
        prog_name="romme",
        env={
            "_ROMME_COMPLETE": "bash_complete",
            "COMP_WORDS": " ".join(words),
            "COMP_CWORD": str(len(words) - 1),
            **(env or {}),
        },
    )
    assert result.exit_code == 0 and result.stderr == "", result.stderr
    items = [row.split(",", 1) for row in result.stdout.splitlines() if row]
    assert all(kind == "plain" for kind, _ in items), items
    return [value for _, value in items]


@pytest.fixture
def evening() -> None:
    ok("new", "Samstag", "Zoe", "Yves")
    ok("new", "Freitag", "Anna", "Ben", "Carl", "Dora")
    ok("round", "--winner", "Anna", "Ben=5", "Carl=7", "Dora=9")


def test_session_names_are_offered_the_current_one_first(evening: None) -> None:
    assert offered("romme use ") == ["Freitag", "Samstag"]
    assert offered("romme use s") == ["Samstag"]
    assert offered("romme play ") == offered("romme serve ") == ["Freitag", "Samstag"]
    assert offered("romme standings --session ") == ["Freitag", "Samstag"]
    assert offered("romme undo --session Sa") == ["Samstag"]
    assert offered("romme sessions rename ") == ["Freitag", "Samstag"]
    assert offered("romme sessions delete F") == ["Freitag"]
    assert offered("romme settle --session Freitag --session ") == ["Freitag", "Samstag"]
    assert offered("romme check --session ") == ["Freitag", "Samstag"]


def test_players_of_the_session_are_offered_for_the_winner_and_the_hands(evening: None) -> None:
    assert offered("romme round --winner ") == ["Anna", "Ben", "Carl", "Dora"]
    assert offered("romme round --winner b") == ["Ben"]
    assert offered("romme round --winner Anna ") == ["Ben=", "Carl=", "Dora="]
    assert offered("romme round --winner Anna Ben=HK ") == ["Carl=", "Dora="]
    assert offered("romme edit 1 ") == ["Anna=", "Ben=", "Carl=", "Dora="]
    assert offered("romme edit 1 --winner Carl D") == ["Dora="]
    assert offered("romme round --never-out ") == ["Anna", "Ben", "Carl", "Dora"]
    assert offered("romme round --session Samstag --winner ") == ["Zoe", "Yves"]
    assert offered("romme new Sonntag Eva Fritz --dealer ") == []  # not the current session's
    assert offered("romme stats --player ") == ["Zoe", "Yves", "Anna", "Ben", "Carl", "Dora"]


def test_presets_languages_and_command_names_are_offered() -> None:
    assert offered("romme rules ") == ["standard", "wiki-51", "classic", "speedromme", "basic"]
    assert offered("romme new X A B --preset w") == ["wiki-51"]
    assert offered("romme --lang ") == ["de", "en"]
    assert offered("romme us") == ["use"]


def test_tournaments_and_their_players_are_offered() -> None:
    ok("tournament", "new", "Club", "Anna", "Ben", "Carl", "Dora", "Emil", "--seed", "7")
    assert offered("romme tournament draw ") == ["Club"]
    assert offered("romme tournament standings C") == ["Club"]
    assert offered("romme tournament withdraw Club E") == ["Emil"]
    assert offered("romme serve --tournament ") == ["Club"]


def test_leagues_are_offered_issue_29() -> None:
    ok("league", "new", "Club")
    ok("league", "new", "Stammtisch")
    assert offered("romme league standings ") == ["Club", "Stammtisch"]
    assert offered("romme league add S") == ["Stammtisch"]
    assert offered("romme serve --league c") == ["Club"]


def test_the_database_named_by_db_earlier_on_the_line_is_read(evening: None, tmp_path: Path) -> None:
    other = tmp_path / "club.sqlite3"
    ok("new", "Vereinsabend", "Gerd", "Hans", "--db", str(other))
    assert offered(f"romme use --db {other} ") == ["Vereinsabend"]
    assert offered(f"romme round --db {other} --winner ") == ["Gerd", "Hans"]
    assert offered(f"romme sessions --db {other} delete ") == ["Vereinsabend"]
    assert offered(f"romme --db {other} use ") == ["Vereinsabend"]  # issue 30 item 3
    assert offered(f"romme --db {other} round --winner ") == ["Gerd", "Hans"]
    assert offered("romme use ", env={"ROMME_DB": str(other)}) == ["Vereinsabend"]


def test_no_database_gives_no_names_and_creates_none(tmp_path: Path) -> None:
    missing = tmp_path / "nothing" / "romme.sqlite3"
    assert offered(f"romme use --db {missing} ") == []
    assert offered(f"romme round --db {missing} --winner ") == []
    assert not missing.parent.exists()
    assert offered("romme use ") == [] and not (tmp_path / "romme.sqlite3").exists()


def test_a_file_that_is_no_database_of_ours_gives_no_names_and_is_left_as_it_was(tmp_path: Path) -> None:
    foreign = tmp_path / "notes.txt"
    foreign.write_bytes(b"shopping list\n")
    assert offered(f"romme use --db {foreign} ") == []
    assert foreign.read_bytes() == b"shopping list\n"
    assert offered("romme use --db postgresql://nobody@127.0.0.1:1/x ") == []


def test_completion_reads_without_writing(evening: None, isolated_data_dir: Path) -> None:
    before = isolated_data_dir.read_bytes(), isolated_data_dir.stat().st_mtime_ns
    offered("romme round --winner Anna ")
    assert (isolated_data_dir.read_bytes(), isolated_data_dir.stat().st_mtime_ns) == before


def _setup_lines() -> dict[str, str]:
    """The setup line for each shell in docs/commands.md (its comment names the shell)."""
    readme = (Path(__file__).resolve().parent.parent / "docs" / "commands.md").read_text(encoding="utf-8")
    start = readme.index("```sh", readme.index("## Tab completion")) + len("```sh")
    lines = readme[start : readme.index("```", start)].strip().splitlines()
    return {line.split("#", 1)[1].split(":")[0].strip(): line.split("#", 1)[0].strip() for line in lines}


def test_the_readme_has_a_setup_line_for_bash_zsh_and_fish() -> None:
    lines = _setup_lines()
    assert lines == {
        "bash": 'eval "$(_ROMME_COMPLETE=bash_source romme)"',
        "zsh": 'eval "$(_ROMME_COMPLETE=zsh_source romme)"',
        "fish": "_ROMME_COMPLETE=fish_source romme | source",
    }
    romme = Path(sys.executable).parent / "romme"
    for shell in lines:  # each line's script, as Click writes it for romme
        result = subprocess.run(
            [str(romme)],
            env={**os.environ, "_ROMME_COMPLETE": f"{shell}_source"},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert result.returncode == 0 and "_ROMME_COMPLETE" in result.stdout, result.stderr


def _shell_env() -> dict[str, str]:
    """The environment with this interpreter's ``romme`` first on the PATH."""
    return {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_the_readme_bash_line_completes_session_names_in_bash(evening: None) -> None:
    """The README's line run in a real bash, then a Tab after ``romme use`` as bash makes it."""
    script = (
        _setup_lines()["bash"] + "\n"
        "COMP_WORDS=(romme use ''); COMP_CWORD=2; _romme_completion romme\n"
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    result = subprocess.run(
        ["bash", "-c", script], env=_shell_env(), capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["Freitag", "Samstag"]


@pytest.mark.skipif(
    shutil.which("fish") is None, reason="fish is not installed (Debian: apt-get install fish)"
)
def test_the_readme_fish_line_completes_players_in_fish(evening: None) -> None:
    """fish asks for completions without a terminal (``complete -C``): the README's line,
    then what fish would offer after ``romme round --winner``."""
    script = _setup_lines()["fish"] + '; complete -C "romme round --winner "; complete -C "romme use "'
    result = subprocess.run(
        ["fish", "-c", script], env=_shell_env(), capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["Anna", "Ben", "Carl", "Dora", "Freitag", "Samstag"]


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed (Debian: apt-get install zsh)")
def test_the_readme_zsh_line_registers_the_completion_and_zsh_is_offered_names(evening: None) -> None:
    """zsh completes only inside its line editor: the README's line registers romme's
    function, and what that function asks Click for (``zsh_complete``) holds the names."""
    script = "autoload -Uz compinit && compinit -u\n" + _setup_lines()["zsh"] + "\nprint -- $_comps[romme]\n"
    result = subprocess.run(
        ["zsh", "-c", script], env=_shell_env(), capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0 and result.stdout.strip() == "_romme_completion", result.stderr
    asked = CliRunner().invoke(
        main,
        [],
        prog_name="romme",
        env={"_ROMME_COMPLETE": "zsh_complete", "COMP_WORDS": "romme use ", "COMP_CWORD": "2"},
    )
    assert asked.exit_code == 0 and asked.stdout.split("\n")[:6] == [
        "plain",
        "Freitag",
        "_",
        "plain",
        "Samstag",
        "_",
    ]
