"""``romme play``: the table mode, a whole evening in one window (issue 9)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from romme_score.cli.options import Output, complete_with, db_option, output_options
from romme_score.cli.service import open_service

if TYPE_CHECKING:
    from romme_score.table.app import Table


@click.command()
@click.argument("session", required=False, shell_complete=complete_with("sessions"))
@db_option
@output_options
def play(session: str | None, db: str | None, out: Output) -> None:
    """The table mode: standings always in view, a round in a few keystrokes, and undo,
    edit, check, best, value, settle, standings and export in the same window.

    Type who went out (a number, a name or its first letters), then each other
    player's cards left, one line each; Enter at the summary saves. 'help' lists
    the rest; Ctrl-C discards the round being typed, Ctrl-D or 'quit' leaves.

    Where standard input is not a terminal, each line is a romme command line
    without the leading 'romme', run against the session; the exit code is 1 if
    any line failed, else 0.

    \b
    Examples:
      romme play
      romme play Friday
      printf 'round --winner Anna Ben=5 Carl=5\\nstandings\\n' | romme play Friday
    """
    from romme_score.cli.inside import runner
    from romme_score.store import StoreError

    if session is None and sys.stdin.isatty() and sys.stdout.isatty() and not _has_session(db):
        # a fresh machine: the table mode asks for the game and its players (issue 20 item 6)
        from romme_score.table.app import start_game

        if not start_game(runner(db, lambda: "")):
            sys.exit(0)
    with open_service(db, create=False) as service:
        info = service.session(session)
        table: Table | None = None

        def session_now() -> str:
            """The session's name at this moment: a line may have renamed it, and ``new``
            or ``use`` typed in the window changes the session played there."""
            followed = table.info if table is not None else info
            try:
                return service.session_by_id(followed.id).name
            except StoreError:
                return followed.name

        run_line = runner(db, session_now, out)
        if not sys.stdin.isatty():
            from romme_score.table.script import read_script, run_script

            stream = getattr(sys.stdin, "buffer", None)  # the bytes: each line is decoded there
            lines = read_script(stream) if stream is not None else sys.stdin
            code = run_script(lines, run_line)
        else:
            from romme_score.table.app import Table

            table = Table(service, info, out, run_line, history_file(db))
            code = table.run()
    sys.exit(code)


def _has_session(db: str | None) -> bool:
    """Whether there is a database with a current session to play."""
    from romme_score.store.errors import NoCurrentSession, NoDatabase

    try:
        with open_service(db, create=False) as service:
            service.session(None)
    except (NoDatabase, NoCurrentSession):
        return False
    return True


def history_file(db: str | None) -> str | None:
    """The table mode's command history of the database played (``--db`` wherever it was
    typed, else ``ROMME_DB``, else the default; see :func:`romme_score.paths.history_location`);
    None where its folder cannot be written (then the history lasts for the window only)."""
    import os
    from pathlib import Path

    from romme_score.paths import history_location

    path = Path(history_location(db))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    if not os.access(path.parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        return None
    return str(path)
