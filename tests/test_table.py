"""The views' tables (romme_score/views/table.py) are tabulate's "simple" format, written
without importing tabulate (issue 28 item 3): the same text for the cells the views give
(names with an emoji or a combining mark, whole numbers, signed numbers as text, empty
cells), whatever the alignment. Where tabulate rewrites a number given as text in a column
that also holds a decimal (``+80`` -> ``80``, ``3.30`` -> ``3.3``), the table keeps the text
as the view wrote it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from tabulate import tabulate

from romme_score.views.table import simple_table

ALPHABET = "AnaBözZ🃏王 -+0123456789\u0308"


def reads_as_a_decimal(text: str) -> bool:
    """A text tabulate reads as a float but not as an int (it would rewrite it)."""
    try:
        float(text)
    except ValueError:
        return False
    try:
        int(text)
    except ValueError:
        return True
    return False


texts = st.text(ALPHABET, max_size=8).filter(lambda t: not reads_as_a_decimal(t))
cells = st.one_of(texts, st.integers(-10_000, 10_000), st.just(""))
aligns = st.sampled_from(["left", "right", "center"])


@given(
    st.integers(1, 5).flatmap(
        lambda n: st.tuples(
            st.lists(texts.filter(lambda t: t == t.strip()), min_size=n, max_size=n),
            st.lists(st.lists(cells, min_size=n, max_size=n), max_size=6),
            st.one_of(st.none(), st.lists(aligns, min_size=n, max_size=n)),
        )
    )
)
def test_a_table_is_tabulates_simple_format(
    table: tuple[list[str], list[list[object]], list[str] | None],
) -> None:
    headers, rows, colalign = table
    theirs = tabulate(rows, headers=headers, tablefmt="simple", colalign=colalign)
    assert simple_table(rows, headers, colalign) == theirs


@given(st.lists(st.lists(cells, min_size=3, max_size=3), max_size=5))
def test_a_table_of_text_only_is_tabulates_without_numbers(rows: list[list[object]]) -> None:
    rows = [[str(c) for c in row] for row in rows]
    headers = ["player", "games", "won"]
    theirs = tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True)
    assert simple_table(rows, headers, numparse=False) == theirs


def test_numbers_given_as_text_stay_as_written() -> None:
    table = simple_table([["vs A", "+80"], ["money", "3.30"]], ["player", "A"], ("left", "right"))
    assert table.splitlines()[2:] == ["vs A       +80", "money     3.30"]
