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
from romme_score.sessions import Snapshot
from romme_score.stream import stream_json
from romme_score.views import session as session_views
from romme_score.views import web as views
from romme_score.web.context import Call

READ_TRIES = 3


def read_state(call: Call) -> bytes:
    """The JSON text of ``state.json``: a view of the service's snapshot, with every round
    of the scoresheet; read again when a write came in while it was read."""
    service, info = call.service, call.info()
    text = ""
    for _attempt in range(READ_TRIES):
        snap = service.snapshot(info)
        text = "".join(stream_json(_state(call, snap)))
        if service.version(info) == snap.version:
            break
    return text.encode("utf-8")


def _state(call: Call, snap: Snapshot) -> dict[str, Any]:
    service, info, standings = call.service, call.info(), snap.standings
    rounds = session_views.rounds_json(
        info.players, service.points_lines(info), lambda: service.round_rows(info)
    )
    data = session_views.standings_with_corrections_json(standings, rounds)
    data["version"] = snap.version
    data["pending"] = views.pending_json(info, snap.pending, snap.missing, call.notation, snap.provisional)
    data["rounds_played"] = standings.rounds_played
    data["last_round"] = views.last_round_json(snap.last, info, call.notation)
    data["places"] = views.places_json(standings.totals)
    if snap.tournament is not None:  # a tournament's table: no money, the pot is the tournament's
        data["settlement"] = views.tournament_money_json(snap.tournament)
    elif snap.settled is not None:
        data["settlement"] = views.settlement_json(
            snap.settled.settlement, snap.settled.currency, language(), snap.settled.leaderboard
        )
    else:
        data["settlement"] = None
    data["view"] = views.view_json(standings, info, snap.pending, snap.missing, snap.last)
    data["kind"] = call.link.kind
    data["me"] = call.link.player
    data["shown"] = views.shown_json(
        standings, data, service.round_rows(info, last=views.RECENT), call.link.player
    )
    return data
