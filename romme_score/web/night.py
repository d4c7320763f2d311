"""What a server that follows the night serves (``romme serve --all``, ``romme serve
--tournament``; issue 36 items 1 and 2): read from the database as it is now, and read
again whenever it changes.

``--all`` serves every session (each with its own links, made where it has none yet),
every tournament's board from its first draw on, and every league's board; ``--tournament``
the tournament's board and the tables of every series drawn (a table of an earlier series
keeps its links: its final state, its writes refused as a finished game's). What the
database holds is looked at twice a second (:meth:`Store.catalog_mark`, one query); a
game started, a series drawn, a league created elsewhere is served at the next look.

A tournament's board link belongs to the tournament: its token is derived from the
scorekeeper token of table 1 of series 1 (:func:`~romme_score.web.board.board_token`),
so the same URL shows every series and the final ranking.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from romme_score.sessions import SessionInfo, SessionService
from romme_score.store.records import DrawnTable, Link
from romme_score.web.context import (
    ORGANIZER,
    LeagueConfig,
    NightConfig,
    OrganizerConfig,
    ServeConfig,
    TournamentConfig,
)
from romme_score.web.links import LinkSet, make_token

Served = ServeConfig | TournamentConfig | LeagueConfig


def mark(service: SessionService) -> tuple[object, ...]:
    """What changes when something to serve comes, goes or gets new links."""
    return service.catalog_mark()


def organizer(
    service: SessionService,
    night: NightConfig,
    renew: bool = False,
    tournaments: Mapping[str, int] | None = None,
) -> OrganizerConfig:
    """The organiser's page; ``tournaments``: every tournament's name and how many series
    it has, listed by its page also before its first draw (read with the rest of the
    night, no query of its own)."""
    token = service.organizer_token(make_token, renew=renew)
    every = tournaments or {}
    links = LinkSet(night.base, (Link(ORGANIZER, None, token),))
    return OrganizerConfig(night, links, tuple(every), tuple(every.values()))


def session(service: SessionService, night: NightConfig, session_id: int) -> ServeConfig:
    """One session as the night serves it (its links made where it has none)."""
    return _session(service, night, session_id, False)


def tournament(service: SessionService, night: NightConfig, name: str) -> TournamentConfig | None:
    """One tournament's board as the night serves it (None before its first draw)."""
    return _tournament(service, night, name, {}, False)


def _session(service: SessionService, night: NightConfig, session_id: int, renew: bool) -> ServeConfig:
    info = service.session_by_id(session_id)
    return _served(night, info, service.links(info, make_token, renew=renew))


def _served(night: NightConfig, info: SessionInfo, links: Sequence[Link]) -> ServeConfig:
    return ServeConfig(
        night.db,
        info.id,
        LinkSet(night.base, tuple(links)),
        night.language,
        night.notation,
        night.limits,
        night.served_on,
        night.allow_hosts,
    )


def _sessions(
    service: SessionService, night: NightConfig, renew: bool, only: Collection[int] | None = None
) -> dict[int, ServeConfig]:
    """Every session (or those of ``only``) as the night serves it, by id: read at once
    (a few queries however many there are), the links made only where missing."""
    infos = [i for i in service.every_session() if only is None or i.id in only]
    links = service.every_links(infos, make_token, renew=renew)
    return {info.id: _served(night, info, links[info.id]) for info in infos}


def _tournament(
    service: SessionService, night: NightConfig, name: str, tables: dict[int, ServeConfig], renew: bool
) -> TournamentConfig | None:
    """The tournament's board (None before its first draw), every table's session put in
    ``tables`` by its id."""
    from romme_score.tournament import TournamentService

    tournaments = TournamentService(service)
    info = tournaments.tournament(name)
    every = [
        DrawnTable(info.name, info.series_drawn, t.series, t.table, t.session_id)
        for t in tournaments.tables(info)
    ]
    missing = {t.session_id for t in every} - set(tables)
    made = _sessions(service, night, renew, missing) if missing else {}
    for t in every:  # by series and table
        if t.session_id in made:
            tables[t.session_id] = made[t.session_id]
    return _board(night, every, tables)


def _board(
    night: NightConfig, every: Sequence[DrawnTable], tables: Mapping[int, ServeConfig]
) -> TournamentConfig | None:
    """A tournament's board over its tables ``every`` (by series and table), None before
    its first draw."""
    from romme_score.web.board import KIND, board_token

    if not every:
        return None
    first = min(every, key=lambda t: (t.series, t.table))
    keeper = tables[first.session_id].links.of_kind("scorekeeper")[0]
    board = LinkSet(night.base, (Link(KIND, None, board_token(keeper.token)),))
    return TournamentConfig(
        night.db,
        first.tournament,
        first.series_drawn,
        board,
        (),
        (),
        tuple(t.session_id for t in every),
        night.language,
        night.limits,
        night.served_on,
        night.allow_hosts,
    )


def _league(service: SessionService, night: NightConfig, name: str) -> LeagueConfig:
    from romme_score.league.service import LeagueService
    from romme_score.web.league import KIND

    info = LeagueService(service).league(name)
    board = LinkSet(night.base, (Link(KIND, None, info.token),))
    return LeagueConfig(
        night.db, info.name, board, night.language, night.limits, night.served_on, night.allow_hosts
    )


def read(service: SessionService, night: NightConfig, renew: bool = False) -> list[Served | OrganizerConfig]:
    """Everything the night serves now: the sessions (tables included), then the
    tournaments' boards, then the leagues', then (``--all``) the organiser's page. What
    every session holds is read at once: the same few queries for three games as for a
    championship's hundreds of tables."""
    tables: dict[int, ServeConfig] = {}
    boards: list[Served] = []
    if night.tournament is not None:
        found = _tournament(service, night, night.tournament, tables, renew)
        boards += [found] if found is not None else []
        return [*tables.values(), *boards]
    from romme_score.league.service import LeagueService
    from romme_score.tournament import TournamentService

    # every tournament with how many series it has (the organiser's page offers a draw while
    # one is left), and every league: one read each
    series = TournamentService(service).every_series()
    tournament_names, league_names = list(series), LeagueService(service).names()
    tables = _sessions(service, night, renew)
    drawn: dict[str, list[DrawnTable]] = {}
    for table in service.every_table():
        drawn.setdefault(table.tournament, []).append(table)
    for name in tournament_names:
        found = _board(night, [t for t in drawn.get(name, ()) if t.session_id in tables], tables)
        boards += [found] if found is not None else []
    boards += [_league(service, night, name) for name in league_names]
    page = organizer(service, night, renew, series)
    return [*sorted(tables.values(), key=lambda c: c.session_id), *boards, page]


def key(config: Served | OrganizerConfig) -> tuple[str, object]:
    """Which site a config is, across two reads (its links may differ)."""
    if isinstance(config, ServeConfig):
        return ("session", config.session_id)
    if isinstance(config, TournamentConfig):
        return ("tournament", config.tournament)
    if isinstance(config, OrganizerConfig):
        return (ORGANIZER, 0)
    return ("league", config.league)
