"""``GET {link}/events``: one server-sent event per change of the session, whose data is
its new ``version``; every page then fetches ``state.json``. A change is seen within a
second, whoever made it (a phone, ``romme play``, ``romme round`` in a terminal).

One watcher per session served (and per board) asks the session service whether the
session changed (:meth:`SessionService.changed_since`, cheap thanks to SQLite's
``data_version``) twice a second (:attr:`Limits.poll`), and at once after a write through
this server that could not tell the streams itself; every open stream waits on it. All
the watchers of a server look in one thread, on one connection (:class:`_Looker`). A
look costs little; the thread's waking costs most of it (some 0.25 ms of CPU each on a
small server, more than the look): four looks a second were half of an idle server's CPU
beside uvicorn's own ten ticks. A backend that can push changes (PostgreSQL's
LISTEN/NOTIFY) plugs into :func:`watch` alone.

A stream whose link the server no longer serves (renewed by ``--new-links`` in another
``romme serve``, its game deleted: seen at the night's next look) is told so (:data:`GONE`, an event whose
data is no version: the page asks its state, answered 404, and stops) and ends (issue 36
item 2): a page open on a revoked link never looks live.

A stream reconnecting after the phone slept sends the last version it saw
(``Last-Event-ID``; a page opening its stream after its first ``state.json`` says it as
``?since=N``); where the session changed meanwhile, the new version comes at once.

An idle stream costs what a plain Starlette stream costs (issue 28): every stream waits
on one :class:`asyncio.Event` of the watcher's, set (and replaced) at each change, at each
ping (one timer for all, every :data:`PING_SECONDS`) and when the server stops; no stream
has a timer or a task of its own beyond Starlette's
:class:`~starlette.responses.StreamingResponse`. An event's waiter is the stream's own
future, woken in one step of the loop (``asyncio.wait`` on a shared future took two, and
a coroutine more per stream), and a stream that ends cancels only its own.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import weakref
from collections.abc import AsyncIterator, Callable
from typing import Any

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse

from romme_score.errors import InputProblem, Refusal
from romme_score.i18n import using_language
from romme_score.sessions import SessionInfo, SessionService
from romme_score.store import StoreError
from romme_score.web.context import BoardCall, Call, LeagueCall, in_thread
from romme_score.web.errors import LOST, Answer, refusal

log = logging.getLogger("romme_score.web")

RETRY_MS = 2000  # how soon a page's EventSource tries again after losing the stream
PING_SECONDS = 15  # a comment line now and then, so that a dead connection is noticed
# A board's events (a tournament's, a league's) come this many seconds apart at the
# closest: the changes of many tables saving at once are told together, each board page
# then reading its state once, not once per table (issue 36 item 7: 125 tables saving at
# once sent each of a hundred boards 125 events); a change after a quiet moment is told
# at once.
BOARD_GAP = 0.05


def watch(service: SessionService, info: SessionInfo, seen: int, wake: threading.Event, every: float) -> int:
    """The session's version once it differs from ``seen``, or ``seen`` after ``every``
    seconds without a change (sooner when ``wake`` is set): the one place that asks."""
    if not service.changed_since(info, seen):
        wake.wait(every)
        wake.clear()
        if not service.changed_since(info, seen):
            return seen
    return service.version(info)


def session_version(
    session_id: int,
) -> Callable[[SessionService], Callable[[int, threading.Event, float], int]]:
    """How a watcher of one session looks: :func:`watch` on it."""

    def prepare(service: SessionService) -> Callable[[int, threading.Event, float], int]:
        info = service.session_by_id(session_id)
        return lambda seen, wake, every: watch(service, info, seen, wake, every)

    return prepare


def sum_version(
    version: Callable[[SessionService], Callable[[], int]],
) -> Callable[[SessionService], Callable[[int, threading.Event, float], int]]:
    """How a watcher of a board's version looks (a tournament's, a league's: counting up with
    every change of what it shows): ``version`` gives the number to compare, asked again
    after a wait."""

    def prepare(service: SessionService) -> Callable[[int, threading.Event, float], int]:
        current = version(service)

        def look(seen: int, wake: threading.Event, every: float) -> int:
            now = current()
            if now == seen:
                wake.wait(every)
                wake.clear()
                now = current()
            return now

        return look

    return prepare


class Watcher:
    """The session's version as last seen, for every stream of this server (or, with
    ``looks``, a version of several sessions: a tournament's board). Every watcher of a
    server on one database is looked after by one thread with one connection
    (:class:`_Looker`): a tournament of 125 tables had a thread and a connection for each
    table, more than a PostgreSQL server takes by default (issue 36 item 7)."""

    def __init__(
        self,
        db: str,
        session_id: int,
        every: float,
        looks: Callable[[SessionService], Callable[[int, threading.Event, float], int]] | None = None,
    ) -> None:
        self.db = db
        self.session_id = session_id
        self.board = looks is not None  # a board's version of several sessions (it writes nothing)
        self.looks = looks or session_version(session_id)
        self.every = every
        self.version = -1
        self.pings = 0  # how many pings were asked of the streams
        self._signal: asyncio.Event | None = None
        self._ping: asyncio.TimerHandle | None = None
        self._stop = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._looker: _Looker | None = None
        self.seen = -1  # the version last seen by the looker (not always told yet)
        self.due = False  # to be looked at now (poked): a write through this server
        self.quiet_until = 0.0  # a board: not looked at again before (monotonic seconds)
        self.streams = 0
        self.renewed = 0  # how often the links of its site changed: its streams look whether theirs is served
        self.dropped = False  # stopped as its site is served no more (a game deleted): its streams told so

    def start(self, service: SessionService | None = None) -> None:
        """In the event loop: the version read now (on ``service``, else on a connection
        of its own), then looked after with the server's other watchers."""
        self._loop = asyncio.get_running_loop()
        self._signal = asyncio.Event()
        self._ping = self._loop.call_later(PING_SECONDS, self._pinged)
        if service is None:
            with SessionService(self.db, create=False) as own:
                self.version = self.looks(own)(-2, threading.Event(), 0.0)
        else:
            self.version = self.looks(service)(-2, threading.Event(), 0.0)
        self.seen = self.version
        self._looker = _Looker.of(self._loop, self.db, self.every)
        self._looker.add(self)

    def stop(self, dropped: bool = False) -> None:
        """End every stream and the watch (when the server stops; again: nothing more);
        ``dropped``: its site is served no more, and each stream says so (:data:`GONE`)."""
        self.dropped = self.dropped or dropped
        self._stop = True
        loop = self._loop
        if loop is not None and not loop.is_closed():  # wake every stream, so that it sees the stop
            if _running_loop() is loop:
                self._publish(self.version)
                if self._ping is not None:
                    self._ping.cancel()
            else:  # from another thread (a test stopping its server)
                loop.call_soon_threadsafe(self._publish, self.version)
        looker, self._looker = self._looker, None
        if looker is not None:
            looker.remove(self)

    @property
    def stopping(self) -> bool:
        return self._stop

    def publish(self, version: int) -> None:
        """In the event loop: the session is at ``version`` now (a write through this
        server), told every stream at once; -1, nothing known: the watcher looks."""
        if version >= 0 and version != self.version and not self._stop:
            self._publish(version)

    def tell_from_thread(self, loop: asyncio.AbstractEventLoop, version: int) -> bool:
        """From the worker thread of a write that committed: ``version`` told every stream
        by the event loop, before the write's answer is sent (whether it could be: the
        loop may have closed, the server stopping). The thread does not wait for it: the
        loop runs its callbacks in turn, this one before the one that hands the thread's
        answer back, and the streams it wakes before the request that awaited the answer;
        so the events are written first without holding a worker thread. Waiting for them
        here (at most 50 ms, issue 28) held the thread while the loop was busy: 125 tables
        saving at once waited for each other (issue 36 item 7)."""
        try:
            loop.call_soon_threadsafe(self.publish, version)
        except RuntimeError:  # the loop closed meanwhile (the server stopped): nobody to tell
            return False
        return True

    def poke(self) -> None:
        """Look now (a write through this server just changed the session)."""
        self.due = True
        looker = self._looker
        if looker is not None:
            looker.wake.set()

    def _seen(self, now: int) -> None:
        """In the looker's thread: ``now`` seen; told the streams unless told already by a
        write through this server (a board's next look :data:`BOARD_GAP` later)."""
        self.seen = now
        loop = self._loop
        if now != self.version and not self._stop and loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(self._publish, now)
            except RuntimeError:  # closed meanwhile
                return
            if self.board:
                self.quiet_until = time.monotonic() + BOARD_GAP

    def renew(self) -> None:
        """In the event loop: the links of its site changed; every stream looks whether its
        own link is still served (the others end, saying so)."""
        self.renewed += 1
        self._wake_streams()

    def _publish(self, version: int) -> None:
        self.version = version
        self._wake_streams()

    def _pinged(self) -> None:
        self.pings += 1
        self._wake_streams()
        if self._loop is not None and not self._stop:
            self._ping = self._loop.call_later(PING_SECONDS, self._pinged)

    def _wake_streams(self) -> None:
        signal = self._signal
        if signal is None or self._loop is None:
            return
        self._signal = asyncio.Event()
        signal.set()

    async def changes(self, seen: int, served: Callable[[], bool] | None = None) -> AsyncIterator[int | None]:
        """Each new version after ``seen`` as it comes (None: a ping is due), until the
        server stops, or (``served`` given) the stream's link is served no more once the
        site's links changed."""
        pinged = self.pings
        renewed = self.renewed
        while not self._stop:
            signal = self._signal
            if self.renewed != renewed and served is not None:
                renewed = self.renewed
                if not served():
                    return
            if self.version != seen:
                seen = self.version
                yield seen
            elif self.pings != pinged:
                pinged = self.pings
                yield None
            elif signal is not None:
                await signal.wait()
            else:
                return


