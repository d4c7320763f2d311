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
  cross-site request and is served. A body that stalls after its headers is cut after
  ``Limits.body_time`` seconds (408, the connection closed).
- A request naming a host that is neither the address the links print, one of the
  machine's names nor a loopback address is refused (:class:`HostGuard`): a page of
  another site whose name was made to point at this machine (DNS rebinding) gets
  nothing. ``romme serve --allow-host NAME`` admits a proxy's name.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import socket
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

from starlette.datastructures import Headers, QueryParams
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from romme_score.i18n import using_language
from romme_score.inputs import InputValueError, clean_text
from romme_score.views import web as views
from romme_score.web.context import request_language
from romme_score.web.errors import RETRY_AFTER

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# media only from data: (the unseen video of "Keep screen on", static/awake.js)
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "media-src data:; "
    "worker-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
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


class Crowd:
    """The connections open and the requests under way, against ``Limits.connections``
    (what uvicorn's ``limit_concurrency`` counted, which answered past it with a plain
    "Service Unavailable" of its own): the server's protocol counts the connections, the
    :class:`CrowdGuard` the requests."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.connections = 0
        self.requests = 0

    def full(self) -> bool:
        """Whether a new request is past the limit (its own connection counted already)."""
        return self.connections > self.limit or self.requests >= self.limit


class CrowdGuard:
    """ASGI middleware: a request past :class:`Crowd`'s limit is refused as every refusal
    is (503 ``too-many-connections``, the JSON error with a sentence in the request's
    language, a Retry-After), its connection closed; the others pass, counted."""

    def __init__(self, app: ASGIApp, crowd: Crowd, language: str) -> None:
        self.app = app
        self.crowd = crowd
        self.language = language

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.crowd.full():
            headers = Headers(scope=scope)
            asked = QueryParams(scope.get("query_string", b"")).get("lang")
            lang = request_language(asked, headers.get("accept-language"), self.language)
            with using_language(lang):
                body = {"error": views.refused("too-many-connections"), "code": "too-many-connections"}
            extra = {"retry-after": str(RETRY_AFTER), "connection": "close", "content-language": lang}
            await JSONResponse(body, status_code=503, headers=extra)(scope, receive, send)
            return
        self.crowd.requests += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.crowd.requests -= 1


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

    def __init__(
        self,
        base: float,
        cap: float,
        free: int = 3,
        forget: float = 60.0,
        page: Callable[[Request], Response] | None = None,
    ) -> None:
        self.page = page or (lambda request: not_found())
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
        return self.page(request)


# --- writes --------------------------------------------------------------------------


def own_origin(request: Request) -> str:
    host = request.headers.get("host", "")
    return f"{request.url.scheme}://{host}"


def cross_site(request: Request) -> bool:
    """Whether a browser sent this request for another web page (or site): Fetch
    Metadata first, else the Origin; neither header means no browser's cross-site request.
    The Origin's host is compared, not its scheme: behind an HTTPS proxy the page's
    origin is ``https://`` while this server is asked over plain HTTP."""
    site = request.headers.get("sec-fetch-site")
    if site is not None and site.lower() not in ("same-origin", "none"):
        return True
    origin = request.headers.get("origin")
    if origin is None:
        return False
    scheme, _sep, host = origin.lower().partition("://")
    return scheme not in ("http", "https") or host != request.headers.get("host", "").lower()


# --- the Host header ------------------------------------------------------------------


def host_name(header: str) -> str:
    """The name or address of a Host header, without its port, lower case.

    >>> host_name("Laptop.Local:8765"), host_name("[::1]:80"), host_name("10.0.0.5")
    ('laptop.local', '::1', '10.0.0.5')
    """
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].partition("]")[0]
    if header.count(":") == 1:
        header = header.partition(":")[0]
    return header.rstrip(".")


def machine_names() -> set[str]:
    """This machine's own names: its host name, the short one and its ``.local`` (as
    phones find a laptop by mDNS)."""
    names = {"localhost"}
    try:
        name = socket.gethostname().lower().rstrip(".")
    except OSError:
        return names
    if name:
        short = name.partition(".")[0]
        names |= {name, short, f"{short}.local"}
    return names


