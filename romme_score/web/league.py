"""The board of ``romme serve --league``: a club's season (docs/rules.md §11) for a projector or
a phone, read only, behind a link of its own.

``GET {board}/state.json`` is the JSON of ``romme league standings --json`` plus
``"version"`` (:meth:`LeagueService.version`: it counts up with every change of the league
and of every session and tournament it reads, so with every round recorded anywhere in the
season, never back to a number it had) and the page's sentences (``"view"``);
``GET {board}/events`` sends one event per change, as a tournament's board does. The
token is the league's own, kept with it in the database.
"""

from __future__ import annotations

from romme_score.league.service import LeagueService
from romme_score.views import league as views
from romme_score.views import web as web_views
from romme_score.web import pages
from romme_score.web.context import LeagueCall
from romme_score.web.links import qr_svg

KIND = "league"


def version(call: LeagueCall) -> int:
    service = LeagueService(call.service)
    return service.version(service.league(call.config.league))


def read_state(call: LeagueCall) -> bytes:
    """The JSON text of the board's ``state.json`` (read again when the season changed meanwhile)."""
    service = LeagueService(call.service)
    name = call.config.league
    info = service.league(name)  # its id: the version is read anew each time
    return pages.board_json(
        lambda: service.version(info),
        lambda version: views.board_json(service.standings(name), version),
        KIND,
    )


def page(call: LeagueCall, lang_param: str | None) -> str:
    """The board page, in the request's language."""
    league = call.config.league
    return pages.board_page(
        "league.html",
        KIND,
        call.link.token,
        league,
        views.board_title(league),
        {**views.board_texts(), **web_views.awake_texts()},  # and "Keep screen on" (issue 36 item 6)
        call.config.board.url(call.link),
        lang_param,
    )


def qr(call: LeagueCall) -> bytes:
    """A QR code of the board's own link, so that another screen can join from it."""
    return qr_svg(call.config.board.url(call.link), views.board_link_heading())
