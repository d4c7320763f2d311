"""What the pages fetch after every change, built once per version of the session and
served to every page from here (issue 28): ``state.json`` and ``chart.svg``. However many
phones ask at once after an event, one of the server's threads builds the answer while
the others wait for it; each answer carries an ETag of what it holds, and a page that
sends it back (``If-None-Match``) gets ``304 Not Modified`` and no body.

Only the latest version of each answer is kept: a session's answers take a few
kilobytes, whatever its length. A page asking for what is built already is answered in
the event loop, without a worker thread (:func:`held`): the version is a lookup.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Tagged:
    """An answer and its ETag; no body where the asker has it already (304)."""

    etag: str
    body: bytes | None


def etag(prefix: str, body: bytes) -> str:
    """A strong ETag of ``body``: its prefix (the version it was built at) and a digest.

    >>> etag("7-de", b"{}")
    '"7-de-01e7b720ff566d53"'
    """
    return f'"{prefix}-{hashlib.blake2b(body, digest_size=8).hexdigest()}"'


def answer(tagged: Tagged, seen: str | None) -> Tagged:
    """``tagged`` as sent to a page that has ``seen`` (its If-None-Match): no body when it
    is the same (a list of tags, or ``*``, as HTTP allows)."""
    if seen is not None and (seen.strip() == "*" or tagged.etag in (t.strip() for t in seen.split(","))):
        return Tagged(tagged.etag, None)
    return tagged


def held(
    built: Built, key: Hashable, version: Callable[[], int], pick: Callable[[Any], Tagged | None]
) -> Tagged | None:
    """The answer held for ``key`` if it was built at the session's ``version`` (``pick``
    takes it out of the value held), else None: then it is built in a thread."""
    found = built.peek(key)
    if found is None or found[0] != version():
        return None
    return pick(found[1])


@dataclass
class _Entry(Generic[T]):
    version: int
    value: T


class Built:
    """Values built once per version, by key (a session and a language): the latest of each."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: dict[Hashable, _Entry[object]] = {}
        self._building: dict[Hashable, threading.Lock] = {}

    def get(self, key: Hashable, version: int, build: Callable[[], tuple[int, T]]) -> T:
        """The value of ``key`` at ``version``, built by ``build`` (which gives the version
        it read, perhaps a newer one) when it is not here yet; one build at a time per key."""
        found = self._held(key, version)
        if found is not None:
            return found.value  # type: ignore[return-value]
        with self._lock:
            building = self._building.setdefault(key, threading.Lock())
        with building:
            found = self._held(key, version)
            if found is not None:  # another thread built it meanwhile
                return found.value  # type: ignore[return-value]
            built, value = build()
            with self._lock:
                held = self._entries.get(key)
                if held is None or held.version <= built:
                    self._entries[key] = _Entry(built, value)
            return value

    def peek(self, key: Hashable) -> tuple[int, object] | None:
        """The version and value held for ``key``, whatever the version (None: nothing yet)."""
        with self._lock:
            found = self._entries.get(key)
        return (found.version, found.value) if found is not None else None

    def _held(self, key: Hashable, version: int) -> _Entry[object] | None:
        with self._lock:
            found = self._entries.get(key)
        return found if found is not None and found.version >= version else None