def start_watchers(watchers: list[Watcher]) -> None:
    """Start every watcher of a server (in its event loop), their versions read on one
    connection per database."""
    by_db: dict[str, list[Watcher]] = {}
    for watcher in watchers:
        by_db.setdefault(watcher.db, []).append(watcher)
    for db, some in by_db.items():
        with SessionService(db, create=False) as service:
            for watcher in some:
                watcher.start(service)


_NO_WAIT = threading.Event()  # a look that does not wait (the looker waits for all of them)


class _Looker:
    """One thread that looks, for every watcher of one event loop on one database, whether
    its version changed: twice a second (:attr:`Limits.poll`) every watcher, and at once
    those poked after a write through this server (the others' sessions did not change).
    A look that fails (busy, the database server gone, a session gone) is tried again
    after a while, on a new connection when the old one cannot be used; the version last
    seen stays the one compared, so a change made meanwhile is sent as soon as it is seen.
    A look costs little; the thread's waking costs most of it, so it wakes for all at once."""

    _all: dict[tuple[int, str], _Looker] = {}
    _lock = threading.Lock()

    def __init__(self, key: tuple[int, str], db: str, every: float) -> None:
        self.key, self.db, self.every = key, db, every
        self.watchers: list[Watcher] = []
        self.wake = threading.Event()
        self.stopped = False
        self.thread = threading.Thread(target=self._run, name="romme-serve-watcher", daemon=True)
        self.thread.start()

    @classmethod
    def of(cls, loop: asyncio.AbstractEventLoop, db: str, every: float) -> _Looker:
        key = (id(loop), db)
        with cls._lock:
            found = cls._all.get(key)
            if found is None or found.stopped:
                found = cls._all[key] = cls(key, db, every)
            found.every = min(found.every, every)
            return found

    def add(self, watcher: Watcher) -> None:
        with self._lock:
            self.watchers.append(watcher)

    def remove(self, watcher: Watcher) -> None:
        """The watcher no longer looked after; the thread ends with the last one."""
        with self._lock:
            if watcher in self.watchers:
                self.watchers.remove(watcher)
            if self.watchers or self.stopped:
                return
            self.stopped = True
            if self._all.get(self.key) is self:
                del self._all[self.key]
        self.wake.set()
        if threading.current_thread() is not self.thread:
            self.thread.join(timeout=2)

    def _run(self) -> None:
        prepared: dict[Watcher, Callable[[int, threading.Event, float], int]] = {}
        while not self.stopped:
            service: SessionService | None = None
            try:
                service = SessionService(self.db, create=False)
                prepared.clear()
                last_round = 0.0
                while not self.stopped:
                    now = time.monotonic()
                    every_one = now - last_round >= self.every
                    if every_one:
                        last_round = now
                    with self._lock:
                        watchers = list(self.watchers)
                    if every_one and len(prepared) > len(watchers):  # some stopped meanwhile
                        kept = set(watchers)
                        prepared = {w: look for w, look in prepared.items() if w in kept}
                    self._looks(service, prepared, watchers, every_one)
                    self.wake.wait(self._timeout(watchers, last_round))
                    self.wake.clear()
            except StoreError:  # the database away: open it again later
                self.wake.wait(max(self.every, 0.25))
                self.wake.clear()
            except Exception:  # a fault of ours: said once, and the watch goes on
                log.exception("the watcher of the event streams failed; it starts again")
                self.wake.wait(1.0)
                self.wake.clear()
            finally:
                if service is not None:
                    try:
                        service.close()
                    except Exception:
                        pass

    def _looks(
        self,
        service: SessionService,
        prepared: dict[Watcher, Callable[[int, threading.Event, float], int]],
        watchers: list[Watcher],
        every_one: bool,
    ) -> None:
        """The watchers poked (all of them with ``every_one``); a poke meanwhile is looked
        at before the round goes on (a round of 126 watchers on PostgreSQL takes a while)."""
        for watcher in watchers:
            if self.wake.is_set() and every_one:
                self.wake.clear()
                self._looks(service, prepared, watchers, False)
            if watcher.stopping or not (every_one or watcher.due):
                continue
            if watcher.board and watcher.quiet_until > time.monotonic():
                continue  # a board that just told: its next look a moment later
            watcher.due = False
            self._look(service, prepared, watcher)

    def _look(
        self,
        service: SessionService,
        prepared: dict[Watcher, Callable[[int, threading.Event, float], int]],
        watcher: Watcher,
    ) -> None:
        """One watcher's look; busy, or its session gone: looked at again next time; the
        database lost: raised (a new connection)."""
        try:
            look = prepared.get(watcher)
            if look is None:
                look = prepared[watcher] = watcher.looks(service)
            now = look(watcher.seen, _NO_WAIT, 0.0)
        except StoreError as exc:
            if exc.code in LOST:
                raise
            prepared.pop(watcher, None)
            return
        except (InputProblem, Refusal):  # the session or the tournament gone
            prepared.pop(watcher, None)
            return
        if now != watcher.seen:
            watcher._seen(now)

    def _timeout(self, watchers: list[Watcher], last_round: float) -> float:
        """Seconds until the next look: the next round of all, or a board's quiet moment
        ending with a poke waiting for it."""
        now = time.monotonic()
        wait = max(0.0, last_round + self.every - now)
        for watcher in watchers:
            if watcher.due and watcher.board and watcher.quiet_until > now:
                wait = min(wait, watcher.quiet_until - now)
        return wait


