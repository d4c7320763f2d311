"""Asking the person at the terminal yes or no: the command line's ``undo`` and
``sessions delete``, typed in a shell or in the table mode's window (which runs the same
commands): one question, one set of answers in either language."""

from __future__ import annotations

import click

from romme_score.i18n import _, shown

# The answers a confirmation takes, in either language (a German table types j or ja, and
# y still works); anything else is asked again. Enter alone, Ctrl-C and Ctrl-D say no.
YES_WORDS = ("y", "yes", "j", "ja")
NO_WORDS = ("n", "no", "nein")


def ask_yes_no(question: str) -> bool:
    """``question`` with ``[y/N]`` (in German ``[j/N]``), default no: y, yes, j, ja and n,
    no, nein in either language; Enter, Ctrl-C or Ctrl-D is no; anything else is asked
    again, saying what to type."""
    choices = _("[y/N]")
    while True:
        try:
            answer = click.prompt(f"{question} {choices}", default="", show_default=False, prompt_suffix=" ")
        except click.Abort:  # Ctrl-C or Ctrl-D: no answer, so nothing is done
            click.echo()
            return False
        typed = answer.strip().casefold()
        if typed in YES_WORDS:
            return True
        if not typed or typed in NO_WORDS:
            return False
        click.echo(
            _("%(text)s is no answer here: type %(choices)s")
            % {"text": shown(answer.strip()), "choices": _("y or n")},
            err=True,
        )
