"""The league service (docs/rules.md §11): what a front end may do to a club's season, with no
Click, no printing and no SQL, beside :mod:`romme_score.sessions` and
:mod:`romme_score.tournament.service`.

A league holds events (sessions and tournaments, by id) and aliases; it keeps no result.
Every reading asks each event's own service for its places at that moment: a game's
standings (fewest penalty points first, or the 003 leaderboard), a tournament's ranking
(:meth:`TournamentService.standings`, with its ``tie_break`` and whatever it counts as
played). So a correction anywhere changes the season at once, and the league never
recomputes a place. :mod:`romme_score.league.rules` turns the places into the season.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, tzinfo

from romme_score.errors import InputProblem
from romme_score.i18n import _, shown
from romme_score.inputs import clean_name
from romme_score.league.options import LeagueOptions
from romme_score.league.rules import Event, Standing, course, ordered, person_key, rank_league
from romme_score.sessions import SessionService
from romme_score.store import StoreError
from romme_score.store.errors import EventInLeague, TableInLeague
from romme_score.store.league_records import LeagueAlias, LeagueEvent, LeagueInfo
from romme_score.store.records import SessionInfo

TOKEN_BYTES = 18  # 144 bits, as every link of the phones (web/links.py, docs/phones.md)


class AliasOntoItself(InputProblem):
    """An alias whose spelling is the person's own name (after NFC and case folding)."""

    def __init__(self, spelling: str, person: str) -> None:
        super().__init__(
            _("an alias maps another spelling onto a person: '%(spelling)s' is '%(person)s' already")
            % {"spelling": spelling, "person": person}
        )
        self.spelling = spelling
        self.person = person


class UnknownSpelling(InputProblem):
    """An alias for a spelling under which nobody played in any event of the league (a typo,
    most likely: ``close`` is the nearest spelling played, ``known`` all of them, first seen
    first); nothing was written."""

    def __init__(self, league: str, spelling: str, known: Sequence[str], person: str) -> None:
        import difflib  # only when a spelling is wrong

        keys = {person_key(k): k for k in known if person_key(k) != person_key(person)}
        close = difflib.get_close_matches(person_key(spelling), list(keys), n=1)
        if not known:
            message = _("nobody played as %(spelling)s in league '%(league)s': it holds no event yet")
        elif close:
            message = _(
                "nobody played as %(spelling)s in league '%(league)s'; did you mean %(close)s? "
                "(players: %(known)s)"
            )
        else:
            message = _("nobody played as %(spelling)s in league '%(league)s' (players: %(known)s)")
        self.close = keys[close[0]] if close else None
        super().__init__(
            message
            % {
                "spelling": shown(spelling),
                "league": league,
                "close": shown(self.close) if self.close else "",
                "known": ", ".join(known),
            }
        )
        self.league = league
        self.spelling = spelling
        self.known = tuple(known)


class AliasChain(StoreError):
    """An alias onto a spelling that is itself an alias, or of a name other aliases point to."""

    def __init__(self, league: str, name: str, person: str) -> None:
        super().__init__(
            _("'%(name)s' is a spelling of '%(person)s' in league '%(league)s' already")
            % {"name": name, "person": person, "league": league}
        )
        self.league = league
        self.name = name
        self.person = person


class EventGivenTwice(InputProblem):
    """The same event named twice in one ``add`` (an event counts once in a league); nothing
    was added. Not "in the league already": it was not, before this add."""

    def __init__(self, league: str, kind: str, event: str) -> None:
        if kind == "tournament":
            message = _(
                "tournament '%(event)s' was given twice; an event counts once in league '%(league)s', "
                "so nothing was added"
            )
        else:
            message = _(
                "session '%(event)s' was given twice; an event counts once in league '%(league)s', "
                "so nothing was added"
            )
        super().__init__(message % {"event": event, "league": league})
        self.league = league
        self.kind = kind
        self.event = event


class NoEventGiven(InputProblem):
    def __init__(self) -> None:
        super().__init__(_("no event was given"))


@dataclass(frozen=True)
class LeagueStandings:
    """The season as it stands: the league's settings, its events in date order (each
    with its places as its own ranking gives them), and the people ranked."""

    league: str
    season: str | None
    options: LeagueOptions
    events: tuple[Event, ...]
    players: tuple[Standing, ...]
    aliases: tuple[tuple[str, str], ...]

    @property
    def finished(self) -> bool:
        return all(e.finished for e in self.events)

    @property
    def course(self) -> dict[str, list[int]]:
        """Each person's counted points after each event, in date order (the season's
        course, as the report's chart draws it: :func:`~romme_score.league.rules.course`)."""
        return course(self.players, self.events, self.options.best)


