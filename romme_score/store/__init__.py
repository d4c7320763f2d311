"""Persistence behind an interface (STYLE.md "store/"): the records
(:mod:`~romme_score.store.records`), the :class:`~romme_score.store.protocol.Store`
protocol that the session service, the history and the export use, the errors that carry
facts (:mod:`~romme_score.store.errors`), and one module per backend.

:func:`open_store` chooses the backend from the location: a path (or ``sqlite:///PATH``)
is an SQLite file, ``postgresql://USER@HOST[:PORT]/DB`` a PostgreSQL database
(:mod:`~romme_score.store.postgres`, with the extra ``romme-score[postgres]``). Both are the
one SQL store of :mod:`romme_score.store.sql` over a connection and a dialect of their own;
a backend is one new module, one line in :data:`BACKENDS` and the same contract tests
(``tests/test_store_contract.py``).

Light on purpose: importing the package loads neither SQLite nor a backend, nor its errors
(:mod:`~romme_score.store.errors`, loaded where one is first named).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from romme_score.i18n import _
from romme_score.paths import default_location

if TYPE_CHECKING:  # pathlib where a path is made, the errors where one is raised or caught:
    # the store's quick look (romme check's start-up with a current session) needs neither
    from pathlib import Path

    from romme_score.store.errors import DatabasePathError, NotFound, StoreBusy, StoreError
    from romme_score.store.protocol import Store

_ERRORS = ("DatabasePathError", "NotFound", "StoreBusy", "StoreError")


def __getattr__(name: str) -> Any:
    """The errors named here, from :mod:`romme_score.store.errors` on first use."""
    if name in _ERRORS:
        from romme_score.store import errors

        return getattr(errors, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


SQLITE_URL = "sqlite:///"
# The backends by the scheme of their location (a path is "sqlite"): the module and its
# store class, which takes the location, ``create`` and ``read_only``. Imported only when
# a database of that kind is opened.
BACKENDS: dict[str, tuple[str, str]] = {
    "sqlite": ("romme_score.store.sqlite", "SQLiteStore"),
    "postgresql": ("romme_score.store.postgres", "PostgresStore"),
    "postgres": ("romme_score.store.postgres", "PostgresStore"),
}


def location_path(location: str | Path) -> Path | None:
    """The file a location names for the SQLite backend, or None when it is a URL of
    another kind (``postgresql://...``).

    >>> str(location_path("sqlite:////tmp/x.sqlite3")), str(location_path("/tmp/x.sqlite3"))
    ('/tmp/x.sqlite3', '/tmp/x.sqlite3')
    >>> location_path("postgresql://club@server/romme") is None
    True
    """
    from pathlib import Path

    if isinstance(location, Path):
        return location
    if location.startswith(SQLITE_URL):
        return Path(location[len(SQLITE_URL) :])
    scheme, sep, _rest = location.partition("://")
    if sep and scheme.replace("+", "").isalpha() and "/" not in scheme:
        return None
    return Path(location)


def shown_location(location: str | Path) -> str:
    """A location as said to a person: a file's path as given, a server's URL without its
    password (:func:`romme_score.store.postgres.shown`).

    >>> shown_location("postgresql://club:pa/ss@server/romme"), shown_location("/tmp/x.sqlite3")
    ('postgresql://club@server/romme', '/tmp/x.sqlite3')
    """
    if location_path(location) is not None:
        return str(location)
    from romme_score.store.postgres import shown  # no driver: psycopg is imported on connecting

    return shown(str(location))


def open_store(location: str | Path | None = None, *, create: bool = True, read_only: bool = False) -> Store:
    """The store at ``location`` (default: :func:`~romme_score.paths.default_location`): an
    SQLite file for a path, PostgreSQL for ``postgresql://...``; ``create`` makes the
    file, or romme-score's tables in an empty database, where they are not there yet.
    ``read_only`` opens it for a quick look: never created, migrated or written."""
    where = default_location() if location is None or location == "" else location
    path = location_path(where)
    scheme = "sqlite" if path is not None else str(where).partition("://")[0]
    if scheme not in BACKENDS or (path is None and scheme == "sqlite"):  # sqlite:// is a path's
        from romme_score.store.errors import DatabasePathError

        raise DatabasePathError(
            _("%(scheme)s:// is not a kind of database romme-score can use (an SQLite file is)")
            % {"scheme": scheme},
            scheme,
        )
    module, name = BACKENDS[scheme]
    backend = getattr(importlib.import_module(module), name)
    store: Store = backend(str(where) if path is None else path, create=create, read_only=read_only)
    return store


__all__ = [
    "BACKENDS",
    "DatabasePathError",
    "NotFound",
    "StoreBusy",
    "StoreError",
    "default_location",
    "location_path",
    "open_store",
    "shown_location",
]
