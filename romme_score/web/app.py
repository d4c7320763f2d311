"""The ASGI application of ``romme serve``: one session, three kinds of link; or, with
``--tournament``, every table of a series so, and the tournament's board.

Every path starts with a link's token; the token alone says which page it is (board,
scorekeeper, a seat, a tournament's board) and what it may do. What is under it is one
table, :mod:`.routes`; this module builds Starlette from it and answers each request:
the link found, the method and the kind of link checked, the language chosen, the
handler run (in a worker thread), its answer sent. A wrong token, a path that is not
there and a session that is gone get the same 404 (:mod:`.guard`).
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import threading
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from starlette.applications import Starlette
from starlette.datastructures import QueryParams
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route as StarletteRoute

from romme_score.errors import InputProblem, Refusal
from romme_score.i18n import using_language
from romme_score.sessions import SessionService
from romme_score.store import StoreError
from romme_score.store.records import Link
from romme_score.web import board, night, once, organizer, pages
from romme_score.web.cache import Tagged
from romme_score.web.context import (
    BoardCall,
    Call,
    LeagueCall,
    LeagueConfig,
    Limits,
    NightConfig,
    OrganizerCall,
    OrganizerConfig,
    ServeConfig,
    Services,
    TournamentConfig,
    WriteCall,
    in_thread,
    request_language,
)
from romme_score.web.errors import DROPPED, RETRY_AFTER, Answer, answer_of, refusal
from romme_score.web.events import Watcher, after_write, events, start_watchers, sum_version, writing
from romme_score.web.guard import (
    BodyRefused,
    Crowd,
    CrowdGuard,
    HostGuard,
    SecurityHeaders,
    Throttle,
    admitted_hosts,
    cross_site,
    read_json,
)
from romme_score.web.links import LinkSet, token_digest
from romme_score.web.routes import (
    EVENTS,
    HTML,
    LEAGUE_ROUTES,
    ORGANIZER_ROUTES,
    ROUTES,
    STATIC_CACHE,
    TOURNAMENT_ROUTES,
    Route,
    paths,
    pattern,
)

T = TypeVar("T")
log = logging.getLogger("romme_score.web")
METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]  # each answered by the endpoint


def _guarded(work: Callable[[Any], T]) -> Callable[[Any], T]:
    """``work`` with the service's errors as answers (raised, in the request's language);
    where the database went away, the thread's service is dropped, so that the next
    request opens a new connection."""

    def run(call: Any) -> T:
        try:
            return work(call)
        except (InputProblem, Refusal) as exc:
            if exc.code in DROPPED:
                call.services.drop()
            raise answer_of(exc) from None

    return run


@dataclass
class _Site:
    """What one set of links serves: a session (a table), or a tournament's board."""

    config: ServeConfig | TournamentConfig | LeagueConfig | OrganizerConfig
    links: LinkSet
    routes: Mapping[str, Route]
    watcher: Watcher
    started: bool = True  # its watcher started with the server; False: at its first request

    def call(
        self, link: Link, lang: str, services: Services
    ) -> Call | BoardCall | LeagueCall | OrganizerCall:
        if isinstance(self.config, OrganizerConfig):
            return OrganizerCall(link, lang, self.config, services)
        if isinstance(self.config, LeagueConfig):
            return LeagueCall(link, lang, self.config, services)
        if isinstance(self.config, TournamentConfig):
            return BoardCall(link, lang, self.config, services)
        return Call(link, lang, self.config.notation, self.config, services)


def _league_version(league: str) -> Callable[[SessionService], Callable[[], int]]:
    """How a league's board looks for a change: the league's version (its events' too)."""

    def prepare(service: SessionService) -> Callable[[], int]:
        from romme_score.league.service import LeagueService

        leagues = LeagueService(service)
        return lambda: leagues.version(leagues.league(league))

    return prepare


