"""The wheel that `pip install .` builds holds the whole program: every module of
romme_score (the solver package once went missing from an explicit package list, which
an editable install never notices), the compiled message catalogs and the files of the
pages of romme serve."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_wheel_holds_every_module_and_catalog(tmp_path: Path) -> None:
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr[-2000:]
    assert "absent from the `packages` configuration" not in built.stderr
    (wheel,) = tmp_path.glob("romme_score-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    package = ROOT / "romme_score"
    modules = {p.relative_to(ROOT).as_posix() for p in package.rglob("*.py")}
    catalogs = {p.relative_to(ROOT).as_posix() for p in package.rglob("*.mo")}
    # what a page of romme serve loads: shipped in the package, never fetched from elsewhere
    web = {
        p.relative_to(ROOT).as_posix()
        for d in ("static", "templates")
        for p in (package / "web" / d).iterdir()
    }
    assert modules and catalogs and web
    assert modules - names == set()
    assert catalogs - names == set()
    assert web - names == set()
