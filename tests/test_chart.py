"""``romme chart``: the running totals of a game drawn in the terminal (issue 11, item 1)."""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest
from clirun import ok, run

from romme_score.history import chart_of
from romme_score.rules import find_preset
from romme_score.scoring import Hand, RoundInput
from romme_score.sessions import SessionService
from romme_score.views.chart import letters, render_chart, round_ticks, value_ticks

ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture
def friday() -> None:
    """The demo evening: three rounds, a Hand-Rommé by Ben in round 2, an undo, an edit."""
    ok("new", "Friday", "Anna", "Ben", "Carl", "Dora", "--rate", "0.01", "--currency", "EUR")
    ok("round", "--winner", "Anna", "Ben=HK K10 J", "Carl=P7 P8", "Dora=23")
    ok("round", "--winner", "Ben", "--hand-romme", "Anna=TA T2", "Carl=0", "Dora=J J")
    ok("round", "--winner", "Carl", "Anna=H5 H6", "Ben=P10", "Dora=4")
    ok("round", "--winner", "Dora", "Anna=12", "Ben=KA KK", "Carl=T3")
    ok("undo", "--yes")
    ok("edit", "3", "Ben=P10 P9")


def test_chart_fits_80x24_with_a_legend_of_every_player_and_total(friday: None) -> None:
    out = ok("chart", "--width", "80", "--height", "24")
    lines = out.rstrip("\n").split("\n")
    assert len(lines) <= 23  # the last line of the terminal stays for the prompt
    assert max(len(line) for line in lines) <= 80
    assert "Friday: running totals by round" in lines[0]
    assert "A Anna 37  B Ben 39  C Carl 5  D Dora 107" in out  # standings: 37 39 5 107
    assert "\x1b[" not in out  # not a terminal: no colour


def test_chart_marks_the_hand_romme_and_names_the_game_end(friday: None) -> None:
    out = ok("chart", "--width", "80", "--height", "24")
    plot = out.split("A Anna")[0]
    assert plot.count("H") == 1  # the scoresheet's mark of a Hand-Rommé (issue 30 item 10)
    assert "H Hand-Rommé (round 2: Ben)" in out and "★" not in out
    # 107 of 500: the target is named, not drawn, so the lines keep the height of the chart
    assert "game ends at 500 (above the chart)" in out
    assert "┈" not in plot


def test_chart_draws_the_game_end_line_once_the_leader_is_half_way() -> None:
    ok("new", "Short", "Anna", "Ben", "--until", "100")
    ok("round", "--winner", "Anna", "Ben=60")
    out = ok("chart", "--width", "70", "--height", "20")
    plot = out.split("A Anna")[0]
    assert "100┼┈┈┈" in plot or "100┤┈┈┈" in plot  # the dotted line at the tick of 100
    assert "┈ game ends at 100" in out


def test_chart_draws_the_last_round_of_a_game_of_n_rounds() -> None:
    ok("new", "Five", "Anna", "Ben", "--until", "rounds:5")
    ok("round", "--winner", "Anna", "Ben=20")
    ok("round", "--winner", "Ben", "Anna=30")
    out = ok("chart", "--width", "70", "--height", "20")
    assert "game ends after round 5" in out
    axis = [line for line in out.split("\n") if line.strip().startswith("1 ")][0]
    assert axis.split() == ["1", "2", "3", "4", "5"]  # the x axis runs to round 5


def test_chart_ascii_draws_with_plain_characters(friday: None) -> None:
    out = ok("chart", "--ascii", "--width", "80", "--height", "24")
    assert not set(out) & set("┌┐└┘┼┤├┬┴─│┈┊·★")
    assert "+---" in out and "|" in out
    assert "H Hand-Romme (round 2: Ben)" in out


def test_chart_width_and_height_are_kept(friday: None) -> None:
    out = ok("chart", "--width", "50", "--height", "14")
    lines = out.rstrip("\n").split("\n")
    assert len(lines) <= 13
    assert max(len(line) for line in lines) <= 50  # the legend wraps too


