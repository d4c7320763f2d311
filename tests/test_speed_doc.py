"""tools/speed_doc.py (issue 28, "Done means"): every GOAL line of a make bench run, and
only those, becomes a row of docs/speed.md's table, with the machine and the date; the
rest of the page stays as it was, and a second run replaces the table instead of adding
one."""

from __future__ import annotations

import importlib.util
from datetime import UTC, datetime
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def tool() -> object:
    spec = importlib.util.spec_from_file_location("speed_doc", ROOT / "tools" / "speed_doc.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


RUN = "\n".join(
    [
        "solver: 12 ms",
        "GOAL | start-up of romme --help | 233.9 M instr. | 188.9 M instr. (click) | 1.24 | <= 2.0x | met",
        "not a goal | x",
        "GOAL | PostgreSQL: romme round, round trips to the server | 57 round trips | - | - | <= 5 | missed",
    ]
)


def test_the_goal_lines_of_a_run_become_the_pages_table(tmp_path: Path) -> None:
    speed_doc = tool()
    log, page = tmp_path / "bench.log", tmp_path / "speed.md"
    log.write_text(RUN, encoding="utf-8")
    page.write_text("# Speed\n\nHow it is measured.\n", encoding="utf-8")
    when = datetime(2026, 12, 1, 23, 0, tzinfo=UTC)
    assert speed_doc.write(log, page, when) == 0  # type: ignore[attr-defined]
    text = page.read_text(encoding="utf-8")
    assert "| figure | measured | baseline | ratio | goal | met |" in text
    assert "| start-up of romme --help | 233.9 M instr. | 188.9 M instr. (click) | 1.24 |" in text
    assert "| - | <= 5 | missed |" in text and "not a goal" not in text
    assert "run 2026-12-01 23:00 UTC on " in text and "1 of 2 met" in text
    assert text.startswith("# Speed\n") and "How it is measured." in text
    log.write_text(RUN.replace("1.24", "1.25"), encoding="utf-8")
    speed_doc.write(log, page, when)  # type: ignore[attr-defined]
    again = page.read_text(encoding="utf-8")
    assert again.count("| figure |") == 1 and "1.25" in again and "1.24" not in again


def test_a_line_that_only_looks_like_a_goal_is_refused() -> None:
    with pytest.raises(ValueError, match="not a GOAL line"):
        tool().goal_rows("GOAL | a | b | c\n")  # type: ignore[attr-defined]
