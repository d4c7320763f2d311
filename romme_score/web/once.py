"""A phone's write applied once, however often it is sent (the ``Idempotency-Key``
header, as the IETF's draft "The Idempotency-Key HTTP Header Field" names it): a page
makes a key for each write and sends the write with it until it is answered; the session
service keeps the key in the write's own transaction (:meth:`~romme_score.sessions.SessionService.write_once`)
and answers the same key again with the first answer. A write without the header is
applied as it comes (for scripts)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from romme_score.web.context import Call
from romme_score.web.errors import refusal

HEADER = "idempotency-key"
KEY_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.:")
KEY_MAX = 100


def what(path: str, body: Any) -> str:
    """The digest of a write (its path, with the link's token, and its body), so that a key
    sent again with another write is refused, not answered with the first one's answer."""
    text = json.dumps([path, body], sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def check_key(key: str) -> str:
    """A key as a page makes one (a UUID): up to 100 letters, digits and ``-_.:``."""
    if not key or len(key) > KEY_MAX or not set(key) <= KEY_CHARS:
        raise refusal("bad-key", 400)
    return key


def write_once(
    call: Call,
    key: str | None,
    path: str,
    body: dict[str, Any],
    write: Callable[[Call, dict[str, Any]], Any],
    written: Callable[[Call], None] = lambda call: None,
) -> tuple[int, str]:
    """(status, JSON text) of ``write(call, body)``, applied once per ``key`` (every time
    without one); ``written(call)`` as soon as each of its transactions has committed,
    before its answer is read, worded and kept with the key (a transaction of its own):
    the event streams wait for none of that."""

    def apply() -> str:
        with call.service.telling(lambda: written(call)):
            answer = write(call, body)
        return json.dumps(answer, ensure_ascii=False)

    if key is None:
        return 200, apply()
    key = check_key(key)
    status, text = call.service.write_once(call.info(), key, what(path, body), apply)
    if not text:  # applied, its answer lost when the server stopped: said so
        text = json.dumps({"applied": True, "repeated": True})
    return status, text
