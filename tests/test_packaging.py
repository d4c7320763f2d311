"""The wheel that `pip install .` builds holds the whole program: every module of
romme_score (the solver package once went missing from an explicit package list, which
an editable install never notices) and the compiled message catalogs."""

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
    assert modules and catalogs
    assert modules - names == set()
    assert catalogs - names == set()
