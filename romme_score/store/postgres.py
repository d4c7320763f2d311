"""The PostgreSQL backend of the store: a club's server, several organisers' laptops and
several ``romme serve`` instances writing to one database at once.

``--db postgresql://USER@HOST[:PORT]/DB`` (or ``ROMME_DB``); the password comes from
``~/.pgpass`` or ``PGPASSWORD`` as libpq reads them and is never shown: the store's
``location`` and every message name the URL without it. psycopg 3 is the optional extra
``romme-score[postgres]``, imported only here.

The same schema as the SQLite file and the same behaviour the contract suite
(``tests/test_store_contract.py``) describes: every write is one transaction; a
refusal leaves the database unchanged; a writer that races another is made to wait on
the session's row (``SELECT ... FOR UPDATE``), and a serialization failure or deadlock
is retried, never shown. A database that is not romme-score's (tables of its own, or a
newer schema) is refused and left untouched. Every change sends ``NOTIFY romme_sessions``
with the session's id: :meth:`PostgresStore.version` reads the counter again only when a
notification came (``LISTEN``), so a front end that asks twice a second costs nothing.
"""

from __future__ import annotations

import functools
import re
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from romme_score.i18n import _
from romme_score.store.errors import (
    DatabasePathError,
    NewerSchema,
    NoDatabase,
    NotOurs,
    StoreBusy,
    StoreError,
)
from romme_score.store.sql import schema as tables
from romme_score.store.sql.dialect import Cursor, Dialect, Params
from romme_score.store.sql.store import SQLStore

if TYPE_CHECKING:
    import psycopg

T = TypeVar("T")
APPLICATION = "romme-score"
CHANNEL = "romme_sessions"
RETRIES = 20  # serialization failures and deadlocks retried before the write is refused as busy
TYPES = {
    "key": "BIGSERIAL PRIMARY KEY",
    "ref": "BIGINT",
    "big": "BIGINT",
    "flag": "BOOLEAN NOT NULL DEFAULT FALSE",
    "greatest": "GREATEST",
}

# The tables of romme_score/store/sql/schema.py in PostgreSQL's words, in the order this
# backend's databases grew (fewer steps than the SQLite file's: it came later);
# romme_schema holds what SQLite keeps in application_id and user_version.
MIGRATIONS: list[list[str]] = [
    [
        "CREATE TABLE romme_schema (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        f"INSERT INTO romme_schema (key, value) VALUES ('application', '{APPLICATION}'), ('version', '0')",
        *tables.spoken(
            TYPES,
            [
                tables.SESSIONS,
                tables.VERSION,
                tables.PLAYERS,
                tables.ROUNDS,
                tables.ROUNDS_ACTIVE,
                tables.ROUNDS_BY_SESSION,
                tables.HANDS,
                tables.STATE,
                tables.TOTALS,
                tables.NOTES,
                tables.RENAMES,
            ],
        ),
    ],
    tables.spoken(TYPES, tables.PENDING),  # 2: the round in progress and the phones' links
    tables.spoken(TYPES, tables.TOURNAMENTS),  # 3: tournaments (RULES.md §10)
    tables.spoken(TYPES, tables.LEADERBOARD_TENTHS),  # 4: as the SQLite file's version 7
]
SCHEMA_VERSION = len(MIGRATIONS)


@functools.lru_cache(maxsize=1024)
def placeholders(sql: str) -> str:
    """The store's SQL (``?``, ``:name``) as psycopg takes it (``%s``, ``%(name)s``).

    >>> placeholders("SELECT 1 FROM t WHERE a = ? AND b = :sid AND c::int > 0 AND d LIKE '5%'")
    "SELECT 1 FROM t WHERE a = %s AND b = %(sid)s AND c::int > 0 AND d LIKE '5%%'"
    """
    sql = re.sub(r"(?<![:\w]):([A-Za-z_]\w*)", r"%(\1)s", sql.replace("%", "%%"))
    return sql.replace("?", "%s")


