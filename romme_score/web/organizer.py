"""What the organiser sees of the night (``romme serve --all``; issue 36 item 3): every
game, tournament and league served, with their links, in the shape of ``state.json``:

``{"games": [{"name", "board", "scorekeeper", "seats": {"NAME": URL}, "finished",
"tournament", "series", "table"}], "tournaments": [{"name", "board", "series_drawn",
"series_finished"}], "leagues": [{"name", "board"}]}``

``games`` lists every game not finished and every game started or finished today (the
local date); ``tournaments`` and ``leagues`` list all.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from romme_score.sessions import SessionService
from romme_score.web.context import LeagueConfig, ServeConfig, TournamentConfig

Served = ServeConfig | TournamentConfig | LeagueConfig


def _day(stamp: str) -> date | None:
    from romme_score.league.service import local_day

    try:
        return local_day(stamp)
    except ValueError:
        return None


def game_entry(
    service: SessionService, config: ServeConfig, table: tuple[str, int, int] | None
) -> dict[str, Any]:
    """One game's entry of ``games`` (``table``: its tournament, series and table number)."""
    info = service.session_by_id(config.session_id)
    return {
        "name": info.name,
        **config.links.summary(),
        "finished": service.state(info).finished,
        "tournament": table[0] if table else None,
        "series": table[1] if table else None,
        "table": table[2] if table else None,
    }


def tonight(service: SessionService, config: ServeConfig, today: date) -> bool:
    """Whether a game belongs to tonight: not finished, or started or last played today."""
    info = service.session_by_id(config.session_id)
    if not service.state(info).finished or _day(info.created_at) == today:
        return True
    return any(_day(s) == today for s in service.last_played(info))


def tournament_entry(service: SessionService, config: TournamentConfig) -> dict[str, Any]:
    from romme_score.tournament import TournamentService

    tournaments = TournamentService(service)
    standings = tournaments.standings(config.tournament)
    return {
        "name": config.tournament,
        "board": config.board.url(config.board.links[0]),
        "series_drawn": standings.series_drawn,
        "series_finished": len(standings.finished),
    }


def league_entry(config: LeagueConfig) -> dict[str, Any]:
    return {"name": config.league, "board": config.board.url(config.board.links[0])}


def tables_of(service: SessionService, configs: Sequence[Served]) -> dict[int, tuple[str, int, int]]:
    """Each tournament table's session id: its tournament, series and table number."""
    from romme_score.tournament import TournamentService

    tournaments = TournamentService(service)
    found: dict[int, tuple[str, int, int]] = {}
    for config in configs:
        if isinstance(config, TournamentConfig):
            info = tournaments.tournament(config.tournament)
            for t in tournaments.tables(info):
                found[t.session_id] = (info.name, t.series, t.table)
    return found


def summary(service: SessionService, configs: Sequence[Served], today: date | None = None) -> dict[str, Any]:
    """The night's games, tournaments and leagues, as ``state.json`` lists them."""
    day = today or date.today()
    tables = tables_of(service, configs)
    games = [
        game_entry(service, c, tables.get(c.session_id))
        for c in configs
        if isinstance(c, ServeConfig) and tonight(service, c, day)
    ]
    return {
        "games": games,
        "tournaments": [tournament_entry(service, c) for c in configs if isinstance(c, TournamentConfig)],
        "leagues": [league_entry(c) for c in configs if isinstance(c, LeagueConfig)],
    }
