"""Opening a romme-score SQLite file: the checks before anything is written, the schema's
migrations, one transaction per write, SQLite's errors as the store's errors, and
``PRAGMA data_version`` for the changes other connections made
(:class:`~romme_score.store.sql.dialect.Connection`).

Every write is one ``BEGIN IMMEDIATE`` transaction, so a crash at any moment leaves either
the whole change or none of it, with WAL and a busy timeout for several processes.

The file is never opened outside SQLite while this process holds a connection to it:
closing any descriptor of a file drops every POSIX lock the process holds on it, SQLite's
included, and the other writer's last close would then checkpoint and remove the WAL
under this one ("disk I/O error", rounds lost). The header is read before the first
connection of the process on that file only, under a lock.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote

from romme_score.i18n import _, os_reason
from romme_score.store.errors import (
    Damaged,
    DatabaseGone,
    DatabasePathError,
    NewerSchema,
    NoDatabase,
    NotOurs,
    StoreBusy,
    StoreError,
    WriteFailed,
)
from romme_score.store.sql.schema import run as run_step
from romme_score.store.sqlite.schema import APPLICATION_ID, SCHEMA_VERSION, migrations

T = TypeVar("T")

# Files up to this size get PRAGMA quick_check before the first write of a process:
# measured ~5 ms per 1,000 rounds (about 250 KB), so at most ~80 ms here. Larger files
# are checked on suspicion only (an error that says the file is damaged).
QUICK_CHECK_MAX_BYTES = 4 * 1024 * 1024
SQLITE_HEADER = b"SQLite format 3\x00"

# The database files this process holds a connection to, by (device, inode), with how many.
_OPEN_FILES: dict[tuple[int, int], int] = {}
# Of those, the files a connection found sound (quick_check) since the process opened its
# first connection to them: while any connection to the file stays open, another one
# writes without checking again, as that connection does itself (the table mode holds
# one while each line of a script opens its own, which would otherwise check the whole
# file on every line). The mark goes with the last connection to the file.
_SOUND_FILES: set[tuple[int, int]] = set()
_OPEN_LOCK = threading.Lock()
# The writers of this process, one lock per file (by device and inode): a transaction waits
# here for another thread's to end, and is woken the moment it does; SQLite's busy handler,
# met by a second ``BEGIN IMMEDIATE`` of the process, sleeps in steps growing to 100 ms
# and tries again, so that a hundred tables saving at once took seconds for what the disk
# does in a fraction of one (issue 36 item 7: a burst of 125 saves drained in 3.2 s, 7x a
# minimal app's, its worker threads asleep in SQLite's backoff). Other processes still meet
# the busy timeout. Reentrant: a thread inside a transaction that opens another on a second
# connection gets SQLite's busy answer, as before, not a wait for itself.
_WRITERS: dict[tuple[int, int], threading.RLock] = {}
WRITER_WAIT = 60.0  # seconds a write waits for the others of this process before "busy"


def _file_key(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_dev, st.st_ino


class Connection:
    """One SQLite connection to a romme-score file, checked and migrated; ``read_only``:
    opened with SQLite's ``mode=ro`` for a quick look (a shell's completion), never
    created nor migrated, and refused if it is not romme-score's."""

    def __init__(self, path: Path, *, create: bool = True, read_only: bool = False) -> None:
        self.path = path
        self.location = str(path)
        self._key: tuple[int, int] | None = None
        self._verified = False
        self._data_version = -1
        self.writes = 0  # transactions committed through this connection
        self.holding = False  # inside held(): every write of the block one transaction
        self.locked: set[int] = set()  # the sessions the held transaction has looked at
        try:
            # Under the lock: no other thread reads the header between this check and
            # the connection being counted.
            with _OPEN_LOCK:
                self._check_file()
                if not path.exists() and (read_only or not create):
                    raise NoDatabase(path)
                self.db = self._connect(read_only)
                self._register()
            if read_only:
                if self.db.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
                    raise NotOurs(self.path, sqlite=True)
                return
            self.db.execute("PRAGMA busy_timeout = 5000")
            self.db.execute("PRAGMA foreign_keys = ON")
            self._migrate()
        except sqlite3.Error as exc:
            self.close()
            raise self.translate(exc) from None
        except BaseException:
            self.close()
            raise

    def _connect(self, read_only: bool) -> sqlite3.Connection:
        """SQLite's connection to the file (under ``_OPEN_LOCK``), its folder made first."""
        if read_only:
            return sqlite3.connect(
                f"file:{quote(str(self.path.resolve()))}?mode=ro",
                uri=True,
                timeout=0.5,
                isolation_level=None,
                check_same_thread=False,
            )
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DatabasePathError(
                _("cannot create the folder for the database %(path)s: %(reason)s")
                % {"path": self.path, "reason": os_reason(exc)},
                self.path,
            ) from None
        return sqlite3.connect(str(self.path), timeout=5.0, isolation_level=None, check_same_thread=False)

    def _register(self) -> None:
        """Count this connection among the process's open ones on the file (under ``_OPEN_LOCK``)."""
        key = _file_key(self.path)
        if key is not None:
            _OPEN_FILES[key] = _OPEN_FILES.get(key, 0) + 1
        self._key = key

    def close(self) -> None:
        db = getattr(self, "db", None)
        if db is not None:
            db.close()
        with _OPEN_LOCK:
            key, self._key = self._key, None
            if key is not None:
                left = _OPEN_FILES.get(key, 1) - 1
                if left > 0:
                    _OPEN_FILES[key] = left
                else:
                    _OPEN_FILES.pop(key, None)
                    _SOUND_FILES.discard(key)

    # -- checks -------------------------------------------------------------------------

    def _check_file(self) -> None:
        if not self.path.exists():
            return
        if self.path.is_dir():
            raise DatabasePathError(
                _("%(path)s is a folder, not a database file") % {"path": self.path}, self.path
            )
        try:
            st = self.path.stat()
            if st.st_size == 0 or (st.st_dev, st.st_ino) in _OPEN_FILES:
                return  # empty, or open here already: checked then, and reading it now would drop its locks
            with open(self.path, "rb") as f:
                header = f.read(16)
        except OSError as exc:
            raise StoreError(
                _("cannot read the database %(path)s: %(reason)s")
                % {"path": self.path, "reason": os_reason(exc)}
            ) from None
        if header != SQLITE_HEADER:
            raise NotOurs(self.path, sqlite=False)

    def translate(self, exc: sqlite3.Error) -> StoreError:
        """SQLite's error as the store's: busy, damaged, the disk, read-only, or as it says."""
        text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        if "locked" in text or "busy" in text:
            return StoreBusy()
        if (
            "malformed" in text
            or "not a database" in text
            or "corrupt" in text
            or "btreeInitPage" in text
            or "never used" in text
        ):
            return Damaged(self.path, text)
        if "disk is full" in text or "disk I/O" in text:
            return WriteFailed(self.path, text)
        if "readonly" in text or "read-only" in text:
            return WriteFailed(self.path, text, read_only=True)
        return StoreError(
            _("database error on %(path)s: %(reason)s; nothing was written")
            % {"path": self.path, "reason": text}
        )

    def _same_file(self) -> None:
        """Refuse to write when the path no longer names the file this connection holds
        (deleted, or replaced by another: device and inode differ): SQLite would write
        into the unlinked file, and every write would be lost with it."""
        if self._key is not None and _file_key(self.path) != self._key:
            raise DatabaseGone(self.path)

    def _verify(self) -> None:
        """Refuse to write to a damaged file: PRAGMA quick_check, once per connection,
        for files up to :data:`QUICK_CHECK_MAX_BYTES` (larger ones on suspicion), unless
        another connection of this process found the file sound and is still open."""
        if self._verified:
            return
        self._verified = True
        if self._key is not None and self._key in _SOUND_FILES:
            return
        try:
            size = self.path.stat().st_size
        except OSError:
            return
        if size > QUICK_CHECK_MAX_BYTES:
            return
        result = self.db.execute("PRAGMA quick_check").fetchall()
        if result != [("ok",)]:
            first = str(result[0][0]).replace("*** in database main ***", "").strip()
            raise Damaged(self.path, first.splitlines()[0])
        if self._key is not None:
            with _OPEN_LOCK:
                if self._key in _OPEN_FILES:
                    _SOUND_FILES.add(self._key)

    def _migrate(self) -> None:
        app_id = self.db.execute("PRAGMA application_id").fetchone()[0]
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if app_id != APPLICATION_ID:
            tables = self.db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            if app_id != 0 or tables or version:
                raise NotOurs(self.path, sqlite=True)
        if version > SCHEMA_VERSION:
            raise NewerSchema(self.path, version, SCHEMA_VERSION)
        if version == SCHEMA_VERSION:
            return
        if version:
            self._verify()
        self.db.execute("PRAGMA journal_mode = WAL")
        for number in range(version + 1, SCHEMA_VERSION + 1):
            self.db.execute("BEGIN IMMEDIATE")
            try:
                current = self.db.execute("PRAGMA user_version").fetchone()[0]
                if current >= number:  # another process migrated meanwhile
                    self.db.execute("COMMIT")
                    continue
                for step in migrations()[number - 1]:
                    run_step(self.db, step)
                self.db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                self.db.execute(f"PRAGMA user_version = {number}")
                self.db.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise

    # -- transactions ------------------------------------------------------------------

    def _rollback(self) -> None:
        """Roll back if a transaction is still open (SQLite may have ended it already)."""
        if self.db.in_transaction:
            try:
                self.db.execute("ROLLBACK")
            except sqlite3.Error:
                pass

    def _writer(self) -> threading.RLock | None:
        """The lock of this process's writers to the file (None: it has no key)."""
        key = self._key
        if key is None:
            return None
        with _OPEN_LOCK:
            found = _WRITERS.get(key)
            if found is None:
                found = _WRITERS[key] = threading.RLock()
            return found

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """One transaction: all of the block's writes, or none of them; the process's
        other writers to the file wait for it in :data:`_WRITERS`, not in SQLite."""
        writer = self._writer()
        if writer is not None and not writer.acquire(timeout=WRITER_WAIT):
            raise StoreBusy()
        try:
            with self._transaction() as db:
                yield db
        finally:
            if writer is not None:
                writer.release()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        try:
            self.db.execute("BEGIN IMMEDIATE")
            self._same_file()
            self._verify()
        except sqlite3.Error as exc:
            self._rollback()
            raise self.translate(exc) from None
        except BaseException:
            self._rollback()
            raise
        try:
            yield self.db
        except sqlite3.Error as exc:
            self._rollback()
            raise self.translate(exc) from None
        except BaseException:
            self._rollback()
            raise
        try:
            self.db.execute("COMMIT")
        except sqlite3.Error as exc:
            self._rollback()
            raise self.translate(exc) from None
        self.writes += 1

    @contextmanager
    def held(self) -> Iterator[None]:
        """The block as one ``BEGIN IMMEDIATE`` transaction, its reads and writes alike: a
        write inside it (:meth:`transact`) is part of it, and the block commits all of
        them or none (an error rolls everything back). Inside another, part of that."""
        if self.holding:
            yield
            return
        with self.write():
            self.holding = True
            try:
                yield
            finally:
                self.holding = False
                self.locked.clear()

    @contextmanager
    def reading(self) -> Iterator[None]:
        """Every read of the block from one snapshot: a deferred ``BEGIN``, and one read at
        once, as SQLite takes a WAL file's snapshot at a transaction's first read (not at
        ``BEGIN``); the long reads' cursors opened in the block read from it too. A reader
        in WAL mode waits for no writer and keeps none waiting. Inside a transaction
        already, part of it. Rolled back at the end: nothing was written."""
        if self.db.in_transaction:
            yield
            return
        try:
            self.db.execute("BEGIN DEFERRED")
            self.db.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
        except sqlite3.Error as exc:
            self._rollback()
            raise self.translate(exc) from None
        try:
            yield
        finally:
            self._rollback()

    def query(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[Any]:
        try:
            return self.db.execute(sql, params).fetchall()
        except sqlite3.DatabaseError as exc:
            raise self.translate(exc) from None

    def transact(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work(connection)`` as one transaction (:meth:`write`); inside :meth:`held`,
        part of that one."""
        if self.holding:
            try:
                return work(self.db)
            except sqlite3.Error as exc:
                raise self.translate(exc) from None
        with self.write() as db:
            return work(db)

    def batches(self, sql: str, params: Sequence[Any] | dict[str, Any], size: int) -> Iterator[list[Any]]:
        """The rows of a long read, ``size`` at a time, from one cursor."""
        try:
            cursor = self.db.execute(sql, params)
            while rows := cursor.fetchmany(size):
                yield rows
        except sqlite3.DatabaseError as exc:
            raise self.translate(exc) from None

    def changes(self) -> set[int] | None:
        """None when another connection wrote since the last call (``PRAGMA data_version``
        says only that something changed), else no session; :class:`DatabaseGone` once
        the path names another file or none (every page asks this first, so the reads
        are refused as the writes are, not answered from the deleted file)."""
        self._same_file()
        data_version = self.query("PRAGMA data_version")[0][0]
        if data_version != self._data_version:
            self._data_version = data_version
            return None
        return set()
