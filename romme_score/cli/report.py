"""``romme report``: a game or an evening as one self-contained HTML page."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import click

from romme_score import __version__
from romme_score.cli.files import write_output
from romme_score.cli.options import FilePath, Refused, complete_with, db_option
from romme_score.cli.service import open_service
from romme_score.history import History
from romme_score.settlement import SettlementError
from romme_score.views import report as views


@click.command()
@click.option(
    "--session",
    "sessions",
    multiple=True,
    metavar="NAME",
    shell_complete=complete_with("sessions"),
    help="The sessions of the evening (repeatable); default: the current session.",
)
@click.option(
    "-o",
    "--output",
    type=FilePath(dir_okay=False, path_type=Path),
    help="Write the page to this file (default: standard output).",
)
@click.option(
    "--notation",
    type=click.Choice(["de", "en"]),
    default="de",
    envvar="ROMME_NOTATION",
    hidden=True,  # kept so that scripts still run: the page shows no cards, amounts follow --lang
)
@db_option
def report(sessions: tuple[str, ...], output: Path | None, notation: str, db: str | None) -> None:
    """Write the evening as one HTML page: standings, a chart of each game,
    Hand-Rommés and bonuses, and the settlement with who pays whom.

    The page holds everything it shows (no network, no scripts), reads well on
    a phone and prints on paper.

    \b
    Examples:
      romme report -o friday.html
      romme report --session Friday --session Saturday -o weekend.html
    """
    with open_service(db, create=False) as service:
        try:
            result = History(service).report(sessions)
        except SettlementError as exc:
            raise Refused(str(exc)) from None
    page = views.render_report(result, __version__, date.today())
    if output is None:
        from romme_score.cli.terminal import fit_html

        click.echo(fit_html(page), nl=False)
        return
    write_output(output, [page])
    click.echo(
        views.written([g.standings.session for g in result.games], str(output), len(page.encode("utf-8")))
    )
