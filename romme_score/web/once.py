"""A phone's write applied once, however often it is sent (the ``Idempotency-Key``
header, as the IETF's draft "The Idempotency-Key HTTP Header Field" names it): a page
makes a key for each write and sends the write with it until it is answered; the session
service keeps the key with the write's answer in the write's own transaction
(:meth:`~romme_score.sessions.SessionService.once_at`, called here, never calling back) and
answers the same key again with the first answer. A write without the header is applied
as it comes (for scripts), one transaction all the same."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from romme_score.store.errors import KeyTaken
from romme_score.store.records import Key
from romme_score.web.context import Call, WriteCall
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
    call: Call, key: str | None, path: str, body: dict[str, Any], write: Callable[[Call, dict[str, Any]], Any]
) -> tuple[int, str, bool]:
    """(status, JSON text, whether it was applied now) of ``write(call, body)``, applied
    once per ``key`` (every time without one): the write, its key and its answer are one
    transaction of the service's (:meth:`~romme_score.sessions.SessionService.once_at`),
    committed when this returns (the caller tells the event streams then)."""
    keyed = None if key is None else Key(check_key(key), what(path, body))
    service = call.service
    try:
        with service.once_at(call.config.session_id, keyed) as once:
            if isinstance(call, WriteCall):  # the session as the write's transaction read it
                call.found[:] = [once.info]
            if once.first is not None:
                return (*_repeated(once.first), False)
            text = json.dumps(write(call, body), ensure_ascii=False)
            once.answered(text)
    except KeyTaken:  # the same write, sent twice at once, applied by the other meanwhile
        assert keyed is not None
        first = service.replay(call.info(), keyed)
        if first is None:
            raise
        return (*_repeated(first), False)
    return 200, text, True


def _repeated(first: tuple[int, str]) -> tuple[int, str]:
    status, text = first
    if not text:  # applied, its answer lost when the server stopped: said so
        text = json.dumps({"applied": True, "repeated": True})
    return status, text
