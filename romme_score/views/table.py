"""Tables as the terminal shows them: tabulate's "simple" format (a header row, a row of
dashes under each column, two spaces between the columns), written here because
importing tabulate costs more than all of Click (it reads its own version through
``importlib.metadata`` and imports wcwidth at once: 239 M instructions, issue 28 item 3),
and the views use a small part of it: headers, a column's alignment, numbers to the right.

Widths are the terminal's (:func:`~romme_score.views.width.width`: an emoji takes two
columns), so a player called "Zoë 🃏" keeps the columns after the name in line.
tests/test_table.py holds it to tabulate's output.

>>> print(simple_table([["Anna", 12], ["Ben", -5]], ["player", "points"]))
player      points
--------  --------
Anna            12
Ben             -5
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal

from romme_score.views.width import width

MIN_PADDING = 2  # each header gets two columns more than its text, as tabulate gives it


def _is_int(cell: object) -> bool:
    if isinstance(cell, bool):
        return False
    if isinstance(cell, int):
        return True
    if isinstance(cell, str):
        try:
            int(cell)
        except ValueError:
            return False
        return True
    return False


def _is_number(cell: object) -> bool:
    """A number, or a text that reads as one (``"12"``, ``"-3.5"``), as tabulate finds them;
    an infinity or "nan" only as those words themselves."""
    if isinstance(cell, bool):
        return False
    if isinstance(cell, int | float | Decimal):
        return True
    if not isinstance(cell, str):
        return False
    try:
        value = float(cell)
    except ValueError:
        return False
    finite = value == value and value not in (float("inf"), float("-inf"))
    return finite or cell.lower() in ("inf", "-inf", "nan")


def _after_point(text: str) -> int:
    """Characters after the decimal point of a number (-1 for a whole one), tabulate's
    measure for lining numbers up at the point."""
    if _is_int(text):
        return -1
    point = text.rfind(".")
    if point < 0:
        point = text.lower().rfind("e")
    return len(text) - point - 1 if point >= 0 else -1


def _text(cell: object, numeric: bool) -> str:
    if cell is None:
        return ""
    if numeric and isinstance(cell, float):
        return format(cell, "g")
    return str(cell)


def simple_table(
    rows: Iterable[Sequence[object]],
    headers: Sequence[str],
    colalign: Sequence[str] | None = None,
    numparse: bool = True,
) -> str:
    """``rows`` under ``headers`` in tabulate's "simple" format. ``colalign`` gives each
    column's alignment (``left``, ``right`` or ``center``); without it a column of numbers
    (ints, or texts that read as numbers, unless ``numparse`` is false) is lined up at the
    decimal point on the right, any other column to the left. An empty cell or None is
    blank and does not make a column of numbers one of text."""
    table = [list(row) for row in rows]
    count = max([len(headers), *(len(row) for row in table)])
    for row in table:
        row.extend([""] * (count - len(row)))
    heads = [*headers, *([""] * (count - len(headers)))]
    columns: list[list[str]] = []
    aligns: list[str] = []
    for index in range(count):
        cells = [row[index] for row in table]
        given = [c for c in cells if c is not None and c != ""]
        numeric = numparse and bool(given) and all(_is_number(c) for c in given)
        texts = [_text(c, numeric).strip() for c in cells]
        align = colalign[index] if colalign is not None and index < len(colalign) and table else None
        if align is None:  # without rows every header stands to the left, as in tabulate
            align = "decimal" if numeric else "left"
        if align == "decimal":
            points = [_after_point(t) if t else -1 for t in texts]
            most = max(points, default=-1)
            texts = [t + " " * (most - p) if t else t for t, p in zip(texts, points, strict=True)]
        columns.append(texts)
        aligns.append(align)
    out_heads: list[str] = []
    out_columns: list[list[str]] = []
    for head, texts, align in zip(heads, columns, aligns, strict=True):
        columns_wide = max([width(head) + MIN_PADDING, *(width(t) for t in texts)])
        out_heads.append(_pad(head, columns_wide, "left" if align == "left" else align))
        out_columns.append([_pad(t, columns_wide, align) for t in texts])
    lines = ["  ".join(out_heads), "  ".join("-" * width(h) for h in out_heads)]
    for line_cells in zip(*out_columns, strict=True):
        lines.append("  ".join(line_cells))
    return "\n".join(line.rstrip() for line in lines)  # tabulate ends no line in spaces


def _pad(text: str, columns: int, align: str) -> str:
    room = max(0, columns - width(text))
    if align == "left":
        return text + " " * room
    if align == "center":
        left = room // 2
        return " " * left + text + " " * (room - left)
    return " " * room + text  # right, decimal
