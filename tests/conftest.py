"""Test set-up: no test ever touches the user's real data directory."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from romme_score import i18n


@pytest.fixture(autouse=True)
def isolated_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Point the database, HOME and the XDG directories into the test's tmp_path."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    # config, state (e.g. a prompt history) and cache too, for whatever comes to use them
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / ".local" / "state"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    db = tmp_path / "romme.sqlite3"
    monkeypatch.setenv("ROMME_DB", str(db))
    monkeypatch.delenv("ROMME_NOTATION", raising=False)
    # English unless a test asks otherwise, whatever the machine's locale
    monkeypatch.setenv("ROMME_LANG", "en")
    # 80 columns, whatever terminal runs the tests: tables narrow to fit it (issue 20 item 17)
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.delenv("LANGUAGE", raising=False)  # gettext's list, read before LC_ALL and LANG
    i18n.set_language(None)
    yield db
    i18n.set_language(None)


def build_locale(folder: Path, name: str, source: str, charmap: str) -> str | None:
    """Build ``name`` into ``folder`` with localedef; None, or why it could not be built."""
    import shutil
    import subprocess

    if shutil.which("localedef") is None:
        return "localedef is not installed (Debian: apt-get install locales)"
    done = subprocess.run(
        ["localedef", "-i", source, "-f", charmap, str(folder / name)], capture_output=True, text=True
    )
    if not (folder / name).is_dir():
        return f"localedef could not build {name}: {done.stderr.strip() or done.stdout.strip()}"
    return None


@pytest.fixture(scope="session")
def built_locales(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str | None]]:
    """de_DE.ISO-8859-1 and tr_TR.UTF-8 built with localedef (set LOCPATH to the folder),
    and for each the reason it could not be built, if any."""
    folder = tmp_path_factory.mktemp("locales")
    problems = {
        "de_DE.ISO-8859-1": build_locale(folder, "de_DE.ISO-8859-1", "de_DE", "ISO-8859-1"),
        "tr_TR.UTF-8": build_locale(folder, "tr_TR.UTF-8", "tr_TR", "UTF-8"),
    }
    return folder, problems