class PostgresDialect(Dialect):
    """Several writers at once: a write waits on the row of its session (``FOR UPDATE``)
    or on the table whose names it adds; every change is announced with ``NOTIFY``."""

    name = "postgresql"
    types = TYPES
    for_update = " FOR UPDATE"
    bytewise = ' COLLATE "C"'
    after_import = ("ANALYZE rounds, hands, players",)  # else planned as if nearly empty

    def insert(self, cur: Cursor, sql: str, params: Params) -> int:
        return int(cur.execute(sql + " RETURNING id", params).fetchone()[0])

    def reserve_ids(self, cur: Cursor, table: str, count: int) -> list[int]:
        rows = cur.execute(f"SELECT nextval('{table}_id_seq') FROM generate_series(1, ?)", (count,))
        return [int(row[0]) for row in rows.fetchall()]

    def lock_names(self, cur: Cursor, table: str) -> None:
        cur.execute(f"LOCK TABLE {table} IN SHARE ROW EXCLUSIVE MODE")  # one new name at a time

    def notify(self, cur: Cursor, session_id: int) -> None:
        cur.execute("SELECT pg_notify(?, ?)", (CHANNEL, str(session_id)))

    def count_true(self, condition: str) -> str:
        return f"SUM(({condition})::int)"


POSTGRES = PostgresDialect()


class _Cursor:
    """psycopg's cursor taking the store's SQL."""

    __slots__ = ("cur",)

    def __init__(self, cur: Any) -> None:
        self.cur = cur

    def execute(self, sql: str, params: Params = ()) -> Any:
        return self.cur.execute(placeholders(sql), params)

    def executemany(self, sql: str, rows: Any) -> Any:
        self.cur.executemany(placeholders(sql), rows)
        return self.cur


def shown(url: str) -> str:
    """The URL as said to a person: without its password (``postgresql://club@host/romme``).

    >>> shown("postgresql://club:secret@db.example:5433/romme?sslmode=require")
    'postgresql://club@db.example:5433/romme'
    >>> shown("postgresql://club@db.example/romme")
    'postgresql://club@db.example/romme'
    """
    scheme, _sep, rest = url.partition("://")
    where, _slash, path = rest.partition("/")
    user_part, at, host = where.rpartition("@")
    user = user_part.partition(":")[0]
    database = path.partition("?")[0]
    return f"{scheme}://{user}{at if user else ''}{host}/{database}"


def _psycopg() -> Any:
    """psycopg, or one sentence saying what to install."""
    try:
        import psycopg
    except ImportError:
        raise DatabasePathError(
            _("a PostgreSQL database needs psycopg: install romme-score[postgres]"), "postgresql"
        ) from None
    return psycopg


