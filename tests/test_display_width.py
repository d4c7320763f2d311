"""Names that are wider or narrower than their number of characters (issue 20 item 18):
an emoji takes two columns, a combining mark none; the columns after a name stay in line."""

from __future__ import annotations

import re

import pytest
from clirun import ok

from romme_score.cards import format_cards
from romme_score.rules import find_preset
from romme_score.scoring import Hand, RoundInput, score_round
from romme_score.sessions import SessionService
from romme_score.views.play import render_panel, render_summary
from romme_score.views.width import cut, width

PLAYERS = ["Zoë 🃏", "Anna", "Zoe\u0308", "王小明"]  # an emoji, plain, a combining mark, wide


def columns_of(line: str, text: str) -> int:
    """The terminal column at which ``text`` starts in ``line``."""
    return width(line[: line.index(text)])


def test_display_width_counts_columns_not_characters() -> None:
    assert [width(p) for p in PLAYERS] == [6, 4, 3, 6]
    assert width(cut("王小明王小明", 7)) <= 7


def test_summary_points_stay_in_one_column_whatever_the_names() -> None:
    rules = find_preset("standard")
    rnd = RoundInput(
        "Anna", {"Zoë 🃏": Hand(points=11), "Zoe\u0308": Hand(points=22), "王小明": Hand(points=33)}
    )
    score = score_round(PLAYERS, {p: 0 for p in PLAYERS}, rnd, rules)
    text = render_summary("Friday", 1, PLAYERS, rnd, score, lambda cards: format_cards(cards), width=80)
    lines = text.splitlines()[1:]
    ends = {width(line.rstrip()) for line in lines if re.search(r"[0-9]$", line.rstrip())}
    assert len(ends) == 1, text  # every points number ends in the same column


def test_panel_columns_stay_in_line_whatever_the_names() -> None:
    ok("new", "Friday", *PLAYERS)
    ok("round", "--winner", "Anna", "Zoë 🃏=11", "Zoe\u0308=22", "王小明=33")
    service = SessionService(create=False)
    try:
        standings = service.standings(service.store.session(None))
    finally:
        service.close()
    for columns in (60, 80):
        panel = render_panel(standings, columns).splitlines()
        total = next(line for line in panel if line.startswith("total"))
        head = panel[1]
        assert width(head) == width(total.rstrip()) or width(head.rstrip()) == width(total.rstrip()), panel
        assert all(width(line) <= columns for line in panel), panel


@pytest.mark.parametrize("lang", ["en", "de"])
def test_standings_table_keeps_columns_with_an_emoji(lang: str) -> None:
    ok("new", "Friday", *PLAYERS)
    ok("round", "--winner", "Anna", "Zoë 🃏=11", "Zoe\u0308=22", "王小明=33")
    """The table measures names as the terminal shows them (tabulate, by wcwidth)."""
    out = ok("--lang", lang, "standings").splitlines()
    table = out[1:5]  # head, rule, round 1, total
    assert len({width(line) for line in table}) == 1, out
