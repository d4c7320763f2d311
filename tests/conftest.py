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
    i18n.set_language(None)
    yield db
    i18n.set_language(None)
