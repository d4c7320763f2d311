"""The README's way to get ``romme`` for the table (issue 20 item 29): ``pipx install
'.[serve]'`` in a fresh clone, with pipx itself installed into a fresh virtual environment
and every dependency from the package index: no make, no activated venv. The command it
puts on the PATH runs the referee in English and German (the catalogs are in the
installed package) and the installed package holds the pages' files for the phones.

One test, slow by nature (two environments, the dependencies downloaded): about 25 s.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def run(args: list[str], cwd: Path, env: dict[str, str], timeout: int = 300) -> str:
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{args}: {done.stdout[-2000:]}{done.stderr[-2000:]}"
    return done.stdout


def test_pipx_install_of_a_fresh_clone_gives_a_romme_that_speaks_both_languages(tmp_path: Path) -> None:
    # a fresh clone: what git holds of the package (no .venv, no build folder, no egg-info)
    clone = tmp_path / "romme-score"
    clone.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, clone / name)
    shutil.copytree(
        ROOT / "romme_score", clone / "romme_score", ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
    )
    home, bin_dir = tmp_path / "pipx-home", tmp_path / "bin"
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON", "ROMME_"))},
        "PIPX_HOME": str(home),
        "PIPX_BIN_DIR": str(bin_dir),
        "PIPX_MAN_DIR": str(tmp_path / "man"),
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "ROMME_DB": str(tmp_path / "table.sqlite3"),
    }
    started = time.monotonic()
    tools = tmp_path / "tools"
    run([sys.executable, "-m", "venv", str(tools)], tmp_path, env)
    run([str(tools / "bin" / "python"), "-m", "pip", "install", "-q", "pipx"], tmp_path, env)
    run([str(tools / "bin" / "pipx"), "install", ".[serve]"], clone, env)
    print(f"pipx and romme-score[serve] installed in {time.monotonic() - started:.1f} s")

    romme = str(bin_dir / "romme")
    assert run([romme, "--version"], tmp_path, env).startswith("romme, version ")
    assert run([romme, "check", "HK KK PK"], tmp_path, env) == "1. ♥K ♦K ♠K: legal set, 30 points\n"
    german = run([romme, "--lang", "de", "check", "HK KK PK", "T9 T10 TB"], tmp_path, env)
    assert german == (
        "1. ♥K ♦K ♠K: gültig als Satz, 30 Punkte\n"
        "2. ♣9 ♣10 ♣B: gültig als Folge, 29 Punkte\n"
        "Summe: 59 Punkte\n"
    )
    assert "--version" in run([romme, "--lang", "de", "--help"], tmp_path, env)

    # the installed package, not the clone: its pages' files and the serve extra's imports
    python = str(home / "venvs" / "romme-score" / "bin" / "python")
    shipped = run(
        [
            python,
            "-c",
            "import importlib.resources as r, starlette, uvicorn, segno\n"
            "web = r.files('romme_score') / 'web'\n"
            "print(' '.join(sorted(p.name for d in ('static', 'templates') for p in (web / d).iterdir())))",
        ],
        tmp_path,
        env,
    )
    expected = sorted(
        p.name for d in ("static", "templates") for p in (ROOT / "romme_score" / "web" / d).iterdir()
    )
    assert shipped.split() == expected
    assert "site-packages" in run(
        [python, "-c", "import romme_score; print(romme_score.__file__)"], tmp_path, env
    )
    assert "pipx install '.[serve]'" in README and "pipx install ." in README
