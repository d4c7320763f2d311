"""The terminal's tables are written by tabulate, the package the design card names, in its
"simple" format (issue 38 item 18: romme_score/views/table.py, a copy of that format kept to
save tabulate's import, is gone). tabulate is imported where a table is printed, never at
a module's top (tests/test_startup_imports.py: never by ``romme check``). Names with an
emoji, a combining mark or a CJK character keep the columns after them in line, as with the
copy: tabulate measures them with wcwidth, a runtime dependency."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from clirun import ok

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "romme_score"

# The views that print a table, each calling tabulate.
TABLE_VIEWS = {"league", "rules", "session", "settle", "stats", "tournament"}


def calls_tabulate(tree: ast.AST) -> bool:
    return any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "tabulate"
        for n in ast.walk(tree)
    )


def test_no_module_writes_a_table_of_its_own_issue_38_item_18() -> None:
    assert not (PACKAGE / "views" / "table.py").exists()
    found = set()
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "simple_table" not in text, path
        tree = ast.parse(text)
        if calls_tabulate(tree):
            found.add(path.stem)
        for node in tree.body:  # imported where a table is printed, not at the module's import
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            module = node.module if isinstance(node, ast.ImportFrom) else None
            assert "tabulate" not in names and module != "tabulate", path
    assert found == TABLE_VIEWS


def test_a_table_is_tabulates_output_issue_38_item_18(monkeypatch: pytest.MonkeyPatch) -> None:
    import tabulate

    written: list[str] = []
    real = tabulate.tabulate

    def spy(*args: object, **kwargs: object) -> str:
        text = real(*args, **kwargs)  # type: ignore[arg-type]
        written.append(text)
        return text

    monkeypatch.setattr(tabulate, "tabulate", spy)
    out = ok("settle", "A=220", "B=360", "C=140", "D=490")
    assert len(written) == 1 and written[0] in out
    assert set(written[0].splitlines()[1]) == {"-", " "}  # the "simple" format's rule


# What romme settle printed with the copy (romme_score/views/table.py) before issue 38: the
# same with tabulate, byte for byte, wide characters and numbers given as text included.
SETTLED = {
    "en": """\
player       Zoë 🃏    王小明     C      D
---------  --------  --------  ----  -----
total           220       365   140    490
vs Zoë 🃏                -145   +80   -270
vs 王小明      +145            +225   -125
vs C            -80      -225         -350
vs D           +270      +125  +350
net            +335      -245  +655   -745
money          3.35     -2.45  6.55  -7.45
place             2         3     1      4
""",
    "de": """\
Spieler       Zoë 🃏    王小明     C      D
----------  --------  --------  ----  -----
Summe            220       365   140    490
gg. Zoë 🃏                -145   +80   -270
gg. 王小明      +145            +225   -125
gg. C            -80      -225         -350
gg. D           +270      +125  +350
netto           +335      -245  +655   -745
Geld            3,35     -2,45  6,55  -7,45
""",
}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_wide_characters_keep_the_columns_as_before_issue_38_item_18(lang: str) -> None:
    out = ok("--lang", lang, "settle", "--unit", "0.05", "Zoë 🃏=220", "王小明=365", "C=140", "D=490")
    assert SETTLED[lang] in out
