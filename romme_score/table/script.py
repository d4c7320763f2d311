"""The scriptable table mode: where standard input is not a terminal, ``romme play`` reads
one ``romme`` command line per line (without the leading ``romme``, shell-style quoting),
runs each in the same process against the session, goes on after a failing line, and
exits 1 at the end if any line failed, else 0.

A script is read as UTF-8, line by line from its bytes (:func:`read_script`): a line that
is not UTF-8 (a Latin-1 file) is refused in one sentence naming it, and the next line
runs; a line longer than :data:`~romme_score.table.commands.MAX_LINE` characters is
refused without being held whole.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterable, Iterator
from typing import IO, NamedTuple

import click

from romme_score.i18n import SHOWN_START, _, grouped
from romme_score.table.commands import MAX_LINE, NOT_INSIDE, LineError, split_line
from romme_score.table.words import find, help_rows
from romme_score.views import play as views

RunLine = Callable[[list[str], bool], int]  # a line's words, a person at the terminal -> exit code

# Bytes read of a line at most: UTF-8 takes up to 4 bytes a character, so every line of
# MAX_LINE characters fits; what goes beyond is counted, not kept.
MAX_LINE_BYTES = 4 * MAX_LINE + 2
BOM = codecs.BOM_UTF8


class UnreadableLine(NamedTuple):
    """A line of a script that is not run: what it showed, and why."""

    shown: str
    error: LineError


def read_script(stream: IO[bytes]) -> Iterator[str | UnreadableLine]:
    """The lines of a script as text, or as :class:`UnreadableLine` where a line is not
    UTF-8 or is too long (a byte order mark before the first line is skipped)."""
    number = 0
    while True:
        raw = stream.readline(MAX_LINE_BYTES)
        if not raw:
            return
        number += 1
        if number == 1 and raw.startswith(BOM):
            raw = raw[len(BOM) :]
        if len(raw) >= MAX_LINE_BYTES and not raw.endswith(b"\n"):
            yield _overlong(raw, stream)
            continue
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield UnreadableLine(
                raw.decode("utf-8", "backslashreplace"),
                LineError(
                    _(
                        "line %(number)d is not valid text (byte 0x%(byte)02X at position "
                        "%(position)d): a script is read as UTF-8"
                    )
                    % {"number": number, "byte": raw[exc.start], "position": exc.start + 1}
                ),
            )


def _overlong(start: bytes, stream: IO[bytes]) -> UnreadableLine:
    """A line of more than MAX_LINE_BYTES bytes: the rest is read in pieces and counted."""
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    shown = decoder.decode(start)
    length = len(shown)
    while True:
        piece = stream.readline(1 << 16)
        length += len(decoder.decode(piece, final=not piece))
        if not piece or piece.endswith(b"\n"):
            break
    return UnreadableLine(
        shown[:SHOWN_START] + "…",  # the sentence says how long it is
        LineError(
            _("the line has %(length)s characters; a line holds at most %(max)s characters")
            % {"length": grouped(length), "max": grouped(MAX_LINE)}
        ),
    )


def run_script(lines: Iterable[str | UnreadableLine], run_line: RunLine) -> int:
    """Run every line against the table's database and session by ``run_line``, as a
    ``romme`` command line (a word of the registry, :mod:`romme_score.table.words`, in
    either language, as the command of its name: ``runde`` is ``round``); ``help`` and
    ``quit`` are the script's own. The exit code of the whole script (0 or 1)."""
    failed = False
    for number, line in enumerate(lines, 1):
        if isinstance(line, UnreadableLine):
            click.echo(views.error_line(str(line.error)), err=True)
            words, code, line = [], 2, line.shown
        else:
            try:
                words = split_line(line)
            except LineError as exc:
                click.echo(views.error_line(str(exc)), err=True)
                words, code = [], 2
            else:
                code = 0
        if not words and not code:
            continue
        word = find(words[0]) if words else None
        if word is not None and word.leaves:
            break
        if word is not None and word.name == "help":
            click.echo(views.render_help(help_rows()))
            continue
        if not words:
            pass
        elif words[0] in NOT_INSIDE:
            click.echo(views.error_line(views.not_inside(words[0])), err=True)
            code = 2
        elif word is not None and word.terminal:
            click.echo(views.error_line(views.terminal_only(words[0])), err=True)
            code = 2
        elif word is not None:
            code = run_line([word.name, *words[1:]], False)
        else:
            code = run_line(words, False)
        if code:
            failed = True
            click.echo(views.failed_line(number, line.strip(), code), err=True)
    return 1 if failed else 0
