"""``romme chart``: every player's running total by round, drawn in the terminal."""

from __future__ import annotations

import os
import shutil
import sys

import click

from romme_score.cli.options import Output, db_option, output_options, session_option
from romme_score.cli.service import open_service
from romme_score.history import History
from romme_score.views import chart as views


@click.command()
@click.option(
    "--width",
    type=click.IntRange(views.MIN_WIDTH, 1000),
    help="Columns to use (default: the terminal's width).",
)
@click.option(
    "--height",
    type=click.IntRange(views.MIN_HEIGHT, 500),
    help="Lines of the terminal to fill, one kept for the prompt (default: the terminal's height).",
)
@session_option
@db_option
@output_options
def chart(width: int | None, height: int | None, session: str | None, db: str | None, out: Output) -> None:
    """Draw the running totals of every player by round.

    One colour and letter per player with a legend; a star marks a Hand-Rommé,
    a dotted line the end of the game. Colour is left out where NO_COLOR is set
    or the output is not a terminal; --ascii draws with plain letters.

    \b
    Examples:
      romme chart
      romme chart --session Friday --width 100 --height 30
      NO_COLOR=1 romme chart --ascii
    """
    with open_service(db, create=False) as service:
        result = History(service).chart(session)
    if out.json:
        out.dump(views.chart_json(result))
        return
    size = shutil.get_terminal_size((80, 24))
    colour = not os.environ.get("NO_COLOR") and sys.stdout.isatty()
    click.echo(
        views.render_chart(
            result, width or size.columns, height or size.lines, colour=colour, ascii=out.ascii
        )
    )
