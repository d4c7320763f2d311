"""``romme tournament``: a tournament or club evening over several tables (docs/rules.md §10):
new, draw, standings, withdraw, payout, sheets. Each subcommand parses its arguments,
calls the tournament service (:mod:`romme_score.tournament.service`) and prints a view."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import click

from romme_score.cli import TranslatedGroup
from romme_score.cli.options import (
    FilePath,
    Output,
    complete_with,
    db_option,
    fail_input,
    group_db_option,
    plain_output_options,
    raw_rule_options,
    read_rules_file,
)
from romme_score.i18n import _, os_reason
from romme_score.inputs import parse_int, read_host
from romme_score.rules import RuleError

# The service, the store and the views are imported by the subcommand that runs, not by
# ``romme tournament --help`` (issue 28 item 3: 651 M instructions, 3.8x import click).
if TYPE_CHECKING:
    from romme_score.tournament import Entrant, TournamentService

if TYPE_CHECKING:
    from romme_score.tournament import Sheets
    from romme_score.views.tournament_sheets import PrintedLink


@contextmanager
def opened(db: str | None, create: bool = False) -> Iterator[TournamentService]:
    """The tournament service; ``create`` only for ``tournament new`` (issue 20 item 23)."""
    from romme_score.cli.service import creating_service, open_service
    from romme_score.tournament import TournamentService

    with creating_service(db) if create else open_service(db) as service:
        yield TournamentService(service)


@click.group(cls=TranslatedGroup)
@group_db_option
def tournament() -> None:
    """A tournament or club evening over several tables: the draw, series, ranking,
    sheets and prize money (docs/rules.md §10).

    Each table of each series is an ordinary session (NAME S1 T3), recorded with
    romme round or romme play; a correction there (romme edit) changes the
    ranking at once.

    \b
    Examples:
      romme tournament new Cup --players-file players.txt --series 3 --games 6
      romme tournament draw
      romme round --session "Cup S1 T1" --winner 2 1=12 3=25 4=40
      romme tournament standings
      romme tournament payout
    """


OPTION_FLAGS = (
    ("table_size", "--table-size"),
    ("series", "--series"),
    ("games", "--games"),
    ("seating", "--seating"),
    ("scoring", "--scoring"),
    ("entry_fee", "--entry-fee"),
    ("lost_game_fee", "--lost-game-fee"),
    ("prizes", "--prizes"),
    ("currency", "--currency"),
)


@tournament.command()
@click.argument("name")
@click.argument("players", nargs=-1)
@click.option(
    "--players-file",
    type=FilePath(dir_okay=False, path_type=Path, allow_dash=True),
    help="A file of players, one a line, optionally NAME;TEAM ('-': standard input).",
)
@click.option(
    "--table-size", metavar="N", help="Players at a table (default 4); tables of one fewer fill up."
)
@click.option("--series", metavar="N", help="Series of the tournament (default 3).")
@click.option("--games", metavar="G", help="Games at each table in a series (default 16).")
@click.option(
    "--seating",
    type=click.Choice(["draw", "standings", "fixed"]),
    help="draw: by lot; standings: series 1 by lot, then by the standings; fixed: the order given.",
)
@click.option(
    "--scoring",
    type=click.Choice(["augen", "wertung"]),
    help="augen: penalty points, fewer is better; wertung: 5 a win, 8 a Hand-Rommé, 3-2-1 for few points.",
)
@click.option(
    "--seed", metavar="S", help="The seed of the draws, so that they can be repeated (default: drawn)."
)
@click.option("--entry-fee", metavar="AMOUNT", help="Entry fee of every player.")
@click.option("--lost-game-fee", metavar="AMOUNT", help="Paid for every game a player does not win.")
@click.option(
    "--prizes", metavar="LIST", help='Prizes by place: amounts or percentages of the pot, e.g. "40%,25%,15%".'
)
@click.option("--currency", metavar="CODE", help="Currency code, e.g. EUR.")
@raw_rule_options
@db_option
@plain_output_options
def new(
    name: str,
    players: tuple[str, ...],
    players_file: Path | None,
    seed: str | None,
    preset: str | None,
    rule_items: tuple[str, ...],
    rules_file: str | None,
    db: str | None,
    out: Output,
    **given: str | None,
) -> None:
    """Start a tournament: players with their start numbers (in the order given), the
    tables' house rules and every number of a tournament (docs/rules.md §10; also as
    --rule KEY=VALUE or in the rules file; see romme rules).

    \b
    Examples:
      romme tournament new Cup Anna Ben Carl Dora Emil Fritz Gerd --games 6
      romme tournament new Cup --players-file players.txt --series 3 --games 6 \\
        --scoring wertung --entry-fee 10 --lost-game-fee 0.50 \\
        --prizes "40%,25%,15%" --currency EUR --seed 2026
      romme tournament new Club --rule tie_break=best-series Anna Ben Carl
    """
    from romme_score.cli.hints import with_hint
    from romme_score.tournament import MAX_SEED, TournamentOptions, build_tournament
    from romme_score.views import tournament as views

    try:
        rules, options = build_tournament(
            preset, rule_items, read_rules_file(rules_file), rules_file or "rules file"
        )
    except RuleError as exc:
        fail_input(with_hint(exc))
    for key, flag in OPTION_FLAGS:
        value = given.get(key)
        if value is not None:
            try:
                options = TournamentOptions.from_dict({key: value}, options)
            except RuleError as exc:
                fail_input(f"{flag}: {exc}")
    chosen_seed = parse_int(seed, "--seed", 0, MAX_SEED) if seed is not None else None
    entrants = _entrants(players, players_file)
    with opened(db, create=True) as service:
        info = service.create(name, entrants, rules, options, chosen_seed)
    if out.json:
        out.dump(views.created_json(info))
    else:
        out.echo(views.render_created(info))


def _url_base(text: str) -> str:
    """``http://HOST:PORT`` as typed, without a trailing slash: a scheme http or https, a
    host and port :func:`read_host` takes (no user information, a port of digits), nothing
    after them (no path, query or fragment)."""
    typed = text.strip().rstrip("/")
    scheme, sep, rest = typed.partition("://")
    if not sep or scheme.lower() not in ("http", "https") or read_host(rest) is None:
        fail_input(_("--url-base: '%(url)s' is no address like http://192.168.1.20:8765") % {"url": text})
    return typed


def _printed_links(
    service: TournamentService, data: Sheets, base: str | None
) -> dict[int, list[PrintedLink]]:
    """Each table's scorekeeper and seat links with their QR codes (the extra 'serve' draws them)."""
    from romme_score.cli.options import Refused
    from romme_score.views.tournament_sheets import PrintedLink

    try:
        from romme_score.web.links import make_token, qr_svg
    except ImportError as exc:  # pragma: no cover - the extra is installed in the tests
        raise Refused(
            _("--links needs the extra 'serve' (%(missing)s is missing): install romme-score[serve]")
            % {"missing": exc.name}
        ) from None
    address = base or service.sessions.served_address()
    if address is None:
        fail_input(
            _(
                "--links: no address known yet: give --url-base http://ADDRESS:PORT, or start "
                "romme serve --tournament once"
            )
        )
    found = service.table_links(data, make_token)
    return {
        table: [
            PrintedLink(
                link.kind,
                link.player,
                f"{address}/{link.token}",
                qr_svg(f"{address}/{link.token}", "QR", scalable=True).decode("utf-8"),
            )
            for link in links
        ]
        for table, links in found.items()
    }