def _sites(
    served: ServeConfig | TournamentConfig | LeagueConfig | OrganizerConfig, limits: Limits
) -> list[_Site]:
    """Every table's site (one session's, or each table of a tournament's series), then
    the tournament's board; or a league's board alone; or the organiser's page alone."""
    if isinstance(served, OrganizerConfig):
        look = sum_version(organizer.versions(served.db))
        return [_Site(served, served.links, ORGANIZER_ROUTES, Watcher(served.db, 0, limits.poll, look))]
    if isinstance(served, LeagueConfig):
        look = sum_version(_league_version(served.league))
        return [_Site(served, served.board, LEAGUE_ROUTES, Watcher(served.db, 0, limits.poll, look))]
    configs = served.tables if isinstance(served, TournamentConfig) else (served,)
    sites = [_Site(c, c.links, ROUTES, Watcher(c.db, c.session_id, limits.poll)) for c in configs]
    if isinstance(served, TournamentConfig):
        ids = served.session_ids
        look = sum_version(lambda service: board.versions(service, served.tournament))
        sites.append(
            _Site(served, served.board, TOURNAMENT_ROUTES, Watcher(served.db, ids[0], limits.poll, look))
        )
    return sites


class _Night:
    """The sites of a server that follows the night (:mod:`.night`): read again from the
    database, in a thread of its own, whenever what it holds changes (a look twice a
    second); the new ones served from then on, a site gone no more (its streams ended),
    a site's old links no more once it has new ones (their streams ended)."""

    def __init__(self, config: NightConfig, server: _Server) -> None:
        self.config, self.server = config, server
        with SessionService(config.db, create=False) as service:
            configs = night.read(service, config, renew=config.new_links)
            self.mark = night.mark(service)
        self.by_key: dict[tuple[str, object], _Site] = {}
        self.apply(configs)
        if config.tournament is not None:  # the tables as drawn: watched from the start, as before
            for site in self.server.sites:
                site.started = True
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    def apply(self, configs: list[ServeConfig | TournamentConfig | LeagueConfig | OrganizerConfig]) -> None:
        """Serve ``configs`` from now on (in the event loop, or before it runs); the streams
        of a link no longer served are told so and end (issue 36 item 2)."""
        fresh: dict[tuple[str, object], _Site] = {}
        renewed: list[_Site] = []
        for config in configs:
            key = night.key(config)
            site = self.by_key.get(key)
            if site is None:
                site = _sites(config, self.server.limits)[-1]  # the board's, or the session's
                site.started = False
            else:
                links = _links_of(config)
                if links.links != site.links.links:
                    renewed.append(site)
                site.config, site.links = config, links
            fresh[key] = site
        gone = [site for key, site in self.by_key.items() if key not in fresh and site.started]
        self.by_key = fresh
        self.server.serve([*fresh.values(), *self.server.fixed])
        for site in gone:  # a game deleted: its streams are told so, and end
            site.watcher.stop(dropped=True)
        for site in renewed:  # new links (--new-links elsewhere): the old links' streams end
            site.watcher.renew()

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._thread = threading.Thread(target=self._run, name="romme-serve-night", daemon=True)
        self._thread.start()

    def poke(self) -> None:
        """Look now (the organiser's page just started, drew or ended something)."""
        self._wake.set()

    def _wait(self, every: float) -> bool:
        """Wait for the next look; True: the server stops."""
        self._wake.wait(every)
        self._wake.clear()
        return self._stop.is_set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=2)

    def _run(self) -> None:
        """Look until the server stops; a look that fails (the database busy or away) is
        made again at the next one."""
        every = self.server.limits.poll
        while not self._wait(every):
            try:
                with SessionService(self.config.db, create=False) as service:
                    while not self._stop.is_set():
                        now = night.mark(service)
                        if now != self.mark:
                            configs = night.read(service, self.config)
                            self.mark = now
                            loop = self._loop
                            if loop is None or loop.is_closed():
                                return
                            loop.call_soon_threadsafe(self.apply, configs)
                        if self._wait(every):
                            return
            except Exception:  # the database busy or away, a game deleted meanwhile: later again
                log.debug("the night's look failed; it looks again", exc_info=True)


def _links_of(config: ServeConfig | TournamentConfig | LeagueConfig | OrganizerConfig) -> LinkSet:
    return config.links if isinstance(config, (ServeConfig, OrganizerConfig)) else config.board


