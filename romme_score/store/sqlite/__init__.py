"""The SQLite backend of the store: one database file (the default). What is SQLite's
only: the file's checks, pragmas and migrations (:mod:`.connection`, :mod:`.schema`) and
its words (:mod:`.dialect`); the store itself is :class:`~romme_score.store.sql.store.SQLStore`."""

from __future__ import annotations

from pathlib import Path

from romme_score.store.sql.store import SQLStore
from romme_score.store.sqlite.connection import Connection
from romme_score.store.sqlite.dialect import SQLITE


class SQLiteStore(SQLStore):
    """A romme-score database file (:class:`~romme_score.store.protocol.Store`); with
    ``read_only``, opened for a quick look only (a shell's completion): never created,
    migrated or written."""

    conn: Connection  # the backend's own, with what is its only (the tests reach into it)

    def __init__(self, path: Path, *, create: bool = True, read_only: bool = False) -> None:
        self.path = path
        self.conn = Connection(path, create=create and not read_only, read_only=read_only)
        super().__init__(self.conn, SQLITE)


__all__ = ["SQLiteStore"]
