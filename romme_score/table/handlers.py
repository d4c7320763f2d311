"""What the table mode's words do that no ``romme`` command does (:mod:`romme_score.table.words`):
the round entry (``round`` alone), a round opened for correction (``edit N`` alone), the
phones' round at the terminal, and the new file an ``export`` without ``-o`` writes. Every
other word is the ``romme`` command of its name, run through the command line's own parser
by the function ``romme play`` hands the table (:mod:`romme_score.cli.inside`), so that it
prints what the command line prints, byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

import click

from romme_score.errors import InputProblem, Refusal
from romme_score.table.wrapped import unwrapped
from romme_score.views import play as views

RunLine = Callable[[list[str], bool], int]  # a line's words, a person at the terminal -> exit code
# What a handler returns: an exit code, or the command line to run through the ``romme``
# group instead (the line as typed, or with something added: ``export``'s ``-o FILE``).
Outcome = int | list[str]
Handler = Callable[["Place", list[str]], Outcome]


class TableHooks(Protocol):
    """What only a table at a terminal does (:class:`~romme_score.table.app.Table`)."""

    def record(self, first: str | None) -> None: ...

    def phones(self) -> None: ...

    def edit(self, number: int) -> None: ...

    def export_file(self, fmt: str) -> str: ...


class Place:
    """Where a word runs: the function that runs a line as a ``romme`` command line, and
    the table at the terminal (None in a script, where nobody answers)."""

    def __init__(self, run_line: RunLine, table: TableHooks | None = None) -> None:
        self.run_line = run_line
        self.table = table

    @property
    def terminal(self) -> bool:
        return self.table is not None

    def run(self, name: str, handler: Handler | None, args: list[str]) -> int:
        """Run a word: its handler, or the ``romme`` command of its name; the exit code."""
        try:
            outcome: Outcome = [name, *args] if handler is None else handler(self, args)
        except (InputProblem, Refusal) as exc:  # what the round entry lets through
            words: Callable[[BaseException, str], str] | None = getattr(self.run_line, "hint", None)
            click.echo(views.error_line(words(exc, name) if words is not None else str(exc)), err=True)
            return 2 if isinstance(exc, InputProblem) else 1
        if isinstance(outcome, list):
            return self.run_line(outcome, self.terminal)
        return outcome


def round_(place: Place, args: list[str]) -> Outcome:
    """``round`` alone at the terminal: the round entry; with arguments, or in a script,
    the command line's round (every option of it)."""
    if place.table is not None and not args:
        with unwrapped():
            place.table.record(None)
        return 0
    return ["round", *args]


def edit(place: Place, args: list[str]) -> Outcome:
    """``edit N`` alone at the terminal: round N in the round entry; else (``edit N
    NAME=CARDS ...``, a script) the command line's ``edit``."""
    if place.table is not None and len(args) == 1 and args[0].isdecimal() and len(args[0]) <= 9:
        with unwrapped():
            place.table.edit(int(args[0]))
        return 0
    return ["edit", *args]


def phones(place: Place, args: list[str]) -> Outcome:
    """``phones`` at the terminal: the round the phones sent, in the round entry."""
    if place.table is not None and not args:
        with unwrapped():
            place.table.phones()
        return 0
    return ["phones", *args]


def export(place: Place, args: list[str]) -> Outcome:
    """``export``: at the terminal without ``-o``, into a new file in this folder named
    after the session (the JSON on the table's screen helps nobody); the writing is the
    command's (``-o FILE``: whole or not at all)."""
    if place.table is not None and not _names_a_file(args):
        return ["export", *args, "-o", place.table.export_file(_given_format(args))]
    return ["export", *args]


def _names_a_file(words: Sequence[str]) -> bool:
    """Whether an ``export`` line says where to write (``-o FILE``, ``--output=FILE``), or
    asks for its help."""
    return any(w in ("-o", "--output", "--help") or w.startswith(("--output=", "-o")) for w in words)


def _given_format(words: Sequence[str]) -> str:
    """The ``--format`` an ``export`` line gives (json unless csv is asked for)."""
    for at, w in enumerate(words):
        if w == "--format" and at + 1 < len(words):
            return "csv" if words[at + 1] == "csv" else "json"
        if w.startswith("--format="):
            return "csv" if w.endswith("=csv") else "json"
    return "json"
