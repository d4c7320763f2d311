"""The board of ``romme serve --tournament``: the ranking across all tables, for a
projector, behind a link of its own (issue 22 item 10).

``GET {board}/state.json`` is the JSON of ``romme tournament standings --json`` plus
``"version"`` (:meth:`TournamentService.version`: it counts up with every change of any
table and of the tournament itself, a series drawn or a player withdrawn), the served series' tables
(``"tables"``: how many games each has played) and the page's sentences (``"view"``);
``GET {board}/events`` sends one event per change, as a session's board does. The tables
themselves are served as ordinary sessions, each with its own links.

The board's token is derived from the scorekeeper token of table 1 of series 1 (an
HMAC: who sees the board cannot work back to the scorekeeper's link): the link belongs
to the tournament, from its first draw to its payout, across restarts, and shows the
series drawn last (issue 36 item 2); ``--new-links`` changes it with the tables' links.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Callable
from typing import Any

from romme_score.sessions import SessionService
from romme_score.tournament import TournamentService
from romme_score.views import tournament as views
from romme_score.views import web as web_views
from romme_score.web import pages
from romme_score.web.context import BoardCall
from romme_score.web.links import TOKEN_BYTES, qr_svg

KIND = "tournament"
READS = ("", "state.json", "events", "qr.svg")


def board_token(keeper_token: str) -> str:
    """The board's token, from a table's scorekeeper token (one way)."""
    digest = hmac.new(keeper_token.encode(), b"romme tournament board", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:TOKEN_BYTES]).decode().rstrip("=")


def versions(service: SessionService, tournament: str) -> Callable[[], int]:
    """The board's version (:meth:`TournamentService.version`), as often as asked."""
    tournaments = TournamentService(service)
    info = tournaments.tournament(tournament)  # its id: the version is read anew each time
    return lambda: tournaments.version(info)


def version(call: BoardCall) -> int:
    return versions(call.service, call.config.tournament)()


def read_state(call: BoardCall) -> bytes:
    """The JSON text of the board's ``state.json`` (read again when a table changed meanwhile)."""
    service = call.service
    config = call.config
    current = versions(service, config.tournament)
    tournaments = TournamentService(service)

    def build(version: int) -> dict[str, Any]:
        info = tournaments.tournament(config.tournament)
        standings = tournaments.standings(config.tournament)
        series = info.series_drawn  # the last drawn: the board follows the night (issue 36 item 2)
        tables = [(t.table, t.session, t.games) for t in tournaments.tables(info, series)]
        return views.board_json(standings, series, tables, version)

    return pages.board_json(current, build, KIND)


def page(call: BoardCall, lang_param: str | None) -> str:
    """The board page, in the request's language."""
    tournament = call.config.tournament
    return pages.board_page(
        "tournament.html",
        KIND,
        call.link.token,
        tournament,
        views.board_title(tournament),
        {**views.board_texts(), **web_views.awake_texts()},  # and "Keep screen on" (issue 36 item 6)
        call.config.board.url(call.link),
        lang_param,
    )


def qr(call: BoardCall) -> bytes:
    """A QR code of the board's own link, so that another screen can join from it."""
    return qr_svg(call.config.board.url(call.link), views.board_link_heading())
