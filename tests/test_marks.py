"""One set of marks everywhere (issue 30 item 10): ``*`` went out, ``H`` Hand-Rommé (in a
chart too), ``-N`` the bonus struck, ``s`` a stalemate, and one legend of them, defined in
romme_score/views/marks.py, on the terminal's standings, in the table mode, on the
phones' pages, in the report (its table and its chart), in ``romme chart`` and on a
tournament's sheets, in English and German. Before, the report's table marked "went out"
with ★ while its chart marked a Hand-Rommé with ★, and the standings' legend said "HR"
where the board said "H"."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest
from clirun import ok

from romme_score import i18n
from romme_score.sessions import SessionService
from romme_score.views import marks
from romme_score.views.play import render_panel
from romme_score.views.web import page_texts, recent_json

LANGUAGES = ["en", "de"]


@pytest.fixture
def friday() -> None:
    ok("new", "Friday", "Anna", "Ben", "Carl", "Dora", "--until", "rounds:3")
    ok("round", "--winner", "Anna", "Ben=20", "Carl=15", "Dora=5")
    ok("round", "--winner", "Ben", "--hand-romme", "Anna=TA T2", "Carl=0", "Dora=J J")
    ok("round", "--stalemate", "Anna=4", "Ben=9", "Carl=8", "Dora=3")


def in_language(language: str, *marks_shown: str, sep: str = ", ") -> str:
    with i18n.using_language(language):
        return marks.legend(*marks_shown, sep=sep)


def test_the_legend_is_one_list_of_marks_in_both_languages() -> None:
    assert in_language("en") == "* went out, H Hand-Rommé, -N bonus struck, s stalemate"
    assert in_language("de") == "* ausgemacht, H Hand-Rommé, -N Bonus abgezogen, s Patt"
    assert in_language("de", sep="  ") == "* ausgemacht  H Hand-Rommé  -N Bonus abgezogen  s Patt"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_standings_mark_a_hand_romme_h_as_the_board_does(friday: None, language: str) -> None:
    out = ok("--lang", language, "standings")
    assert "0 *H-20" in out and "HR" not in out and "★" not in out
    assert in_language(language, marks.WENT_OUT, marks.HAND_ROMME, marks.BONUS) in out


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_table_mode_and_the_phones_show_the_same_marks_and_legend(
    friday: None, language: str, isolated_data_dir: Path
) -> None:
    with SessionService(isolated_data_dir) as service:
        standings = service.standings(service.session("Friday"))
    with i18n.using_language(language):
        panel = render_panel(standings, 80)
        texts = page_texts()
        recent = recent_json(standings.rounds, standings.players)
    assert in_language(language, sep="  ") in panel and "0 *H-20" in panel
    assert texts["marks"] == in_language(language)
    assert recent[1]["marks"]["Ben"] == "0 *H-20" and recent[2]["number"] == "3 s"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_report_marks_went_out_and_a_hand_romme_as_the_standings_do(friday: None, language: str) -> None:
    html = unescape(ok("--lang", language, "report"))
    assert "★" not in html and "HR" not in html
    assert '<span class="out">0 *H-20</span>' in html and '<span class="out">0 *</span>' in html
    assert in_language(language, marks.WENT_OUT, marks.HAND_ROMME, marks.BONUS) in html
    # the chart's mark of Ben's Hand-Rommé is the table's H
    chart = html[html.index('<g class="hand-romme">') :]
    assert chart[: chart.index("</g>")].count(">H</text>") == 1


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_terminal_chart_marks_a_hand_romme_h(friday: None, language: str) -> None:
    out = ok("--lang", language, "chart", "--width", "80", "--height", "24")
    plot, _, legend = out.rpartition("A Anna")
    assert plot.count("H") == 1 and "★" not in out
    assert in_language(language, marks.HAND_ROMME) + " (" in legend


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_tournaments_sheets_mark_as_every_scoresheet(language: str, tmp_path: Path) -> None:
    ok("tournament", "new", "Cup", "Anna", "Ben", "Carl", "Dora", "--games", "3", "--seed", "1")
    ok("tournament", "draw")
    ok("round", "--session", "Cup S1 T1", "--winner", "1", "--hand-romme", "2=5", "3=15", "4=40")
    ok("round", "--session", "Cup S1 T1", "--winner", "2", "1=5", "3=15", "4=40")
    ok("--lang", language, "tournament", "sheets", "-o", str(tmp_path / "cup.html"))
    html = unescape((tmp_path / "cup.html").read_text(encoding="utf-8"))
    # who went out, with the bonus actually struck (issue 29: a sheet a referee can add up)
    assert re.search(r'<td class="won">0 \*H(-\d+)?</td>', html)
    assert re.search(r'<td class="won">0 \*(-\d+)?</td>', html)
    assert "★" not in html and "HR" not in html
    assert in_language(language) + "; " in html