@dataclass(frozen=True)
class League:
    """A league as its service hands it out: the store's
    :class:`~romme_score.store.league_records.LeagueInfo` with its options built (the store keeps
    them as plain data and imports nothing of the league's)."""

    id: int
    name: str
    created_at: str
    season: str | None
    options: LeagueOptions
    token: str
    events: tuple[LeagueEvent, ...]
    aliases: tuple[LeagueAlias, ...]
    version: int


def built(info: LeagueInfo) -> League:
    """The store's record of a league with its options built from what is stored."""
    return League(
        info.id,
        info.name,
        info.created_at,
        info.season,
        LeagueOptions.from_dict(info.options),
        info.token,
        info.events,
        info.aliases,
        info.version,
    )


@dataclass(frozen=True)
class LeagueSummary:
    info: League
    events: int


@dataclass(frozen=True)
class Added:
    league: str
    events: tuple[tuple[str, str], ...]  # (kind, name) in the order added


def local_day(stamp: str, zone: tzinfo | None = None) -> date:
    """The local date of a stored time (UTC, ISO 8601): an event's date (§11 "Dates").

    >>> from datetime import timedelta, timezone
    >>> local_day("2026-12-01T23:30:00+00:00", timezone(timedelta(hours=1)))
    datetime.date(2026, 12, 2)
    """
    from datetime import UTC

    moment = datetime.fromisoformat(stamp)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(zone).date()


