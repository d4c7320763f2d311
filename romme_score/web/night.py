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

from romme_score.sessions import SessionService
from romme_score.store.records import Link
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


def organizer(service: SessionService, night: NightConfig, renew: bool = False) -> OrganizerConfig:
    token = service.organizer_token(make_token, renew=renew)
    return OrganizerConfig(night, LinkSet(night.base, (Link(ORGANIZER, None, token),)))


def session(service: SessionService, night: NightConfig, session_id: int) -> ServeConfig:
    """One session as the night serves it (its links made where it has none)."""
    return _session(service, night, session_id, False)


def tournament(service: SessionService, night: NightConfig, name: str) -> TournamentConfig | None:
    """One tournament's board as the night serves it (None before its first draw)."""
    return _tournament(service, night, name, {}, False)


def _session(service: SessionService, night: NightConfig, session_id: int, renew: bool) -> ServeConfig:
    info = service.session_by_id(session_id)
    links = service.links(info, make_token, renew=renew)
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


def _tournament(
    service: SessionService, night: NightConfig, name: str, tables: dict[int, ServeConfig], renew: bool
) -> TournamentConfig | None:
    """The tournament's board (None before its first draw), every table's session put in
    ``tables`` by its id."""
    from romme_score.tournament import TournamentService
    from romme_score.web.board import KIND, board_token

    tournaments = TournamentService(service)
    info = tournaments.tournament(name)
    every = tournaments.tables(info)
    if not every:
        return None
    for t in every:
        if t.session_id not in tables:
            tables[t.session_id] = _session(service, night, t.session_id, renew)
    first = min(every, key=lambda t: (t.series, t.table))
    keeper = tables[first.session_id].links.of_kind("scorekeeper")[0]
    board = LinkSet(night.base, (Link(KIND, None, board_token(keeper.token)),))
    return TournamentConfig(
        night.db,
        info.name,
        info.series_drawn,
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
    tournaments' boards, then the leagues', then (``--all``) the organiser's page."""
    tables: dict[int, ServeConfig] = {}
    boards: list[Served] = []
    if night.tournament is not None:
        found = _tournament(service, night, night.tournament, tables, renew)
        boards += [found] if found is not None else []
        return [*tables.values(), *boards]
    session_names, tournament_names, league_names = service.names()
    sessions = [service.session(name) for name in session_names]
    for name in tournament_names:
        found = _tournament(service, night, name, tables, renew)
        boards += [found] if found is not None else []
    for info in sessions:
        if info.id not in tables:
            tables[info.id] = _session(service, night, info.id, renew)
    boards += [_league(service, night, name) for name in league_names]
    return [*sorted(tables.values(), key=lambda c: c.session_id), *boards, organizer(service, night, renew)]


def key(config: Served | OrganizerConfig) -> tuple[str, object]:
    """Which site a config is, across two reads (its links may differ)."""
    if isinstance(config, ServeConfig):
        return ("session", config.session_id)
    if isinstance(config, TournamentConfig):
        return ("tournament", config.tournament)
    if isinstance(config, OrganizerConfig):
        return (ORGANIZER, 0)
    return ("league", config.league)
