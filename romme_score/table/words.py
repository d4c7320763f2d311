"""The table mode's words in one registry, as pgcli's ``pgspecial.register`` keeps its
backslash commands: each :class:`Word` has its name, its German and English aliases, its
lines of ``help``, what Tab offers after it, and its handler. The terminal's loop
(:mod:`~romme_score.table.app`), a script (:mod:`~romme_score.table.script`), ``help``,
Tab completion, the "did you mean" of a mistyped word and the table of words in the
README (``tools/table_words.py``) are all made from :data:`WORDS`.

A word that is a ``romme`` command (new, undo, check, settle, edit N NAME=CARDS ...) is
that command, run through the command line's own parser by the function ``romme play``
gives the table (:mod:`romme_score.cli.inside`, which adds the table's ``--db`` and
``--session``): its options, checks, sentences and exit codes are the command line's.
Only what needs the terminal has a handler (:mod:`romme_score.table.handlers`): the
round entry, ``edit N`` alone, the phones' round, ``export``'s new file, ``help``.

>>> find("Hilfe").name, find("rueckgaengig").name, find("ENDE").leaves, find("frobnicate")
('help', 'undo', True, None)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import click

from romme_score.i18n import N_, _, language
from romme_score.inputs import fold
from romme_score.table import handlers as do
from romme_score.table.handlers import Handler, Outcome, Place


class Word(NamedTuple):
    """One word of the table mode."""

    name: str  # the ``romme`` command of the same name, where there is one
    usage: Sequence[tuple[str, str]]  # (as typed, what it does): msgids, shown through _()
    german: tuple[str, ...] = ()  # aliases; the first is shown by help in German
    english: tuple[str, ...] = ()  # aliases; the first is shown by help in English
    complete: tuple[str, ...] = ()  # what Tab offers after it: players, sessions, rounds, cards, files, hands
    options: tuple[str, ...] = ()  # the options Tab offers after it
    handler: Handler | None = None  # None: the line is the ``romme`` command of its name
    leaves: bool = False  # ends the table mode (or the script)
    draws: bool = False  # draws on the terminal itself (a round asked step by step)
    follows: bool = False  # the session it leaves current is played here from then on
    terminal: bool = False  # only at the terminal: no ``romme`` command, nothing in a script

    @property
    def aliases(self) -> tuple[str, ...]:
        return self.german + self.english

    def shown_aliases(self) -> tuple[str, ...]:
        """The aliases ``help`` shows beside the name: the run's language's first."""
        own = self.german if language() == "de" else self.english
        return own[:1]


def help_(place: Place, args: list[str]) -> Outcome:
    """``help``: the round, then every word (fitted to the terminal's window)."""
    from romme_score.views.play import render_help

    width = 80
    if place.terminal:
        from romme_score.table.front import terminal_width

        width = terminal_width()
    click.echo(render_help(help_rows(), width))
    return 0


WORDS: tuple[Word, ...] = (
    Word(
        "new",
        ((N_("new NAME PLAYER ..."), N_("start a game and play it here")),),
        german=("neu",),
        options=("--until", "--rate", "--currency", "--dealer", "--preset", "--rule"),
        follows=True,
    ),
    Word(
        "use",
        ((N_("use NAME"), N_("play another session here")),),
        complete=("sessions",),
        follows=True,
    ),
    Word(
        "sessions",
        (("sessions", N_("the sessions in the database")),),
        german=("partien",),
        complete=("sessions",),
        options=("rename", "delete"),
    ),
    Word(
        "undo",
        (("undo", N_("take back the last round (asks)")),),
        german=("rückgängig", "rueckgaengig"),
        options=("--yes",),
    ),
    Word(
        "edit",
        (
            (N_("edit N"), N_("open round N: correct a hand by its number, Enter saves")),
            (N_('edit N NAME="CARDS" ...'), N_("correct round N in one line")),
        ),
        german=("berichtigen",),
        complete=("rounds", "hands"),
        options=(
            "--winner",
            "--hand-romme",
            "--no-hand-romme",
            "--stalemate",
            "--no-stalemate",
            "--never-out",
        ),
        handler=do.edit,
    ),
    Word(
        "check",
        ((N_("check MELD ..."), N_("is a meld legal (under this session's rules)")),),
        german=("prüfen", "pruefen"),
        complete=("cards",),
        options=("--first", "--onto", "--not-out"),
    ),
    Word(
        "best",
        ((N_("best HAND [--table MELD]"), N_("the best arrangement of a hand")),),
        complete=("cards",),
        options=("--table", "--came-out"),
    ),
    Word(
        "value",
        ((N_("value HAND"), N_("penalty points of a hand")),),
        german=("wert",),
        complete=("cards",),
    ),
    Word(
        "settle",
        (("settle", N_("who pays whom")),),
        german=("abrechnung",),
        options=("--rate", "--unit", "--currency"),
    ),
    Word(
        "standings",
        (("standings [--all]", N_("the whole scoresheet")),),
        german=("stand",),
        options=("--all",),
    ),
    Word(
        "note",
        ((N_('note "TEXT" [--round N]'), N_("a note in the session's history")),),
        german=("notiz",),
        options=("--round",),
    ),
    Word(
        "end",
        (
            ("end", N_("end the game by agreement where it stands")),
            ("end --reopen", N_("take that back: the game goes on")),
        ),
        german=("beenden",),  # not "ende", which leaves the table mode
        options=("--reopen",),
    ),
    Word(
        "export",
        ((N_("export [-o FILE]"), N_("the session as JSON or CSV (without -o: a new file here)")),),
        german=("exportieren",),
        complete=("files",),
        options=("-o", "--format"),
        handler=do.export,
    ),
    Word(
        "round",
        ((N_("round --winner NAME ..."), N_("a round as a command line")),),
        german=("runde",),
        complete=("hands",),
        options=("--winner", "--hand-romme", "--stalemate", "--never-out"),
        handler=do.round_,
        draws=True,
    ),
    Word(
        "rules",
        ((N_("rules [PRESET]"), N_("the rules in play, or a preset's")),),
        german=("regeln",),
    ),
    Word(
        "phones",
        (("phones", N_("the round sent from the phones (romme serve): Enter saves")),),
        german=("handys",),
        handler=do.phones,
        terminal=True,
    ),
    Word("help", (("help", N_("this list")),), german=("hilfe",), handler=help_),
    Word(
        "quit",
        ((N_("quit (or Ctrl-D)"), N_("leave the table mode")),),
        german=("ende",),
        english=("exit",),
        leaves=True,
    ),
)

_BY_WORD = {w.casefold(): word for word in WORDS for w in (word.name, *word.aliases)}


def find(typed: str) -> Word | None:
    """The word typed, by its name or an alias in either language, in any case, its
    umlauts composed or not (``ru\u0308ckga\u0308ngig`` is ``rückgängig``)."""
    return _BY_WORD.get(fold(typed))


def names() -> tuple[str, ...]:
    """Every name and alias, as typed at the prompt (Tab offers them, a game is never
    called one of them)."""
    return tuple(_BY_WORD)


def offered_words() -> list[str]:
    """The words Tab offers at the start of a line: the names, and the run's language's
    aliases."""
    return [w for word in WORDS for w in (word.name, *word.shown_aliases())]


def suggestions() -> list[str]:
    """The words a mistyped one may be close to (not those that leave: ``quiet`` is no
    ``quit`` to be suggested)."""
    return [w for word in WORDS if not word.leaves for w in (word.name, *word.aliases)]


def help_rows() -> list[tuple[str, str]]:
    """``help``'s lines below the round, in the run's language: each word as typed (its
    alias beside it) and what it does."""
    rows = []
    for word in WORDS:
        for at, (usage, what) in enumerate(word.usage):
            typed = _(usage)
            if at == 0 and word.shown_aliases():
                typed = ", ".join((typed.split(" ", 1)[0], *word.shown_aliases())) + (
                    " " + typed.split(" ", 1)[1] if " " in typed else ""
                )
            rows.append((typed, _(what)))
    return rows


def markdown_table() -> str:
    """The README's table of the table mode's words (English; ``tools/table_words.py``
    writes it, ``tests/test_play_words.py`` holds it to the registry)."""
    lines = ["| word | also | what it does |", "|---|---|---|"]
    for word in WORDS:
        also = ", ".join(f"`{a}`" for a in word.aliases)
        for at, (usage, what) in enumerate(word.usage):
            lines.append(f"| `{usage}` | {also if at == 0 else ''} | {what} |")
    return "\n".join(lines)
