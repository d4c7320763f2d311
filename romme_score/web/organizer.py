"""What the organiser sees of the night (``romme serve --all``; issue 36 item 3): every
game, tournament and league served, with their links, in the shape of ``state.json``:

``{"games": [{"name", "board", "scorekeeper", "seats": {"NAME": URL}, "finished",
"tournament", "series", "table"}], "tournaments": [{"name", "board", "series_drawn",
"series_finished", "series"}], "leagues": [{"name", "board"}]}`` (a tournament's
``series``: how many it has, so that the page offers its draw only while one is left)

``games`` lists every game not finished and every game started or finished today (the
local date); ``tournaments`` and ``leagues`` list all (a tournament before its first draw
with ``"board": null``: its board's link is derived from table 1 of series 1).

Its actions go through the services the command line uses, answer with the same error
``code``s and write nothing on a refusal: ``POST games`` starts a game as ``romme new``
does (leaving the current game alone), ``POST tournaments/{name}/draw`` draws the next
series as ``romme tournament draw`` does, ``POST games/{name}/end`` ends a game by
agreement as ``romme end`` does. Only the organiser's link has these routes; ``{name}``
takes any name ("/" too, percent-encoded), one not there the JSON ``not-found``.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from datetime import date
from decimal import Decimal
from typing import Any

from romme_score.sessions import SessionInfo, SessionService
from romme_score.web import night, pages
from romme_score.web.context import (
    ORGANIZER,
    LeagueConfig,
    OrganizerCall,
    OrganizerConfig,
    ServeConfig,
    TournamentConfig,
)
from romme_score.web.errors import bad_field

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
    return _entry(info.name, config, service.state(info).finished, table)


def _entry(
    name: str, config: ServeConfig, finished: bool, table: tuple[str, int, int] | None
) -> dict[str, Any]:
    return {
        "name": name,
        **config.links.summary(),
        "finished": finished,
        "tournament": table[0] if table else None,
        "series": table[1] if table else None,
        "table": table[2] if table else None,
    }


def tonight(info: SessionInfo, finished: bool, last_played: Sequence[str], today: date) -> bool:
    """Whether a game belongs to tonight: not finished, or started or last played today
    (``last_played``: :meth:`SessionService.last_played`)."""
    if not finished or _day(info.created_at) == today:
        return True
    return any(_day(s) == today for s in last_played)


def tournament_entry(service: SessionService, config: TournamentConfig) -> dict[str, Any]:
    from romme_score.tournament import TournamentService

    tournaments = TournamentService(service)
    standings = tournaments.standings(config.tournament)
    return {
        "name": config.tournament,
        "board": config.board.url(config.board.links[0]),
        "series_drawn": standings.series_drawn,
        "series_finished": len(standings.finished),
        "series": standings.options.series,
    }


def undrawn_entry(name: str, series: int) -> dict[str, Any]:
    """A tournament's entry before its first draw: listed (``tournaments`` lists all), its
    board not yet there (its link is derived from table 1 of series 1); ``series``: how
    many it has."""
    return {"name": name, "board": None, "series_drawn": 0, "series_finished": 0, "series": series}


def league_entry(config: LeagueConfig) -> dict[str, Any]:
    return {"name": config.league, "board": config.board.url(config.board.links[0])}


def tables_of(service: SessionService, configs: Sequence[Served]) -> dict[int, tuple[str, int, int]]:
    """Each tournament table's session id: its tournament, series and table number (of
    the tournaments among ``configs``), in one read."""
    served = {c.tournament for c in configs if isinstance(c, TournamentConfig)}
    return {
        t.session_id: (t.tournament, t.series, t.table)
        for t in service.every_table()
        if t.tournament in served
    }


def summary(
    service: SessionService, configs: Sequence[Served | OrganizerConfig], today: date | None = None
) -> dict[str, Any]:
    """The night's games, tournaments and leagues, as ``state.json`` lists them. What the
    games need (their names, whether finished, when last played, their tables) is read
    for all of them at once: a few queries for three games as for a championship's
    hundreds (issue 36 items 3 and 7); whether a game is finished the service decides
    (:meth:`SessionService.every_state`), as for one. A tournament not drawn yet is
    listed too (the organiser's config names them all), its ``board`` null."""
    day = today or date.today()
    served: list[Served] = [c for c in configs if not isinstance(c, OrganizerConfig)]
    tables = tables_of(service, served)
    infos = {info.id: info for info in service.every_session()}
    shown = [c for c in served if isinstance(c, ServeConfig) and c.session_id in infos]  # not deleted since
    states = service.every_state([infos[c.session_id] for c in shown])
    played = service.every_last_played()
    games = []
    for c in shown:
        info, finished = infos[c.session_id], states[c.session_id].finished
        if tonight(info, finished, played.get(c.session_id, ()), day):
            games.append(_entry(info.name, c, finished, tables.get(c.session_id)))
    boards = {c.tournament: c for c in served if isinstance(c, TournamentConfig)}
    page = next((c for c in configs if isinstance(c, OrganizerConfig)), None)
    names = page.tournaments if page is not None else tuple(boards)
    sizes = dict(zip(page.tournaments, page.series, strict=True)) if page is not None else {}
    tournaments = [
        tournament_entry(service, boards[n]) if n in boards else undrawn_entry(n, sizes[n]) for n in names
    ]
    return {
        "games": games,
        "tournaments": tournaments,
        "leagues": [league_entry(c) for c in served if isinstance(c, LeagueConfig)],
    }


# -- the organiser's link -----------------------------------------------------------------


class _Counter:
    """The page's version: counts up whenever what the database holds moved (only up, in
    this process, whatever was deleted)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.seen: object = None
        self.version = 0

    def __call__(self, service: SessionService) -> int:
        now = (service.catalog_mark(), service.catalog_versions())
        with self.lock:
            if now != self.seen:
                self.seen = now
                self.version += 1
            return self.version


_COUNTERS: dict[str, _Counter] = {}
_COUNTERS_LOCK = threading.Lock()


def _counter(db: str) -> _Counter:
    with _COUNTERS_LOCK:
        return _COUNTERS.setdefault(db, _Counter())


def versions(db: str) -> Any:
    """How the organiser's watcher looks (:func:`romme_score.web.events.sum_version`)."""

    def prepare(service: SessionService) -> Any:
        counter = _counter(db)
        return lambda: counter(service)

    return prepare


def version(call: OrganizerCall) -> int:
    return _counter(call.config.db)(call.service)


def read_state(call: OrganizerCall) -> dict[str, Any]:
    """``GET {organizer}/state.json``: ``{"version", "games", "tournaments", "leagues"}``."""
    service = call.service
    now = version(call)
    return {"version": now, **summary(service, night.read(service, call.config.night))}


def page(call: OrganizerCall, lang_param: str | None) -> str:
    from romme_score.views import web as views

    return pages.board_page(
        "organizer.html",
        ORGANIZER,
        call.link.token,
        views.organizer_title(),
        views.organizer_title(),
        views.organizer_texts(),
        call.config.links.url(call.link),
        lang_param,
    )


def _text(body: Mapping[str, Any], field: str, required: bool = True) -> str | None:
    value = body.get(field)
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise bad_field(field, "text")
    return value


def start_game(call: OrganizerCall, body: Mapping[str, Any], params: Mapping[str, str]) -> tuple[int, Any]:
    """``POST {organizer}/games``: a game started as ``romme new`` starts it; 201 with its
    entry of ``games``. The current game stays the current one."""
    from romme_score.inputs import clean_currency, parse_rate
    from romme_score.rules import GameEnd, build_rules

    name = _text(body, "name")
    players = body.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise bad_field("players", "players")
    preset = _text(body, "preset", required=False)
    rules_given = body.get("rules", {})
    if not isinstance(rules_given, dict) or not all(isinstance(v, (str, int)) for v in rules_given.values()):
        raise bad_field("rules", "object")
    rate_given = body.get("rate")
    if rate_given is not None and (
        isinstance(rate_given, bool) or not isinstance(rate_given, (str, int, float))
    ):
        raise bad_field("rate", "text-or-number")
    currency = _text(body, "currency", required=False)
    until = body.get("until")
    if until is not None and (isinstance(until, bool) or not isinstance(until, (str, int))):
        raise bad_field("until", "text-or-number")
    words = {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in rules_given.items()}
    rules = build_rules(preset, tuple(f"{k}={v}" for k, v in words.items()))  # as --rule KEY=VALUE
    if until is not None:
        rules = rules.replace(game_end=GameEnd.parse(str(until)))
    rate: Decimal | None = None
    if rate_given is not None:
        rate = parse_rate(str(rate_given), "rate")
    if currency is not None:
        currency = clean_currency(currency, "currency")
    service = call.service
    assert name is not None
    info = service.create(name, players, rules, rate, currency, current=False)
    config = night.session(service, call.config.night, info.id)
    return 201, game_entry(service, config, None)


def draw(call: OrganizerCall, body: Mapping[str, Any], params: Mapping[str, str]) -> tuple[int, Any]:
    """``POST {organizer}/tournaments/{name}/draw``: the next series, as ``romme tournament
    draw`` draws it; 200 with the tournament's entry, and the tables a forced draw went
    past (``missing``) with the command line's sentence about them (``message``)."""
    from romme_score.tournament import TournamentService
    from romme_score.views import web as views

    force = body.get("force", False)
    if not isinstance(force, bool):
        raise bad_field("force", "bool")
    service = call.service
    drawn = TournamentService(service).draw(params["name"], force=force)
    config = night.tournament(service, call.config.night, drawn.tournament)
    assert config is not None  # drawn: it has tables
    return 200, {**tournament_entry(service, config), **views.drawn_json(drawn)}


def end(call: OrganizerCall, body: Mapping[str, Any], params: Mapping[str, str]) -> tuple[int, Any]:
    """``POST {organizer}/games/{name}/end``: the game ended by agreement, as ``romme end``
    ends it; 200 with its entry."""
    service = call.service
    ended = service.end(params["name"])
    info = service.session(ended.session)
    config = night.session(service, call.config.night, info.id)
    return 200, game_entry(service, config, None)
