"""The scriptable table mode: where standard input is not a terminal, ``romme play`` reads
one ``romme`` command line per line (without the leading ``romme``, shell-style quoting),
runs each in the same process against the session, goes on after a failing line, and
exits 1 at the end if any line failed, else 0."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import click

from romme_score.i18n import _
from romme_score.table.commands import NOT_INSIDE, QUIT_WORDS, LineError, split_line
from romme_score.views import play as views

RunLine = Callable[[list[str], bool], int]  # a line's words, a person at the terminal -> exit code


def run_script(lines: Iterable[str], run_line: RunLine) -> int:
    """Run every line with ``run_line`` (against the table's database and session); the exit
    code of the whole script (0 or 1)."""
    failed = False
    for number, line in enumerate(lines, 1):
        try:
            words = split_line(line)
        except LineError as exc:
            click.echo(f"Error: {exc}", err=True)
            words, code = [], 2
        else:
            code = 0
        if not words and not code:
            continue
        if words and words[0] in QUIT_WORDS:
            break
        if words and words[0] == "help":
            click.echo(_(views.HELP))
            continue
        if not words:
            pass
        elif words[0] in NOT_INSIDE:
            click.echo(f"Error: {views.not_inside(words[0])}", err=True)
            code = 2
        else:
            code = run_line(words, False)
        if code:
            failed = True
            click.echo(views.failed_line(number, line.strip(), code), err=True)
    return 1 if failed else 0
