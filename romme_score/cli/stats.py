"""``romme stats``: each player across every session of the database."""

from __future__ import annotations

from datetime import date

import click

from romme_score.cli.options import Output, complete_with, db_option, fail_input, output_options
from romme_score.cli.service import open_service
from romme_score.errors import InputProblem
from romme_score.history import History, UnknownPlayer
from romme_score.inputs import parse_day
from romme_score.views import stats as views


@click.command()
@click.option("--player", metavar="NAME", shell_complete=complete_with("everyone"), help="Only this player.")
@click.option(
    "--since",
    metavar="DAY",
    help="Only sessions started on or after this day (local time): 2026-12-01 or 1.12.2026.",
)
@click.option(
    "--vs",
    metavar="NAME",
    shell_complete=complete_with("everyone"),
    help="Head-to-head against NAME: rounds and games both played, who finished lower.",
)
@db_option
@output_options
def stats(player: str | None, since: str | None, vs: str | None, db: str | None, out: Output) -> None:
    """Statistics per player across all sessions: games and rounds won,
    Hand-Rommés, average and worst penalty, money.

    The same person is recognised in every session by name, ignoring case and
    surrounding spaces ("Anna" and " anna" are one player).

    \b
    Examples:
      romme stats
      romme stats --player Anna --vs Ben
      romme stats --since 2026-01-01 --json
      romme stats --since 1.12.2026
    """
    day = None
    if since is not None:
        try:
            day = parse_day(since, "--since", date.today())
        except InputProblem as exc:
            fail_input(str(exc))
    with open_service(db, create=False) as service:
        try:
            result = History(service).stats(player, day, vs)
        except UnknownPlayer as exc:
            option = "--vs" if vs is not None and exc.name == vs.strip() else "--player"
            fail_input(views.unknown_player(exc.name, exc.close, exc.names, option))
    if out.json:
        out.dump(views.stats_json(result))
    else:
        out.echo(views.render_stats(result, out.ascii))
