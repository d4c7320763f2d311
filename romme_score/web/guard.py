"""What a guest on the same Wi-Fi cannot do (issue 19 item 5), in one place.

- Every response carries a Content-Security-Policy without inline script,
  ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: no-referrer`` (the tokens are
  in the path) and ``Cache-Control: no-store`` (:class:`SecurityHeaders`).
- A wrong token gets the same 404 as a page that is not there, and every 404 from an
  address that has had a few is slowed down, the delay growing with each one
  (:class:`Throttle`; one at a time per address, so parallel guessing waits in line).
- A write takes only a JSON body of at most 16 KB (:func:`read_json`), and only from the
  page's own origin (:func:`cross_site`): a browser says where a request comes from
  (``Sec-Fetch-Site``, ``Origin``), and another web page may not write through a
  player's browser. A request without those headers (a script, curl) is no browser's
  cross-site request and is served.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-resource-policy", b"same-origin"),
]
NOT_FOUND_BODY = b"Not found\n"


class SecurityHeaders:
    """ASGI middleware: the headers above on every response (pages, JSON, the event
    stream, the 404s), and ``Cache-Control: no-store`` where a response sets none."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() not in _OURS]
                headers += HEADERS
                if not any(k.lower() == b"cache-control" for k, _v in headers):
                    headers.append((b"cache-control", b"no-store"))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


_OURS = {name for name, _value in HEADERS}


def not_found() -> Response:
    """The one 404: for a wrong token, a page that is not there, a session that is gone."""
    return Response(NOT_FOUND_BODY, status_code=404, media_type="text/plain")


@dataclass
class _Misses:
    count: int
    last: float
    lock: asyncio.Lock


class Throttle:
    """A growing delay for addresses that ask for what is not there: the first ``free``
    404s of an address go out at once, then each waits ``base`` seconds, doubling, at
    most ``cap``; an address left alone for ``forget`` seconds starts afresh. The 404
    itself stays the same."""

    def __init__(self, base: float, cap: float, free: int = 3, forget: float = 60.0) -> None:
        self.base = base
        self.cap = cap
        self.free = free
        self.forget = forget
        self._seen: dict[str, _Misses] = {}

    def delay(self, count: int) -> float:
        """The wait before the ``count``-th 404 of an address."""
        if count <= self.free:
            return 0.0
        return float(min(self.cap, self.base * 2 ** (count - self.free - 1)))

    async def not_found(self, request: Request) -> Response:
        address = request.client.host if request.client else "?"
        now = time.monotonic()
        misses = self._seen.get(address)
        if misses is None or now - misses.last > self.forget:
            if len(self._seen) > 10_000:  # many addresses: forget the quiet ones
                self._seen = {a: m for a, m in self._seen.items() if now - m.last <= self.forget}
            misses = self._seen[address] = _Misses(0, now, asyncio.Lock())
        async with misses.lock:  # one at a time per address
            misses.count += 1
            wait = self.delay(misses.count)
            if wait:
                await asyncio.sleep(wait)
            misses.last = time.monotonic()
        return not_found()


# --- writes --------------------------------------------------------------------------


def own_origin(request: Request) -> str:
    host = request.headers.get("host", "")
    return f"{request.url.scheme}://{host}"


def cross_site(request: Request) -> bool:
    """Whether a browser sent this request for another web page (or site): Fetch
    Metadata first, else the Origin; neither header means no browser's cross-site request."""
    site = request.headers.get("sec-fetch-site")
    if site is not None and site.lower() not in ("same-origin", "none"):
        return True
    origin = request.headers.get("origin")
    return origin is not None and origin.lower() != own_origin(request).lower()


class BodyRefused(Exception):
    """A write's body that is not taken: ``code`` is ``not-json``, ``too-large`` or ``bad-request``."""

    def __init__(self, code: str, status: int) -> None:
        super().__init__(code)
        self.code = code
        self.status = status


async def read_json(request: Request, limit: int) -> dict[str, Any]:
    """The JSON object a write sends (``{}`` for an empty body without a type)."""
    kind = request.headers.get("content-type")
    length = request.headers.get("content-length")
    if length is not None:
        if not length.isdigit():
            raise BodyRefused("bad-request", 400)
        if int(length) > limit:
            raise BodyRefused("too-large", 413)
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise BodyRefused("too-large", 413)
    if kind is None and not body:
        return {}
    if kind is None or kind.split(";")[0].strip().lower() != "application/json":
        raise BodyRefused("not-json", 415)
    if not body.strip():
        return {}
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise BodyRefused("bad-request", 400) from None
    if not isinstance(data, dict):
        raise BodyRefused("bad-request", 400)
    return data
