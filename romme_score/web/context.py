"""What every request of ``romme serve`` needs: the server's settings, the session service
of the thread it runs in, and the language it is answered in.

Database work runs off the event loop, in Starlette's worker threads; each thread keeps
its own session service (an SQLite connection belongs to one thread), opened on first use.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import anyio.to_thread

from romme_score.cards import Profile
from romme_score.i18n import LANGUAGES, using_language
from romme_score.sessions import SessionInfo, SessionService
from romme_score.store.records import Link
from romme_score.web.cache import Built
from romme_score.web.links import LinkSet

T = TypeVar("T")


@dataclass(frozen=True)
class Limits:
    """What one client may hold or send (issue 19 item 5)."""

    body: int = 16 * 1024  # bytes of a write's JSON body
    streams: int = 128  # event streams open at once
    connections: int = 1000  # connections open at once (uvicorn's limit_concurrency)
    first_request: float = 10.0  # seconds a new connection has to send its request
    throttle_base: float = 0.25  # the first delay of a repeated 404, doubling ...
    throttle_cap: float = 4.0  # ... up to this
    throttle_free: int = 3  # 404s of an address answered without delay
    poll: float = 0.25  # seconds between two looks at the session's version
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
    session_ids: tuple[int, ...]  # every table's session, of every series drawn (the board's version)
    language: str
    limits: Limits = field(default_factory=Limits)


class Services:
    """A session service per worker thread, on the served database, and the answers
    built once per version for every page (:mod:`.cache`)."""

    def __init__(self, db: str) -> None:
        self.db = db
        self.built = Built()
        self._local = threading.local()
        self._lock = threading.Lock()
        self._opened: list[SessionService] = []

    def get(self) -> SessionService:
        found: SessionService | None = getattr(self._local, "service", None)
        if found is None:
            found = self._local.service = SessionService(self.db, create=False)
            with self._lock:
                self._opened.append(found)
        return found

    def close_all(self) -> None:
        with self._lock:
            opened, self._opened = self._opened, []
        for service in opened:
            try:
                service.close()
            except Exception:  # a connection of a thread that is gone: nothing to keep
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
class BoardCall:
    """One request to a tournament's board."""

    link: Link
    language: str
    config: TournamentConfig
    services: Services

    @property
    def service(self) -> SessionService:
        return self.services.get()


async def in_thread(call: Call | BoardCall, work: Callable[[Any], T]) -> T:
    """Run ``work`` in a worker thread, in the request's language."""

    def run() -> T:
        with using_language(call.language):
            return work(call)

    return await anyio.to_thread.run_sync(run)
