"""Issue 9 item 6: ``romme check``, ``value`` and ``best`` judge under the current
session's rules when no --preset, --rule or --rules-file is given, and say so."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from romme_score.cli import main


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_value_without_database_uses_default_rules_and_creates_no_file(isolated_data_dir: Path) -> None:
    code, out, _ = run("value", "HA")
    assert code == 0 and "Total: 11 points" in out and "rules of session" not in out
    assert not isolated_data_dir.exists()


def test_value_under_the_current_sessions_rules_wiki_51_ace_10_000() -> None:
    assert run("new", "Friday", "--preset", "wiki-51", "Anna", "Ben")[0] == 0
    code, out, _ = run("value", "HA")
    assert code == 0
    assert out.splitlines()[0] == "rules of session 'Friday' (wiki-51)"
    assert "Total: 10 points" in out
    data = json.loads(run("value", "--json", "HA")[1])
    assert data["points"] == 10 and data["rules_from"] == "session" and data["session"] == "Friday"


def test_explicit_preset_wins_over_the_session() -> None:
    run("new", "Friday", "--preset", "wiki-51", "Anna", "Ben")
    code, out, _ = run("value", "--preset", "standard", "HA")
    assert code == 0 and "Total: 11 points" in out and "rules of session" not in out
    data = json.loads(run("value", "--json", "--rule", "ace_penalty=11", "HA")[1])
    assert data["points"] == 11 and "rules_from" not in data


def test_check_and_best_follow_the_session_first_meld_min_51_000() -> None:
    run("new", "Friday", "--preset", "wiki-51", "Anna", "Ben")
    data = json.loads(run("check", "--first", "--json", "P3 P4 P5", "TB PB HB")[1])
    assert data["first_meld"]["required"] == 51 and data["rules_from"] == "session"
    data = json.loads(run("best", "--json", "P3 P4 P5 TB PB HB H9")[1])
    assert data["first_meld_ok"] is False and data["rules_from"] == "session"


def test_session_by_name_and_unknown_session() -> None:
    run("new", "Club", "--preset", "wiki-51", "Anna", "Ben")
    run("new", "Home", "Anna", "Ben")
    assert "Total: 10 points" in run("value", "--session", "Club", "HA")[1]
    assert "Total: 11 points" in run("value", "HA")[1]
    code, _, err = run("value", "--session", "Klub", "HA")
    assert code == 1 and "did you mean Club" in err


def test_changed_rules_are_named_by_the_closest_preset() -> None:
    run("new", "Friday", "--rule", "joker_penalty=25", "--rule", "wraparound=true", "A", "B")
    assert "rules of session 'Friday' (standard with 2 changes)" in run("value", "J")[1]


def test_check_with_a_session_loads_sqlite_only_because_a_database_exists(isolated_data_dir: Path) -> None:
    code = (
        "import sys\n"
        "from romme_score.cli import main\n"
        "try:\n"
        "    main(['value', 'HA'], standalone_mode=False)\n"
        "finally:\n"
        "    print(' '.join(sorted(sys.modules)))\n"
    )
    probe = [sys.executable, "-c", code]
    without = set(subprocess.run(probe, capture_output=True, text=True, check=True).stdout.split())
    assert "sqlite3" not in without and not isolated_data_dir.exists()
    run("new", "Friday", "--preset", "wiki-51", "Anna", "Ben")
    result = subprocess.run(probe, capture_output=True, text=True, check=True)
    assert "rules of session 'Friday'" in result.stdout
    assert "sqlite3" in result.stdout.split() and "prompt_toolkit" not in result.stdout


def test_default_database_path_is_platformdirs_answer(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import platformdirs

    from romme_score.paths import default_location

    def platformdirs_answer() -> str:
        return str(Path(platformdirs.user_data_dir("romme-score", appauthor=False)) / "romme.sqlite3")

    monkeypatch.delenv("ROMME_DB")
    assert default_location() == platformdirs_answer()
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "elsewhere"))
    assert default_location() == platformdirs_answer()
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_location() == platformdirs_answer()


def test_value_finds_the_session_in_the_default_place(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ROMME_DB")
    from romme_score.paths import default_location

    run("new", "Home", "--preset", "wiki-51", "Anna", "Ben", "--db", default_location())
    assert "rules of session 'Home' (wiki-51)" in run("value", "HA")[1]
