"""A missing extra names the command that installs it for the way romme was installed
(issue 30 item 5): ``pipx install --force 'romme-score[serve]'`` inside pipx's virtual
environment, else ``pip install`` with the interpreter running romme; for ``romme serve``
(the extra ``serve``) and a PostgreSQL URL (the extra ``postgres``), in both languages. The
missing import is simulated: the module is set to None in ``sys.modules``."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from clirun import run

URL = "postgresql://romme@127.0.0.1:1/db"  # never reached: psycopg is "missing"


def without(monkeypatch: pytest.MonkeyPatch, module: str, *importers: str) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # import raises ImportError(name=module)
    for name in importers:
        monkeypatch.delitem(sys.modules, name, raising=False)


def as_pipx(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    venv = tmp_path / "pipx" / "venvs" / "romme-score"
    venv.mkdir(parents=True)
    (venv / "pipx_metadata.json").write_text("{}", encoding="utf-8")
    monkeypatch.setattr(sys, "prefix", str(venv))
    monkeypatch.setattr("romme_score.cli.installed.source", lambda: "romme-score")  # from an index


def as_venv(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    venv = tmp_path / "project" / ".venv"
    venv.mkdir(parents=True)
    monkeypatch.setattr(sys, "prefix", str(venv))
    monkeypatch.setenv("PIPX_HOME", str(tmp_path / "pipx"))


def serve_without_its_extra(monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    assert run("new", "Freitag", "Anna", "Ben")[0] == 0
    without(monkeypatch, "uvicorn", "romme_score.web.server")
    code, _out, err = run("--lang", "de", "serve", "--host", "127.0.0.1", "--port", "0")
    return code, err


def test_serve_without_its_extra_under_pipx_names_pipx_install_force_issue30_item5(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    as_pipx(monkeypatch, tmp_path)
    without(monkeypatch, "psycopg")  # the extra postgres is not there either
    code, err = serve_without_its_extra(monkeypatch)
    assert code == 1
    assert (
        err.strip()
        == "Fehler: romme serve braucht das Extra 'serve': pipx install --force 'romme-score[serve]'"
    )


def test_pipx_keeps_the_extras_already_installed_issue30_item5(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    pytest.importorskip("psycopg")
    as_pipx(monkeypatch, tmp_path)
    code, err = serve_without_its_extra(monkeypatch)
    assert code == 1 and "pipx install --force 'romme-score[postgres,serve]'" in err


def test_serve_without_its_extra_in_a_venv_names_pip_of_this_interpreter_issue30_item5(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    as_venv(monkeypatch, tmp_path)
    assert run("new", "Freitag", "Anna", "Ben")[0] == 0
    without(monkeypatch, "uvicorn", "romme_score.web.server")
    code, _out, err = run("--lang", "en", "serve", "--host", "127.0.0.1", "--port", "0")
    assert code == 1
    line = f"{shlex.quote(sys.executable)} -m pip install 'romme-score[serve]'"
    assert err.strip() == f"Error: romme serve needs the extra 'serve': {line}"


@pytest.mark.parametrize(
    ("lang", "sentence"),
    [
        ("en", "Error: a PostgreSQL database needs the extra 'postgres': "),
        ("de", "Fehler: eine PostgreSQL-Datenbank braucht das Extra 'postgres': "),
    ],
)
def test_a_postgresql_url_without_psycopg_names_the_install_line_issue30_item5(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, lang: str, sentence: str
) -> None:
    without(monkeypatch, "psycopg", "romme_score.store.postgres")
    as_pipx(monkeypatch, tmp_path)
    code, _out, err = run("--lang", lang, "standings", "--db", URL)
    assert code == 1
    assert err.strip() == sentence + "pipx install --force 'romme-score[postgres,serve]'"
    as_venv(monkeypatch, tmp_path)
    code, _out, err = run("--lang", lang, "new", "X", "A", "B", "--db", URL)
    assert err.strip() == sentence + f"{shlex.quote(sys.executable)} -m pip install 'romme-score[postgres]'"


def test_pipx_is_told_by_its_metadata_or_by_its_home_issue30_item5(tmp_path: Path) -> None:
    from romme_score.cli.installed import in_pipx

    home = tmp_path / "pipx"
    (home / "venvs" / "romme-score").mkdir(parents=True)
    assert in_pipx(str(home / "venvs" / "romme-score"), {"PIPX_HOME": str(home)})
    assert not in_pipx(str(home / "venvs" / "romme-score"), {})
    assert not in_pipx(str(tmp_path), {"PIPX_HOME": str(home)})


def test_pipx_installed_from_a_folder_reinstalls_from_that_folder_issue30_item5(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """romme-score is installed from its folder (the README's `pipx install .`), not from a
    package index: the line names the folder, where `pipx install --force` finds it again."""
    from romme_score.cli import installed

    source = installed.source
    as_pipx(monkeypatch, tmp_path)
    monkeypatch.setattr(installed, "source", source)
    folder = tmp_path / "romme score"  # a space: the line quotes it
    folder.mkdir()

    class Installed:
        def read_text(self, name: str) -> str:
            assert name == "direct_url.json"  # PEP 610: where pip (and pipx) installed it from
            return json.dumps({"url": folder.as_uri(), "dir_info": {}})

    monkeypatch.setattr("importlib.metadata.distribution", lambda name: Installed())
    code, err = serve_without_its_extra(monkeypatch)
    assert code == 1
    assert err.strip().endswith(f"pipx install --force '{folder}[postgres,serve]'"), err  # psycopg is here
