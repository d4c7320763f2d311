"""The pages' charts as inline SVG: the running totals of ``romme report`` (and of the
board's ``chart.svg``) and the season of ``romme league report``, drawn by one function.

Written by hand rather than with a plotting library: one ``<polyline>`` per player with
one point per round (or event), a dotted game-end line and the Hand-Rommés' marks (the
scoresheet's ``H``) come to a few kilobytes, scale with the page (``viewBox``) and print
sharply; colours are told apart by dash patterns too. The terminal's chart is
:mod:`romme_score.views.chart`, whose ticks this one shares.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import NamedTuple

from romme_score.views import marks
from romme_score.views.chart import round_ticks, value_ticks

# Okabe-Ito colours (told apart with colour blindness), and a dash pattern each for print.
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
DASHES = ("", "8 4", "2 3", "10 3 2 3", "14 4", "4 2 4 6")

WIDTH, HEIGHT = 640, 340
LEFT, RIGHT, TOP, BOTTOM = 46, 18, 16, 40
DOTS_UP_TO = 60  # points per line that still get a dot each


class Line(NamedTuple):
    """A player's line: the value after each numbered step (a round, an event)."""

    name: str
    steps: tuple[int, ...]  # 1, 2, ... (a long evening's chart may skip some)
    values: tuple[int, ...]
    final: int  # named in the line's title and in the legend


class Mark(NamedTuple):
    """A Hand-Rommé on a line: where, and what its title says."""

    step: int
    value: int
    title: str


def colour(i: int) -> str:
    return COLOURS[i % len(COLOURS)]


