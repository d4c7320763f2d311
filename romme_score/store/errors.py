"""What the store refuses, as errors that carry facts (STYLE.md "Errors").

Each error says what is wrong, with the values involved, in one sentence; it never says
how to fix it in some front end's terms. The command line adds "give another file with
--db", the table mode its keys, a web page its buttons: each front end looks at the
class and its attributes. Every class is a :class:`~romme_score.errors.Refusal` (exit
code 1) but :class:`DatabasePathError`, an :class:`~romme_score.errors.InputProblem`.
"""

from __future__ import annotations

from collections.abc import Sequence

from romme_score.errors import InputProblem, Refusal
from romme_score.i18n import _, ngettext, shown


class StoreError(Refusal):
    """The database cannot be used as asked."""


class StoreBusy(StoreError):
    """Another process holds the write lock longer than the busy timeout."""

    code = "busy"

    def __init__(self) -> None:
        super().__init__(_("the database is busy (another romme is writing to it); try again"))


class Raced(StoreBusy):
    """A transaction held across a command (:meth:`Store.held`) met another writer (a
    deadlock, a serialization failure): nothing of it was written, and the whole of it may
    run again (:meth:`SessionService.one_transaction` does)."""


class Unreachable(StoreError):
    """The database server cannot be reached (down, restarting, the network gone): the
    connection is dropped, and the next use opens a new one. ``cause`` names a case the
    driver's words were read as (the subclasses below), None where they were not."""

    code = "unreachable"
    cause: str | None = None

    def __init__(self, location: object, reason: str) -> None:
        super().__init__(
            _("cannot reach the database %(path)s: %(reason)s") % {"path": location, "reason": reason}
        )
        self.location = location
        self.reason = reason


class ServerRefused(Unreachable):
    """No database server answers at the address: the connection was refused (nothing
    listens on that port) or there is no server's socket. ``host`` and ``port`` are where
    it was asked (``port`` None: ``host`` is a socket's path); ``reason`` the driver's own
    words."""

    code = "unreachable"  # to every front end as Unreachable: the web's 503, a retry
    cause = "refused"

    def __init__(self, location: object, host: str, port: str | None, reason: str) -> None:
        if port is None:
            message = _(
                "cannot reach the database %(path)s: no PostgreSQL server answers at the socket "
                "%(host)s (is it running?)"
            )
        else:
            message = _(
                "cannot reach the database %(path)s: no PostgreSQL server answers at %(host)s, port "
                "%(port)s (is it running?)"
            )
        StoreError.__init__(self, message % {"path": location, "host": host, "port": port})
        self.location = location
        self.host = host
        self.port = port
        self.reason = reason


class LoginRefused(Unreachable):
    """The server would not let the user in. ``why`` is ``password`` (a wrong password),
    ``no-password`` (the server asks for one and none was given) or ``no-user`` (no such
    role on the server); ``reason`` the driver's own words."""

    code = "unreachable"  # to every front end as Unreachable: the web's 503, a retry
    cause = "login"

    def __init__(self, location: object, user: str, why: str, reason: str) -> None:
        if why == "no-user":
            message = _("cannot use the database %(path)s: the server knows no user %(user)s")
        elif why == "no-password":
            message = _(
                "cannot use the database %(path)s: the server asks user %(user)s for a password, and none "
                "was given (~/.pgpass or PGPASSWORD)"
            )
        else:
            message = _("cannot use the database %(path)s: the server refused the password of user %(user)s")
        StoreError.__init__(self, message % {"path": location, "user": f"'{user}'"})
        self.location = location
        self.user = user
        self.why = why
        self.reason = reason


class NoDatabaseOnServer(Unreachable):
    """The server answers but holds no database of that name (romme creates the tables, not
    the database itself: ``createdb``)."""

    code = "unreachable"  # to every front end as Unreachable: the web's 503, a retry
    cause = "no-database"

    def __init__(self, location: object, database: str, reason: str) -> None:
        StoreError.__init__(
            self,
            _(
                "cannot use the database %(path)s: the server has no database %(database)s "
                "(create it with: createdb %(name)s)"
            )
            % {"path": location, "database": f"'{database}'", "name": database},
        )
        self.location = location
        self.database = database
        self.reason = reason


