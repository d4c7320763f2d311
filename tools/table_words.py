"""`python tools/table_words.py`: write the table of the table mode's words into the
docs/table-mode.md from the registry (romme_score/table/words.py), between its two markers;
tests/test_play_words.py fails when that table is not the registry's."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from romme_score.table.words import markdown_table  # noqa: E402

README = ROOT / "docs" / "table-mode.md"
START = "<!-- the table mode's words: tools/table_words.py writes this table -->"
END = "<!-- end of the table mode's words -->"


def with_table(text: str) -> str:
    """``text`` with the table between the markers made from the registry."""
    before, start, rest = text.partition(START)
    _old, end, after = rest.partition(END)
    if not start or not end:
        raise SystemExit(f"docs/table-mode.md has no {START!r} ... {END!r}")
    return f"{before}{START}\n{markdown_table()}\n{END}{after}"


def main() -> None:
    README.write_text(with_table(README.read_text(encoding="utf-8")), encoding="utf-8")


if __name__ == "__main__":
    main()
