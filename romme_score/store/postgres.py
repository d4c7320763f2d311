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
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

from romme_score.errors import MissingExtra
from romme_score.i18n import _
from romme_score.store.errors import (
    ConnectionClosed,
    LoginRefused,
    NewerSchema,
    NoDatabase,
    NoDatabaseOnServer,
    NotOurs,
    Raced,
    ServerRefused,
    StoreBusy,
    StoreError,
    UnescapedInURL,
    Unreachable,
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
RECONNECT_TIMEOUT = 3  # seconds a new connection may take after the old one broke
# The planner's settings of a long read (PostgresConnection.batches), for its transaction only.
LONG_READ = (
    "SELECT set_config('cursor_tuple_fraction', '1.0', true), "
    "set_config('enable_hashjoin', 'off', true), set_config('work_mem', '64MB', true)"
)
# PostgresConnection.reading: every statement of the block from the snapshot its first
# statement takes, and nothing written.
SNAPSHOT = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SELECT 1"
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
MIGRATIONS: list[list[tables.Step]] = [
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
    tables.spoken(TYPES, tables.TOURNAMENTS),  # 3: tournaments (docs/rules.md §10)
    tables.spoken(TYPES, tables.LEADERBOARD_TENTHS),  # 4: as the SQLite file's version 7
    tables.spoken(TYPES, tables.LEAGUES),  # 5: a club's season (docs/rules.md §11)
    tables.spoken(TYPES, tables.ROUND_TOTALS),  # 6: as the SQLite file's version 9 (issue 28)
    tables.spoken(TYPES, tables.WRITE_KEYS),  # 7: as the SQLite file's version 10
    tables.spoken(TYPES, tables.ENDINGS),  # 8: as the SQLite file's version 11 (issue 36)
]
SCHEMA_VERSION = len(MIGRATIONS)

# Tables (and views, foreign tables) in any schema of the database but PostgreSQL's own,
# whoever owns them: pg_class lists them all, information_schema only those the role may
# use (issue 30 item 11). A database without romme_schema that holds one is another
# program's, refused and left untouched. An extension's own tables (PostGIS's
# spatial_ref_sys, pg_buffercache's view) are not: pg_depend marks them as its members.
FOREIGN_TABLES = (
    "SELECT count(*) FROM pg_catalog.pg_class c "
    "JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
    "WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') "
    "AND n.nspname <> 'information_schema' AND n.nspname NOT LIKE 'pg\\_%' "  # pg_: PostgreSQL's
    "AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_depend d WHERE d.classid = 'pg_catalog.pg_class'::regclass "
    "AND d.objid = c.oid AND d.deptype = 'e')"
)


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

    def inserted(self, cur: Cursor, sql: str, params: Params) -> bool:
        # its answer fetched: a statement in held()'s pipeline has no row count before
        return cur.execute(sql + " RETURNING 1", params).fetchone() is not None

    def reserving(self, table: str) -> str:
        return f"SELECT nextval('{table}_id_seq') FROM generate_series(1, ?)"

    def reserve_ids(self, cur: Cursor, table: str, count: int) -> list[int]:
        rows = cur.execute(self.reserving(table), (count,))
        return [int(row[0]) for row in rows.fetchall()]

    def lock_names(self, cur: Cursor, table: str) -> None:
        cur.execute(f"LOCK TABLE {table} IN SHARE ROW EXCLUSIVE MODE")  # one new name at a time

    def notify(self, cur: Cursor, session_id: int) -> None:
        cur.execute("SELECT pg_notify(?, ?)", (CHANNEL, str(session_id)))

    def count_true(self, condition: str) -> str:
        return f"SUM(({condition})::int)"


POSTGRES = PostgresDialect()


def _key(sql: str, params: Params) -> tuple[str, tuple[Any, ...]]:
    """A read as the held transaction's answers are kept: its SQL and its values."""
    if isinstance(params, dict):
        return sql, tuple(sorted(params.items()))
    return sql, tuple(params)


class _Rows:
    """A read answered from what the held transaction read already (as a cursor answers)."""

    __slots__ = ("rows",)

    def __init__(self, rows: list[Any]) -> None:
        self.rows = rows

    def fetchone(self) -> Any:
        return self.rows[0] if self.rows else None

    def fetchall(self) -> list[Any]:
        return list(self.rows)


class _HeldCursor:
    """The cursor of a write inside :meth:`PostgresConnection.held`: every statement goes
    into the pipeline on a cursor of its own (a write's answer is not waited for unless it
    is fetched); a read the transaction made already since its last write is answered
    from that, and every other statement makes those answers stale."""

    __slots__ = ("conn", "done")

    def __init__(self, conn: PostgresConnection) -> None:
        self.conn = conn
        self.done = 0

    def execute(self, sql: str, params: Params = ()) -> Any:
        known = self.conn._answers.get(_key(sql, params))
        if known is not None:
            return _Rows(known)
        self.conn._answers.clear()  # a write, or a read that may follow one
        cur = self.conn.db.cursor()
        cur.execute(placeholders(sql), params)
        self.done += 1
        return cur

    def executemany(self, sql: str, rows: Any) -> Any:
        self.conn._answers.clear()
        cur = self.conn.db.cursor()
        cur.executemany(placeholders(sql), rows)
        self.done += 1
        return cur


class _Cursor:
    """psycopg's cursor taking the store's SQL."""

    __slots__ = ("cur", "done")

    def __init__(self, cur: Any) -> None:
        self.cur = cur
        self.done = 0  # statements the server answered

    def execute(self, sql: str, params: Params = ()) -> Any:
        found = self.cur.execute(placeholders(sql), params)
        self.done += 1
        return found

    def executemany(self, sql: str, rows: Any) -> Any:
        self.cur.executemany(placeholders(sql), rows)
        self.done += 1
        return self.cur


def shown(url: str) -> str:
    """The URL as said to a person: the user, host, port and database, never a password,
    whatever characters it holds (issue 30 item 11). The credentials end at the last ``@``
    (one typed into a password unescaped is before it); what follows up to the first
    ``/`` is the host, then the database; a query (``?password=...``) is never shown.

    >>> shown("postgresql://club:secret@db.example:5433/romme?sslmode=require")
    'postgresql://club@db.example:5433/romme'
    >>> shown("postgresql://club@db.example/romme")
    'postgresql://club@db.example/romme'
    >>> shown("postgresql://romme:pa/Sekr3t@127.0.0.1:5432/db")
    'postgresql://romme@127.0.0.1:5432/db'
    >>> shown("postgresql://romme:p@ss?w#rd@127.0.0.1/db")
    'postgresql://romme@127.0.0.1/db'
    """
    scheme, _sep, rest = url.partition("://")
    credentials, at, where = rest.rpartition("@")
    user = credentials.partition(":")[0] if at else ""
    where = where.split("?", 1)[0].split("#", 1)[0]
    if not at:  # no credentials: a query or fragment may still hold a password
        where = rest.split("?", 1)[0].split("#", 1)[0]
    host, _slash, database = where.partition("/")
    return f"{scheme}://{user}{'@' if user else ''}{host}/{database}"


def unescaped_in_credentials(url: str) -> str | None:
    """The character (``/``, ``?``, ``#`` or ``@``) typed unescaped before the URL's last
    ``@``, or None: libpq ends the user and password at the first of them and would read
    the rest of the password as host, port or database (and might say it in an error).

    >>> unescaped_in_credentials("postgresql://romme:pa/Sekr3t@127.0.0.1:5432/db")
    '/'
    >>> unescaped_in_credentials("postgresql://romme:p@ss@127.0.0.1/db")
    '@'
    >>> unescaped_in_credentials("postgresql://romme:pa%2FSekr3t@127.0.0.1/db?sslmode=disable") is None
    True
    """
    rest = url.partition("://")[2]
    credentials = rest.rpartition("@")[0]
    found = [(credentials.index(c), c) for c in "/?#@" if c in credentials]
    return min(found)[1] if found else None


# libpq's and the server's words for the cases a person can act on (English: the server
# speaks its lc_messages at start-up, libpq the client's locale where it was built with
# NLS; words not read here keep the driver's text as the reason).
_SERVER_AT = re.compile(
    r'connection to server at "([^"]+)"(?: \([^)]*\))?, port (\d+) failed: Connection refused'
)
_SOCKET = re.compile(
    r'connection to server on socket "([^"]+)" failed: (?:No such file or directory|Connection refused)'
)
_NO_DATABASE = re.compile(r'database "([^"]+)" does not exist')
_NO_ROLE = re.compile(r'role "([^"]+)" does not exist')
_PASSWORD = re.compile(r'password authentication failed for user "([^"]+)"')
_CLOSED = re.compile(
    r"server closed the connection unexpectedly|terminating connection due to|the connection is closed"
    r"|connection has been closed|SSL connection has been closed unexpectedly|connection to server was lost"
    # a new connection while the server stops or starts (issue 37 item 13: retried as it stopped)
    r"|the database system is (?:shutting down|starting up)"
)


def driver_failure(location: str, text: str, user: str) -> Unreachable:
    """The driver's words for a lost or refused connection as the store's error of that
    case, the words kept as its ``reason``; :class:`Unreachable` with them where no case fits.

    >>> text = 'connection to server at "127.0.0.1", port 1 failed: Connection refused'
    >>> e = driver_failure("postgresql://anna@127.0.0.1:1/club", text, "anna")
    >>> (e.cause, e.host, e.port)
    ('refused', '127.0.0.1', '1')
    >>> driver_failure("p", 'failed: FATAL:  database "club" does not exist', "anna").database
    'club'
    >>> driver_failure("p", "consuming input failed: server closed the connection unexpectedly", "a").cause
    'closed'
    >>> text = 'port 5 failed: FATAL:  the database system is shutting down'
    >>> driver_failure("p", text, "a").cause
    'closed'
    >>> driver_failure("p", "something else", "anna").cause is None
    True
    """
    if found := _SERVER_AT.search(text):
        return ServerRefused(location, found[1], found[2], text)
    if found := _SOCKET.search(text):
        return ServerRefused(location, found[1], None, text)
    if found := _NO_DATABASE.search(text):
        return NoDatabaseOnServer(location, found[1], text)
    if found := _NO_ROLE.search(text):
        return LoginRefused(location, found[1], "no-user", text)
    if found := _PASSWORD.search(text):
        return LoginRefused(location, found[1], "password", text)
    if "no password supplied" in text:
        return LoginRefused(location, user, "no-password", text)
    if _CLOSED.search(text):
        return ConnectionClosed(location, text)
    return Unreachable(location, text.splitlines()[0] if text else text)


def _psycopg() -> Any:
    """psycopg, or one sentence saying what to install."""
    try:
        import psycopg
    except ImportError as exc:
        raise MissingExtra(
            _("a PostgreSQL database needs the extra 'postgres'"), "postgres", exc.name
        ) from None
    return psycopg


class PostgresConnection:
    """A connection to a romme-score database on a PostgreSQL server, checked and migrated
    (:class:`~romme_score.store.sql.dialect.Connection`), and a second one that listens."""

    def __init__(self, url: str, *, create: bool = True, read_only: bool = False) -> None:
        self.url = url
        self.location = shown(url)
        unescaped = unescaped_in_credentials(url)
        if unescaped is not None:  # refused before libpq reads the password as an address
            raise UnescapedInURL(self.location, unescaped)
        self._pg = _psycopg()
        self._listener: psycopg.Connection[Any] | None = None
        self.read_only = read_only
        self._held = False  # inside held(): one transaction, its statements pipelined
        self.locked: set[int] = set()  # the sessions the held transaction locked
        self._answers: dict[tuple[str, tuple[Any, ...]], list[Any]] = {}  # held reads, by SQL
        self._reading = False  # inside reading(): one REPEATABLE READ transaction
        self._long_read = False  # LONG_READ said in it already
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

    def _live(self) -> psycopg.Connection[Any]:
        """The connection, or a new one where it broke (the server restarted, the network
        dropped): the broken one is dropped, so that one lost connection is not every
        later request's error. :class:`Unreachable` while the server cannot be reached."""
        if not (self.db.closed or self.db.broken):
            return self.db
        try:
            self.db.close()
        except self._pg.Error:
            pass
        try:
            self.db = self._pg.connect(self.url, autocommit=True, connect_timeout=RECONNECT_TIMEOUT)
        except self._pg.Error as exc:
            raise self.translate(exc) from None
        if self.read_only:
            self.db.read_only = True
        return self.db

    # -- errors, transactions -------------------------------------------------------------

    def translate(self, exc: Exception) -> StoreError:
        """psycopg's error as the store's, without the password."""
        text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        password = self._password()
        if password:
            text = text.replace(password, "***")
        if isinstance(exc, self._pg.errors.LockNotAvailable | self._pg.errors.QueryCanceled):
            return StoreBusy()
        if isinstance(exc, self._pg.errors.SerializationFailure | self._pg.errors.DeadlockDetected):
            return Raced()  # inside held(): the whole block is run again
        if isinstance(exc, self._pg.OperationalError):
            whole = str(exc).strip()
            if password:
                whole = whole.replace(password, "***")
            return driver_failure(self.location, whole or text, self._user())
        return StoreError(
            _("database error on %(path)s: %(reason)s; nothing was written")
            % {"path": self.location, "reason": text}
        )

    def _user(self) -> str:
        """The user the connection logs in as: the URL's, else libpq's default (the login)."""
        try:
            user = self._pg.conninfo.conninfo_to_dict(self.url).get("user")
        except Exception:  # a URL libpq cannot read
            user = None
        if user:
            return str(user)
        import getpass
        import os

        return os.environ.get("PGUSER") or getpass.getuser()

    def _password(self) -> str | None:
        try:
            return self._pg.conninfo.conninfo_to_dict(self.url).get("password")  # type: ignore[no-any-return]
        except Exception:  # a URL libpq cannot read: nothing in it to hide beyond it
            return None

    @contextmanager
    def _ended(self, db: psycopg.Connection[Any], manager: AbstractContextManager[Any]) -> Iterator[None]:
        """psycopg's ``manager`` on ``db`` (a pipeline, a transaction) around the block; where
        the block's error says the server ended the connection (it stopped while a write
        waited on a lock), the connection is closed and the manager ended without a word.
        Ended as psycopg ends it, it would try a sync or a ROLLBACK on the dead connection,
        fail, and log "error ignored terminating <psycopg.Pipeline [BAD]>: ..." to stderr
        beside the one sentence the front end says (issue 37 item 13). Nothing is left to
        end: the server rolls a transaction back as its connection goes."""
        manager.__enter__()
        try:
            yield
        except BaseException as exc:
            if not self._gone(db, exc):
                if not manager.__exit__(type(exc), exc, exc.__traceback__):
                    raise
                return
            db.close()  # nothing more reaches the server: no COMMIT below can
            try:
                manager.__exit__(None, None, None)  # psycopg's error raised, not logged
            except self._pg.Error:
                pass  # the block's error is the one to tell
            raise
        manager.__exit__(None, None, None)

    def _gone(self, db: psycopg.Connection[Any], exc: BaseException) -> bool:
        """Whether ``exc`` (psycopg's or the store's) says the connection is lost: libpq
        may read the server's last words ("terminating connection due to administrator
        command") before it sees the connection close."""
        if db.closed or db.broken or isinstance(exc, ConnectionClosed):
            return True
        lost = isinstance(exc, self._pg.OperationalError) and self.translate(exc)
        return isinstance(lost, ConnectionClosed)

    @contextmanager
    def held(self) -> Iterator[None]:
        """Every statement of the block in one transaction, sent in psycopg's pipeline
        (``conn.pipeline()``): the client waits for the server only where it needs an
        answer, and :meth:`prefetch` asks several reads in one round trip (issue 28:
        ``romme round`` in at most 5). A write inside it is part of that transaction (not
        retried on its own: a serialization failure or a deadlock is the block's error, and
        nothing of it is written); it commits when the block ends, and an error rolls
        everything back."""
        if self._held:
            yield
            return
        db = self._live()
        try:
            # BEGIN and COMMIT said in the pipeline, without waiting for their answers
            # (psycopg's transaction() waits at both ends: two round trips more)
            with self._ended(db, db.pipeline()):
                db.execute("BEGIN")
                self._held = True
                try:
                    yield
                finally:
                    self._held = False
                    self._answers.clear()
                    self.locked.clear()
                db.execute("COMMIT")
        except BaseException as exc:
            self._roll_back(db)
            if isinstance(exc, self._pg.Error):
                raise self.translate(exc) from None
            raise

    @property
    def holding(self) -> bool:
        """Whether a :meth:`held` block is open (its transaction)."""
        return self._held

    @contextmanager
    def reading(self) -> Iterator[None]:
        """Every statement of the block in one ``REPEATABLE READ READ ONLY`` transaction:
        all of them read the snapshot taken as the block begins, the long reads' server-side
        cursors (:meth:`batches`) included, and a writer is not kept waiting by it. A
        connection that broke while idle is replaced before the block, never inside it (a
        new connection would read another snapshot: the block's error instead). Inside
        :meth:`held` or another :meth:`reading`, part of that."""
        if self._held or self._reading:
            yield
            return
        fresh = False
        while True:
            db = self._live()
            try:
                # the snapshot is taken by the first statement after BEGIN, not by BEGIN:
                # SELECT 1 takes it now, in the same round trip
                db.execute(SNAPSHOT)
                break
            except self._pg.Error as exc:
                if self._stale(exc, fresh):
                    fresh = True
                    continue
                self._roll_back(db)
                raise self.translate(exc) from None
        self._reading = True
        try:
            yield
        finally:
            self._reading = self._long_read = False
            self._roll_back(db)  # read only: nothing to keep

    def _roll_back(self, db: psycopg.Connection[Any]) -> None:
        """End a held transaction that failed: nothing of it is written."""
        try:
            if not db.closed and db.info.transaction_status != self._pg.pq.TransactionStatus.IDLE:
                db.execute("ROLLBACK")
        except self._pg.Error:
            pass  # the connection broke: the server rolled it back itself

    def prefetch(self, reads: Sequence[tuple[str, Params]]) -> None:
        """Inside :meth:`held`: ask the server for ``reads`` (SQL and values) at once, one
        round trip, so that :meth:`query` answers them without asking again until the
        next write; outside it, nothing."""
        if not self._held:
            return
        try:
            asked = []
            for sql, params in reads:
                cur = self.db.cursor()
                cur.execute(placeholders(sql), params)
                asked.append((_key(sql, params), cur))
            for key, cur in asked:
                self._answers[key] = list(cur.fetchall())
        except self._pg.Error as exc:
            raise self.translate(exc) from None

    def transact(self, work: Callable[[Cursor], T]) -> T:
        """``work(cursor)`` as one transaction; a serialization failure or a deadlock
        (two writers at once) is tried again, up to :data:`RETRIES` times. Inside
        :meth:`held`, part of that transaction."""
        if self._held:
            try:
                return work(_HeldCursor(self))
            except StoreError:
                raise
            except self._pg.Error as exc:
                raise self.translate(exc) from None
        retry = (self._pg.errors.SerializationFailure, self._pg.errors.DeadlockDetected)
        attempt = 0
        fresh = False
        while attempt < RETRIES:
            cursor: _Cursor | None = None
            try:
                db = self._live()
                with self._ended(db, db.transaction()), db.cursor() as cur:
                    cursor = _Cursor(cur)
                    return work(cursor)
            except retry:
                attempt += 1
                time.sleep(0.01 * attempt)
            except StoreError:
                raise
            except self._pg.Error as exc:
                if self._stale(exc, fresh) and (cursor is None or cursor.done == 0):
                    fresh = True  # nothing of it reached the server: once more, on a new connection
                    continue
                raise self.translate(exc) from None
        raise StoreBusy()

    def _stale(self, exc: Exception, fresh: bool) -> bool:
        """Whether ``exc`` says only that the connection had broken while it lay idle (the
        server restarted since): the first use after that fails and is tried once on a new
        connection, so that nobody is refused once the server is back."""
        return (
            not (fresh or self._reading)
            and isinstance(exc, self._pg.OperationalError)
            and (self.db.broken or self.db.closed)  # closed by _ended() as the error came
        )

    def query(self, sql: str, params: Params = ()) -> list[Any]:
        if self._held:
            key = _key(sql, params)
            known = self._answers.get(key)
            if known is None:
                try:
                    with self.db.cursor() as cur:
                        cur.execute(placeholders(sql), params)
                        known = self._answers[key] = list(cur.fetchall())
                except self._pg.Error as exc:
                    raise self.translate(exc) from None
            return list(known)
        fresh = False
        while True:
            try:
                # inside reading(), its connection: a new one would read another snapshot
                db = self.db if self._reading else self._live()
                with db.cursor() as cur:  # one statement: a transaction of its own (or reading()'s)
                    cur.execute(placeholders(sql), params)
                    return list(cur.fetchall())
            except self._pg.Error as exc:
                if self._stale(exc, fresh):  # a read: safe to ask again
                    fresh = True
                    continue
                raise self.translate(exc) from None

    def batches(self, sql: str, params: Params, size: int) -> Iterator[list[Any]]:
        """The rows of a long read from a server-side cursor, so that memory stays flat:
        in a transaction of its own, or inside :meth:`reading` in that one, from its
        snapshot (inside :meth:`held`: read at once, in its transaction)."""
        if self._held:
            rows = self.query(sql, params)
            for start in range(0, len(rows), size):
                yield rows[start : start + size]
            return
        try:
            if self._reading:  # the cursor needs a transaction: the block's
                yield from self._cursor(self.db, sql, params, size)
                return
            db = self._live()
            with self._ended(db, db.transaction()):
                yield from self._cursor(db, sql, params, size)
        except self._pg.Error as exc:
            raise self.translate(exc) from None

    def _cursor(
        self, db: psycopg.Connection[Any], sql: str, params: Params, size: int
    ) -> Iterator[list[Any]]:
        """A long read's rows from a server-side cursor, inside the transaction of ``db``."""
        if not self._long_read:
            # Said once per transaction, for it only (one round trip, issue 28). A cursor is
            # planned for its first rows unless told otherwise, and for a whole session's
            # rounds that plan joins the row numbers in a nested loop. The hands are
            # joined by their primary key: walked in its order (a merge join) they cost
            # half the server's time of a hash table per seat, and the rounds are put in
            # order in memory (100,000 rounds: about 21 MB), not on disk.
            db.execute(LONG_READ)
            self._long_read = self._reading  # kept for the rest of reading()'s transaction
        with db.cursor(name=f"romme_{id(self)}_{time.monotonic_ns()}", binary=True) as cur:
            cur.execute(placeholders(sql), params)
            while rows := cur.fetchmany(size):
                yield rows

    # -- the schema -------------------------------------------------------------------

    def _migrate(self, create: bool, read_only: bool) -> None:
        meta = self._meta()
        if meta is not None:
            if meta.get("application") != APPLICATION:
                raise NotOurs(self.location, sqlite=False, server=True)
            version = int(meta.get("version", "0"))
            if version > SCHEMA_VERSION:
                raise NewerSchema(self.location, version, SCHEMA_VERSION)
            if version == SCHEMA_VERSION or read_only:
                return
        elif self.query(FOREIGN_TABLES)[0][0]:
            raise NotOurs(self.location, sqlite=False, server=True)
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
                for step in MIGRATIONS[number - 1]:
                    tables.run(cur, step)
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
        """The sessions changed since the last call, as notified (None: listening just
        began, or began again after the listening connection broke: what changed while
        nobody listened is not known, so every version is read again)."""
        if self._listener is not None and (self._listener.closed or self._listener.broken):
            self._drop_listener()
        if self._listener is None:
            self._listen()
            return None
        changed: set[int] = set()
        try:
            for note in self._listener.notifies(timeout=0.0):
                if note.payload.isdigit():
                    changed.add(int(note.payload))
        except self._pg.Error:
            self._drop_listener()  # it broke (the server restarted): listen anew at once
            self._listen()
            return None
        return changed

    def _listen(self) -> None:
        """A connection of its own that listens for the sessions' changes."""
        try:
            listener = self._pg.connect(self.url, autocommit=True, connect_timeout=RECONNECT_TIMEOUT)
        except self._pg.Error as exc:
            raise self.translate(exc) from None
        try:
            listener.execute(f"LISTEN {CHANNEL}")
        except self._pg.Error as exc:
            listener.close()
            raise self.translate(exc) from None
        self._listener = listener

    def _drop_listener(self) -> None:
        listener, self._listener = self._listener, None
        if listener is not None:
            try:
                listener.close()
            except self._pg.Error:
                pass


class PostgresStore(SQLStore):
    """A romme-score database on a PostgreSQL server (:class:`~romme_score.store.protocol.Store`)."""

    conn: PostgresConnection  # the backend's own, with what is its only (the tests reach into it)

    def __init__(self, url: str, *, create: bool = True, read_only: bool = False) -> None:
        self.url = url
        self.conn = PostgresConnection(url, create=create, read_only=read_only)
        super().__init__(self.conn, POSTGRES)
