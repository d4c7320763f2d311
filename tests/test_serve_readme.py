"""What docs/phones.md (once the README) says of ``romme serve`` is true: its terminal
output is what the command prints for that link, its options exist, its screenshots are
phone-sized pictures, and the paragraph on what the links protect is there."""

from __future__ import annotations

import re
from pathlib import Path

from clirun import ok
from test_report import png_pixels

from romme_score.web.links import qr_terminal

ROOT = Path(__file__).resolve().parent.parent
PHONES = (ROOT / "docs" / "phones.md").read_text(encoding="utf-8")
SECTION = PHONES


def test_the_terminal_output_shown_is_what_romme_serve_prints_for_that_link() -> None:
    block = SECTION[SECTION.index("```console\n") + len("```console\n") :]
    block = block[: block.index("```")]
    lines = block.splitlines()
    assert lines[0] == "$ romme serve --host 127.0.0.1"
    assert lines[1] == "Board (read only): the standings, for everyone"
    url = lines[2].strip()
    assert re.fullmatch(r"http://127\.0\.0\.1:8765/[A-Za-z0-9_-]{24}", url)
    shown = "\n".join(lines[3 : lines.index("...")]) + "\n"
    assert shown == qr_terminal(url)
    assert lines[-1].startswith("Plain HTTP on the local network: anyone who sees a link can use it")


def test_every_option_in_the_table_is_an_option_of_romme_serve() -> None:
    help_text = ok("serve", "--help")
    table = SECTION[SECTION.index("| option |") :]
    table = table[: table.index("\n\n")]
    for option in re.findall(r"`(--[a-z-]+)`", table):
        assert option in help_text, option


def test_the_screenshots_are_phone_sized_pictures_that_are_not_blank() -> None:
    for name in ("serve-seat.png", "serve-board.png"):
        assert f'src="{name}"' in SECTION
        width, height, rows = png_pixels((ROOT / "docs" / name).read_bytes())
        assert width == 720 and height >= 1500  # 360 CSS pixels at twice the density
        bpp = len(rows[0]) // width
        sampled = [row[i : i + 3] for row in rows[::16] for i in range(0, len(row), bpp * 16)]
        assert sum(1 for p in sampled if min(p) < 200) > 0.05 * len(sampled)


def test_the_readme_says_what_the_links_protect_and_what_they_do_not() -> None:
    text = " ".join(SECTION.split())
    for words in (
        "plain HTTP on the local network: anyone who sees a link can use it",
        "`--host 127.0.0.1` keeps it all to one machine",
        "`--new-links` shuts out whoever had the old ones",
        "the same 404 as a page that is not there",
    ):
        assert words in text, words
