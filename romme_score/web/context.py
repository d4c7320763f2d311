"""What every request of ``romme serve`` needs: the server's settings, the session service
of the thread it runs in, and the language it is answered in.

Database work runs off the event loop, in Starlette's worker threads; each piece of work
takes a session service from a small pool (:class:`Services`) and gives it back.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

import anyio
import anyio.to_thread

from romme_score.cards import Profile
from romme_score.i18n import LANGUAGES, using_language
from romme_score.sessions import SessionInfo, SessionService
from romme_score.store.errors import DatabaseGone, NoDatabase
from romme_score.store.records import Link
from romme_score.web.cache import Built
from romme_score.web.links import LinkSet

T = TypeVar("T")


@dataclass(frozen=True)
class Limits:
    """What one client may hold or send (issue 19 item 5)."""

    body: int = 16 * 1024  # bytes of a write's JSON body
    streams: int = 128  # event streams open at once
    connections: int = 1000  # connections open and requests under way at once (web/guard.py Crowd)
    first_request: float = 10.0  # seconds a new connection has to send its request
    body_time: float = 10.0  # seconds a write's body has to arrive once its headers did
    throttle_base: float = 0.25  # the first delay of a repeated 404, doubling ...
    throttle_cap: float = 4.0  # ... up to this
    throttle_free: int = 3  # 404s of an address answered without delay
    poll: float = 0.5  # seconds between two looks at the session's version (a change made elsewhere)
    shutdown: float = 2.0  # seconds open connections get to finish when stopping


@dataclass(frozen=True)
class ServeConfig:
    """One session served to the phones."""

    db: str
    session_id: int
    links: LinkSet
    language: str  # when neither ?lang= nor the browser's Accept-Language says
    notation: Profile = "de"
    limits: Limits = field(default_factory=Limits)
    served_on: str = ""  # the address served on (--host)
    allow_hosts: tuple[str, ...] = ()  # names a request's Host may give besides (--allow-host)


@dataclass(frozen=True)
class TournamentConfig:
    """A tournament served: its board (a link of its own) and every table of the drawn
    series, each an ordinary session served as :class:`ServeConfig` says."""

    db: str
    tournament: str
    series: int  # the series whose tables are served
    board: LinkSet  # one link, of kind ``tournament``
    tables: tuple[ServeConfig, ...]
    table_numbers: tuple[int, ...]  # the table number of each of ``tables``
    session_ids: tuple[int, ...]  # every table's session, of every series drawn (served)
    language: str
    limits: Limits = field(default_factory=Limits)
    served_on: str = ""
    allow_hosts: tuple[str, ...] = ()


@dataclass(frozen=True)
class LeagueConfig:
    """A league served: its board alone (one link, of kind ``league``), read only."""

    db: str
    league: str
    board: LinkSet
    language: str
    limits: Limits = field(default_factory=Limits)
    served_on: str = ""
    allow_hosts: tuple[str, ...] = ()


ORGANIZER = "organizer"  # the kind of the organiser's link


@dataclass(frozen=True)
class NightConfig:
    """A server that follows the night: everything in the database (``tournament`` None),
    or one tournament with every series' tables."""

    db: str
    base: str  # http://ADDRESS:PORT
    language: str
    notation: Profile = "de"
    tournament: str | None = None
    new_links: bool = False  # renew every link once, as the server starts
    limits: Limits = field(default_factory=Limits)
    served_on: str = ""
    allow_hosts: tuple[str, ...] = ()


@dataclass(frozen=True)
class OrganizerConfig:
    """The organiser's page of ``romme serve --all`` (issue 36 item 3): one link, kept in
    the database, that sees the night and starts, draws and ends."""

    night: NightConfig
    links: LinkSet  # one link, of kind ``organizer``
    tournaments: tuple[str, ...] = ()  # every tournament's name, drawn or not, in their order
    series: tuple[int, ...] = ()  # how many series each of them has (issue 36 item 3)

    @property
    def db(self) -> str:
        return self.night.db

    @property
    def language(self) -> str:
        return self.night.language

    @property
    def limits(self) -> Limits:
        return self.night.limits