def _entrants(players: tuple[str, ...], players_file: Path | None) -> list[Entrant]:
    from romme_score.tournament import TournamentInputError, read_entrant, read_players_file

    if players and players_file is not None:
        fail_input(_("give the players as arguments or with --players-file, not both"))
    if players_file is None:
        entrants = [read_entrant(p) for p in players]
    else:
        if str(players_file) == "-":
            from romme_score.cli.inside import refuse_script_input

            refuse_script_input("--players-file -")
        try:
            data = sys.stdin.buffer.read() if str(players_file) == "-" else players_file.read_bytes()
        except OSError as exc:
            fail_input(
                _("cannot read %(path)s: %(reason)s") % {"path": players_file, "reason": os_reason(exc)}
            )
        # bytes that are not UTF-8 kept as Python keeps them: refused naming the line and the byte
        text = data.decode("utf-8", "surrogateescape")
        try:
            entrants = read_players_file(text)
        except TournamentInputError as exc:
            fail_input(f"{players_file}: {exc}")
    if not entrants:
        fail_input(_("no players: give them as arguments or with --players-file"))
    return entrants


@tournament.command()
@click.argument("name", required=False, shell_complete=complete_with("tournaments"))
@click.option(
    "--force", is_flag=True, help="Draw although tables of the series before still have games to play."
)
@db_option
@plain_output_options
def draw(name: str | None, force: bool, db: str | None, out: Output) -> None:
    """Seat the next series: by lot from the recorded seed, by the standings after
    the series before (table 1 takes places 1-4, seat 1 the best), or in the order
    given. Each table becomes a session, NAME S1 T3, seat 1 dealing first.

    \b
    Examples:
      romme tournament draw
      romme tournament draw Cup --force
    """
    from romme_score.views import tournament as views

    with opened(db) as service:
        drawn = service.draw(name, force)
    if out.json:
        out.dump(views.drawn_json(drawn))
    else:
        out.echo(views.render_drawn(drawn))


