"""A ``romme`` command line run inside the table mode: the same Click commands as on the
command line, in the same process, against the table's database and session. The table
mode gets :func:`runner`'s function from ``romme play`` and never imports the command
line itself.

>>> with_context(["value", "HA"], None, "Friday")
['value', '--session', 'Friday', 'HA']
>>> with_context(["settle", "A=1", "B=2"], None, "Friday")
['settle', 'A=1', 'B=2']
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable

import click

# A line of the table mode: its words, whether a person answers questions at the terminal.
RunLine = Callable[[list[str], bool], int]


def with_context(words: list[str], db: str | None, session: str) -> list[str]:
    """The command line with ``--db`` and ``--session`` added where the command has those
    options and the line does not give them (``settle`` with totals typed: no session)."""
    from romme_score.cli import main

    command = main.get_command(click.Context(main), words[0])
    if command is None:
        return words
    flags = {flag for p in command.params for flag in p.opts}

    def given(flag: str) -> bool:
        return any(w == flag or w.startswith(flag + "=") for w in words)

    extra: list[str] = []
    if "--db" in flags and db is not None and not given("--db"):
        extra += ["--db", str(db)]
    totals_typed = words[0] == "settle" and any("=" in w and not w.startswith("-") for w in words)
    if "--session" in flags and not given("--session") and not totals_typed:
        extra += ["--session", session]
    return [words[0], *extra, *words[1:]]


def run_command(words: list[str], db: str | None, session: str, ask: bool = False) -> int:
    """Run one command in-process; print what it prints; return its exit code. Unless
    ``ask`` (a person at the terminal), a command that would ask a question gets the end
    of input, so that it never reads the next line of a script (``undo`` asks for --yes)."""
    from romme_score.cli import main

    args = with_context(words, db, session)
    stdin = sys.stdin
    if not ask:
        sys.stdin = io.StringIO("")
    try:
        result = main.main(args, prog_name="romme", standalone_mode=False)
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.Abort:
        click.echo("Aborted.", err=True)
        return 1
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    finally:
        sys.stdin = stdin
    return result if isinstance(result, int) else 0


def runner(db: str | None, session: Callable[[], str]) -> RunLine:
    """What the table mode calls to run a line: against ``db`` and the session's name as
    it is at that moment (it follows a rename)."""
    return lambda words, ask: run_command(words, db, session(), ask)
