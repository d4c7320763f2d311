"""``GET {link}/events``: one server-sent event per change of the session, whose data is
its new ``version``; every page then fetches ``state.json``. A change is seen within a
second, whoever made it (a phone, ``romme play``, ``romme round`` in a terminal).

One watcher per server asks the session service whether the session changed
(:meth:`SessionService.changed_since`, cheap thanks to SQLite's ``data_version``) twice
a second (:attr:`Limits.poll`), in a thread of its own, and at once after a write through
this server; every open stream waits on it. A look costs little; the thread's waking
costs most of it (some 0.25 ms of CPU each on a small server, more than the look): four
looks a second were half of an idle server's CPU beside uvicorn's own ten ticks. A
backend that can push changes (PostgreSQL's LISTEN/NOTIFY) plugs into :func:`watch` alone.

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
    ``looks``, a version of several sessions: a tournament's board)."""

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
        self._wake = threading.Event()
        self._stop = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self.streams = 0

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._signal = asyncio.Event()
        self._ping = self._loop.call_later(PING_SECONDS, self._pinged)
        with SessionService(self.db, create=False) as service:
            self.version = self.looks(service)(-2, threading.Event(), 0.0)
        self._thread = threading.Thread(target=self._run, name="romme-serve-watcher", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """End every stream and the watch (when the server stops; again: nothing more)."""
        self._stop = True
        self._wake.set()
        loop = self._loop
        if loop is not None and not loop.is_closed():  # wake every stream, so that it sees the stop
            if _running_loop() is loop:
                self._publish(self.version)
                if self._ping is not None:
                    self._ping.cancel()
            else:  # from another thread (a test stopping its server)
                loop.call_soon_threadsafe(self._publish, self.version)
        if self._thread is not None:
            self._thread.join(timeout=2)

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
        self._wake.set()

    def _run(self) -> None:
        """Look until the server stops, whatever the database does: a look that fails
        (busy, the database server gone, the session gone) is tried again after a while,
        on a new connection when the old one cannot be used; the version last published
        stays the one compared, so a change made meanwhile is sent as soon as it is seen."""
        seen = self.version
        while not self._stop:
            service: SessionService | None = None
            try:
                service = SessionService(self.db, create=False)
                look = self.looks(service)
                while not self._stop:
                    try:
                        now = look(seen, self._wake, self.every)
                    except StoreError as exc:
                        if exc.code in LOST:
                            raise
                        self._wake.wait(self.every)  # busy: look again later
                        self._wake.clear()
                        continue
                    loop = self._loop
                    if now != seen and not self._stop and loop is not None and not loop.is_closed():
                        seen = now
                        if now != self.version:  # not told already by a write through this server
                            loop.call_soon_threadsafe(self._publish, seen)
                            if self.board:  # the next change of a board told BOARD_GAP later at the soonest
                                time.sleep(BOARD_GAP)
            except StoreError:  # the database away, or the session: open it again later
                self._wake.wait(max(self.every, 0.25))
                self._wake.clear()
            except Exception:  # a fault of ours: said once, and the watch goes on
                log.exception("the watcher of the event streams failed; it starts again")
                self._wake.wait(1.0)
                self._wake.clear()
            finally:
                if service is not None:
                    try:
                        service.close()
                    except Exception:
                        pass

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

    async def changes(self, seen: int) -> AsyncIterator[int | None]:
        """Each new version after ``seen`` as it comes (None: a ping is due), until the
        server stops."""
        pinged = self.pings
        while not self._stop:
            signal = self._signal
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
) -> Response:
    """The stream of one page. Its place among the ``limit`` streams is taken at once,
    before anything is awaited (so streams opened together cannot all pass the check),
    and given back when the stream ends, or here when it does not start."""
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
        async for version in watcher.changes(now):
            yield _event(version) if version is not None else PING

    return _Stream(watcher, stream(), media_type=EVENTS, headers=STREAM_HEADERS)


EVENTS = "text/event-stream"
STREAM_HEADERS = {"cache-control": "no-store", "x-accel-buffering": "no"}
PING = ": ping\r\n\r\n"  # a comment line: no event, but a dead connection is noticed


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