def after_write(watchers: list[Watcher], own: Watcher, told: bool) -> None:
    """After a write through ``own``'s links: the watchers with streams that must look at
    once. ``own`` where the write could not tell its streams itself (``told``), and every
    board (a tournament's, a league's: their version sums the tables'); every other table's
    watcher waits for its next look, as its session did not change. Poking every watcher
    (issue 36 item 7: a tournament of 125 tables) woke 126 threads at each save, each
    reading its session's version again (SQLite's ``data_version`` says only that the file
    changed), and held the interpreter while the save's event was being written."""
    for watcher in watchers:
        if watcher.streams and (watcher.board or (watcher is own and not told)):
            watcher.poke()


class _Stream(StreamingResponse):
    """An event stream that gives back its place among the watcher's streams when it
    ends, however it ends (the client gone, the server stopping, before its first event)."""

    def __init__(self, watcher: Watcher, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.watcher = watcher

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.watcher.streams -= 1


async def events(
    request: Request,
    call: Call | BoardCall | LeagueCall,
    watcher: Watcher,
    limit: int,
    current: Callable[[Any], int] | None = None,
    served: Callable[[], bool] | None = None,
) -> Response:
    """The stream of one page. Its place among the ``limit`` streams is taken at once,
    before anything is awaited (so streams opened together cannot all pass the check),
    and given back when the stream ends, or here when it does not start. ``served``:
    whether its link is still served, asked when the site's links changed (no: the page
    is told :data:`GONE`, and the stream ends; so too when its site is served no more)."""
    if watcher.streams >= limit:
        answer = refusal("too-many-streams", 503)
        return JSONResponse(answer.body, status_code=answer.status, headers=answer.headers)
    watcher.streams += 1
    try:
        last = request.headers.get("last-event-id") or request.query_params.get("since")
        # The version read afresh: a database gone or away is refused here as on every
        # other endpoint (503), not answered with a stream that never moves. Read in the
        # event loop on an idle connection of the pool (a lookup: a hundred streams opened
        # together start no hundred worker threads, each with a connection of its own);
        # in a worker thread, which says what went wrong, when none is idle or it failed.
        found = _version_here(call, current or _version)
        now: int = found if found is not None else await in_thread(call, current or _version, _opening())
    except BaseException:
        watcher.streams -= 1
        raise

    async def stream() -> AsyncIterator[str]:
        if last is not None and last != str(now):
            yield _event(now)
        async for version in watcher.changes(now, served):
            yield _event(version) if version is not None else PING
        if served is not None and (watcher.dropped or not watcher.stopping) and not served():
            yield GONE  # the page closes the stream, asks its state (404) and stops

    return _Stream(watcher, stream(), media_type=EVENTS, headers=STREAM_HEADERS)


EVENTS = "text/event-stream"
STREAM_HEADERS = {"cache-control": "no-store", "x-accel-buffering": "no"}
PING = ": ping\r\n\r\n"  # a comment line: no event, but a dead connection is noticed
GONE = "data: gone\r\n\r\n"  # no version: the page asks its state (a link no longer served: 404)


def _event(version: int) -> str:
    """One server-sent event: the new version, as its data and its id."""
    return f"id: {version}\r\ndata: {version}\r\nretry: {RETRY_MS}\r\n\r\n"


OPENING_THREADS = 2  # worker threads reading the version of streams being opened, at most
WRITING_THREADS = 4  # worker threads running the server's writes, at most
_LIMITERS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, anyio.CapacityLimiter]] = (
    weakref.WeakKeyDictionary()
)


