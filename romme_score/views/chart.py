"""View of ``romme chart``: every player's running total by round, drawn in the terminal
with plotext (imported here only, so no other command pays for it).

Each player has a colour and a letter (the initial, or a digit where initials
repeat or one would be a mark), so the chart stays readable without colour
(``NO_COLOR``) and in ``--ascii``; the scoresheet's ``H`` marks a Hand-Rommé, a dotted
line the game's end.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from romme_score.history import Chart
from romme_score.i18n import N_, _
from romme_score.views import marks
from romme_score.views.output import plain_ascii

PALETTE = (12, 10, 9, 13, 14, 3)  # 256-colour codes: blue, green, red, magenta, cyan, orange
ASCII_FRAME = str.maketrans(
    {
        "┌": "+",
        "┐": "+",
        "└": "+",
        "┘": "+",
        "┼": "+",
        "┤": "+",
        "├": "+",
        "┬": "+",
        "┴": "+",
        "─": "-",
        "│": "|",
        "┈": ".",
        "·": ".",
        "┊": ":",
    }
)
# the texts are msgids, shown through _()
MIN_WIDTH, MIN_HEIGHT = 30, 10

TITLE = N_("{session}: running totals by round")
NO_ROUNDS = N_("No rounds in '{session}' yet: nothing to draw.")
HAND_ROMMES = N_("{count} Hand-Rommés")
MAX_LISTED = 3  # Hand-Rommés named in the legend; more are only counted
END_AT = N_("game ends at {limit}")
END_ABOVE = N_("game ends at {limit} (above the chart)")
END_AFTER = N_("game ends after round {limit}")
GAME_OVER = N_("game over: {winner} won")
GAME_OVER_TIE = N_("game over: a tie")
ROUND_LABEL = N_("round")


def letters(players: Sequence[str]) -> list[str]:
    """One letter per player: the initials where they differ and none is the mark of a
    Hand-Rommé (``H``), else digits 1, 2, 3 ...

    >>> letters(["Anna", "Ben"]), letters(["Anna", "andreas"]), letters(["Anna", "Hans"])
    (['A', 'B'], ['1', '2'], ['1', '2'])
    """
    initials = [(p.strip()[:1] or "?").upper() for p in players]
    if (
        len(set(initials)) == len(initials)
        and all(i.isascii() and i.isalpha() for i in initials)
        and marks.HAND_ROMME not in initials
    ):
        return initials
    return [str(i + 1) for i in range(len(players))]


def round_ticks(last: int) -> list[int]:
    step = 1
    for candidate in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        step = candidate
        if last // candidate <= 10:
            break
    if step < 5:  # 1, 3, 5 ...: a tick at 2 would crowd the one at 1
        return list(range(1, last + 1, step))
    return [1, *range(step, last + 1, step)]


def value_ticks(top: int, count: int = 5) -> list[int]:
    """Round numbers from 0 to at least ``top``, about ``count`` of them.

    >>> value_ticks(107)
    [0, 25, 50, 75, 100, 125]
    """
    step = 1
    for magnitude in (1, 10, 100, 1000, 10000):
        for factor in (1, 2, 2.5, 5):
            step = int(magnitude * factor)
            if step and top / step <= count:
                return list(range(0, top + step, step)) if top % step else list(range(0, top + 1, step))
    return [0, top]


def _paint(text: str, colour: int, colour_on: bool) -> str:
    return f"\x1b[38;5;{colour}m{text}\x1b[0m" if colour_on else text


def plain(text: str) -> str:
    """``text`` as ``--ascii`` prints it: the frame's lines and marks as ASCII, German
    letters as German writes them without (``Zwischenstände`` as ``Zwischenstaende``,
    which keeps the word; ``Zwischenstande`` would not), any other letter without its
    accent, ``?`` for the rest (an emoji in a name)."""
    return plain_ascii(text.translate(ASCII_FRAME))


def legend_lines(chart: Chart, colour: bool, width: int = 80, ascii: bool = False) -> list[str]:
    """The players with their letters and totals, then what the marks mean, wrapped
    to ``width`` columns (in plain ASCII with ``ascii``, before they are measured)."""
    items: list[tuple[str, int | None]] = [
        (f"{m} {p} {chart.final(p)}", PALETTE[i % len(PALETTE)])
        for i, (m, p) in enumerate(zip(letters(chart.players), chart.players, strict=True))
    ]
    notes: list[str] = []
    if len(chart.hand_rommes) > MAX_LISTED:
        notes.append(f"{marks.HAND_ROMME} " + _(HAND_ROMMES).format(count=len(chart.hand_rommes)))
    elif chart.hand_rommes:
        notes.append(
            marks.legend(marks.HAND_ROMME)
            + " ("
            + ", ".join(f"{_(ROUND_LABEL)} {number}: {who}" for number, who in chart.hand_rommes)
            + ")"
        )
    end = chart.game_end
    if end.kind == "points":
        notes.append(
            "┈ " + _(END_AT).format(limit=end.limit)
            if chart.end_line is not None
            else _(END_ABOVE).format(limit=end.limit)
        )
    elif end.kind == "rounds":
        notes.append("┊ " + _(END_AFTER).format(limit=end.limit))
    if chart.finished:
        notes.append(_(GAME_OVER).format(winner=chart.winner) if chart.winner else _(GAME_OVER_TIE))
    if ascii:
        items = [(plain(text), paint) for text, paint in items]
        notes = [plain(note) for note in notes]
    lines: list[str] = []
    for group, gap in ((items, "  "), ([(n, None) for n in notes], "   ")):
        line, used = "", 0
        for text, paint in group:
            if used and used + len(gap) + len(text) > width:
                lines.append(line)
                line, used = "", 0
            shown = _paint(text, paint, colour) if paint is not None else text
            line, used = (line + gap + shown, used + len(gap) + len(text)) if used else (shown, len(text))
        if used:
            lines.append(line)
    return lines


def render_chart(
    chart: Chart, width: int = 80, height: int = 24, colour: bool = True, ascii: bool = False
) -> str:
    """The chart and its legend in ``width`` columns and ``height - 1`` lines (the last
    line of the terminal stays for the prompt)."""
    if not chart.rounds:
        return _(NO_ROUNDS).format(session=chart.session)
    import plotext  # only this command draws: plotext costs about 0.3 s to import

    width, height = max(width, MIN_WIDTH), max(height, MIN_HEIGHT)
    legend = legend_lines(chart, colour, width, ascii)
    fig: Any = plotext.figure
    fig.clear()
    fig.theme("simple" if colour else "colorless")
    fig.plot_size(width, height - 1 - len(legend))
    title = _(TITLE).format(session=chart.session)
    fig.title(plain(title) if ascii else title)
    xs = list(chart.rounds)
    last = chart.last_round
    end = chart.game_end
    dense = len(xs) * 3 > width - 8
    pens = [
        (mark, player, plotext.marker(mark, pixel=PALETTE[i % len(PALETTE)] if colour else None))
        for i, (mark, player) in enumerate(zip(letters(chart.players), chart.players, strict=True))
    ]
    # Lines first, then the points over them, then the Hand-Rommés' marks: a point is never
    # hidden by a line.
    for i, (mark, player, _unused) in enumerate(pens):
        # Without colour a line is drawn with its player's letter in lower case.
        trace = mark if dense else ("·" if colour else mark.lower())
        pixel = PALETTE[i % len(PALETTE)] if colour else None
        fig.draw(
            fig.signal(xs, list(chart.totals[player]), marker=plotext.marker(trace, pixel=pixel)).lines()
        )
    if not dense:
        for _mark, player, pen in pens:
            fig.draw(fig.signal(xs, list(chart.totals[player]), marker=pen))
    for number, who in chart.hand_rommes:
        total = chart.totals[who][chart.rounds.index(number)]
        fig.draw(fig.signal([number], [total], marker=plotext.marker(marks.HAND_ROMME)))
    if chart.end_line is not None:
        fig.line(end.limit, style="dotted")
    if end.kind == "rounds":
        fig.line(end.limit, orientation="vertical", style="dotted")
    top = max(chart.highest, end.limit if chart.end_line is not None else 0, 10)
    fig.ruler(0).ticks(round_ticks(last))
    fig.ruler(0).lim(1 if last > 1 else 0, last if last > 1 else 2)
    ticks = value_ticks(top)
    fig.ruler(1).ticks(ticks)
    fig.ruler(1).lim(0, ticks[-1])
    text = fig.build().string(colorless=not colour)
    lines = [line.rstrip() for line in text.rstrip("\n").split("\n")]
    lines.extend(legend)
    out = "\n".join(lines)
    return plain(out) if ascii else out


def chart_json(chart: Chart) -> dict[str, Any]:
    """The data of the chart, for scripts."""
    return {
        "session": chart.session,
        "rounds": list(chart.rounds),
        "players": [{"name": p, "totals": list(chart.totals[p])} for p in chart.players],
        "hand_rommes": [{"round": n, "player": p} for n, p in chart.hand_rommes],
        "game_end": str(chart.game_end),
        "finished": chart.finished,
        "game_winner": chart.winner,
    }