class LeagueService:
    """Leagues of one database, over its session service. Every write is one transaction,
    and what it would make unrankable is refused before anything is written."""

    def __init__(self, sessions: SessionService, zone: tzinfo | None = None) -> None:
        self.sessions = sessions
        self.store = sessions.store
        self.zone = zone  # the local time zone of the dates (None: the system's)

    @property
    def location(self) -> str:
        return self.store.location

    def league(self, name: str) -> LeagueInfo:
        return self.store.league(name.strip())

    def names(self) -> list[str]:
        """Every league's name, in the order they were created."""
        return self.store.league_names()

    def overview(self) -> list[LeagueSummary]:
        out = []
        for name in self.store.league_names():
            info = self.store.league(name)
            out.append(LeagueSummary(built(info), len(info.events)))
        return out

    def renew_link(self, info: LeagueInfo) -> LeagueInfo:
        """The league with a new token for its board (``romme serve --league --new-links``):
        its old link opens nothing any more."""
        self.store.renew_league_token(info, secrets.token_urlsafe(TOKEN_BYTES))
        return self.store.league(info.name)

    def version(self, info: LeagueInfo) -> int:
        """Changes whenever the league or any of its events changes (its board's version)."""
        return self.store.league_version(info)

    # -- writing --------------------------------------------------------------------------

    def create(self, name: str, season: str | None, options: LeagueOptions) -> League:
        name = clean_name(name, _("a league's name"))
        if season is not None:
            season = clean_name(season, _("a season")) if season.strip() else None
        self.store.create_league(name, season, options.to_dict(), secrets.token_urlsafe(TOKEN_BYTES))
        return built(self.store.league(name))

    def add(self, name: str, tournaments: Sequence[str] = (), sessions: Sequence[str] = ()) -> Added:
        """Events at the end of the league: the tournaments, then the sessions, in the order
        given. An unknown event, one in the league already or given twice: nothing is added."""
        if not tournaments and not sessions:
            raise NoEventGiven()
        info = self.league(name)
        found: list[tuple[str, int, str]] = []
        extra: list[LeagueEvent] = []
        position = max((e.position for e in info.events), default=0)
        for tname in tournaments:
            t = self.store.tournament(tname.strip())
            found.append(("tournament", t.id, t.name))
            position += 1
            extra.append(LeagueEvent(position, "tournament", t.id, t.name, t.created_at))
        for sname in sessions:
            s = self.sessions.session(sname)
            table_of = self.sessions.tournament_of(s)
            if table_of is not None:  # its games are the tournament's: they would count twice
                raise TableInLeague(info.name, s.name, table_of)
            found.append(("session", s.id, s.name))
            position += 1
            extra.append(LeagueEvent(position, "session", s.id, s.name, s.created_at))
        known = {(e.kind, e.event_id) for e in info.events}
        for kind, event_id, event_name in found:  # said before the people are read
            if (kind, event_id) in known:
                raise EventInLeague(info.name, kind, event_name)
        given: set[tuple[str, int]] = set()
        for kind, event_id, event_name in found:
            if (kind, event_id) in given:
                raise EventGivenTwice(info.name, kind, event_name)
            given.add((kind, event_id))
        self._ranked(info, (*info.events, *extra), self._aliases(info))  # a conflict is refused here
        self.store.add_league_events(info, found)
        return Added(info.name, tuple((kind, n) for kind, _id, n in found))

    def remove(self, name: str, tournament: str | None = None, session: str | None = None) -> tuple[str, str]:
        info = self.league(name)
        if tournament is not None:
            t = self.store.tournament(tournament.strip())
            self.store.remove_league_event(info, "tournament", t.id, t.name)
            return "tournament", t.name
        if session is None:
            raise NoEventGiven()
        s = self.sessions.session(session)
        self.store.remove_league_event(info, "session", s.id, s.name)
        return "session", s.name

    def alias(self, name: str, spelling: str, person: str) -> tuple[str, str]:
        """``spelling`` counts as ``person`` in this league (§11 "People")."""
        info = self.league(name)
        spelling = clean_name(spelling, _("a spelling"))
        person = clean_name(person, _("a person's name"))
        if person_key(spelling) == person_key(person):
            raise AliasOntoItself(spelling, person)
        played = self._spellings(info)
        if person_key(spelling) not in {person_key(p) for p in played}:  # a typo, most likely
            raise UnknownSpelling(info.name, spelling, played, person)
        aliases = self._aliases(info)
        targets = {person_key(p): p for p in aliases.values()}
        if person_key(spelling) in targets:
            raise AliasChain(info.name, spelling, targets[person_key(spelling)])
        for typed, target in aliases.items():
            if person_key(typed) == person_key(person):
                raise AliasChain(info.name, person, target)
        changed = {s: p for s, p in aliases.items() if person_key(s) != person_key(spelling)}
        changed[spelling] = person
        self._ranked(info, info.events, changed)  # a conflict is refused here
        self.store.set_league_alias(info, spelling, person)
        return spelling, person

    # -- reading --------------------------------------------------------------------------

    def standings(self, name: str) -> LeagueStandings:
        info = self.league(name)
        aliases = self._aliases(info)
        events, players = self._ranked(info, info.events, aliases)
        return LeagueStandings(
            info.name,
            info.season,
            LeagueOptions.from_dict(info.options),
            tuple(events),
            tuple(players),
            tuple(aliases.items()),
        )

    def _spellings(self, info: LeagueInfo) -> list[str]:
        """Every name played under in the league's events (its players as each event keeps
        them, whether or not it has a place yet), one per person key, first seen first."""
        seen: dict[str, str] = {}
        for event in info.events:
            if event.kind == "tournament":
                names = [p.name for p in self.store.tournament(event.name).players]
            else:
                names = list(self.sessions.session_by_id(event.event_id).players)
            for n in names:
                seen.setdefault(person_key(n), n)
        return list(seen.values())

    @staticmethod
    def _aliases(info: LeagueInfo) -> dict[str, str]:
        return {a.spelling: a.person for a in info.aliases}

    def _ranked(
        self, info: LeagueInfo, events: Sequence[LeagueEvent], aliases: dict[str, str]
    ) -> tuple[list[Event], list[Standing]]:
        read = ordered([self._event(e) for e in events])
        return read, rank_league(read, LeagueOptions.from_dict(info.options), aliases)

    def _event(self, event: LeagueEvent) -> Event:
        day = local_day(event.created_at, self.zone)
        if event.kind == "tournament":
            return self._tournament(event, day)
        return self._session(self.sessions.session_by_id(event.event_id), event, day)

    def _tournament(self, event: LeagueEvent, day: date) -> Event:
        from romme_score.tournament.service import TournamentService

        tournaments = TournamentService(self.sessions)
        standings = tournaments.standings(event.name)
        # places as the ranking stands: the finished series only (docs/rules.md §10); none before
        begun = standings.series_played > 0
        places = tuple((p.name, p.place) for p in standings.players) if begun else ()
        return Event(event.name, "tournament", day, standings.complete, places, event.position)

    def _session(self, info: SessionInfo, event: LeagueEvent, day: date) -> Event:
        s = self.sessions.standings(info, last=0)
        if s.leaderboard is not None:  # 003: the leaderboard's place, more is better
            board = s.leaderboard
            place = {p: 1 + sum(1 for q in s.players if board[q] > board[p]) for p in s.players}
        else:  # fewest penalty points first (§7)
            place = {p: 1 + sum(1 for q in s.players if s.totals[q] < s.totals[p]) for p in s.players}
        seats = sorted(s.players, key=lambda p: (place[p], s.players.index(p)))
        if not s.rounds_played:  # before its first round: no places yet
            seats = []
        return Event(
            info.name, "session", day, s.state.finished, tuple((p, place[p]) for p in seats), event.position
        )