def _limiter(name: str, threads: int) -> anyio.CapacityLimiter:
    """The limiter ``name`` of the running event loop (made at its first use)."""
    found = _LIMITERS.setdefault(asyncio.get_running_loop(), {})
    if name not in found:
        found[name] = anyio.CapacityLimiter(threads)
    return found[name]


def _opening() -> anyio.CapacityLimiter:
    """The worker threads of the streams being opened, :data:`OPENING_THREADS` at most. A
    hundred projectors opening a tournament's board at once (whose version is read in a
    thread) took forty worker threads with a database connection each, kept after the
    streams opened: 1.9x a minimal app's memory per stream (issue 36 item 7); the others
    wait a moment for their turn."""
    return _limiter("opening", OPENING_THREADS)


def writing() -> anyio.CapacityLimiter:
    """The worker threads of the writes, :data:`WRITING_THREADS` at most: the database
    takes one write after the other (SQLite; PostgreSQL one per session), so more threads
    only wait, each with a connection of its own (opened for the burst and closed after
    it), and take turns on the interpreter with the one whose transaction holds the write
    lock, which then holds it longer (issue 36 item 7: 125 tables saving at once ran in
    forty threads)."""
    return _limiter("writing", WRITING_THREADS)


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _version(call: Call) -> int:
    return call.service.version(call.info())


def _version_here(call: Call | BoardCall | LeagueCall, version: Callable[[Any], int]) -> int | None:
    """The version of a session, read in the event loop on an idle pooled connection;
    None: none is idle (none is opened here), the read failed (the worker thread reads
    again and answers as every endpoint does), or it is a board's version (a tournament's
    sums every table's: more than a lookup, read in a thread)."""
    if not isinstance(call, Call):
        return None
    try:
        with using_language(call.language), call.services.lease_idle() as leased:
            return version(call) if leased else None
    except (Answer, StoreError, InputProblem, Refusal):
        return None