class _Server:
    """The requests' way through the routes table, for the sites of one application."""

    def __init__(self, served: ServeConfig | TournamentConfig | LeagueConfig | NightConfig) -> None:
        self.limits = served.limits
        self.language = served.language
        self.services = Services(served.db)
        self.throttle = Throttle(
            self.limits.throttle_base, self.limits.throttle_cap, self.limits.throttle_free, page=self.missing
        )
        self.fixed: list[_Site] = []
        self.sites: list[_Site] = []
        self.watchers: list[Watcher] = []
        self._tokens: dict[bytes, tuple[_Site, Link]] = {}
        self.night: _Night | None = None
        if isinstance(served, NightConfig):
            self.night = _Night(served, self)
        else:
            self.serve(_sites(served, self.limits))

    def serve(self, sites: list[_Site]) -> None:
        """Serve ``sites`` from now on (the night's, read again): their links' tokens
        indexed by their digest."""
        self.sites[:] = sites
        self.watchers[:] = [site.watcher for site in sites]
        self._tokens = {token_digest(link.token): (site, link) for site in sites for link in site.links.links}

    def find(self, token: str) -> tuple[_Site, Link] | None:
        """The site and link of a token, looked up by the token's SHA-256 digest: the time
        it takes depends on the digest of what was sent, not on how much of a real token
        it matches, and not on how many links are served (comparing every token took a
        tenth of a millisecond of every request of a 500-player championship's 750 links,
        issue 36 item 7)."""
        found = self._tokens.get(token_digest(token))
        given = token.encode("utf-8", "surrogateescape")
        if found is None or not hmac.compare_digest(found[1].token.encode(), given):
            return None
        return found

    def missing(self, request: Request) -> Response:
        """The one 404 page, in the request's language: nothing in it depends on the path."""
        lang = request_language(
            request.query_params.get("lang"), request.headers.get("accept-language"), self.language
        )
        with using_language(lang):
            return HTMLResponse(pages.missing_page(), status_code=404, headers={"content-language": lang})

    async def answer(self, request: Request, path: str) -> Response:
        found = self.find(request.path_params["token"])
        route = found[0].routes.get(path) if found is not None else None
        if found is None and self.night is not None:
            self.night.poke()  # a link made a moment ago, perhaps: the night looks now (one query)
        if found is None or route is None:
            return await self.throttle.not_found(request)
        site, link = found
        if not site.started:  # a site of the night: its watcher from its first request on
            try:
                site.watcher.start()
                site.started = True
            except StoreError:  # the database away a moment: started by a later request
                pass
        asked = request.query_params.get("lang")
        lang = request_language(asked, request.headers.get("accept-language"), site.config.language)
        call = site.call(link, lang, self.services)
        with using_language(lang):
            try:
                response = await self.respond(request, site, call, route)
            except Answer as answer:
                if answer.status == 404:
                    return await self.throttle.not_found(request)
                if answer.status == 503 and route.media == HTML:
                    page = pages.unavailable_page(answer.body["error"], RETRY_AFTER)
                    return HTMLResponse(page, status_code=503, headers=answer.headers)
                return JSONResponse(answer.body, status_code=answer.status, headers=answer.headers)
            except ClientDisconnect:  # the phone hung up mid-request: nobody to answer
                return Response(status_code=400)
            except Exception:
                log.exception("internal error")
                return JSONResponse({"error": "internal error", "code": "internal"}, status_code=500)
        return response if response is not None else await self.throttle.not_found(request)

    async def respond(
        self, request: Request, site: _Site, call: Call | BoardCall | LeagueCall | OrganizerCall, route: Route
    ) -> Response | None:
        if request.method != route.method:
            return _method_not_allowed(route.method)
        if route.method == "POST":
            if isinstance(call, OrganizerCall):
                return await self.organize(request, call, route)
            return await self.write(request, site, call, route)
        if call.link.kind not in route.kinds:
            raise refusal("forbidden", 403)
        if route.media == EVENTS:
            return await events(
                request,
                cast(Any, call),
                site.watcher,
                self.limits.streams,
                _guarded(lambda c: route.handler(c, {})),
                served=lambda: self.find(request.path_params["token"]) is not None,
            )
        given = QueryParams(
            [
                *request.query_params.multi_items(),
                *(i for i in request.path_params.items() if i[0] != "token"),
            ]
        )
        if route.tagged:
            seen = request.headers.get("if-none-match")
            tagged = _held(route, cast(Any, call), given, seen)
            if tagged is None:
                built: Tagged = await in_thread(call, _guarded(lambda c: route.handler(c, given, seen)))
                return _tagged(built, route)
            return _tagged(tagged, route)
        if route.in_thread:
            result = await in_thread(call, _guarded(lambda c: route.handler(c, given)))
        else:
            result = route.handler(call, given)
        return _response(result, route)

    async def checked_body(
        self, request: Request, call: Call | BoardCall | LeagueCall | OrganizerCall, route: Route
    ) -> Any:
        """The checks of every write (the site it came from, the kind of link), then its
        JSON body read within the limits; each refusal raised as its answer."""
        if cross_site(request):
            raise refusal("cross-site", 403)
        if call.link.kind not in route.kinds:
            raise refusal("forbidden", 403)
        limit = self.limits.body
        try:
            return await read_json(request, limit, self.limits.body_time)
        except BodyRefused as refused:
            if refused.field is not None:  # a text that is not text (web/guard.py: clean_json)
                body = {"error": refused.sentence, "code": refused.code, "field": refused.field}
                raise Answer(400, body) from None
            if refused.code == "body-timeout":  # the rest of the body is not waited for
                answer = refusal(refused.code, refused.status)
                raise Answer(answer.status, answer.body, {**answer.headers, "connection": "close"}) from None
            raise refusal(refused.code, refused.status, limit=limit) from None

    async def organize(self, request: Request, call: OrganizerCall, route: Route) -> Response:
        """An action of the organiser's page: the checks of every write (the site, the
        kind of link, the body), then the service, one transaction; a refusal (a name
        not found too) is the JSON error, nothing written."""
        body = await self.checked_body(request, call, route)
        params = {k: v for k, v in request.path_params.items() if k != "token"}
        try:
            status, answered = await in_thread(call, _guarded(lambda c: route.handler(c, body, params)))
        except Answer as answer:
            if answer.status != 404:
                raise
            return JSONResponse(answer.body, status_code=404)  # a name not found: the JSON error
        if self.night is not None:
            self.night.poke()
        for watcher in self.watchers:
            if watcher.streams:
                watcher.poke()
        return JSONResponse(answered, status_code=status)

    async def write(
        self, request: Request, site: _Site, call: Call | BoardCall | LeagueCall, route: Route
    ) -> Response:
        body = await self.checked_body(request, call, route)
        key = request.headers.get(once.HEADER)  # a phone's write applied once (web/once.py)
        where = request.url.path

        told = _Teller(site.watcher, asyncio.get_running_loop())
        if isinstance(call, Call):  # the session read once for the whole request
            call = WriteCall(call.link, call.language, call.notation, call.config, call.services)

        def work(c: Any) -> tuple[int, str]:
            status, text, applied = once.write_once(c, key, where, body, route.handler)
            if applied:  # committed: the streams told now, before the answer is sent
                told(c)
            return status, text

        try:
            status, text = await in_thread(call, _guarded(work), writing())
        finally:
            # A watcher with streams looks at once (this table's only where the write could
            # not tell them itself, a tournament board's whenever it has); one without waits for its
            # next look: looking at once, three reads in a thread of its own, held the
            # interpreter while the next request ran (issue 28: POST hand 2.7x the baseline
            # app's time without it, 3.1x with it).
            after_write(self.watchers, site.watcher, told.published)
        return Response(text, status_code=status, media_type="application/json")

    def endpoint(self, path: str) -> Callable[[Request], Any]:
        async def endpoint(request: Request) -> Response:
            return await self.answer(request, path)

        return endpoint