def test_chart_sizes_below_the_minimum_are_refused(friday: None) -> None:
    code, _, err = run("chart", "--width", "10")
    assert code == 2 and "--width" in err


def test_chart_without_rounds_says_so() -> None:
    ok("new", "Empty", "Anna", "Ben")
    assert ok("chart").strip() == "No rounds in 'Empty' yet: nothing to draw."


def test_chart_json_is_the_running_totals_of_the_standings(friday: None) -> None:
    data = json.loads(ok("chart", "--json"))
    standings = json.loads(ok("standings", "--json"))
    for player in data["players"]:
        running, expected = 0, []
        for r in standings["rounds"]:
            running += r["points"][player["name"]] - r["bonus"].get(player["name"], 0)
            expected.append(running)
        assert player["totals"] == expected
    assert data["rounds"] == [1, 2, 3]
    assert data["hand_rommes"] == [{"round": 2, "player": "Ben"}]


def test_chart_in_colour_gives_each_player_a_colour(friday: None, tmp_path: Path) -> None:
    with SessionService(tmp_path / "romme.sqlite3") as service:
        chart = chart_of(service.standings(service.session("Friday")))
    coloured = render_chart(chart, 80, 24, colour=True)
    colours = set(re.findall(r"\x1b\[38;5;(\d+)m[A-D]", coloured))
    assert len(colours) == 4
    assert ANSI.sub("", coloured).count("\n") == render_chart(chart, 80, 24, colour=False).count("\n")