class PostgresConnection:
    """A connection to a romme-score database on a PostgreSQL server, checked and migrated
    (:class:`~romme_score.store.sql.dialect.Connection`), and a second one that listens."""

    def __init__(self, url: str, *, create: bool = True, read_only: bool = False) -> None:
        self.url = url
        self.location = shown(url)
        self._pg = _psycopg()
        self._listener: psycopg.Connection[Any] | None = None
        try:
            # autocommit: a read of one statement is its own transaction, one round trip to
            # the server (BEGIN, the read and COMMIT were three; issue 28 item 4); every
            # write and every long read is a transaction of its own (transaction() below).
            self.db: psycopg.Connection[Any] = self._pg.connect(url, autocommit=True, connect_timeout=10)
        except self._pg.Error as exc:
            raise self.translate(exc) from None
        try:
            self._migrate(create and not read_only, read_only)
            if read_only:  # every statement, also the reads outside a transaction block
                self.db.read_only = True
                self.db.execute("SET default_transaction_read_only = on")
        except BaseException:
            self.db.close()
            raise

    def close(self) -> None:
        for conn in (self.db, self._listener):
            if conn is not None and not conn.closed:
                conn.close()

    # -- errors, transactions -------------------------------------------------------------

    def translate(self, exc: Exception) -> StoreError:
        """psycopg's error as the store's, without the password."""
        text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        password = self._password()
        if password:
            text = text.replace(password, "***")
        if isinstance(exc, self._pg.errors.LockNotAvailable | self._pg.errors.QueryCanceled):
            return StoreBusy()
        if isinstance(exc, self._pg.OperationalError):
            return StoreError(
                _("cannot reach the database %(path)s: %(reason)s") % {"path": self.location, "reason": text}
            )
        return StoreError(
            _("database error on %(path)s: %(reason)s; nothing was written")
            % {"path": self.location, "reason": text}
        )

    def _password(self) -> str | None:
        try:
            return self._pg.conninfo.conninfo_to_dict(self.url).get("password")  # type: ignore[no-any-return]
        except Exception:  # a URL libpq cannot read: nothing in it to hide beyond it
            return None

    def transact(self, work: Callable[[Cursor], T]) -> T:
        """``work(cursor)`` as one transaction; a serialization failure or a deadlock
        (two writers at once) is tried again, up to :data:`RETRIES` times."""
        retry = (self._pg.errors.SerializationFailure, self._pg.errors.DeadlockDetected)
        for attempt in range(RETRIES):
            try:
                with self.db.transaction(), self.db.cursor() as cur:
                    return work(_Cursor(cur))
            except retry:
                time.sleep(0.01 * (attempt + 1))
            except StoreError:
                raise
            except self._pg.Error as exc:
                raise self.translate(exc) from None
        raise StoreBusy()

    def query(self, sql: str, params: Params = ()) -> list[Any]:
        try:
            with self.db.cursor() as cur:  # one statement: a transaction of its own
                cur.execute(placeholders(sql), params)
                return list(cur.fetchall())
        except self._pg.Error as exc:
            raise self.translate(exc) from None

    def batches(self, sql: str, params: Params, size: int) -> Iterator[list[Any]]:
        """The rows of a long read from a server-side cursor, so that memory stays flat."""
        try:
            with self.db.transaction():
                # A cursor is planned for its first rows unless told otherwise, and for a
                # whole session's rounds that plan joins the row numbers in a nested loop.
                self.db.execute("SET LOCAL cursor_tuple_fraction = 1.0")
                with self.db.cursor(name=f"romme_{id(self)}_{time.monotonic_ns()}") as cur:
                    cur.execute(placeholders(sql), params)
                    while rows := cur.fetchmany(size):
                        yield rows
        except self._pg.Error as exc:
            raise self.translate(exc) from None

    # -- the schema -------------------------------------------------------------------

    def _migrate(self, create: bool, read_only: bool) -> None:
        meta = self._meta()
        if meta is not None:
            if meta.get("application") != APPLICATION:
                raise NotOurs(self.location, sqlite=False)
            version = int(meta.get("version", "0"))
            if version > SCHEMA_VERSION:
                raise NewerSchema(self.location, version, SCHEMA_VERSION)
            if version == SCHEMA_VERSION or read_only:
                return
        elif self.query(
            "SELECT count(*) FROM information_schema.tables "
            "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
        )[0][0]:
            raise NotOurs(self.location, sqlite=False)
        if not create and meta is None:
            raise NoDatabase(self.location)

        def migrate(cur: Cursor) -> None:
            # One migrator at a time: the others wait here, then find the work done.
            cur.execute("SELECT pg_advisory_xact_lock(?)", (0x526F6D6D,))
            version = 0
            if cur.execute("SELECT to_regclass('romme_schema') IS NOT NULL").fetchone()[0]:
                version = int(
                    cur.execute("SELECT value FROM romme_schema WHERE key = 'version'").fetchone()[0]
                )
            for number in range(version + 1, SCHEMA_VERSION + 1):
                for statement in MIGRATIONS[number - 1]:
                    cur.execute(statement)
                cur.execute("UPDATE romme_schema SET value = ? WHERE key = 'version'", (str(number),))

        self.transact(migrate)

    def _meta(self) -> dict[str, str] | None:
        """What romme_schema says (application, version), or None where there is none: one
        statement, one round trip (autocommit: a table that is not there fails the statement
        alone), as every opening reads it."""
        try:
            with self.db.cursor() as cur:
                cur.execute("SELECT key, value FROM romme_schema")
                return dict(cur.fetchall())
        except self._pg.errors.UndefinedTable:
            return None
        except self._pg.Error as exc:
            raise self.translate(exc) from None

    # -- changes -----------------------------------------------------------------------

    def changes(self) -> set[int] | None:
        """The sessions changed since the last call, as notified (None: listening just began)."""
        if self._listener is None:
            try:
                self._listener = self._pg.connect(self.url, autocommit=True, connect_timeout=10)
                self._listener.execute(f"LISTEN {CHANNEL}")
            except self._pg.Error as exc:
                raise self.translate(exc) from None
            return None
        changed: set[int] = set()
        try:
            for note in self._listener.notifies(timeout=0.0):
                if note.payload.isdigit():
                    changed.add(int(note.payload))
        except self._pg.Error as exc:
            raise self.translate(exc) from None
        return changed


class PostgresStore(SQLStore):
    """A romme-score database on a PostgreSQL server (:class:`~romme_score.store.protocol.Store`)."""

    conn: PostgresConnection  # the backend's own, with what is its only (the tests reach into it)

    def __init__(self, url: str, *, create: bool = True, read_only: bool = False) -> None:
        self.url = url
        self.conn = PostgresConnection(url, create=create, read_only=read_only)
        super().__init__(self.conn, POSTGRES)
