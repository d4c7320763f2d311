"""Running the server: uvicorn on a socket bound before it starts (so that ``--port 0``
can say which port it took before the first request), until Ctrl-C or SIGTERM.

Both signals end it cleanly with exit code 0 within a few seconds, event streams open or
not: uvicorn stops accepting, the streams end (:class:`StreamsEnding`), the
connections still open get ``Limits.shutdown`` seconds, and the signal is not raised
again afterwards. No access log: the tokens are in the paths.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import socket
from types import FrameType
from typing import Any

import uvicorn
from starlette.applications import Starlette
from uvicorn.protocols.http.h11_impl import H11Protocol

from romme_score.web.app import create_app
from romme_score.web.context import LeagueConfig, NightConfig, ServeConfig, TournamentConfig
from romme_score.web.guard import Crowd


class GuardedH11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, closing a connection that has not sent a whole request
    within ``first_request`` seconds: hundreds of idle connections cannot hold the server.
    Each connection is counted in ``crowd`` (the application refuses requests past its
    limit, :class:`~romme_score.web.guard.CrowdGuard`)."""

    first_request = 10.0
    crowd: Crowd | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if self.crowd is not None:
            self.crowd.connections += 1
        self._silent = self.loop.call_later(self.first_request, self._drop_if_silent)

    def _drop_if_silent(self) -> None:
        if self.cycle is None and not self.transport.is_closing():
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self._silent.cancel()
        if self.crowd is not None:
            self.crowd.connections -= 1
        super().connection_lost(exc)


class StreamsEnding(uvicorn.Server):
    """uvicorn's server, ending the application's event streams as it starts to stop (else
    each would hold its connection until the graceful shutdown gave up on it)."""

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        app = self.config.app
        if isinstance(app, Starlette):
            for watcher in app.state.watchers:
                watcher.stop()
        await super().shutdown(sockets)


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (``0``: a free port). Made as a TCP socket
    by name (``IPPROTO_TCP``, not protocol 0): asyncio sets ``TCP_NODELAY`` on the
    connections it accepts only then, and without it every small answer on a kept-alive
    connection waits some 40 ms for the client's delayed ACK (issue 28 item 1)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


class _QuietCancel(logging.Filter):
    """A second Ctrl-C while the server stops makes uvicorn cancel the application's
    lifespan and log that as an error with a traceback; it is the stop that was asked for
    (the lifespan's clean-up runs all the same), so it is not shown."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.exc_info[0] is asyncio.CancelledError:
            return False
        text = record.getMessage()  # Starlette hands uvicorn the traceback as the message
        return not (text.startswith("Traceback") and text.rstrip().endswith("CancelledError"))


def make_server(config: ServeConfig | TournamentConfig | LeagueConfig | NightConfig) -> uvicorn.Server:
    limits = config.limits
    logging.getLogger("uvicorn.error").addFilter(_QuietCancel())

    app = create_app(config)

    class Protocol(GuardedH11):
        first_request = limits.first_request
        crowd = app.state.crowd

    settings = uvicorn.Config(
        app,
        http=Protocol,
        ws="none",
        lifespan="on",
        access_log=False,
        proxy_headers=False,  # no proxy in front: X-Forwarded-For is nobody's address
        log_level="warning",
        limit_concurrency=None,  # Limits.connections: counted by Protocol, refused by the app (JSON)
        timeout_keep_alive=5,
        timeout_graceful_shutdown=max(1, round(limits.shutdown)),
        server_header=False,
        h11_max_incomplete_event_size=16 * 1024,
    )
    return StreamsEnding(settings)


class Signals:
    """Ctrl-C and SIGTERM from the moment the links are printed: one that comes before
    uvicorn listens for them stops the server as soon as it has started, and the one that
    uvicorn raises again when it is done is heard here, so that the process ends with exit
    code 0, not as killed by the signal."""

    def __init__(self) -> None:
        self.stop_asked = False
        self.server: uvicorn.Server | None = None
        self._before: dict[signal.Signals, Any] = {}

    def __enter__(self) -> Signals:
        for sig in (signal.SIGINT, signal.SIGTERM):
            self._before[sig] = signal.signal(sig, self._heard)
        return self

    def _heard(self, signum: int, frame: FrameType | None) -> None:
        self.stop_asked = True
        if self.server is not None:
            self.server.should_exit = True

    def __exit__(self, *exc: object) -> None:
        for sig, handler in self._before.items():
            signal.signal(sig, handler)


def serve(
    config: ServeConfig | TournamentConfig | LeagueConfig | NightConfig, sock: socket.socket, signals: Signals
) -> None:
    """Serve until Ctrl-C or SIGTERM (``signals`` must be listening already)."""
    server = make_server(config)
    signals.server = server
    server.should_exit = signals.stop_asked
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