def _dash(i: int) -> str:
    """The dash of line ``i``: the colours' own order for the first six, then shifted by one
    for each round of the colours, so that no two of 36 lines share colour and dash."""
    dash = DASHES[(i + i // len(COLOURS)) % len(DASHES)]
    return f' stroke-dasharray="{dash}"' if dash else ""


def _num(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _hand_romme_mark(x: float, y: float, r: float = 8.0, title: str = "") -> str:
    """The chart's mark of a Hand-Rommé: the scoresheet's mark (``H``) on a yellow disc;
    with a ``title`` (in the chart, not its legend) classed as one."""
    return (
        ('<g class="hand-romme">' if title else "<g>")
        + f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(r)}" fill="#ffd400" '
        f'stroke="#222" stroke-width="1"/><text x="{_num(x)}" y="{_num(y + r * 0.45)}" '
        f'text-anchor="middle" font-size="{_num(r * 1.3)}" font-weight="700" fill="#222">'
        f"{marks.HAND_ROMME}</text>" + (f"<title>{escape(title)}</title>" if title else "") + "</g>"
    )


def svg_lines(
    lines: Sequence[Line],
    last: int,
    *,
    title: str,
    desc: str,
    axis: str | None = None,
    kind: str = "running-totals",
    end_value: tuple[int, str] | None = None,
    end_step: tuple[int, str] | None = None,
    hand_rommes: Sequence[Mark] = (),
) -> str:
    """The lines as an inline SVG: a grid of round values, the steps 1 to ``last`` below
    (named ``axis``), a dotted line at ``end_value`` (the points that end the game) or at
    ``end_step`` (its last round), each with its text, and the Hand-Rommés marked."""
    last = max(last, 2)
    highest = max((v for line in lines for v in line.values), default=0)
    ticks = value_ticks(max(highest, end_value[0] if end_value else 0, 10))
    top = ticks[-1]
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x_of(number: float) -> float:
        return LEFT + (number - 1) / (last - 1) * plot_w

    def y_of(value: float) -> float:
        return TOP + plot_h - value / top * plot_h

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(title)}" class="{kind}">',
        f"<title>{escape(title)}</title><desc>{escape(desc)}</desc>",
        '<g class="grid" stroke="#e3e3e8" stroke-width="1">',
    ]
    for value in ticks:
        out.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{_num(y_of(value))}" y2="{_num(y_of(value))}"/>'
        )
    out.append("</g>")
    out.append('<g class="axis">')
    for value in ticks:
        out.append(f'<text x="{LEFT - 6}" y="{_num(y_of(value) + 4)}" text-anchor="end">{value}</text>')
    for number in round_ticks(last):
        out.append(
            f'<text x="{_num(x_of(number))}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle">{number}</text>'
        )
    if axis is not None:
        out.append(
            f'<text x="{LEFT + plot_w / 2:.0f}" y="{HEIGHT - 6}" text-anchor="middle">{escape(axis)}</text>'
        )
    out.append(
        f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{TOP + plot_h}" y2="{TOP + plot_h}" stroke="#888"/>'
    )
    out.append("</g>")
    if end_value is not None:
        end, text = end_value
        y = _num(y_of(end))
        out.append(
            f'<g class="game-end"><line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y}" y2="{y}" '
            'stroke="#222" stroke-width="1.5" stroke-dasharray="2 4"/>'
            # at the left, where running totals start low, so no line runs through it
            f'<text x="{LEFT + 6}" y="{_num(y_of(end) - 5)}" text-anchor="start">{escape(text)}</text></g>'
        )
    if end_step is not None:
        step, text = end_step
        x = _num(x_of(step))
        out.append(
            f'<g class="game-end"><line x1="{x}" x2="{x}" y1="{TOP}" y2="{TOP + plot_h}" '
            'stroke="#222" stroke-width="1.5" stroke-dasharray="2 4"/>'
            f'<text x="{x}" y="{TOP + 10}" text-anchor="end" dx="-4">{escape(text)}</text></g>'
        )
    for i, line in enumerate(lines):
        points = " ".join(
            f"{_num(x_of(n))},{_num(y_of(v))}" for n, v in zip(line.steps, line.values, strict=True)
        )
        out.append(
            f'<g class="player" data-player="{escape(line.name)}">'
            f"<title>{escape(line.name)}: {line.final}</title>"
            f'<polyline class="line" points="{points}" fill="none" stroke="{colour(i)}" '
            f'stroke-width="2.5" stroke-linejoin="round"{_dash(i)}/>'
        )
        if len(line.steps) <= DOTS_UP_TO:
            out.extend(
                f'<circle cx="{_num(x_of(n))}" cy="{_num(y_of(v))}" r="3" fill="{colour(i)}"/>'
                for n, v in zip(line.steps, line.values, strict=True)
            )
        out.append("</g>")
    for mark in hand_rommes:
        out.append(_hand_romme_mark(x_of(mark.step), y_of(mark.value), title=mark.title))
    out.append("</svg>")
    return "".join(out)


def legend(
    lines: Sequence[Line], *, hand_romme: str | None = None, end: str | None = None, note: str | None = None
) -> str:
    """The chart's legend: each line's pattern with its name and final value, the
    Hand-Rommé's mark (``hand_romme``, its meaning) and the dotted line's ``end`` where the
    chart has them, or a ``note`` instead of the line."""
    items = [
        f'<li><svg viewBox="0 0 36 12" aria-hidden="true"><line x1="1" x2="35" y1="6" '
        f'y2="6" stroke="{colour(i)}" stroke-width="3"{_dash(i)}/></svg> '
        f"{escape(line.name)} {line.final}</li>"
        for i, line in enumerate(lines)
    ]
    if hand_romme is not None:
        items.append(
            f'<li><svg viewBox="0 0 36 12" aria-hidden="true">{_hand_romme_mark(18, 6, 5.5)}</svg> '
            f"{escape(hand_romme)}</li>"
        )
    if end is not None:
        items.append(
            '<li><svg viewBox="0 0 36 12" aria-hidden="true"><line x1="1" x2="35" y1="6" '
            'y2="6" stroke="#222" stroke-width="1.5" stroke-dasharray="2 4"/></svg> '
            f"{escape(end)}</li>"
        )
    elif note is not None:
        items.append(f"<li>{escape(note)}</li>")
    return '<ul class="legend">' + "".join(items) + "</ul>"