class Services:
    """The session services of the worker threads, on the served database: a small pool;
    and the answers built once per version for every page (:mod:`.cache`).

    A request's work takes a service for as long as it runs (:func:`in_thread`) and gives
    it back; at most ``keep`` idle ones are kept, the others closed, so the open
    connections stay a fixed number however long the server runs and however many worker
    threads come and go (a thread's own connection, never closed when the thread
    retired, leaked one file each time: issue 31 item 6). A service whose database went
    away (:meth:`drop`) is closed, not given back: the next request opens a new one.
    """

    def __init__(self, db: str, keep: int = 8) -> None:
        self.db = db
        self.keep = keep
        self.built = Built()
        self._local = threading.local()
        self._lock = threading.Lock()
        self._idle: list[SessionService] = []
        self._busy: set[SessionService] = set()

    def _open(self) -> SessionService:
        try:
            return SessionService(self.db, create=False)
        except NoDatabase as exc:  # there was one when the server started
            raise DatabaseGone(exc.location) from None

    @contextmanager
    def lease(self) -> Iterator[None]:
        """This thread's service for the block (taken from the pool, or opened)."""
        if getattr(self._local, "leased", False):  # already in a lease
            yield
            return
        self._local.leased = True
        self._local.dropped = False
        with self._lock:
            found = self._idle.pop() if self._idle else None
            if found is not None:
                self._busy.add(found)
        self._local.service = found
        try:
            yield
        finally:
            service, self._local.service = self._local.service, None
            self._local.leased = False
            if service is not None:
                self._give_back(service, self._local.dropped)

    @contextmanager
    def lease_idle(self) -> Iterator[bool]:
        """An idle service for a quick look in the event loop (a version), or False: none
        is idle, and none is opened here (opening a connection may wait for the network;
        the look is then made in a worker thread)."""
        with self._lock:
            found = self._idle.pop() if self._idle else None
            if found is not None:
                self._busy.add(found)
        if found is None:
            yield False
            return
        self._local.leased = True
        self._local.dropped = False
        self._local.service = found
        try:
            yield True
        finally:
            service, self._local.service = self._local.service, None
            self._local.leased = False
            if service is not None:
                self._give_back(service, self._local.dropped)

    def _give_back(self, service: SessionService, dropped: bool) -> None:
        with self._lock:
            self._busy.discard(service)
            keep = not dropped and len(self._idle) < self.keep
            if keep:
                self._idle.append(service)
        if not keep:
            _close(service)

    def get(self) -> SessionService:
        """The service of the lease this thread holds (opened on first use)."""
        found: SessionService | None = getattr(self._local, "service", None)
        if found is None:
            if not getattr(self._local, "leased", False):
                raise RuntimeError("a session service is used outside Services.lease()")
            found = self._local.service = self._open()
            with self._lock:
                self._busy.add(found)
        return found

    def drop(self) -> None:
        """Close this thread's service when its lease ends (its database went away)."""
        self._local.dropped = True

    @property
    def open_count(self) -> int:
        with self._lock:
            return len(self._idle) + len(self._busy)

    def close_all(self) -> None:
        with self._lock:
            opened, self._idle = self._idle, []
        for service in opened:
            _close(service)


def _close(service: SessionService) -> None:
    try:
        service.close()
    except Exception:  # a connection that broke: nothing to keep
        pass


def request_language(asked: str | None, accept: str | None, default: str) -> str:
    """``?lang=de|en``, else the first of the browser's Accept-Language we speak, else the
    server's language.

    >>> request_language(None, "fr-CH, de;q=0.9, en;q=0.8", "en")
    'de'
    >>> request_language("en", "de", "de"), request_language(None, "fr", "de")
    ('en', 'de')
    """
    if asked in LANGUAGES:
        return asked
    best: tuple[float, int, str] | None = None
    for position, part in enumerate((accept or "").split(",")):
        tag, _sep, params = part.strip().partition(";")
        code = tag.strip().lower().split("-")[0]
        if code not in LANGUAGES:
            continue
        quality = 1.0
        for param in params.split(";"):
            name, _eq, value = param.strip().partition("=")
            if name == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if quality > 0 and (best is None or (-quality, position) < (-best[0], best[1])):
            best = (quality, position, code)
    return best[2] if best else default


@dataclass(frozen=True)
class Call:
    """One request's link, language and notation, handed to the code that runs in a thread."""

    link: Link
    language: str
    notation: Profile
    config: ServeConfig
    services: Services

    @property
    def service(self) -> SessionService:
        return self.services.get()

    def info(self) -> SessionInfo:
        return self.service.session_by_id(self.config.session_id)


@dataclass(frozen=True)
class WriteCall(Call):
    """One write's request: its session read once however often the write asks for it
    (a write is one transaction; an event stream's :class:`Call` reads it anew each time)."""

    found: list[SessionInfo] = field(default_factory=list, compare=False, repr=False)

    def info(self) -> SessionInfo:
        if not self.found:
            self.found.append(self.service.session_by_id(self.config.session_id))
        return self.found[0]


@dataclass(frozen=True)
class BoardCall:
    """One request to a tournament's board."""

    link: Link
    language: str
    config: TournamentConfig
    services: Services

    @property
    def service(self) -> SessionService:
        return self.services.get()


@dataclass(frozen=True)
class LeagueCall:
    """One request to a league's board."""

    link: Link
    language: str
    config: LeagueConfig
    services: Services

    @property
    def service(self) -> SessionService:
        return self.services.get()


@dataclass(frozen=True)
class OrganizerCall:
    """One request to the organiser's page."""

    link: Link
    language: str
    config: OrganizerConfig
    services: Services

    @property
    def service(self) -> SessionService:
        return self.services.get()


async def in_thread(
    call: Call | BoardCall | LeagueCall | OrganizerCall,
    work: Callable[[Any], T],
    limiter: anyio.CapacityLimiter | None = None,
) -> T:
    """Run ``work`` in a worker thread, in the request's language (``limiter``: among
    so many at once, else anyio's default of 40)."""

    def run() -> T:
        with using_language(call.language), call.services.lease():
            return work(call)

    return await anyio.to_thread.run_sync(run, limiter=limiter)