def create_app(served: ServeConfig | TournamentConfig | LeagueConfig | NightConfig) -> Starlette:
    """The application of one session, or of a tournament: its board and every table of
    the drawn series (each table's links as for one session)."""
    server = _Server(served)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # the watchers of the sites served from the start, on one connection per database;
        # a site of the night starts its own at its first request (in this loop too)
        start_watchers([site.watcher for site in server.sites if site.started])
        if server.night is not None:
            server.night.start()
        try:
            yield
        finally:
            if server.night is not None:
                server.night.stop()
            for site in server.sites:
                if site.started:
                    site.watcher.stop()
            server.services.close_all()

    async def missing(request: Request, exc: Exception) -> Response:
        return await server.throttle.not_found(request)

    routes = [StarletteRoute(f"/static/{n}", _public(n), methods=["GET"]) for n in pages.PUBLIC_STATIC]
    routes += [StarletteRoute("/{token}", server.endpoint(""), methods=METHODS)]
    routes += [
        StarletteRoute("/{token}/" + pattern(path), server.endpoint(path), methods=METHODS)
        for path in paths()
    ]
    app = Starlette(routes=routes, exception_handlers={404: missing, 405: missing}, lifespan=lifespan)
    if isinstance(served, NightConfig):
        base = served.base
    else:
        base = served.links.base if isinstance(served, ServeConfig) else served.board.base
    hosts = admitted_hosts(base.partition("://")[2], served.served_on, served.allow_hosts)
    app.add_middleware(HostGuard, hosts=hosts, language=served.language)
    crowd = Crowd(served.limits.connections)  # the connections counted by the server's protocol
    app.add_middleware(CrowdGuard, crowd=crowd, language=served.language)
    app.add_middleware(SecurityHeaders)  # the outermost: on every answer, the Host guard's too
    app.state.watcher = server.watchers[0] if server.watchers else None
    app.state.watchers = server.watchers
    app.state.services = server.services
    app.state.crowd = crowd
    return app


