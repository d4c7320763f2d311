"""The ranking of a club's season (docs/rules.md §11), pure: no I/O, no store, no service.

Each event brings its players' places as its own ranking gave them (a tournament's by
§10, a game's by §7); this module turns them into points, counts each player's best
results and ranks the people of the season.

>>> from datetime import date
>>> from romme_score.league.options import LeagueOptions
>>> friday = Event("Friday", "session", date(2026, 1, 9), True, (("Anna", 1), ("Ben", 2), ("Carl", 2)))
>>> [(p.name, p.place, p.points) for p in rank_league([friday], LeagueOptions())]
[('Anna', 1, 10), ('Ben', 2, 8), ('Carl', 2, 8)]
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Literal

from romme_score.errors import Refusal
from romme_score.i18n import _
from romme_score.league.options import LeagueOptions

EventKind = Literal["tournament", "session"]


def person_key(name: str) -> str:
    """The same person across events: equal after Unicode NFC and case folding (§11 "People").

    >>> person_key("Jürgen") == person_key("JU\\u0308RGEN")
    True
    """
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())


@dataclass(frozen=True)
class Event:
    """An event of the league as its own ranking stands: ``places`` in that ranking's order,
    shared places shared (§11 "Place in an event"); ``order`` is the order added."""

    name: str
    kind: EventKind
    day: date
    finished: bool
    places: tuple[tuple[str, int], ...]
    order: int = 0


@dataclass(frozen=True)
class Result:
    """A player's result in one event: the place there, the points it scores (attendance
    included), and whether it counts (§11 "Best results")."""

    event: str
    place: int
    points: int
    counted: bool
    order: int = 0  # the event's ``order``: which event, where two have one name


@dataclass(frozen=True)
class Standing:
    name: str  # as the alias names the person, else as first seen in event order
    place: int
    points: int  # the counted points
    played: int
    results: tuple[Result, ...]  # in the order of the events


class SamePersonTwice(Refusal):
    """Two players of one event would be one person of the league (an alias, or names that
    differ only in case): the league cannot rank them."""

    def __init__(self, event: str, first: str, second: str) -> None:
        super().__init__(
            _("%(first)s and %(second)s both played '%(event)s', so they cannot be one person of the league")
            % {"first": first, "second": second, "event": event}
        )
        self.event = event
        self.first = first
        self.second = second


def ordered(events: Sequence[Event]) -> list[Event]:
    """Events by date, then by the order they were added (§11 "Events")."""
    return sorted(events, key=lambda e: (e.day, e.order))


def counted_flags(points: Sequence[int], best: int | None) -> list[bool]:
    """Which of a player's results count: the ``best`` highest; of equal scores the earlier
    counts (which one is dropped does not change the total, §11).

    >>> counted_flags([5, 10, 5, 8], 2), counted_flags([5, 10], None)
    ([False, True, False, True], [True, True])
    """
    if best is None or best >= len(points):
        return [True] * len(points)
    keep = sorted(range(len(points)), key=lambda i: (-points[i], i))[:best]
    chosen = set(keep)
    return [i in chosen for i in range(len(points))]


def rank_league(
    events: Sequence[Event], options: LeagueOptions, aliases: Mapping[str, str] | None = None
) -> list[Standing]:
    """Every person of the season, best first (§11 "Ranking"); within a shared place by
    name, case-folded. ``aliases`` maps a spelling onto the person it stands for (both as
    typed)."""
    alias_of = {person_key(spelling): person for spelling, person in (aliases or {}).items()}
    shown: dict[str, str] = {}
    for person in (aliases or {}).values():
        shown.setdefault(person_key(person), person)
    results: dict[str, list[Result]] = {}
    for event in ordered(events):
        seen: dict[str, str] = {}
        for player, place in event.places:
            person = alias_of.get(person_key(player), player)
            key = person_key(person)
            if key in seen:
                raise SamePersonTwice(event.name, seen[key], player)
            seen[key] = player
            shown.setdefault(key, person)
            points = options.place_points(place) + options.attendance
            results.setdefault(key, []).append(Result(event.name, place, points, True, event.order))
    rows = []
    for key, mine in results.items():
        flags = counted_flags([r.points for r in mine], options.best)
        final = tuple(
            Result(r.event, r.place, r.points, flag, r.order) for r, flag in zip(mine, flags, strict=True)
        )
        total = sum(r.points for r in final if r.counted)
        rows.append((key, total, final))
    most = max((r.place for _k, _t, rs in rows for r in rs), default=0)

    def strength(row: tuple[str, int, tuple[Result, ...]]) -> tuple[int, ...]:
        _key, total, mine = row
        if options.tie_break == "none":
            return (total,)
        places = [r.place for r in mine]
        return (total, *(places.count(k) for k in range(1, most + 1)))

    strengths = {row[0]: strength(row) for row in rows}
    standings = [
        Standing(
            shown[key],
            1 + sum(1 for other in strengths.values() if other > strengths[key]),
            total,
            len(mine),
            mine,
        )
        for key, total, mine in rows
    ]
    return sorted(standings, key=lambda s: (s.place, person_key(s.name), s.name))


def course(standings: Sequence[Standing], events: Sequence[Event], best: int | None) -> dict[str, list[int]]:
    """Each person's counted points as they stood after each event (in date order): the
    season's course, as a chart draws it; the last number is the standing's points.

    >>> from romme_score.league.options import LeagueOptions
    >>> evs = [Event("A", "session", date(2026, 1, 1), True, (("x", 1),), 0),
    ...        Event("B", "session", date(2026, 1, 2), True, (("y", 1), ("x", 2)), 1)]
    >>> course(rank_league(evs, LeagueOptions(best=1)), ordered(evs), 1)
    {'x': [10, 10], 'y': [0, 10]}
    """
    out: dict[str, list[int]] = {}
    for standing in standings:
        by_event = {r.order: r.points for r in standing.results}
        seen: list[int] = []
        line = []
        for event in events:
            if event.order in by_event:
                seen.append(by_event[event.order])
            kept = sorted(seen, reverse=True)
            line.append(sum(kept if best is None else kept[:best]))
        out[standing.name] = line
    return out