class ConnectionClosed(Unreachable):
    """The server closed the connection (it was stopped or restarted, or an administrator
    ended it); the next use opens a new one."""

    code = "unreachable"  # to every front end as Unreachable: the web's 503, a retry
    cause = "closed"

    def __init__(self, location: object, reason: str) -> None:
        StoreError.__init__(
            self,
            _("the server of the database %(path)s closed the connection (stopped or restarted); try again")
            % {"path": location},
        )
        self.location = location
        self.reason = reason


class DatabaseGone(StoreError):
    """The database file was deleted or replaced by another file since it was opened: a
    write would go into the old, unlinked file and be lost, so nothing is written."""

    code = "database-gone"

    def __init__(self, location: object) -> None:
        super().__init__(
            _("the database file %(path)s was deleted or replaced while open; nothing was written")
            % {"path": location}
        )
        self.location = location


class NotOurs(StoreError):
    """A file that is not romme-score's: not an SQLite file, or another program's database.
    It was left untouched."""

    def __init__(self, location: object, sqlite: bool, server: bool = False) -> None:
        if server:  # a PostgreSQL database holding tables of another program
            message = _("%(path)s holds tables of another program, not of romme-score; it was left untouched")
        elif sqlite:
            message = _(
                "%(path)s is an SQLite database of another program, not of romme-score; it was left untouched"
            )
        else:
            message = _("%(path)s is not a romme-score database (not an SQLite file); it was left untouched")
        super().__init__(message % {"path": location})
        self.location = location
        self.sqlite = sqlite
        self.server = server


class Damaged(StoreError):
    """A database whose pages do not hold together; it was left untouched."""

    def __init__(self, location: object, reason: str) -> None:
        super().__init__(
            _("the database %(path)s is damaged (%(reason)s); it was left untouched")
            % {"path": location, "reason": reason}
        )
        self.location = location
        self.reason = reason


class NewerSchema(StoreError):
    """A database written by a newer romme-score."""

    def __init__(self, location: object, version: int, known: int) -> None:
        super().__init__(
            _(
                "%(path)s was written by a newer romme-score (schema %(version)d, this one knows "
                "%(known)d): upgrade romme-score"
            )
            % {"path": location, "version": version, "known": known}
        )
        self.location = location
        self.version = version
        self.known = known


class WriteFailed(StoreError):
    """The file system refused the write (full, read-only, an I/O error); nothing was written."""

    def __init__(self, location: object, reason: str, read_only: bool = False) -> None:
        if read_only:
            message = _("cannot write to %(path)s: the file is read-only; nothing was written")
        elif "full" in reason:
            message = _(
                "cannot write to %(path)s: %(reason)s; nothing was written (free some space and try again)"
            )
        else:
            message = _("cannot write to %(path)s: %(reason)s; nothing was written")
        super().__init__(message % {"path": location, "reason": reason})
        self.location = location
        self.reason = reason
        self.read_only = read_only


class UnescapedInURL(InputProblem):
    """A PostgreSQL URL whose user or password holds ``/``, ``?``, ``#`` or ``@`` unescaped: the
    driver would read the rest of the password as the address. Nothing was sent."""

    def __init__(self, location: object, character: str) -> None:
        super().__init__(
            _(
                "%(path)s: the user or password holds %(character)s, which a URL holds only "
                "written as %(escaped)s; nothing was sent"
            )
            % {"path": location, "character": f"'{character}'", "escaped": ESCAPED[character]}
        )
        self.location = location
        self.character = character


ESCAPED = {"/": "%2F", "?": "%3F", "#": "%23", "@": "%40"}


