"""``romme league``: a club's season over evenings and tournaments (docs/rules.md §11): new, add,
remove, alias, list, standings, report. Each subcommand parses its arguments, calls the
league service (:mod:`romme_score.league.service`) and prints a view."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import TypeVar, cast

import click

from romme_score.cli import TranslatedGroup
from romme_score.cli.files import write_output
from romme_score.cli.options import (
    FilePath,
    Output,
    complete_with,
    db_option,
    fail_input,
    plain_output_options,
)
from romme_score.cli.service import creating_service, open_service
from romme_score.i18n import _
from romme_score.league.options import (
    DEFAULT_POINTS,
    LeagueInputError,
    LeagueOptions,
    TieBreak,
    parse_attendance,
    parse_best,
    parse_points,
)
from romme_score.league.service import LeagueService
from romme_score.views import league as views

T = TypeVar("T")


@contextmanager
def opened(db: str | None, create: bool = False) -> Iterator[LeagueService]:
    """The league service; ``create`` only for ``league new``."""
    with creating_service(db) if create else open_service(db) as service:
        yield LeagueService(service)


@click.group(cls=TranslatedGroup)
def league() -> None:
    """A club's season over evenings and tournaments: points per place, the best
    results, attendance, one ranking over the year (docs/rules.md §11).

    A league holds games (sessions) and tournaments; every event's places are read
    from the event itself whenever the standings are asked for, so a correction
    there changes the season at once.

    \b
    Examples:
      romme league new Club --season 2026 --best 10 --attendance 1
      romme league add Club --tournament Cup --session "Friday 9 Jan"
      romme league alias Club Hansi Hans
      romme league standings Club
      romme league report Club -o season.html
      romme serve --league Club
    """


@league.command()
@click.argument("name")
@click.option("--season", metavar="TEXT", help="The season it covers, e.g. 2026.")
@click.option(
    "--points",
    metavar="LIST",
    help="Points per place, e.g. 10,8,6,5,4,3,2,1 (the default); places beyond the list score 0.",
)
@click.option("--best", metavar="N", help="Count only each player's N best results (default: every result).")
@click.option(
    "--attendance", metavar="N", help="Points for every event played, on top of the place's (default 0)."
)
@click.option(
    "--tie-break",
    metavar="none|most-wins",
    default="none",
    show_default=True,
    help="Equal points share a place (none), or more first places go first, then more second "
    "places and so on (most-wins).",
)
@db_option
@plain_output_options
def new(
    name: str,
    season: str | None,
    points: str | None,
    best: str | None,
    attendance: str | None,
    tie_break: str,
    db: str | None,
    out: Output,
) -> None:
    """Start a league: its season, the points per place, how many results count,
    the points for attending and the tie break.

    \b
    Examples:
      romme league new Club
      romme league new Club --season 2026 --points 25,18,15,12,10 --best 8
      romme league new Stammtisch --attendance 2 --tie-break most-wins
    """
    options = LeagueOptions(
        points=_given("--points", points, parse_points, DEFAULT_POINTS),
        best=_given("--best", best, parse_best, None),
        attendance=_given("--attendance", attendance, parse_attendance, 0),
    )
    try:
        options = replace(options, tie_break=cast(TieBreak, tie_break.strip()))
    except LeagueInputError as exc:
        fail_input(f"--tie-break: {exc}")
    with opened(db, create=True) as service:
        info = service.create(name, season, options)
    if out.json:
        out.dump(views.created_json(info))
    else:
        out.echo(views.render_created(info))


def _given(flag: str, text: str | None, parse: Callable[[str], T], default: T) -> T:
    """An option's value as typed, read; its refusal names the option."""
    if text is None:
        return default
    try:
        return parse(text)
    except LeagueInputError as exc:
        fail_input(f"{flag}: {exc}")