def _on_a_terminal(args: list[str], env: dict[str, str]) -> str:
    """Run romme with its output on a pseudo-terminal; what it printed."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "romme_score", *args], stdout=follower, stderr=follower, env=env
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    proc.wait(timeout=60)
    os.close(leader)
    return b"".join(chunks).decode("utf-8", "replace")


def test_chart_respects_no_color_on_a_terminal(friday: None) -> None:
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    args = ["chart", "--width", "80", "--height", "24"]
    assert "\x1b[38;5;" in _on_a_terminal(args, env)
    plain = _on_a_terminal(args, {**env, "NO_COLOR": "1"})
    assert "\x1b[" not in plain and "A Anna 37" in plain


def test_dense_chart_draws_each_line_with_its_letter(tmp_path: Path) -> None:
    rules = find_preset("standard").replace(game_end=find_preset("standard").game_end.parse("open"))
    with SessionService(tmp_path / "romme.sqlite3") as service:
        info = service.create("Long", ["Anna", "Ben", "Carl"], rules, None, None)
        for i in range(60):
            winner = ["Anna", "Ben", "Carl"][i % 3]
            service.record(
                info,
                RoundInput(
                    winner, {p: Hand(points=5 + i % 7) for p in ["Anna", "Ben", "Carl"] if p != winner}
                ),
            )
        chart = chart_of(service.standings(info))
    out = render_chart(chart, 80, 24, colour=False)
    plot = out.split("\n")[:-1]
    assert len(out.split("\n")) <= 23 and max(len(line) for line in plot) <= 80
    body = "\n".join(plot)
    assert "·" not in body and all(body.count(m) > 10 for m in "ABC")


def test_chart_letters_fall_back_to_digits_when_initials_repeat() -> None:
    assert letters(["Anna", "Ben"]) == ["A", "B"]
    assert letters(["Anna", "andreas", "Ben"]) == ["1", "2", "3"]
    assert letters(["Ömer", "Ben"]) == ["1", "2"]  # a letter that --ascii could not print


def test_ticks_are_whole_round_numbers() -> None:
    assert round_ticks(3) == [1, 2, 3]
    assert round_ticks(20) == [1, 3, 5, 7, 9, 11, 13, 15, 17, 19]
    assert round_ticks(40) == [1, 5, 10, 15, 20, 25, 30, 35, 40]
    assert value_ticks(107) == [0, 25, 50, 75, 100, 125]
    assert value_ticks(500) == [0, 100, 200, 300, 400, 500]


def test_plotext_is_imported_by_chart_only(friday: None) -> None:
    code = (
        "import sys\n"
        "from romme_score.cli import main\n"
        "for args in (['check', 'HK KK PK'], ['standings'], ['stats'], ['report'], "
        "['settle']):\n"
        "    try:\n"
        "        main(args, standalone_mode=False)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "print('before', 'plotext' in sys.modules, file=sys.stderr)\n"
        "main(['chart'], standalone_mode=False)\n"
        "print('after', 'plotext' in sys.modules, file=sys.stderr)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stderr.split() == ["before", "False", "after", "True"]


def test_chart_legend_wraps_long_names_and_counts_many_hand_rommes(tmp_path: Path) -> None:
    names = ["Annemarie-Luise", "Bartholomäus", "Clementine", "Dorothea-Sophie"]
    rules = find_preset("standard").replace(game_end=find_preset("standard").game_end.parse("open"))
    with SessionService(tmp_path / "romme.sqlite3") as service:
        info = service.create("Names", names, rules, None, None)
        for i in range(5):
            winner = names[i % 4]
            service.record(
                info, RoundInput(winner, {p: Hand(points=7) for p in names if p != winner}, hand_romme=True)
            )
        chart = chart_of(service.standings(info))
    out = render_chart(chart, 60, 24, colour=False)
    lines = out.split("\n")
    assert len(lines) <= 23 and max(len(line) for line in lines) <= 60
    assert "H 5 Hand-Rommés" in out and "round 1" not in out
    assert all(f"{n} " in out for n in names)


SESSIONS = {  # several evenings: names with umlauts, an accent, an emoji; each game end
    "Freitag": (["Jörg", "Zoë 🃏", "Anna"], ("--until", "100")),
    "Sonntag": (["Ärger", "Bärbel", "Øle", "René"], ("--until", "rounds:3")),
    "Übung": (["Anna", "Ben"], ("--until", "open")),
}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_chart_ascii_is_pure_ascii_for_any_session(lang: str) -> None:
    """Issue 20 item 20: --ascii printed Zwischenstände, über, Rommé. German letters are
    spelled as German writes them without (ä ae), other accents dropped, ? for the rest."""
    for name, (players, end) in SESSIONS.items():
        ok("new", name, *players, *end)
        ok("round", "--winner", players[0], "--hand-romme", *(f"{p}=12" for p in players[1:]))
        ok("round", "--winner", players[-1], *(f"{p}=30" for p in players[:-1]))
        for size in (("--width", "60", "--height", "20"), ("--width", "100", "--height", "30")):
            out = ok("--lang", lang, "chart", "--ascii", "--session", name, *size)
            assert out.isascii(), sorted({c for c in out if not c.isascii()})
            assert max(len(line) for line in out.splitlines()) <= int(size[1])
    out = ok("--lang", "de", "chart", "--ascii", "--session", "Sonntag")
    assert "Aerger" in out and "Baerbel" in out and "Rene" in out and "Zwischenstaende" in out
    out = ok("--lang", "de", "chart", "--ascii", "--session", "Freitag")
    assert "Joerg" in out and "Zoe ?" in out and "Hand-Romme" in out


def test_no_two_of_36_svg_lines_share_colour_and_dash() -> None:
    """The report's and the league's chart (one SVG module): a club's 8 players were drawn
    with player 1's and 7's line alike (colour and dash both repeat every six); now the
    dash moves on by one each time the colours start again, and the first six are as
    before."""
    import re

    from romme_score.views.chart_svg import Line, svg_lines

    lines = [Line(f"P{i}", (1, 2), (i, i + 1), i + 1) for i in range(36)]
    svg = svg_lines(lines, 2, title="t", desc="d")
    drawn = re.findall(
        r'<polyline class="line"[^>]*stroke="(#[0-9A-Fa-f]+)"[^>]*?(?: stroke-dasharray="([^"]*)")?/>', svg
    )
    assert len(drawn) == 36
    assert len(set(drawn)) == 36, "two lines share a colour and a dash"
    assert [dash for _colour, dash in drawn[:6]] == ["", "8 4", "2 3", "10 3 2 3", "14 4", "4 2 4 6"]
