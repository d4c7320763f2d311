"""``romme report``: an evening as one self-contained HTML page (issue 11, item 3)."""

from __future__ import annotations

import json
import re
import shutil
import struct
import subprocess
import zlib
from decimal import Decimal
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from browser import browser, phone
from clirun import ok, run

from romme_score.views.chart_svg import COLOURS

__all__ = ["browser"]  # the module-scoped fixture, used by name
VOID = {"meta", "br", "img", "input", "link", "hr", "line", "polyline", "polygon", "circle", "path", "rect"}


@pytest.fixture
def friday() -> None:
    """The demo evening: a Hand-Rommé by Ben in round 2, bonuses for Ben and Carl."""
    ok("new", "Friday", "Anna", "Ben", "Carl", "Dora", "--rate", "0.01", "--currency", "EUR")
    ok("round", "--winner", "Anna", "Ben=HK K10 J", "Carl=P7 P8", "Dora=23")
    ok("round", "--winner", "Ben", "--hand-romme", "Anna=TA T2", "Carl=0", "Dora=J J")
    ok("round", "--winner", "Carl", "Anna=H5 H6", "Ben=P10 P9", "Dora=4")


class Page(HTMLParser):
    """What the tests read from a report: structure, chart lines, numbers, references."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.lines: list[tuple[str, int]] = []  # (player, points of their polyline) per line
        self.player: str | None = None
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        self.tags.append((tag, a))
        if tag == "g" and "data-player" in a:
            self.player = a["data-player"]
        if tag == "polyline" and a.get("class") == "line":
            assert self.player is not None
            self.lines.append((self.player, len(a["points"].split())))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
            return
        self.stack.pop()
        if tag == "g":
            self.player = None

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    def find(self, tag: str, **wanted: str) -> list[dict[str, str]]:
        return [
            a
            for t, a in self.tags
            if t == tag and all(a.get(k.replace("_", "-")) == v for k, v in wanted.items())
        ]


def parse(html: str) -> Page:
    page = Page()
    page.feed(html)
    page.close()
    assert not page.errors, page.errors
    assert page.stack == [], f"unclosed: {page.stack}"
    return page


def report(*args: str) -> str:
    return ok("report", *args)


def test_report_is_one_well_formed_page(friday: None) -> None:
    html = report()
    assert html.startswith("<!DOCTYPE html>")
    page = parse(html)
    assert [t for t, _ in page.tags[:2]] == ["html", "head"]
    assert page.find("meta", name="viewport")
    assert "@media print" in html and "@media (max-width" in html


def test_report_needs_nothing_from_outside(friday: None) -> None:
    html = report()
    page = parse(html)
    for tag, attrs in page.tags:
        assert tag not in ("script", "link", "img", "iframe", "object"), tag
        for key in ("src", "href"):
            assert key not in attrs, (tag, attrs)
    assert "url(" not in html and "@import" not in html and "@font-face" not in html
    # the SVG namespace is the only address in the page
    assert re.findall(r"[a-z]+://[^\s\"')]*", html) == ["http://www.w3.org/2000/svg"]
    assert page.find("meta", http_equiv="Content-Security-Policy")


def test_report_chart_has_one_line_per_player_with_a_point_per_round(friday: None) -> None:
    page = parse(report())
    assert page.lines == [("Anna", 3), ("Ben", 3), ("Carl", 3), ("Dora", 3)]
    assert len(page.find("svg", **{"class": "running-totals"})) == 1


def test_report_chart_points_follow_the_running_totals(friday: None) -> None:
    page = parse(report())
    ys = {}
    for attrs in page.find("polyline", **{"class": "line"}):
        ys[attrs["stroke"]] = [float(p.split(",")[1]) for p in attrs["points"].split()]
    anna, ben, carl, dora = (ys[c] for c in COLOURS[:4])
    # SVG y grows downwards: more points, higher on the page, smaller y
    assert anna[0] > ben[0] and carl[2] > anna[2] > dora[2]  # Anna 0 < Ben 40; Carl 5 < Anna 37 < Dora 107
    assert ben[1] > ben[0]  # Ben went down: the bonus of his Hand-Rommé


def test_report_chart_over_many_rounds(tmp_path: Path) -> None:
    ok("new", "Long", "Anna", "Ben", "Carl", "--until", "open")
    for i in range(45):
        winner = ["Anna", "Ben", "Carl"][i % 3]
        ok("round", "--winner", winner, *(f"{p}={3 + i % 5}" for p in ["Anna", "Ben", "Carl"] if p != winner))
    page = parse(report())
    assert page.lines == [("Anna", 45), ("Ben", 45), ("Carl", 45)]


def test_report_marks_hand_rommes_and_bonuses(friday: None) -> None:
    page = parse(report())
    assert len(page.find("g", **{"class": "hand-romme"})) == 1
    text = " ".join(page.text)
    assert "Round 2: Ben went out with a Hand-Rommé (everyone else's points ×2)" in text
    assert "Round 2: Ben −20 winner bonus" in text
    assert "Round 3: Carl −10 winner bonus" in text


def test_report_totals_equal_the_standings(friday: None) -> None:
    page = parse(report())
    standings = json.loads(ok("standings", "--json"))
    expected = {p["name"]: str(p["total"]) for p in standings["players"]}
    cards = {a["data-player"]: a["data-total"] for a in page.find("li") if "data-total" in a}
    assert cards == expected
    footer = page.find("td", **{"class": "total"})
    assert {a["data-player"] for a in footer} == set(expected)


def test_report_amounts_and_transfers_equal_the_settlement(friday: None) -> None:
    html = report()
    page = parse(html)
    settled = json.loads(ok("settle", "--json"))
    rows = {
        a["data-player"]: (a["data-total"], a["data-net"], a["data-amount"])
        for a in page.find("tr")
        if "data-amount" in a
    }
    assert rows == {p["name"]: (str(p["total"]), str(p["net"]), p["amount"]) for p in settled["players"]}
    transfers = [
        (a["data-from"], a["data-to"], a["data-amount"]) for a in page.find("li") if "data-from" in a
    ]
    assert transfers == [(t["from"], t["to"], t["amount"]) for t in settled["transfers"]]
    assert "Dora pays Carl <b>€1.68</b>" in html
    # and once more at the top, before the first game
    top = html.split('<section class="game"')[0]
    assert "Who pays whom:</strong> Dora pays Carl €1.68; Dora pays Anna €0.40; Dora pays Ben €0.32." in top
    assert sum(Decimal(a) for _, _, a in rows.values()) == 0


def test_report_of_an_evening_settles_its_games_together(friday: None) -> None:
    ok("new", "Late", "Anna", "Ben", "Eve", "--rate", "0.05", "--currency", "EUR")
    ok("round", "--winner", "Eve", "Anna=HK HD", "Ben=12")
    page = parse(report("--session", "Friday", "--session", "Late"))
    assert [a["data-session"] for a in page.find("section", **{"class": "game"})] == ["Friday", "Late"]
    settled = json.loads(ok("settle", "--session", "Friday", "--session", "Late", "--json"))
    rows = {a["data-player"]: a["data-amount"] for a in page.find("tr") if "data-amount" in a}
    assert rows == {p["name"]: p["amount"] for p in settled["players"]}
    assert page.lines == [
        ("Anna", 3),
        ("Ben", 3),
        ("Carl", 3),
        ("Dora", 3),
        ("Anna", 1),
        ("Ben", 1),
        ("Eve", 1),
    ]
    assert len(page.find("svg", **{"class": "running-totals"})) == 2


def test_report_escapes_names(tmp_path: Path) -> None:
    ok("new", "<b>Night</b>", "Anna<script>", "Ben&Co")
    ok("round", "--winner", "Anna<script>", "Ben&Co=12")
    html = report()
    assert "<script>" not in html and "Anna&lt;script&gt;" in html and "Ben&amp;Co" in html
    parse(html)


def test_report_writes_the_file_and_says_so(friday: None, tmp_path: Path) -> None:
    target = tmp_path / "evening.html"
    out = ok("report", "-o", str(target))
    assert out.startswith(f"Report of Friday written to {target} (")
    assert target.read_text(encoding="utf-8") == report()


def test_report_writes_amounts_in_its_language(friday: None) -> None:
    """Issue 20 items 15 and 19: the language decides (not --notation), and on the page
    number and symbol are joined by a no-break space, so "0,28 €" never breaks apart."""
    assert "Dora pays Carl <b>€1.68</b>" in report("--notation", "de")
    german = ok("--lang", "de", "report", "--notation", "en")
    assert "<b>1,68\u00a0€</b>" in german and "€1" not in german
    assert re.search(r"[0-9] €", german) is None
    code, _, err = run("report", "--json")
    assert code == 2 and "--json" in err  # a page, not data: there is no --json


def test_report_that_cannot_be_written_is_refused(friday: None, tmp_path: Path) -> None:
    code, _, err = run("report", "-o", str(tmp_path / "no-such-folder" / "f.html"))
    assert code == 1 and "cannot write" in err and "there is no such file or folder" in err


def test_report_of_an_unknown_session_is_refused(friday: None) -> None:
    code, _, err = run("report", "--session", "Fridya")
    assert code == 1 and "did you mean Friday?" in err


# --- the page as a browser shows it ----------------------------------------------------------


def find_chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and the rows (RGB(A) bytes) of an 8-bit, non-interlaced PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        chunk = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = chunk
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    width, height, depth, colour_type = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and colour_type in (2, 6), (depth, colour_type)
    bpp = 3 if colour_type == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows: list[bytes] = []
    prev = bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - bpp] if i >= bpp else 0
            up = prev[i]
            corner = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                pred = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + pred) & 0xFF
        rows.append(bytes(line))
        prev = line
    return width, height, rows


def test_report_screenshot_in_headless_chromium_is_not_blank(friday: None, tmp_path: Path) -> None:
    chromium = find_chromium()
    if chromium is None:
        pytest.skip(
            "Chromium is not installed (Debian: apt-get install chromium): "
            "the report's screenshot is not checked"
        )
    page = tmp_path / "friday.html"
    ok("report", "-o", str(page))
    shot = tmp_path / "shot.png"
    profile = tmp_path / "chromium-profile"
    subprocess.run(
        [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            f"--user-data-dir={profile}",
            "--hide-scrollbars",
            "--window-size=412,900",
            f"--screenshot={shot}",
            page.as_uri(),
        ],
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert shot.exists(), "Chromium wrote no screenshot"
    width, height, rows = png_pixels(shot.read_bytes())
    assert (width, height) == (412, 900)
    bpp = len(rows[0]) // width
    pixels = [row[i : i + 3] for row in rows for i in range(0, len(row), bpp)]
    ink = sum(1 for p in pixels if min(p) < 200)
    assert ink > 0.02 * len(pixels), f"only {ink} of {len(pixels)} pixels are not white"
    # the chart is drawn: pixels in the first player's colour (#0072B2) are on the page
    blue = bytes.fromhex(COLOURS[0][1:])
    assert any(all(abs(a - b) < 24 for a, b in zip(p, blue, strict=True)) for p in pixels)


def test_report_shows_the_leaderboard_where_the_rules_keep_one() -> None:
    ok("new", "Speed", "Anna", "Ben", "Carl", "--preset", "speedromme", "--rate", "0.01")
    ok("round", "--winner", "Anna", "Ben=35", "Carl=HK")
    settled = json.loads(ok("settle", "--json"))
    html = report()
    for p in settled["players"]:
        row = re.search(rf'<tr data-player="{p["name"]}"[^>]*>(.*?)</tr>', html)
        assert row is not None
        assert row.group(1).endswith(f"<td>{p['leaderboard']}</td>")
    assert "<th>leaderboard</th>" in html


def test_report_of_a_session_without_rounds() -> None:
    ok("new", "Zero", "Anna", "Ben")
    page = parse(report())
    text = " ".join(page.text)
    assert "No rounds played yet." in text and "Nobody owes anybody anything." in text
    assert page.lines == []


# --- issue 20 item 19: a stalemate marked, and a phone's width ---------------------------------


def test_report_marks_a_stalemate_as_the_terminal_does(friday: None) -> None:
    ok("round", "--stalemate", "Anna=10", "Ben=20", "Carl=30", "Dora=40")
    html = report()
    row = re.search(r'<tr data-round="4"[^>]*>(.*?)</tr>', html)
    assert row is not None and 'data-stalemate="true"' in row.group(0)
    # the one mark of a stalemate, as every scoresheet has it (issue 30 item 10), and the legend says it
    assert row.group(1).startswith('<td>4 <span class="stalemate">s</span></td>')
    assert "Round 4: stalemate, the stock ran out and nobody went out" in html
    assert "s stalemate" in html
    standings = ok("standings")  # the terminal's mark for it, the same
    assert re.search(r"^4 s ", standings, re.M) and "s stalemate" in standings
    german = ok("--lang", "de", "report")
    assert '<span class="stalemate">s</span>' in german and "s Patt" in german


PHONE_TABLES = {  # session: players; four fit a phone, six long names cannot
    "Friday": ["Anna", "Ben", "Carl", "Dora"],
    "Short": ["Anna", "Ben", "Carl", "Dora", "Emil", "Fritz"],
    "Long": ["Annabelle", "Benedikt", "Carlotta", "Dorothea", "Eberhard", "Friederike"],
}

MEASURE_JS = """() => ({
  page: document.documentElement.scrollWidth, view: window.innerWidth,
  tables: [...document.querySelectorAll('.scroll')].map(s => ({
    table: s.firstElementChild.className, shown: s.clientWidth, wide: s.scrollWidth,
    hint: (() => { const n = s.nextElementSibling;
      return !!n && n.classList.contains('swipe') && getComputedStyle(n).display !== 'none'; })(),
    cut: [...s.querySelectorAll('th')].filter(th => th.getBoundingClientRect().right
      > s.getBoundingClientRect().right + 0.5).length }))
})"""


@pytest.mark.parametrize("lang", ["en", "de"])
def test_report_at_phone_width_cuts_no_column_off_unseen(browser: Any, tmp_path: Path, lang: str) -> None:
    """At 360 px the round-by-round table's fourth column was cut off with no hint. Now
    the running total stands under the points and a table that fits a phone fits it; one
    that cannot scrolls, with a shadow at its edge and a line that says so."""
    for name, players in PHONE_TABLES.items():
        ok("new", name, *players, "--rate", "0.01", "--currency", "EUR")
        ok("round", "--winner", players[0], *(f"{p}={11 * i}" for i, p in enumerate(players[1:], 1)))
        ok("round", "--stalemate", *(f"{p}={20 + i}" for i, p in enumerate(players)))
        ok("round", "--winner", players[1], "--hand-romme", *(f"{p}=7" for p in players if p != players[1]))
    context = phone(browser)
    try:
        for name in PHONE_TABLES:
            target = tmp_path / f"{name}-{lang}.html"
            ok("--lang", lang, "report", "--session", name, "-o", str(target))
            page = context.new_page()
            page.goto(target.as_uri())
            seen = page.evaluate(MEASURE_JS)
            assert seen["page"] <= seen["view"], (name, seen)  # the page itself never scrolls sideways
            for t in seen["tables"]:
                fits = t["wide"] <= t["shown"]
                assert fits == (t["cut"] == 0), (name, t)
                if "scoresheet" in t["table"]:
                    assert fits or name != "Friday", (name, t)
                    assert not fits or name != "Long", (name, t)
                    assert t["hint"] == (not fits), (name, t)  # a hint exactly where it scrolls
                else:
                    assert fits, (name, t)  # the settlement fits a phone
            page.close()
    finally:
        context.close()
