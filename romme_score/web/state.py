"""``GET {link}/state.json``: everything a page shows, from the same service calls as
``romme standings --json`` (whose keys it has, all of them), plus ``"version"`` (it
changes whenever the session changes), ``"pending"`` (the round in progress), and what
the board shows besides: the last round's hands, the settlement so far, the places and
the sentences of the page (``"view"``), in the request's language.

``"rounds"`` holds the recent rounds the pages show (the last :data:`RECENT`), so that
what a change costs does not grow with the evening (issue 28); ``?rounds=all`` gives
every round, paged with ``&offset=N`` (rounds skipped) and ``&limit=N`` (rounds at most);
``"rounds_page"`` says which: ``{"offset", "limit", "total"}`` (``limit``: the rounds
listed, ``total``: the rounds played).

The state is built once per version of the session and language, for every link at once
(:mod:`.cache`): each page gets the same bytes with its own kind and seat, and an ETag; a
page that has them gets ``304 Not Modified``. The session is read between two looks at
its version; when a write came in between, it is read again, so the version always
belongs to what is sent with it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from romme_score.i18n import language
from romme_score.scoring import GameState
from romme_score.sessions import Snapshot
from romme_score.store.records import Link
from romme_score.stream import RawJSON, stream_json
from romme_score.views import session as session_views
from romme_score.views import web as views
from romme_score.web.cache import Tagged, answer, etag, held
from romme_score.web.context import Call
from romme_score.web.errors import bad_field

READ_TRIES = 3
RECENT = views.RECENT


@dataclass(frozen=True)
class Rounds:
    """The rounds a request of ``state.json`` asks for: the recent ones, or every round
    after ``offset``, at most ``limit`` of them (no limit when None)."""

    every: bool = False
    offset: int = 0
    limit: int | None = None


def rounds_asked(given: Mapping[str, Any]) -> Rounds:
    """``?rounds=all&offset=N&limit=N`` as asked; a value that cannot be read is refused
    (400, naming the field)."""
    which = given.get("rounds") or "recent"
    if which not in ("all", "recent"):
        raise bad_field("rounds", "rounds")
    numbers: dict[str, int | None] = {}
    for field in ("offset", "limit"):
        text = given.get(field)
        if text is None:
            numbers[field] = None
            continue
        if which != "all" or not text.isascii() or not text.isdigit() or len(text) > 9:
            raise bad_field(field, "count")
        numbers[field] = int(text)
    if which == "recent":
        return Rounds()
    return Rounds(True, numbers["offset"] or 0, numbers["limit"])


def read_state(call: Call, given: Mapping[str, Any], seen: str | None = None) -> Tagged:
    """``state.json`` for the asking link: the recent rounds from the version's build
    (:mod:`.cache`), the whole history (``?rounds=all``) read for the request."""
    asked = rounds_asked(given)
    if asked.every:
        version, body = _read(call, asked)
        return answer(Tagged(etag(f"{version}-{call.language}", body), body), seen)
    service, info = call.service, call.info()
    built = call.services.built.get(
        ("state", info.id, call.language), service.version(info), lambda: _build(call)
    )
    return answer(built.of(call.link), seen)


def cached_state(call: Call, given: Mapping[str, Any], seen: str | None = None) -> Tagged | None:
    """In the event loop: ``state.json`` of the recent rounds as built at the session's
    version for this link, or None (then :func:`read_state` runs in a thread)."""
    if any(given.get(k) is not None for k in ("rounds", "offset", "limit")):
        return None
    info = call.info()
    found = held(
        call.services.built,
        ("state", info.id, call.language),
        lambda: call.service.version(info),
        lambda built: built.held(call.link),
    )
    return answer(found, seen) if found is not None else None


class _Built:
    """One version's state: what every link shares, and each link's bytes as asked."""

    def __init__(self, version: int, data: dict[str, Any], game: GameState) -> None:
        self.version = version
        self.data = data
        self.game = game
        self._links: dict[tuple[str, str | None], Tagged] = {}

    def held(self, link: Link) -> Tagged | None:
        return self._links.get((link.kind, link.player))

    def of(self, link: Link) -> Tagged:
        key = (link.kind, link.player)
        found = self._links.get(key)
        if found is None:  # one thread at a time may add the same bytes: a dict keeps either
            data = dict(self.data)
            data["kind"], data["me"] = link.kind, link.player
            mine = views.mine_line(data["pending"], link.player, self.game) if link.player else None
            data["shown"] = {**data["shown"], "mine": mine}
            body = "".join(stream_json(data)).encode("utf-8")
            found = self._links[key] = Tagged(etag(f"{self.version}-{language()}", body), body)
        return found


def _build(call: Call) -> tuple[int, _Built]:
    snap, data = _snapshot(call, Rounds())
    return snap.version, _Built(snap.version, data, snap.standings.state)


def _read(call: Call, asked: Rounds) -> tuple[int, bytes]:
    snap, data = _snapshot(call, asked)
    data["kind"], data["me"] = call.link.kind, call.link.player
    me = call.link.player
    data["shown"]["mine"] = views.mine_line(data["pending"], me, snap.standings.state) if me else None
    return snap.version, "".join(stream_json(data)).encode("utf-8")


def _snapshot(call: Call, asked: Rounds) -> tuple[Snapshot, dict[str, Any]]:
    """The service's snapshot and the state made of it, read again when a write came in
    meanwhile (the whole history streams: it is read as it is written)."""
    service, info = call.service, call.info()
    for _attempt in range(READ_TRIES):
        snap = service.snapshot(info)
        data = _state(call, snap, asked)
        if asked.every:  # read now, between the two looks at the version
            data["rounds"] = iter(list(data["rounds"]))
        if service.version(info) == snap.version:
            break
    return snap, data


def _state(call: Call, snap: Snapshot, asked: Rounds) -> dict[str, Any]:
    service, info, standings = call.service, call.info(), snap.standings
    played = standings.rounds_played
    recent = list(service.round_rows(info, last=RECENT))
    rounds: Iterator[RawJSON] | list[dict[str, Any]]
    if asked.every:
        offset = asked.offset
        upto = None if asked.limit is None else offset + asked.limit
        rounds = session_views.rounds_json(
            info.players,
            service.points_lines(info, after=offset, upto=upto),
            lambda: service.round_rows(info, after=offset, upto=upto),
        )
        listed = max(0, min(played, played if upto is None else upto) - offset)
    else:
        offset, listed = played - len(recent), len(recent)
        rounds = [session_views.round_json(r) for r in recent]
    data = session_views.standings_with_corrections_json(standings)
    data["rounds"] = rounds
    data["rounds_page"] = {"offset": offset, "limit": listed, "total": played}
    data["version"] = snap.version
    closed = [] if standings.state.finished else service.closed_seats(info, snap.pending)
    data["pending"] = views.pending_json(
        info, snap.pending, snap.missing, call.notation, snap.provisional, snap.counts, closed
    )
    data["rounds_played"] = played
    data["last_round"] = views.last_round_json(snap.last, info, call.notation)
    data["places"] = dict(standings.places)
    if snap.tournament is not None:  # a tournament's table: no money, the pot is the tournament's
        data["settlement"] = views.tournament_money_json(snap.tournament)
    elif snap.settled is not None:
        data["settlement"] = views.settlement_json(
            snap.settled.settlement, snap.settled.currency, language(), snap.settled.leaderboard
        )
    else:
        data["settlement"] = None
    data["view"] = views.view_json(
        standings, info, snap.pending, snap.missing, snap.last, games=snap.tournament is not None
    )
    data["kind"] = call.link.kind
    data["me"] = call.link.player
    data["shown"] = views.shown_json(standings, data, recent, None)
    return data
