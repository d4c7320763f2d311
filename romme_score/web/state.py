"""``GET {link}/state.json``: everything a page shows, from the same service calls as
``romme standings --json`` (whose keys it has, all of them), plus ``"version"`` (it
changes whenever the session changes), ``"pending"`` (the round in progress), and what
the board shows besides: the last round's hands, the settlement so far, the places and
the sentences of the page (``"view"``), in the request's language.

The session is read between two looks at its version; when a write came in between, it
is read again, so the version always belongs to what is sent with it.
"""

from __future__ import annotations

from typing import Any

from romme_score.i18n import language
from romme_score.sessions import SessionInfo, SessionService
from romme_score.store.errors import NoRounds
from romme_score.stream import stream_json
from romme_score.views import session as session_views
from romme_score.views import web as views
from romme_score.web.context import Call

READ_TRIES = 3


def read_state(call: Call) -> bytes:
    """The JSON text of ``state.json``."""
    service = call.service
    info = call.info()
    text = ""
    for _attempt in range(READ_TRIES):
        before = service.version(info)
        text = "".join(stream_json(_state(service, info, call, before)))
        if service.version(info) == before:
            break
    return text.encode("utf-8")


def _state(service: SessionService, info: SessionInfo, call: Call, version: int) -> dict[str, Any]:
    standings = service.standings(info, last=0)
    rounds = session_views.rounds_json(
        info.players, service.points_lines(info), lambda: service.round_rows(info)
    )
    data = session_views.standings_with_corrections_json(standings, rounds)
    pending = service.pending(info)
    missing = service.missing_hands(info, pending)
    try:
        last = service.last_round(info)
    except NoRounds:
        last = None
    data["version"] = version
    data["pending"] = views.pending_json(info, pending, missing, call.notation)
    data["rounds_played"] = standings.rounds_played
    data["last_round"] = views.last_round_json(last, info, call.notation)
    data["places"] = views.places_json(standings.totals)
    data["settlement"] = _settlement(service, info) if standings.rounds_played else None
    data["view"] = views.view_json(standings, info, pending, missing, last)
    data["kind"] = call.link.kind
    data["me"] = call.link.player
    data["shown"] = views.shown_json(
        standings, data, service.round_rows(info, last=views.RECENT), call.link.player
    )
    return data


def _settlement(service: SessionService, info: SessionInfo) -> dict[str, Any]:
    settled = service.settle([info])
    return views.settlement_json(settled.settlement, settled.currency, language(), settled.leaderboard)
