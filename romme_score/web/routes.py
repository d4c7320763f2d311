"""Every path of ``romme serve`` in one table (as Datasette keeps its ``_routes``): under
a link's token, each path has its method, the kinds of link that may ask it, the function
that answers and what the answer is (``media``). :func:`romme_score.web.app.create_app`
builds the Starlette application from these tables and nothing else.

A handler is ``(call, given) -> answer``: ``given`` is the query (and the path's own
parameters) of a read, the JSON body of a write (the writes of :mod:`.writes` as they
are); the answer is a dict (sent as JSON), bytes or a text of ``media``, or None for the
one 404. The event stream's handler gives the version to watch.

========================  =======  ===============================================
path                      method   what
========================  =======  ===============================================
(none), ``/``             GET      the page (:mod:`.pages`)
``state.json``            GET      everything the page shows (:mod:`.state`)
``events``                GET      one event per change (:mod:`.events`)
``chart.svg``             GET      the chart of the evening
``qr.svg``                GET      a QR code of this link
``read``, ``check``,      GET      the referee (:mod:`.referee`)
``best``
``hand``, ``out``         POST     a seat's own hand, "I went out" (:mod:`.writes`)
``pending``, ``save``,    POST     the scorekeeper's (:mod:`.writes`)
``discard``, ``undo``
``links.json``,           GET      the scorekeeper's: the links and their QR codes
``qr/board.svg``,
``qr/seat-N.svg``
``manifest.webmanifest``  GET      the web app manifest of the link
``static/NAME``           GET      the scripts, the style sheet, the icon, the
                                   service worker (``sw.js``)
========================  =======  ===============================================

A tournament's board (``romme serve --tournament``) has a table of its own
(:data:`TOURNAMENT_ROUTES`): its page, ``state.json``, ``events``, ``qr.svg`` and the
same static files (:mod:`.board`); so has a league's (``romme serve --league``,
:data:`LEAGUE_ROUTES`, :mod:`.league`), and the organiser's page of ``romme serve --all``
(:data:`ORGANIZER_ROUTES`, :mod:`.organizer`): its page, ``state.json``, ``events`` and
its actions ``games``, ``games/{name}/end``, ``tournaments/{name}/draw``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from romme_score.views import tournament as tournament_views
from romme_score.views import web as web_views
from romme_score.web import board, league, organizer, pages, referee, state, writes
from romme_score.web.context import ORGANIZER, BoardCall, Call, LeagueCall, OrganizerCall

Handler = Callable[..., Any]  # (call, given) -> answer; tagged: (call, given, If-None-Match)

JSON = "application/json"
HTML = "text/html; charset=utf-8"
SVG = "image/svg+xml"
EVENTS = "text/event-stream"
SESSION_KINDS = ("board", "scorekeeper", "seat")
STATIC_CACHE = {"cache-control": "private, max-age=600"}
MANIFEST = "application/manifest+json"
# The service worker is served under the link's static files; its scope is the link's
# page and everything under it (the page registers it so), never another link's.
WORKER_HEADERS = {"cache-control": "no-cache", "service-worker-allowed": "/"}


@dataclass(frozen=True)
class Route:
    """One path under a token."""

    method: str  # GET or POST; any other is answered 405, naming this one
    kinds: tuple[str, ...]  # the kinds of link that may ask it (another: 403)
    handler: Handler
    media: str
    in_thread: bool = True  # database or CPU work: off the event loop
    headers: Mapping[str, str] | None = None
    tagged: bool = False  # (call, given, If-None-Match) -> web.cache.Tagged: an ETag, 304 when seen
    held: Handler | None = None  # tagged: the answer as built already, in the event loop (or None)


def _page(call: Call, given: Mapping[str, Any]) -> str:
    return pages.page(call, call.info().name, given.get("lang"))


def _session_version(call: Call, given: Mapping[str, Any]) -> int:
    return call.service.version(call.info())


def _static(name: str) -> Route:
    def read(call: Any, given: Mapping[str, Any]) -> bytes:
        return pages.static_file(name)

    headers = WORKER_HEADERS if name == "sw.js" else STATIC_CACHE
    return Route(
        "GET",
        (*SESSION_KINDS, board.KIND, league.KIND, ORGANIZER),
        read,
        pages.STATIC_TYPES[name],
        False,
        headers,
    )


def _manifest(call: Call, given: Mapping[str, Any]) -> bytes:
    link = call.link
    title = web_views.page_title(link.kind, call.info().name, link.player)
    return pages.manifest("/" + link.token, title, call.language)


def _board_manifest(call: BoardCall, given: Mapping[str, Any]) -> bytes:
    title = tournament_views.board_title(call.config.tournament)
    return pages.manifest("/" + call.link.token, title, call.language)


STATIC: dict[str, Route] = {f"static/{name}": _static(name) for name in pages.STATIC_TYPES}

ROUTES: dict[str, Route] = {
    "": Route("GET", SESSION_KINDS, _page, HTML),
    "state.json": Route("GET", SESSION_KINDS, state.read_state, JSON, tagged=True, held=state.cached_state),
    "events": Route("GET", SESSION_KINDS, _session_version, EVENTS),
    "chart.svg": Route(
        "GET",
        SESSION_KINDS,
        lambda call, given, seen: pages.chart(call, seen),
        SVG,
        tagged=True,
        held=lambda call, given, seen: pages.cached_chart(call, seen),
    ),
    "qr.svg": Route("GET", SESSION_KINDS, lambda call, given: pages.qr_of(call, None), SVG),
    "manifest.webmanifest": Route("GET", SESSION_KINDS, _manifest, MANIFEST),
    **{path: Route("GET", SESSION_KINDS, read, JSON) for path, read in referee.READS.items()},
    "links.json": Route("GET", ("scorekeeper",), lambda call, given: pages.links_json(call), JSON),
    "qr/{which}.svg": Route(
        "GET", ("scorekeeper",), lambda call, given: pages.qr_of(call, given["which"]), SVG
    ),
    # the writes, with the kinds of link that may write each (web/writes.py)
    **{path: Route("POST", kinds, write, JSON) for path, (kinds, write) in writes.WRITES.items()},
    **STATIC,
}


def _board_page(call: BoardCall, given: Mapping[str, Any]) -> str:
    return board.page(call, given.get("lang"))


TOURNAMENT = (board.KIND,)
TOURNAMENT_ROUTES: dict[str, Route] = {
    "": Route("GET", TOURNAMENT, _board_page, HTML),
    "state.json": Route("GET", TOURNAMENT, lambda call, given: board.read_state(call), JSON),
    "events": Route("GET", TOURNAMENT, lambda call, given: board.version(call), EVENTS),
    "qr.svg": Route("GET", TOURNAMENT, lambda call, given: board.qr(call), SVG),
    "manifest.webmanifest": Route("GET", TOURNAMENT, _board_manifest, MANIFEST),
    **STATIC,
}


def _league_page(call: LeagueCall, given: Mapping[str, Any]) -> str:
    return league.page(call, given.get("lang"))


LEAGUE = (league.KIND,)
LEAGUE_ROUTES: dict[str, Route] = {
    "": Route("GET", LEAGUE, _league_page, HTML),
    "state.json": Route("GET", LEAGUE, lambda call, given: league.read_state(call), JSON),
    "events": Route("GET", LEAGUE, lambda call, given: league.version(call), EVENTS),
    "qr.svg": Route("GET", LEAGUE, lambda call, given: league.qr(call), SVG),
    **STATIC,
}


def _organizer_page(call: OrganizerCall, given: Mapping[str, Any]) -> str:
    return organizer.page(call, given.get("lang"))


# The organiser's page of ``romme serve --all`` (issue 36 item 3): what the night holds,
# and its actions; a write's handler is (call, body, path parameters) -> (status, answer).
ORGANIZE = (ORGANIZER,)
ORGANIZER_ROUTES: dict[str, Route] = {
    "": Route("GET", ORGANIZE, _organizer_page, HTML),
    "state.json": Route("GET", ORGANIZE, lambda call, given: organizer.read_state(call), JSON),
    "events": Route("GET", ORGANIZE, lambda call, given: organizer.version(call), EVENTS),
    "games": Route("POST", ORGANIZE, organizer.start_game, JSON),
    "games/{name}/end": Route("POST", ORGANIZE, organizer.end, JSON),
    "tournaments/{name}/draw": Route("POST", ORGANIZE, organizer.draw, JSON),
    **STATIC,
}


def pattern(path: str) -> str:
    """The Starlette path of a path of the tables: a name in it (``games/{name}/end``)
    takes any text a name on the command line takes, "/" too (``Tisch 1/2`` sent as
    ``Tisch%201%2F2``, which arrives decoded); the rest of the path says where it ends."""
    return path.replace("{name}", "{name:path}")


def paths() -> list[str]:
    """Every path of the tables once, for the Starlette routes (the page's also as ``/``)."""
    return sorted({*ROUTES, *TOURNAMENT_ROUTES, *LEAGUE_ROUTES, *ORGANIZER_ROUTES})
