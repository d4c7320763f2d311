"""The ASGI application of ``romme serve``: one session, three kinds of link; or, with
``--tournament``, every table of a series so, and the tournament's board (:mod:`.board`:
the page, ``state.json``, ``events``, ``qr.svg``, ``static/NAME``).

Every path starts with a link's token; the token alone says which page it is (board,
scorekeeper, a seat) and what it may do. Under it:

========================  =======  ===============================================
path                      method   what
========================  =======  ===============================================
(none), ``/``             GET      the page
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
``static/NAME``           GET      the script, the style sheet, the icon
========================  =======  ===============================================

A wrong token, a path that is not there and a session that is gone get the same 404
(:mod:`.guard`).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from romme_score.errors import InputProblem, Refusal
from romme_score.i18n import using_language
from romme_score.store.records import Link
from romme_score.web import board, pages, referee, state, writes
from romme_score.web.context import (
    BoardCall,
    Call,
    ServeConfig,
    Services,
    TournamentConfig,
    in_thread,
    request_language,
)
from romme_score.web.errors import Answer, answer_of, refusal
from romme_score.web.events import Watcher, events, sum_version
from romme_score.web.guard import BodyRefused, SecurityHeaders, Throttle, cross_site, read_json

T = TypeVar("T")
log = logging.getLogger("romme_score.web")
READS = ("", "state.json", "events", "chart.svg", "qr.svg", "links.json", *referee.READS)
KEEPER_ONLY = ("links.json",)
METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]  # each answered by the endpoint


def _guarded(work: Callable[[Call], T]) -> Callable[[Call], T]:
    """``work`` with the service's errors as answers (raised, in the request's language)."""

    def run(call: Call) -> T:
        try:
            return work(call)
        except (InputProblem, Refusal) as exc:
            raise answer_of(exc) from None

    return run


@dataclass
class _Site:
    """One session served: its settings and the watcher of its version."""

    config: ServeConfig
    watcher: Watcher


def create_app(served: ServeConfig | TournamentConfig) -> Starlette:
    """The application of one session, or of a tournament: its board and every table of
    the drawn series (each table's links as for one session)."""
    tournament = served if isinstance(served, TournamentConfig) else None
    configs: tuple[ServeConfig, ...] = (
        tournament.tables if tournament is not None else (served,) if isinstance(served, ServeConfig) else ()
    )
    services = Services(served.db)
    limits = served.limits
    throttle = Throttle(limits.throttle_base, limits.throttle_cap, limits.throttle_free)
    sites = [_Site(c, Watcher(c.db, c.session_id, limits.poll)) for c in configs]
    board_watcher: Watcher | None = None
    if tournament is not None:
        ids = tournament.session_ids
        board_watcher = Watcher(
            tournament.db, ids[0], limits.poll, sum_version(lambda service: board.versions(service, ids))
        )
    watchers = [site.watcher for site in sites] + ([board_watcher] if board_watcher is not None else [])

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        for watcher in watchers:
            watcher.start()
        try:
            yield
        finally:
            for watcher in watchers:
                watcher.stop()
            services.close_all()

    async def run(call: Call, work: Callable[[Call], T]) -> T:
        return await in_thread(call, _guarded(work))

    def find(token: str) -> tuple[_Site, Link] | None:
        """The site and link of a token: every token compared, none skipped."""
        found = None
        for site in sites:
            link = site.config.links.find(token)
            if link is not None:
                found = (site, link)
        return found

    async def endpoint(request: Request) -> Response:
        token = request.path_params["token"]
        board_link = tournament.board.find(token) if tournament is not None else None
        found = find(token)
        if board_link is not None and tournament is not None and board_watcher is not None:
            return await board_endpoint(
                request, BoardCall(board_link, "", tournament, services), board_watcher
            )
        if found is None:
            return await throttle.not_found(request)
        site, link = found
        rest: str = request.path_params.get("rest", "")
        asked = request.query_params.get("lang")
        lang = request_language(asked, request.headers.get("accept-language"), site.config.language)
        call = Call(link, lang, site.config.notation, site.config, services)
        with using_language(lang):
            try:
                response = await dispatch(request, call, rest, asked, site.watcher)
            except Answer as answer:
                if answer.status == 404:
                    return await throttle.not_found(request)
                return JSONResponse(answer.body, status_code=answer.status)
            except Exception:
                log.exception("internal error")
                return JSONResponse({"error": "internal error", "code": "internal"}, status_code=500)
        if response is None:
            return await throttle.not_found(request)
        return response

    async def board_endpoint(request: Request, call: BoardCall, watcher: Watcher) -> Response:
        rest: str = request.path_params.get("rest", "")
        asked = request.query_params.get("lang")
        lang = request_language(asked, request.headers.get("accept-language"), call.config.language)
        call = BoardCall(call.link, lang, call.config, call.services)
        response: Response | None = None
        with using_language(lang):
            try:
                if rest.startswith("static/") or rest in board.READS:
                    if request.method != "GET":
                        return _method_not_allowed("GET")
                    response = await board_dispatch(request, call, rest, asked, watcher)
            except Exception:
                log.exception("internal error")
                return JSONResponse({"error": "internal error", "code": "internal"}, status_code=500)
        if response is None:
            return await throttle.not_found(request)
        return response

    async def board_dispatch(
        request: Request, call: BoardCall, rest: str, asked: str | None, watcher: Watcher
    ) -> Response | None:
        if rest.startswith("static/"):
            return _static(rest.removeprefix("static/"))
        if rest == "":
            return HTMLResponse(await in_thread(call, lambda c: board.page(c, asked)))
        if rest == "state.json":
            return Response(await in_thread(call, board.read_state), media_type="application/json")
        if rest == "events":
            return await events(request, call, watcher, limits.streams, board.version)
        if rest == "qr.svg":
            return Response(board.qr(call), media_type="image/svg+xml")
        return None

    async def dispatch(
        request: Request, call: Call, rest: str, asked: str | None, watcher: Watcher
    ) -> Response | None:
        method = request.method
        if rest in writes.WRITES:
            if method != "POST":
                return _method_not_allowed("POST")
            return await write(request, call, rest, watcher)
        if rest.startswith("static/"):
            return _static(rest.removeprefix("static/"))
        keeper_qr = rest.startswith("qr/") and rest.endswith(".svg")
        if rest not in READS and not keeper_qr:
            return None
        if method != "GET":
            return _method_not_allowed("GET")
        if (rest in KEEPER_ONLY or keeper_qr) and call.link.kind != "scorekeeper":
            raise refusal("forbidden", 403)
        if rest == "":
            return HTMLResponse(await run(call, lambda c: pages.page(c, c.info().name, asked)))
        if rest == "state.json":
            return Response(await run(call, state.read_state), media_type="application/json")
        if rest == "events":
            return await events(request, call, watcher, limits.streams)
        if rest == "chart.svg":
            return Response(await run(call, pages.chart), media_type="image/svg+xml")
        if rest == "links.json":
            return JSONResponse(pages.links_json(call))
        if rest == "qr.svg" or keeper_qr:
            which = None if rest == "qr.svg" else rest.removeprefix("qr/").removesuffix(".svg")
            image = pages.qr_of(call, which)
            return Response(image, media_type="image/svg+xml") if image is not None else None
        read = referee.READS[rest]
        params = request.query_params
        return JSONResponse(await run(call, lambda c: read(c, params)))

    async def write(request: Request, call: Call, rest: str, watcher: Watcher) -> Response:
        if cross_site(request):
            raise refusal("cross-site", 403)
        do = writes.check_allowed(call, rest)
        try:
            body = await read_json(request, limits.body)
        except BodyRefused as refused:
            raise refusal(refused.code, refused.status, limit=limits.body) from None
        try:
            result: dict[str, Any] = await run(call, lambda c: do(c, body))
        finally:
            watcher.poke()
            if board_watcher is not None:
                board_watcher.poke()
        return JSONResponse(result)

    async def missing(request: Request, exc: Exception) -> Response:
        return await throttle.not_found(request)

    app = Starlette(
        routes=[
            Route("/{token}", endpoint, methods=METHODS),
            Route("/{token}/{rest:path}", endpoint, methods=METHODS),
        ],
        exception_handlers={404: missing, 405: missing},
        lifespan=lifespan,
    )
    app.add_middleware(SecurityHeaders)
    app.state.watcher = sites[0].watcher if sites else board_watcher
    app.state.watchers = watchers
    return app


def _static(name: str) -> Response | None:
    if name not in pages.STATIC_TYPES:
        return None
    return Response(
        pages.static_file(name),
        media_type=pages.STATIC_TYPES[name],
        headers={"cache-control": "private, max-age=600"},
    )


def _method_not_allowed(allowed: str) -> Response:
    return JSONResponse(
        {"error": "method not allowed", "code": "method"}, status_code=405, headers={"allow": allowed}
    )