@league.command()
@click.argument("name", shell_complete=complete_with("leagues"))
@click.option(
    "--tournament",
    "tournaments",
    multiple=True,
    metavar="NAME",
    shell_complete=complete_with("tournaments"),
    help="A tournament of the season (repeatable).",
)
@click.option(
    "--session",
    "sessions",
    multiple=True,
    metavar="NAME",
    shell_complete=complete_with("sessions"),
    help="A game (an evening's session) of the season (repeatable).",
)
@db_option
@plain_output_options
def add(
    name: str, tournaments: tuple[str, ...], sessions: tuple[str, ...], db: str | None, out: Output
) -> None:
    """Add events to the league: tournaments and games, each counted by its own
    ranking. All or nothing: an unknown event, or one in the league already, adds none.

    \b
    Examples:
      romme league add Club --tournament Cup
      romme league add Club --session "Friday 9 Jan" --session "Friday 16 Jan"
    """
    if not tournaments and not sessions:
        fail_input(_("name at least one event: --tournament NAME or --session NAME"))
    with opened(db) as service:
        added = service.add(name, tournaments, sessions)
    if out.json:
        out.dump(views.added_json(added))
    else:
        out.echo(views.render_added(added))


@league.command()
@click.argument("name", shell_complete=complete_with("leagues"))
@click.option(
    "--tournament",
    metavar="NAME",
    shell_complete=complete_with("tournaments"),
    help="The tournament to remove.",
)
@click.option(
    "--session", metavar="NAME", shell_complete=complete_with("sessions"), help="The game to remove."
)
@db_option
@plain_output_options
def remove(name: str, tournament: str | None, session: str | None, db: str | None, out: Output) -> None:
    """Take an event out of the league (the event itself stays as it is).

    \b
    Examples:
      romme league remove Club --tournament Cup
      romme league remove Club --session "Friday 9 Jan"
    """
    if (tournament is None) == (session is None):
        fail_input(_("give one event to remove: --tournament NAME or --session NAME"))
    with opened(db) as service:
        kind, event = service.remove(name, tournament, session)
    if out.json:
        out.dump({"league": name.strip(), "removed": {"name": event, "kind": kind}})
    else:
        out.echo(views.render_removed(name.strip(), kind, event))


@league.command()
@click.argument("name", shell_complete=complete_with("leagues"))
@click.argument("spelling")
@click.argument("person")
@db_option
@plain_output_options
def alias(name: str, spelling: str, person: str, db: str | None, out: Output) -> None:
    """One person under two spellings: wherever SPELLING played, it counts as
    PERSON, and the standings show PERSON. Names that differ only in case are one
    person already.

    \b
    Examples:
      romme league alias Club Hansi "Hans Meier"
    """
    with opened(db) as service:
        league_name = service.league(name).name
        typed, target = service.alias(name, spelling, person)
    if out.json:
        out.dump({"league": league_name, "spelling": typed, "person": target})
    else:
        out.echo(views.render_alias(league_name, typed, target))


@league.command(name="list")
@db_option
@plain_output_options
def list_(db: str | None, out: Output) -> None:
    """Every league with its season, its number of events and its options.

    \b
    Examples:
      romme league list
      romme league list --json
    """
    with opened(db) as service:
        leagues = service.overview()
    if out.json:
        out.dump(views.list_json(leagues))
    else:
        out.echo(views.render_list(leagues))


@league.command()
@click.argument("name", shell_complete=complete_with("leagues"))
@db_option
@plain_output_options
def standings(name: str, db: str | None, out: Output) -> None:
    """The season's ranking: place, name, counted points, events played and every
    event's points (dropped results in brackets); the events by date.

    \b
    Examples:
      romme league standings Club
      romme league standings Club --json
    """
    with opened(db) as service:
        result = service.standings(name)
    if out.json:
        out.dump(views.standings_json(result))
    else:
        out.echo(views.render_standings(result))


@league.command()
@click.argument("name", shell_complete=complete_with("leagues"))
@click.option(
    "-o",
    "--output",
    type=FilePath(dir_okay=False, path_type=Path),
    help="Write the page to this file (default: standard output).",
)
@db_option
def report(name: str, output: Path | None, db: str | None) -> None:
    """The season on one HTML page: the standings, every event's places and points,
    and a chart of each player's points over the season. The page holds everything
    it shows (no network, no scripts) and reads well on a phone.

    \b
    Examples:
      romme league report Club -o season.html
    """
    from romme_score import __version__
    from romme_score.views import league_report

    with opened(db) as service:
        result = service.standings(name)
    page = league_report.render_report(result, __version__, date.today())
    if output is None:
        click.echo(page, nl=False)
        return
    write_output(output, [page])
    click.echo(league_report.written(result, str(output)))