class DatabasePathError(InputProblem):
    """A database location where no database can be (a folder, below a plain file, an
    uncreatable folder, a URL of an unknown kind)."""

    def __init__(self, message: str, location: object) -> None:
        super().__init__(message)
        self.location = location


class NotFound(StoreError):
    """No such database, session or round."""

    code = "not-found"


class NoDatabase(NotFound):
    """No database at the location (and it was not to be created)."""

    def __init__(self, location: object) -> None:
        super().__init__(_("no database at %(path)s") % {"path": location})
        self.location = location


class NoCurrentSession(NotFound):
    """No session was named and none is current."""

    def __init__(self) -> None:
        super().__init__(_("no current session"))


class NoSuchSession(NotFound):
    """No session of that name; ``close`` is the nearest name, ``known`` all of them."""

    def __init__(self, name: str, known: Sequence[str]) -> None:
        import difflib  # only when a name is wrong

        close = difflib.get_close_matches(name, list(known), n=1)
        names = ", ".join(known) or _("none yet")
        if close:
            message = _("no session named %(session)s; did you mean %(close)s? (sessions: %(known)s)")
        else:
            message = _("no session named %(session)s (sessions: %(known)s)")
        super().__init__(
            message % {"session": shown(name), "close": close[0] if close else "", "known": names}
        )
        self.name = name
        self.close = close[0] if close else None
        self.known = tuple(known)


class NoRounds(NotFound):
    """The session has no round to take back."""

    def __init__(self, session: str) -> None:
        super().__init__(_("session '%(session)s' has no rounds to undo") % {"session": session})
        self.session = session


class RoundNotThere(NotFound):
    """A round number that the session does not have (any more)."""

    def __init__(self, number: int, session: str) -> None:
        super().__init__(
            _("round %(number)d is not in session '%(session)s'") % {"number": number, "session": session}
        )
        self.number = number
        self.session = session


class SessionExists(StoreError):
    """A session of that name exists already. ``action`` is what was asked: ``create``,
    ``rename`` or ``import`` (the front ends offer different ways out)."""

    def __init__(self, name: str, action: str) -> None:
        super().__init__(_("a session named '%(session)s' exists already") % {"session": name})
        self.name = name
        self.action = action


class PendingChanged(StoreError):
    """The round in progress changed between reading it and saving it (a phone sent a
    hand meanwhile); nothing was written. ``revision`` is its revision now."""

    code = "changed"

    def __init__(self, session: str, revision: int) -> None:
        super().__init__(
            _("the round in progress of session '%(session)s' changed meanwhile; nothing was written")
            % {"session": session}
        )
        self.session = session
        self.revision = revision


class KeyTaken(StoreError):
    """A write carried an idempotency key another write of the session was applied under
    (the same write sent again); nothing was written."""

    code = "key-taken"

    def __init__(self, session: str, key: str) -> None:
        super().__init__(
            _("the write with key %(key)s was applied already; nothing was written") % {"key": key}
        )
        self.session = session
        self.key = key


# --- tournaments ----------------------------------------------------------------------


class NoCurrentTournament(NotFound):
    """No tournament was named and none is current."""

    def __init__(self) -> None:
        super().__init__(_("no current tournament"))


class NoSuchTournament(NotFound):
    """No tournament of that name; ``close`` is the nearest name, ``known`` all of them."""

    def __init__(self, name: str, known: Sequence[str]) -> None:
        import difflib  # only when a name is wrong

        close = difflib.get_close_matches(name, list(known), n=1)
        names = ", ".join(known) or _("none yet")
        if close:
            message = _("no tournament named '%(name)s'; did you mean %(close)s? (tournaments: %(known)s)")
        else:
            message = _("no tournament named '%(name)s' (tournaments: %(known)s)")
        super().__init__(message % {"name": name, "close": close[0] if close else "", "known": names})
        self.name = name
        self.close = close[0] if close else None
        self.known = tuple(known)


class TournamentExists(StoreError):
    """A tournament of that name exists already."""

    def __init__(self, name: str) -> None:
        super().__init__(_("a tournament named '%(name)s' exists already") % {"name": name})
        self.name = name