def _public(name: str) -> Callable[[Request], Any]:
    """The style sheet and icon of the pages of no link (the 404 page), at ``/static/NAME``."""

    async def endpoint(request: Request) -> Response:
        return Response(pages.static_file(name), media_type=pages.STATIC_TYPES[name], headers=STATIC_CACHE)

    return endpoint


def _response(result: object, route: Route) -> Response | None:
    """A handler's answer as a response of the route's media type (None: the 404)."""
    if result is None:
        return None
    if isinstance(result, dict):
        return JSONResponse(result)
    return Response(result, media_type=route.media, headers=route.headers and dict(route.headers))


# Kept by the browser, asked again every time with the ETag it has (issue 28).
REVALIDATE = {"cache-control": "private, no-cache", "vary": "Accept-Language"}


class _Teller:
    """What a write through this server does as soon as its transaction has committed:
    the session's version after it, read by the thread that wrote, told the table's
    streams now (not at the watcher's next look); ``published`` says whether it was. No stream open:
    nobody to tell (the watcher's next look catches up, and a stream opened meanwhile
    reads the version itself)."""

    def __init__(self, watcher: Watcher, loop: asyncio.AbstractEventLoop) -> None:
        self.watcher, self.loop = watcher, loop
        self.published = False

    def __call__(self, call: Any) -> None:
        if not self.watcher.streams:
            return
        version = _version_after(call)
        if version < 0:  # not known: the watcher, poked after the write, looks
            return
        self.published = self.watcher.tell_from_thread(self.loop, version)


def _version_after(call: Call | BoardCall) -> int:
    if isinstance(call, BoardCall):
        return -1  # a tournament's board writes nothing
    try:
        return call.service.version(call.info())
    except StoreError:  # busy, or the session gone: the watcher's next look says
        return -1


def _held(
    route: Route, call: Call | BoardCall | LeagueCall, given: Mapping[str, Any], seen: str | None
) -> Tagged | None:
    """The answer built already at the session's version, looked up in the event loop (a
    version is a lookup, no worker thread needed); None: it is to be built, in a thread."""
    if route.held is None:
        return None
    try:
        with using_language(call.language), call.services.lease_idle() as leased:
            if not leased:
                return None
            found: Tagged | None = route.held(call, given, seen)
        return found
    except (StoreError, InputProblem, Refusal):  # busy, the session gone: the thread says so
        return None


def _tagged(tagged: Tagged, route: Route) -> Response:
    """An answer with its ETag, or 304 Not Modified where the page has it."""
    headers = {**REVALIDATE, "etag": tagged.etag}
    if tagged.body is None:
        return Response(status_code=304, headers=headers)
    return Response(tagged.body, media_type=route.media, headers=headers)


def _method_not_allowed(allowed: str) -> Response:
    return JSONResponse(
        {"error": "method not allowed", "code": "method"}, status_code=405, headers={"allow": allowed}
    )