@tournament.command()
@click.argument("name", required=False, shell_complete=complete_with("tournaments"))
@click.option("--series", type=int, metavar="K", help="The standings after series K (default: all drawn).")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "csv", "json"]),
    default="table",
    show_default=True,
    help="table, csv (for a spreadsheet) or json (as --json).",
)
@db_option
@plain_output_options
def standings(name: str | None, series: int | None, fmt: str, db: str | None, out: Output) -> None:
    """The ranking: place, start number, name, team, each series' result and the
    total; the team ranking; the tables still missing games.

    \b
    Examples:
      romme tournament standings
      romme tournament standings Cup --series 1
      romme tournament standings --format csv > standings.csv
    """
    from romme_score.views import tournament as views

    with opened(db) as service:
        result = service.standings(name, series)
    if out.json or fmt == "json":
        out.dump(views.standings_json(result))
    elif fmt == "csv":
        click.echo(views.standings_csv(result), nl=False)
    else:
        out.echo(views.render_standings(result))


@tournament.command()
@click.argument("name", shell_complete=complete_with("tournaments"))
@click.argument("player", shell_complete=complete_with("entrants"))
@db_option
@plain_output_options
def withdraw(name: str, player: str, db: str | None, out: Output) -> None:
    """A player withdraws before the next draw: the series played and the start
    number stay, no later series seats the player. PLAYER is a name, its first
    letters or the start number.

    \b
    Examples:
      romme tournament withdraw Cup Ben
      romme tournament withdraw Cup 7
    """
    from romme_score.views import tournament as views

    with opened(db) as service:
        withdrawn = service.withdraw(name, player)
    if out.json:
        out.dump(views.withdrawn_json(withdrawn))
    else:
        out.echo(views.render_withdrawn(withdrawn))


@tournament.command()
@click.argument("name", required=False, shell_complete=complete_with("tournaments"))
@db_option
@plain_output_options
def payout(name: str | None, db: str | None, out: Output) -> None:
    """The pot (entry fees and lost-game fees) and the prizes by place: what each
    player paid in and receives, summing to the pot to the cent.

    \b
    Examples:
      romme tournament payout
      romme tournament payout Cup --json
    """
    from romme_score.views import tournament as views

    with opened(db) as service:
        result = service.payout(name)
    if out.json:
        out.dump(views.payout_json(result))
    else:
        out.echo(views.render_payout(result, out.ascii))


@tournament.command()
@click.argument("name", required=False, shell_complete=complete_with("tournaments"))
@click.option("--series", type=int, metavar="K", help="The tables of series K (default: the last drawn).")
@click.option(
    "--links",
    is_flag=True,
    help="Print on each table's sheet the QR codes of its scorekeeper's and seats' links "
    "(kept with its session, as romme serve --tournament serves them).",
)
@click.option(
    "--url-base",
    metavar="URL",
    help="With --links: the address the links name, e.g. http://192.168.1.20:8765 "
    "(default: the one romme serve printed last).",
)
@click.option(
    "-o",
    "--output",
    type=FilePath(dir_okay=False, path_type=Path),
    help="Write the page to this file (default: standard output).",
)
@db_option
def sheets(
    name: str | None,
    series: int | None,
    links: bool,
    url_base: str | None,
    output: Path | None,
    db: str | None,
) -> None:
    """Printable sheets: one A4 page per table of a series (start numbers, names,
    seats, who deals, a row per game with its marks, totals, signatures; with
    --links the QR codes of the table's phones) and the ranking for the wall, as
    one HTML page.

    \b
    Examples:
      romme tournament sheets -o series1.html
      romme tournament sheets Cup --series 2 -o series2.html
      romme tournament sheets --links --url-base http://10.0.0.5:8765 -o s.html
    """
    from datetime import date

    from romme_score import __version__
    from romme_score.cli.files import write_output
    from romme_score.views import tournament_sheets
    from romme_score.views.local import day_text

    if url_base is not None and not links:
        fail_input(_("--url-base needs --links"))
    base = _url_base(url_base) if url_base is not None else None
    printed = None
    with opened(db) as service:
        data = service.sheets(name, series)
        if links:
            printed = _printed_links(service, data, base)
    page = tournament_sheets.render_sheets(data, __version__, day_text(date.today()), printed)
    if output is None:
        click.echo(page, nl=False)
        return
    write_output(output, [page])
    click.echo(tournament_sheets.written(data, str(output)))