class SeriesDrawn(StoreError):
    """The series was drawn already (by another organiser at the same moment, say)."""

    def __init__(self, tournament: str, series: int) -> None:
        super().__init__(
            _("series %(series)d of tournament '%(tournament)s' is drawn already")
            % {"series": series, "tournament": tournament}
        )
        self.tournament = tournament
        self.series = series


class SessionInTournament(StoreError):
    """A session that is a table of a tournament: it cannot be deleted or replaced, or the
    tournament would lose its results."""

    def __init__(self, session: str, tournament: str) -> None:
        super().__init__(
            _("session '%(session)s' is a table of tournament '%(tournament)s'; it was left as it is")
            % {"session": session, "tournament": tournament}
        )
        self.session = session
        self.tournament = tournament


# --- leagues (docs/rules.md §11) -------------------------------------------------------------


class NoSuchLeague(NotFound):
    """No league of that name; ``close`` is the nearest name, ``known`` all of them."""

    def __init__(self, name: str, known: Sequence[str]) -> None:
        import difflib  # only when a name is wrong

        close = difflib.get_close_matches(name, list(known), n=1)
        names = ", ".join(known) or _("none yet")
        if close:
            message = _("no league named '%(name)s'; did you mean %(close)s? (leagues: %(known)s)")
        else:
            message = _("no league named '%(name)s' (leagues: %(known)s)")
        super().__init__(message % {"name": name, "close": close[0] if close else "", "known": names})
        self.name = name
        self.close = close[0] if close else None
        self.known = tuple(known)


class LeagueExists(StoreError):
    """A league of that name exists already."""

    def __init__(self, name: str) -> None:
        super().__init__(_("a league named '%(name)s' exists already") % {"name": name})
        self.name = name


class EventInLeague(StoreError):
    """The event is in the league already (added twice); nothing was written."""

    def __init__(self, league: str, kind: str, event: str) -> None:
        if kind == "tournament":
            message = _("tournament '%(event)s' counts in league '%(league)s' already; nothing was added")
        else:
            message = _("session '%(event)s' counts in league '%(league)s' already; nothing was added")
        super().__init__(message % {"event": event, "league": league})
        self.league = league
        self.kind = kind
        self.event = event


class TableInLeague(StoreError):
    """A session that is a table of a tournament, added to a league as a game of its own:
    its games count in the tournament's places, and would count twice (docs/rules.md §11);
    nothing was written."""

    def __init__(self, league: str, event: str, tournament: str) -> None:
        super().__init__(
            _(
                "session '%(event)s' is a table of tournament '%(tournament)s': its games count "
                "in the tournament's places, in league '%(league)s' with the tournament; nothing "
                "was added"
            )
            % {"event": event, "tournament": tournament, "league": league}
        )
        self.league = league
        self.event = event
        self.tournament = tournament


class SessionInLeague(StoreError):
    """A session that counts in a league (``leagues``, by name, oldest first): deleting it
    would change the season's standings unasked, so it is left as it is until it is taken
    out of each (docs/league.md); nothing was written."""

    def __init__(self, session: str, leagues: Sequence[str]) -> None:
        message = ngettext(
            "session '%(session)s' counts in league %(leagues)s; it was left as it is",
            "session '%(session)s' counts in leagues %(leagues)s; it was left as it is",
            len(leagues),
        )
        super().__init__(
            message % {"session": session, "leagues": ", ".join(f"'{name}'" for name in leagues)}
        )
        self.session = session
        self.leagues = tuple(leagues)


class EventNotInLeague(NotFound):
    """The event to remove is not in the league."""

    def __init__(self, league: str, kind: str, event: str) -> None:
        if kind == "tournament":
            message = _("tournament '%(event)s' is not in league '%(league)s'")
        else:
            message = _("session '%(event)s' is not in league '%(league)s'")
        super().__init__(message % {"event": event, "league": league})
        self.league = league
        self.kind = kind
        self.event = event