def admitted_hosts(printed: str, bound: str, allowed: tuple[str, ...]) -> frozenset[str]:
    """The hosts a request may name: the address the links print, the address served on,
    the machine's names and the names given with ``--allow-host`` (loopback addresses
    and ``*.localhost`` always, :func:`is_loopback`)."""
    return frozenset(
        {host_name(printed), host_name(bound), *machine_names(), *(host_name(a) for a in allowed)} - {""}
    )


def is_loopback(name: str) -> bool:
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


class HostGuard:
    """ASGI middleware: a request whose ``Host`` names none of ``hosts`` (nor a loopback
    address) gets 400 and one sentence in its language, nothing else. A request without
    a Host header (HTTP/1.0, a script) names no other site and is served."""

    def __init__(self, app: ASGIApp, hosts: frozenset[str], language: str) -> None:
        self.app = app
        self.hosts = hosts
        self.language = language

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = Headers(scope=scope)
            given = headers.get("host")
            if given is not None:
                name = host_name(given)
                if name not in self.hosts and not is_loopback(name):
                    asked = QueryParams(scope.get("query_string", b"").decode("latin-1")).get("lang")
                    lang = request_language(asked, headers.get("accept-language"), self.language)
                    with using_language(lang):
                        text = views.refused("bad-host")
                    response = Response(
                        text + "\n",
                        status_code=400,
                        media_type="text/plain; charset=utf-8",
                        headers={"content-language": lang},
                    )
                    await response(scope, receive, send)
                    return
        await self.app(scope, receive, send)


class BodyRefused(Exception):
    """A write's body that is not taken: ``code`` is ``not-json``, ``too-large`` or
    ``bad-request``; with ``field``, the field (a path: ``hands.Anna``, ``never_out[0]``)
    whose text is not text, and ``sentence`` saying so."""

    def __init__(self, code: str, status: int, field: str | None = None, sentence: str = "") -> None:
        super().__init__(code)
        self.code = code
        self.status = status
        self.field = field
        self.sentence = sentence


MAX_DEPTH = 32  # a write's JSON nested deeper than this is no write of a page's (they nest 2)


def clean_json(value: Any, field: str = "", depth: int = 0) -> Any:
    """The one reader of the text a write's JSON carries: every string, and every key of
    every object, read by :func:`~romme_score.inputs.clean_text` (composed, NFC, as typed
    text is everywhere; a lone surrogate, ``"\\ud800"``, refused naming the field), before
    any route sees it; nesting deeper than :data:`MAX_DEPTH` refused too. Runs in the
    request's language (its sentence is the answer's).

    >>> clean_json({"hands": {"Jo\u0308rg": 5}, "never_out": ["A"]})
    {'hands': {'Jörg': 5}, 'never_out': ['A']}
    """
    if depth > MAX_DEPTH:
        raise BodyRefused("bad-request", 400)
    if isinstance(value, str):
        return _text(value, field, views.json_field(field))
    if isinstance(value, list):
        return [clean_json(v, f"{field}[{i}]", depth + 1) for i, v in enumerate(value)]
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            name = _text(key, field, views.json_key(field))
            out[name] = clean_json(item, f"{field}.{name}" if field else name, depth + 1)
        return out
    return value


def _text(text: str, field: str, what: str) -> str:
    try:
        return clean_text(text, what, escaped_bytes=False)
    except InputValueError as exc:
        raise BodyRefused("bad-request", 400, field, str(exc)) from None


async def read_json(request: Request, limit: int, timeout: float = 10.0) -> dict[str, Any]:
    """The JSON object a write sends (``{}`` for an empty body without a type), whole
    within ``timeout`` seconds (else ``body-timeout``, 408)."""
    try:
        async with asyncio.timeout(timeout):
            body = await _read_body(request, limit)
    except TimeoutError:
        raise BodyRefused("body-timeout", 408) from None
    return _json_of(request.headers.get("content-type"), body)


async def _read_body(request: Request, limit: int) -> bytearray:
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
    return body


def _json_of(kind: str | None, body: bytearray) -> dict[str, Any]:
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
    cleaned: dict[str, Any] = clean_json(data)
    return cleaned
