"""``romme serve``: the session on every phone at the table, over the local network,
offline (issue 19). Starts :mod:`romme_score.web`, which only this command imports."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, cast

import click

from romme_score import i18n
from romme_score.cards import Profile
from romme_score.cli.options import Refused, complete_with, db_option, fail_input
from romme_score.errors import MissingExtra
from romme_score.i18n import _, os_reason
from romme_score.inputs import read_host

# The session service (SQLite, the store) and the web stack are imported when the
# server starts, not by ``romme serve --help`` (issue 28 item 3).
if TYPE_CHECKING:
    import socket


@click.command()
@click.argument("session", required=False, shell_complete=complete_with("sessions"))
@click.option(
    "--host",
    metavar="ADDRESS",
    default="0.0.0.0",
    show_default=True,
    help="Address to serve on: all interfaces, so that phones on the Wi-Fi reach it; "
    "127.0.0.1 keeps it to this machine.",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8765,
    show_default=True,
    help="Port to serve on (0 takes a free one).",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the links as one JSON line first (for scripts), no QR codes.",
)
@click.option("--new-links", is_flag=True, help="Revoke every link of the session and make new ones.")
@click.option(
    "--tournament",
    metavar="NAME",
    shell_complete=complete_with("tournaments"),
    help="Serve a tournament: a board with the ranking across all tables (for a projector), "
    "and each table of the drawn series with its own scorekeeper and seat links.",
)
@click.option(
    "--league",
    metavar="NAME",
    shell_complete=complete_with("leagues"),
    help="Serve a league: a read-only board of the season's standings (for a projector or "
    "a phone), live as its events are recorded.",
)
@click.option(
    "--all",
    "everything",
    is_flag=True,
    help="Serve every game, tournament and league in the database from one process, and "
    "each one started, drawn or created meanwhile.",
)
@click.option(
    "--qr",
    type=click.Choice(["board", "all"]),
    default="board",
    show_default=True,
    help="With --tournament: board prints the board's QR code and one line per table with its "
    "scorekeeper link (romme tournament sheets --links prints the rest); all prints every link's code.",
)
@click.option(
    "--notation",
    type=click.Choice(["de", "en"]),
    default="de",
    show_default=True,
    envvar="ROMME_NOTATION",
    help="How the phones read and show cards: de (HK, K10, J joker) or en (KH, 10D, JK joker).",
)
@click.option(
    "--allow-host",
    "allow_hosts",
    metavar="NAME",
    multiple=True,
    help="A host name the phones may reach this server by besides its printed address and "
    "the machine's names, such as an HTTPS proxy's (repeatable); requests naming any "
    "other host are refused.",
)
@db_option
def serve(
    session: str | None,
    host: str,
    port: int,
    as_json: bool,
    new_links: bool,
    tournament: str | None,
    league: str | None,
    everything: bool,
    qr: str,
    notation: str,
    allow_hosts: tuple[str, ...],
    db: str | None,
) -> None:
    """Serve a session (default: the current one) to the phones at the table.

    Prints a board link (read only), a scorekeeper link and one link per seat,
    each with a QR code. The links are kept with the session: a restarted
    server keeps every phone connected; --new-links revokes them all. Plain HTTP
    on the local network, offline: anyone who sees a link can use it. Runs until
    Ctrl-C.

    \b
    Examples:
      romme serve
      romme serve Friday --port 8080
      romme serve --host 127.0.0.1 --port 0 --json
      romme serve --tournament Cup
      romme serve --league Club
      romme serve --allow-host romme.club.example
      romme serve --tournament Cup --qr all
      romme serve --all
    """
    for name in allow_hosts:
        if read_host(name) is None and not _is_address(name):
            fail_input(_("--allow-host: '%(name)s' is no host name like romme.club.example") % {"name": name})
    try:
        from romme_score.web.links import LinkSet, link_host, make_token, qr_terminal
        from romme_score.web.server import Signals, bind
        from romme_score.web.server import serve as run_server
    except ImportError as exc:
        raise MissingExtra(_("romme serve needs the extra 'serve'"), "serve", exc.name) from None
    from romme_score.views import web as views
    from romme_score.web.context import ServeConfig

    if everything:
        if session is not None or tournament is not None or league is not None:
            fail_input(_("--all serves everything: give no session, --tournament or --league with it"))
        _serve_all(host, port, as_json, new_links, cast(Profile, notation), db, allow_hosts)
        return
    if league is not None:
        if session is not None or tournament is not None:
            fail_input(_("give a session, --tournament or --league, not two of them"))
        _serve_league(league, host, port, as_json, allow_hosts, db, new_links)
        return
    if tournament is not None:
        if session is not None:
            fail_input(_("give a session or --tournament, not both"))
        _serve_tournament(
            tournament, host, port, as_json, new_links, cast(Profile, notation), db, allow_hosts, qr
        )
        return
    from romme_score.cli.service import open_service

    with open_service(db, create=False) as service:
        info = service.session(session)
        links = service.links(info, make_token, renew=new_links)
        location = service.location
    try:
        sock = bind(host, port)
    except OSError as exc:
        raise Refused(
            _("cannot serve on %(host)s port %(port)d: %(reason)s")
            % {"host": host, "port": port, "reason": os_reason(exc)}
        ) from None
    served = LinkSet(f"http://{link_host(host)}:{sock.getsockname()[1]}", tuple(links))
    _remember(db, served.base)
    config = ServeConfig(
        location,
        info.id,
        served,
        i18n.language(),
        cast(Profile, notation),
        served_on=host,
        allow_hosts=allow_hosts,
    )
    with Signals() as signals:  # from here on Ctrl-C and SIGTERM end it cleanly
        if as_json:
            click.echo(json.dumps(served.summary(), ensure_ascii=False))
        else:
            for link in links:
                click.echo(views.link_heading(link.kind, link.player))
                click.echo(f"  {served.url(link)}")
                click.echo(qr_terminal(served.url(link)))
            click.echo(views.security_note())
        sys.stdout.flush()  # at once, also into a pipe: a script waits for these lines
        click.echo(views.serving_lines(info.name, host, sock.getsockname()[1]), err=True)
        run_server(config, sock, signals)
    click.echo(views.stopped(), err=True)


def _bound(host: str, port: int) -> socket.socket:
    from romme_score.web.server import bind

    try:
        return bind(host, port)
    except OSError as exc:
        raise Refused(
            _("cannot serve on %(host)s port %(port)d: %(reason)s")
            % {"host": host, "port": port, "reason": os_reason(exc)}
        ) from None


def _base(host: str, sock: socket.socket) -> str:
    from romme_score.web.links import link_host

    return f"http://{link_host(host)}:{sock.getsockname()[1]}"


def _serve_all(
    host: str,
    port: int,
    as_json: bool,
    new_links: bool,
    notation: Profile,
    db: str | None,
    allow_hosts: tuple[str, ...],
) -> None:
    """``romme serve --all``: every game, tournament and league in the database, and each
    one that comes while it runs (issue 36 item 1). Printed: the organiser's link with its
    QR code (issue 36 item 3), the links of tonight's games (one line each, the
    scorekeeper's), the boards of the tournaments and leagues; with ``as_json`` one line
    ``{"organizer", "games", "tournaments", "leagues"}`` as the organiser's
    ``state.json`` has them."""
    from romme_score.cli.service import open_service
    from romme_score.league.service import LeagueService
    from romme_score.views import web as views
    from romme_score.web.context import NightConfig, OrganizerConfig
    from romme_score.web.links import qr_terminal
    from romme_score.web.night import read
    from romme_score.web.organizer import summary
    from romme_score.web.server import Signals
    from romme_score.web.server import serve as run_server

    sock = _bound(host, port)
    base = _base(host, sock)
    _remember(db, base)
    with open_service(db, create=False) as service:
        if new_links:
            leagues = LeagueService(service)
            for name in service.names()[2]:
                leagues.renew_link(leagues.league(name))
        config = NightConfig(
            service.location, base, i18n.language(), notation, served_on=host, allow_hosts=allow_hosts
        )
        served = read(service, config, renew=new_links)
        night = summary(service, served)
    organizer = next(c.links for c in served if isinstance(c, OrganizerConfig))
    organizer_url = organizer.url(organizer.links[0])
    with Signals() as signals:  # from here on Ctrl-C and SIGTERM end it cleanly
        if as_json:
            click.echo(json.dumps({"organizer": organizer_url, **night}, ensure_ascii=False))
        else:
            click.echo(views.organizer_heading())
            click.echo(f"  {organizer_url}")
            click.echo(qr_terminal(organizer_url))
            for game in night["games"]:
                click.echo(views.night_game_line(game["name"], game["scorekeeper"]))
            for board in [*night["tournaments"], *night["leagues"]]:
                if board["board"] is not None:  # a tournament has its board from its first draw
                    click.echo(views.night_board_line(board["name"], board["board"]))
            click.echo(views.security_note())
        sys.stdout.flush()  # at once, also into a pipe: a script waits for these lines
        click.echo(views.serving_all(host, sock.getsockname()[1]), err=True)
        run_server(config, sock, signals)
    click.echo(views.stopped(), err=True)


def _remember(db: str | None, base: str) -> None:
    """Keep the address the links are printed at, for ``romme tournament sheets --links``."""
    from romme_score.cli.service import open_service

    with open_service(db, create=False) as service:
        service.remember_address(base)


def _serve_tournament(
    name: str,
    host: str,
    port: int,
    as_json: bool,
    new_links: bool,
    notation: Profile,
    db: str | None,
    allow_hosts: tuple[str, ...] = (),
    qr: str = "board",
) -> None:
    """``romme serve --tournament NAME``: the board of the tournament, and every table of
    every series drawn with its links (kept with each table's session), each new series'
    tables as they are drawn (issue 36 items 1, 2). Printed: the board's link with its QR
    code, one line per table of the series drawn last with its scorekeeper's link (every
    link with its code with ``qr="all"``)."""
    from romme_score.cli.service import open_service
    from romme_score.tournament import NoSeriesDrawn, TournamentService
    from romme_score.views import tournament as tviews
    from romme_score.views import web as views
    from romme_score.web.context import NightConfig, ServeConfig, TournamentConfig
    from romme_score.web.links import qr_terminal
    from romme_score.web.night import read
    from romme_score.web.server import Signals
    from romme_score.web.server import serve as run_server

    with open_service(db, create=False) as service:
        info = TournamentService(service).tournament(name)
        if info.series_drawn == 0:
            raise NoSeriesDrawn(info.name)
    sock = _bound(host, port)
    base = _base(host, sock)
    _remember(db, base)
    config = NightConfig(
        service.location,
        base,
        i18n.language(),
        notation,
        tournament=info.name,
        served_on=host,
        allow_hosts=allow_hosts,
    )
    with open_service(db, create=False) as service:
        tournaments = TournamentService(service)
        info = tournaments.tournament(name)
        served = read(service, config, renew=new_links)  # every series' tables, and the board
        by_id = {c.session_id: c.links for c in served if isinstance(c, ServeConfig)}
        sets = [(t, by_id[t.session_id]) for t in tournaments.tables(info, info.series_drawn)]
    board = next(c.board for c in served if isinstance(c, TournamentConfig))
    board_url = board.url(board.links[0])
    with Signals() as signals:  # from here on Ctrl-C and SIGTERM end it cleanly
        if as_json:
            summary = {
                "board": board_url,
                "tables": [{"table": t.table, "session": t.session, **ls.summary()} for t, ls in sets],
            }
            click.echo(json.dumps(summary, ensure_ascii=False))
        else:
            click.echo(tviews.board_link_heading())
            click.echo(f"  {board_url}")
            click.echo(qr_terminal(board_url))
            for t, ls in sets:
                if qr != "all":
                    keeper_url = ls.url(ls.of_kind("scorekeeper")[0])
                    click.echo(tviews.table_keeper_line(t.table, t.session, keeper_url))
                    continue
                click.echo(tviews.table_heading(t.table, t.session))
                for link in ls.links:
                    if link.kind == "board":
                        continue
                    click.echo(views.link_heading(link.kind, link.player))
                    click.echo(f"  {ls.url(link)}")
                    click.echo(qr_terminal(ls.url(link)))
            if qr != "all":
                click.echo(tviews.other_links_note(info.name))
            click.echo(views.security_note())
        sys.stdout.flush()  # at once, also into a pipe: a script waits for these lines
        click.echo(
            tviews.serving_tournament(info.name, info.series_drawn, len(sets), host, sock.getsockname()[1]),
            err=True,
        )
        run_server(config, sock, signals)
    click.echo(views.stopped(), err=True)


def _is_address(text: str) -> bool:
    """Whether ``text`` is an IP address as such (an IPv6 one without brackets)."""
    import ipaddress

    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def _serve_league(
    name: str,
    host: str,
    port: int,
    as_json: bool,
    allow_hosts: tuple[str, ...],
    db: str | None,
    new_links: bool = False,
) -> None:
    """``romme serve --league NAME``: the board of the league alone, read only, behind the
    league's own token (kept with it, so that a restarted server keeps its link; a new one
    with ``new_links``, the old link then refused)."""
    from romme_score.cli.service import open_service
    from romme_score.league.service import LeagueService
    from romme_score.store.records import Link
    from romme_score.views import league as lviews
    from romme_score.views import web as views
    from romme_score.web.context import LeagueConfig
    from romme_score.web.league import KIND
    from romme_score.web.links import LinkSet, link_host, qr_terminal
    from romme_score.web.server import Signals
    from romme_score.web.server import serve as run_server

    with open_service(db, create=False) as service:
        leagues = LeagueService(service)
        info = leagues.league(name)
        if new_links:
            info = leagues.renew_link(info)
        location = leagues.location
    sock = _bound(host, port)
    board = LinkSet(f"http://{link_host(host)}:{sock.getsockname()[1]}", (Link(KIND, None, info.token),))
    config = LeagueConfig(
        location, info.name, board, i18n.language(), served_on=host, allow_hosts=allow_hosts
    )
    board_url = board.url(board.links[0])
    with Signals() as signals:  # from here on Ctrl-C and SIGTERM end it cleanly
        if as_json:
            click.echo(json.dumps({"league": info.name, "board": board_url}, ensure_ascii=False))
        else:
            click.echo(lviews.board_link_heading())
            click.echo(f"  {board_url}")
            click.echo(qr_terminal(board_url))
            click.echo(views.security_note())
        sys.stdout.flush()  # at once, also into a pipe: a script waits for these lines
        click.echo(lviews.serving_league(info.name, host, sock.getsockname()[1]), err=True)
        run_server(config, sock, signals)
    click.echo(views.stopped(), err=True)
