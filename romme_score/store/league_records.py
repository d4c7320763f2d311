"""A league's records as the store hands them out (:mod:`romme_score.store.records`'s
kind, the same for every backend): apart, as only the league's commands and pages read
them, so that no other command pays for making their classes at its start (issue 38 item 19).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from romme_score.store.records import StoredOptions


class LeagueEvent(NamedTuple):
    """An event of a league: a session or a tournament (by id, and as it is called now),
    when it was created, and its place in the order added."""

    position: int
    kind: str  # "session" or "tournament"
    event_id: int
    name: str
    created_at: str


class LeagueAlias(NamedTuple):
    """Another spelling of a person (§11 "People"): ``spelling`` as typed, the person as the
    alias names them."""

    spelling: str
    person: str


class LeagueInfo(NamedTuple):
    """A league: its season, options and board token, its events in the order added, its
    aliases in the order given, and its change counter."""

    id: int
    name: str
    created_at: str
    season: str | None
    options: StoredOptions  # LeagueService builds them (LeagueOptions.from_dict)
    token: str
    events: tuple[LeagueEvent, ...]
    aliases: tuple[LeagueAlias, ...]
    version: int
