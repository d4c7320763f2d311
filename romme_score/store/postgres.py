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

import json
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import date, datetime
from typing import TYPE_CHECKING, Any, TypeVar

from romme_score.i18n import _
from romme_score.rules import RuleSet
from romme_score.scoring import RoundInput, RoundScore
from romme_score.store.errors import (
    DatabasePathError,
    NewerSchema,
    NoCurrentSession,
    NoCurrentTournament,
    NoDatabase,
    NoRounds,
    NoSuchSession,
    NoSuchTournament,
    NotOurs,
    PendingChanged,
    RoundNotThere,
    SeriesDrawn,
    SessionExists,
    SessionInTournament,
    StoreBusy,
    StoreError,
    TournamentExists,
)
from romme_score.store.records import (
    KEEP,
    LINK_KINDS,
    Change,
    HandRecord,
    HeadToHead,
    Lines,
    Link,
    Note,
    PendingChange,
    PendingHand,
    PendingRound,
    PlayerSessionStats,
    Rename,
    RoundPoints,
    RoundRecord,
    SessionCount,
    SessionInfo,
    StoredRound,
    TournamentInfo,
    TournamentPlayer,
    TournamentTable,
    canonical,
    change_time,
    now,
    scoresheet_line_fields,
    stored_rounds,
    to_seconds,
)
from romme_score.tournament_options import TournamentOptions

if TYPE_CHECKING:
    import psycopg

T = TypeVar("T")
APPLICATION = "romme-score"
CHANNEL = "romme_sessions"
RETRIES = 20  # serialization failures and deadlocks retried before the write is refused as busy

TOTALS_SELECT = """
    SELECT p.session_id, p.name,
        COALESCE((SELECT SUM(h.points - h.bonus) FROM hands h JOIN rounds r ON r.id = h.round_id
                  WHERE r.session_id = p.session_id AND r.status = 'active'
                  AND h.player = p.name), 0),
        COALESCE((SELECT SUM(COALESCE(h.leaderboard, 0)) FROM hands h
                  JOIN rounds r ON r.id = h.round_id
                  WHERE r.session_id = p.session_id AND r.status = 'active'
                  AND h.player = p.name), 0)
    FROM players p WHERE p.session_id = %s"""

# Tournaments (the SQLite file's migration of the same name), self-contained so that it
# can take another number when migrations of other branches come first.
TOURNAMENTS = [
    """CREATE TABLE tournaments (
        id BIGSERIAL PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        rules TEXT NOT NULL,
        options TEXT NOT NULL,
        seed BIGINT NOT NULL
    )""",
    """CREATE TABLE tournament_players (
        tournament_id BIGINT NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
        start INTEGER NOT NULL,
        name TEXT NOT NULL,
        team TEXT,
        withdrawn_after INTEGER,
        withdrawn_at TEXT,
        PRIMARY KEY (tournament_id, start),
        UNIQUE (tournament_id, name)
    )""",
    """CREATE TABLE tournament_series (
        tournament_id BIGINT NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        drawn_at TEXT NOT NULL,
        PRIMARY KEY (tournament_id, number)
    )""",
    """CREATE TABLE tournament_tables (
        tournament_id BIGINT NOT NULL,
        series INTEGER NOT NULL,
        number INTEGER NOT NULL,
        session_id BIGINT NOT NULL UNIQUE REFERENCES sessions(id),
        PRIMARY KEY (tournament_id, series, number),
        FOREIGN KEY (tournament_id, series)
            REFERENCES tournament_series(tournament_id, number) ON DELETE CASCADE
    )""",
]

# The schema of the SQLite file (romme_score/store/sqlite/schema.py), migration by migration,
# in PostgreSQL's words; romme_schema holds what SQLite keeps in application_id and user_version.
MIGRATIONS: list[list[str]] = [
    [
        "CREATE TABLE romme_schema (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        f"INSERT INTO romme_schema (key, value) VALUES ('application', '{APPLICATION}'), ('version', '0')",
        """CREATE TABLE sessions (
            id BIGSERIAL PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            created_at TEXT NOT NULL,
            rules TEXT NOT NULL,
            rate TEXT,
            currency TEXT,
            first_dealer INTEGER NOT NULL DEFAULT 0,
            version BIGINT NOT NULL DEFAULT 0
        )""",
        """CREATE TABLE players (
            session_id BIGINT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            name TEXT NOT NULL,
            PRIMARY KEY (session_id, seat),
            UNIQUE (session_id, name)
        )""",
        """CREATE TABLE rounds (
            id BIGSERIAL PRIMARY KEY,
            session_id BIGINT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            number INTEGER NOT NULL,
            winner TEXT,
            hand_romme BOOLEAN NOT NULL DEFAULT FALSE,
            stalemate BOOLEAN NOT NULL DEFAULT FALSE,
            recorded_at TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'undone', 'replaced')),
            replaced_by BIGINT REFERENCES rounds(id),
            changed_at TEXT
        )""",
        "CREATE UNIQUE INDEX rounds_active ON rounds(session_id, number) WHERE status = 'active'",
        "CREATE INDEX rounds_by_session ON rounds(session_id, status, number)",
        """CREATE TABLE hands (
            round_id BIGINT NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
            player TEXT NOT NULL,
            cards TEXT,
            typed_points INTEGER,
            never_out BOOLEAN NOT NULL DEFAULT FALSE,
            points INTEGER NOT NULL,
            bonus INTEGER NOT NULL DEFAULT 0,
            leaderboard INTEGER,
            PRIMARY KEY (round_id, player)
        )""",
        "CREATE TABLE state (key TEXT PRIMARY KEY, value TEXT)",
        """CREATE TABLE totals (
            session_id BIGINT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            player TEXT NOT NULL,
            total BIGINT NOT NULL DEFAULT 0,
            leaderboard BIGINT NOT NULL DEFAULT 0,
            PRIMARY KEY (session_id, player)
        )""",
        """CREATE TABLE notes (
            id BIGSERIAL PRIMARY KEY,
            session_id BIGINT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            round INTEGER,
            text TEXT NOT NULL,
            at TEXT NOT NULL
        )""",
        """CREATE TABLE renames (
            id BIGSERIAL PRIMARY KEY,
            session_id BIGINT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            old_name TEXT NOT NULL,
            new_name TEXT NOT NULL,
            at TEXT NOT NULL
        )""",
    ],
    [  # 2: the round in progress (hands arriving from the phones) and the phones' links
        """CREATE TABLE pending (
            session_id BIGINT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
            revision BIGINT NOT NULL DEFAULT 0,
            winner TEXT,
            hand_romme BOOLEAN NOT NULL DEFAULT FALSE,
            stalemate BOOLEAN NOT NULL DEFAULT FALSE
        )""",
        """CREATE TABLE pending_hands (
            session_id BIGINT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            player TEXT NOT NULL,
            cards TEXT,
            typed_points INTEGER,
            never_out BOOLEAN NOT NULL DEFAULT FALSE,
            at TEXT NOT NULL,
            PRIMARY KEY (session_id, player)
        )""",
        """CREATE TABLE links (
            session_id BIGINT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            kind TEXT NOT NULL CHECK (kind IN ('board', 'scorekeeper', 'seat')),
            player TEXT NOT NULL DEFAULT '',
            token TEXT NOT NULL UNIQUE,
            created_at TEXT NOT NULL,
            PRIMARY KEY (session_id, kind, player)
        )""",
    ],
    TOURNAMENTS,  # 3: tournaments (RULES.md §10), as the SQLite file's, defined above
    [  # 4: 003's leaderboard points exact, in tenths (as the SQLite file's version 7)
        """UPDATE hands SET leaderboard = (
            SELECT CASE WHEN r.winner = hands.player THEN CASE WHEN r.hand_romme THEN 600 ELSE 300 END
                        ELSE GREATEST(0, 100 - hands.points) END
            FROM rounds r WHERE r.id = hands.round_id)
        WHERE leaderboard IS NOT NULL""",
        """UPDATE totals SET leaderboard = COALESCE((SELECT SUM(COALESCE(h.leaderboard, 0)) FROM hands h
            JOIN rounds r ON r.id = h.round_id
            WHERE r.session_id = totals.session_id AND r.status = 'active'
            AND h.player = totals.player), 0)""",
    ],
]
SCHEMA_VERSION = len(MIGRATIONS)


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


class PostgresStore:
    """A romme-score database on a PostgreSQL server (:class:`~romme_score.store.protocol.Store`)."""

    def __init__(self, url: str, *, create: bool = True) -> None:
        self.url = url
        self.location = shown(url)
        self._pg = _psycopg()
        self._listener: psycopg.Connection[Any] | None = None
        self._versions: dict[int, int] = {}
        try:
            self.db: psycopg.Connection[Any] = self._pg.connect(url, autocommit=False, connect_timeout=10)
        except self._pg.Error as exc:
            raise self.translate(exc) from None
        try:
            self._migrate(create)
        except BaseException:
            self.db.close()
            raise

    def close(self) -> None:
        for conn in (self.db, self._listener):
            if conn is not None and not conn.closed:
                conn.close()

    def __enter__(self) -> PostgresStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

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

    @contextmanager
    def _transaction(self) -> Iterator[Any]:
        """One transaction on a cursor; psycopg's errors as the store's."""
        try:
            with self.db.transaction(), self.db.cursor() as cur:
                yield cur
        except StoreError:
            raise
        except self._pg.Error as exc:
            raise self.translate(exc) from None

    def write(self, work: Callable[[Any], T]) -> T:
        """Run ``work(cursor)`` as one transaction; a serialization failure or a deadlock
        (two writers at once) is tried again, up to :data:`RETRIES` times."""
        retry = (self._pg.errors.SerializationFailure, self._pg.errors.DeadlockDetected)
        for attempt in range(RETRIES):
            try:
                with self.db.transaction(), self.db.cursor() as cur:
                    result = work(cur)
                self._versions.clear()
                return result
            except retry:
                time.sleep(0.01 * (attempt + 1))
            except StoreError:
                raise
            except self._pg.Error as exc:
                raise self.translate(exc) from None
        raise StoreBusy()

    def query(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[Any]:
        with self._transaction() as cur:
            cur.execute(sql, params)
            return list(cur.fetchall())

    # -- the schema -------------------------------------------------------------------

    def _migrate(self, create: bool) -> None:
        with self._transaction() as cur:
            cur.execute("SELECT to_regclass('romme_schema') IS NOT NULL")
            ours = cur.fetchone()[0]
            if ours:
                cur.execute("SELECT key, value FROM romme_schema")
                meta = dict(cur.fetchall())
                if meta.get("application") != APPLICATION:
                    raise NotOurs(self.location, sqlite=False)
                version = int(meta.get("version", "0"))
                if version > SCHEMA_VERSION:
                    raise NewerSchema(self.location, version, SCHEMA_VERSION)
                if version == SCHEMA_VERSION:
                    return
            else:
                cur.execute(
                    "SELECT count(*) FROM information_schema.tables "
                    "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
                )
                if cur.fetchone()[0]:
                    raise NotOurs(self.location, sqlite=False)
        if not create and not ours:
            raise NoDatabase(self.location)

        def migrate(cur: Any) -> None:
            # One migrator at a time: the others wait here, then find the work done.
            cur.execute("SELECT pg_advisory_xact_lock(%s)", (0x526F6D6D,))
            cur.execute("SELECT to_regclass('romme_schema') IS NOT NULL")
            version = 0
            if cur.fetchone()[0]:
                cur.execute("SELECT value FROM romme_schema WHERE key = 'version'")
                version = int(cur.fetchone()[0])
            for number in range(version + 1, SCHEMA_VERSION + 1):
                for statement in MIGRATIONS[number - 1]:
                    cur.execute(statement)
                cur.execute("UPDATE romme_schema SET value = %s WHERE key = 'version'", (str(number),))

        self.write(migrate)

    # -- changes -----------------------------------------------------------------------

    def _notified(self) -> set[int] | None:
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

    def version(self, session: SessionInfo) -> int:
        changed = self._notified()
        if changed is None:
            self._versions.clear()
        else:
            for sid in changed:
                self._versions.pop(sid, None)
        found = self._versions.get(session.id)
        if found is None:
            rows = self.query("SELECT version FROM sessions WHERE id = %s", (session.id,))
            found = self._versions[session.id] = int(rows[0][0]) if rows else -1
        return found

    @staticmethod
    def _changed(cur: Any, session_id: int) -> None:
        """Count the session's change and tell the listeners (sent when the transaction commits)."""
        cur.execute("UPDATE sessions SET version = version + 1 WHERE id = %s", (session_id,))
        cur.execute("SELECT pg_notify(%s, %s)", (CHANNEL, str(session_id)))

    # -- sessions -----------------------------------------------------------------------

    def create_session(
        self,
        name: str,
        players: Sequence[str],
        rules: RuleSet,
        rate: str | None,
        currency: str | None,
        first_dealer: int,
    ) -> None:
        def work(cur: Any) -> None:
            cur.execute("LOCK TABLE sessions IN SHARE ROW EXCLUSIVE MODE")  # one new name at a time
            self._insert_session(cur, name, players, rules, rate, currency, first_dealer)
            self._set_current(cur, name)

        self.write(work)

    def _insert_session(
        self,
        cur: Any,
        name: str,
        players: Sequence[str],
        rules: RuleSet,
        rate: str | None,
        currency: str | None,
        first_dealer: int,
    ) -> int:
        """A new session's rows (inside the caller's transaction, which holds the lock on
        the session names); its id."""
        cur.execute("SELECT 1 FROM sessions WHERE name = %s", (name,))
        if cur.fetchone():
            raise SessionExists(name, "create")
        cur.execute(
            "INSERT INTO sessions (name, created_at, rules, rate, currency, first_dealer) "
            "VALUES (%s, %s, %s, %s, %s, %s) RETURNING id",
            (name, now(), json.dumps(rules.to_dict()), rate, currency, first_dealer),
        )
        sid = int(cur.fetchone()[0])
        cur.executemany(
            "INSERT INTO players (session_id, seat, name) VALUES (%s, %s, %s)",
            [(sid, seat, p) for seat, p in enumerate(players)],
        )
        cur.executemany(
            "INSERT INTO totals (session_id, player) VALUES (%s, %s)", [(sid, p) for p in players]
        )
        self._changed(cur, sid)
        return sid

    @staticmethod
    def _set_current(cur: Any, name: str) -> None:
        cur.execute(
            "INSERT INTO state (key, value) VALUES ('current', %s) "
            "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
            (name,),
        )

    def set_current(self, name: str) -> None:
        self.session(name)
        self.write(lambda cur: self._set_current(cur, name))

    def current_name(self) -> str | None:
        rows = self.query("SELECT value FROM state WHERE key = 'current'")
        return rows[0][0] if rows else None

    def session_names(self) -> list[str]:
        return [r[0] for r in self.query("SELECT name FROM sessions ORDER BY id")]

    SESSION_COLUMNS = "SELECT id, name, rules, rate, currency, first_dealer, created_at FROM sessions"

    def session(self, name: str | None = None) -> SessionInfo:
        if name is None:
            name = self.current_name()
            if name is None:
                raise NoCurrentSession()
        rows = self.query(f"{self.SESSION_COLUMNS} WHERE name = %s", (name,))
        if not rows:
            raise NoSuchSession(name, self.session_names())
        return self._info(rows[0])

    def session_by_id(self, session_id: int) -> SessionInfo:
        rows = self.query(f"{self.SESSION_COLUMNS} WHERE id = %s", (session_id,))
        if not rows:
            raise NoSuchSession(f"#{session_id}", self.session_names())
        return self._info(rows[0])

    def _info(self, row: Sequence[Any]) -> SessionInfo:
        sid, sname, rules_json, rate, currency, dealer, created = row
        players = tuple(
            r[0] for r in self.query("SELECT name FROM players WHERE session_id = %s ORDER BY seat", (sid,))
        )
        return SessionInfo(
            sid, sname, players, RuleSet.from_dict(json.loads(rules_json)), rate, currency, dealer, created
        )

    def session_overview(self) -> list[SessionCount]:
        out = []
        for name in self.session_names():
            info = self.session(name)
            out.append(SessionCount(info, self.round_count(info), self.totals(info)))
        return out

    def rename_session(self, old: str, new: str) -> None:
        info = self.session(old)

        def work(cur: Any) -> None:
            cur.execute("LOCK TABLE sessions IN SHARE ROW EXCLUSIVE MODE")
            cur.execute("SELECT 1 FROM sessions WHERE name = %s", (new,))
            if cur.fetchone():
                raise SessionExists(new, "rename")
            cur.execute("UPDATE sessions SET name = %s WHERE id = %s", (new, info.id))
            if cur.rowcount != 1:
                raise NoSuchSession(old, self.session_names())
            cur.execute(
                "INSERT INTO renames (session_id, old_name, new_name, at) VALUES (%s, %s, %s, %s)",
                (info.id, info.name, new, now()),
            )
            cur.execute("UPDATE state SET value = %s WHERE key = 'current' AND value = %s", (new, info.name))
            self._changed(cur, info.id)

        self.write(work)

    def delete_session(self, name: str) -> None:
        info = self.session(name)

        def work(cur: Any) -> None:
            self._refuse_if_a_table(cur, info.id, info.name)
            self._delete(cur, info.id)
            cur.execute("DELETE FROM state WHERE key = 'current' AND value = %s", (info.name,))
            cur.execute("SELECT pg_notify(%s, %s)", (CHANNEL, str(info.id)))

        self.write(work)

    @staticmethod
    def _refuse_if_a_table(cur: Any, session_id: int, session: str) -> None:
        """A session that is a tournament's table is neither deleted nor replaced."""
        cur.execute(
            "SELECT t.name FROM tournament_tables tt JOIN tournaments t ON t.id = tt.tournament_id "
            "WHERE tt.session_id = %s",
            (session_id,),
        )
        row = cur.fetchone()
        if row is not None:
            raise SessionInTournament(session, row[0])

    @staticmethod
    def _delete(cur: Any, sid: int) -> None:
        cur.execute(
            "DELETE FROM hands WHERE round_id IN (SELECT id FROM rounds WHERE session_id = %s)", (sid,)
        )
        cur.execute("UPDATE rounds SET replaced_by = NULL WHERE session_id = %s", (sid,))
        for table in ("rounds", "players", "totals", "notes", "renames", "pending_hands", "pending", "links"):
            cur.execute(f"DELETE FROM {table} WHERE session_id = %s", (sid,))
        cur.execute("DELETE FROM sessions WHERE id = %s", (sid,))

    def write_session(
        self,
        name: str,
        created: str,
        players: Sequence[str],
        rules: RuleSet,
        rate: str | None,
        currency: str | None,
        first_dealer: int,
        rounds: Sequence[StoredRound],
        notes: Sequence[Note],
        renames: Sequence[Rename],
        overwrite: bool,
        make_current: bool = True,
    ) -> None:
        def work(cur: Any) -> None:
            cur.execute("LOCK TABLE sessions IN SHARE ROW EXCLUSIVE MODE")
            cur.execute("SELECT id FROM sessions WHERE name = %s", (name,))
            existing = cur.fetchone()
            if existing:
                if not overwrite:
                    raise SessionExists(name, "import")
                self._refuse_if_a_table(cur, existing[0], name)
                self._delete(cur, existing[0])
                cur.execute("SELECT pg_notify(%s, %s)", (CHANNEL, str(existing[0])))
            cur.execute(
                "INSERT INTO sessions (name, created_at, rules, rate, currency, first_dealer) "
                "VALUES (%s, %s, %s, %s, %s, %s) RETURNING id",
                (name, created or now(), json.dumps(rules.to_dict()), rate, currency, first_dealer),
            )
            sid = cur.fetchone()[0]
            cur.executemany(
                "INSERT INTO players (session_id, seat, name) VALUES (%s, %s, %s)",
                [(sid, seat, p) for seat, p in enumerate(players)],
            )
            # Round ids taken in one go, so that the hands and the replaced_by links can be
            # written with executemany (pipelined) however long the session.
            cur.execute("SELECT nextval('rounds_id_seq') FROM generate_series(1, %s)", (len(rounds),))
            ids = {rec.row: row[0] for rec, row in zip(rounds, cur.fetchall(), strict=True)}
            cur.executemany(
                "INSERT INTO rounds (id, session_id, number, winner, hand_romme, stalemate, recorded_at, "
                "status, changed_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                [
                    (
                        ids[r.row],
                        sid,
                        r.number,
                        r.winner,
                        r.hand_romme,
                        r.stalemate,
                        r.recorded_at or now(),
                        r.status,
                        r.changed_at,
                    )
                    for r in rounds
                ],
            )
            empty = HandRecord(None, None, False, 0, 0, None)
            cur.executemany(
                "INSERT INTO hands (round_id, player, cards, typed_points, never_out, points, bonus, "
                "leaderboard) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                [
                    (ids[r.row], p, h.cards, h.typed_points, h.never_out, h.points, h.bonus, h.leaderboard)
                    for r in rounds
                    for p in players
                    for h in (r.hands.get(p, empty),)
                ],
            )
            cur.executemany(
                "UPDATE rounds SET replaced_by = %s WHERE id = %s",
                [(ids[r.replaced_by], ids[r.row]) for r in rounds if r.replaced_by is not None],
            )
            cur.executemany(
                "INSERT INTO notes (session_id, round, text, at) VALUES (%s, %s, %s, %s)",
                [(sid, n.round, n.text, n.at) for n in notes],
            )
            cur.executemany(
                "INSERT INTO renames (session_id, old_name, new_name, at) VALUES (%s, %s, %s, %s)",
                [(sid, r.old, r.new, r.at) for r in renames],
            )
            self._refresh_totals(cur, sid)
            cur.execute(
                "SELECT 1 FROM state JOIN sessions ON sessions.name = state.value WHERE state.key = 'current'"
            )
            if make_current or cur.fetchone() is None:
                self._set_current(cur, name)
            self._changed(cur, sid)

        self.write(work)
        # A whole session at once: the planner's statistics would still say the tables are
        # nearly empty, and plan the long reads of its rounds as nested loops.
        self.write(lambda cur: cur.execute("ANALYZE rounds, hands, players"))

    # -- rounds -------------------------------------------------------------------------

    def round_count(self, session: SessionInfo) -> int:
        rows = self.query(
            "SELECT COALESCE(MAX(number), 0) FROM rounds WHERE session_id = %s AND status = 'active'",
            (session.id,),
        )
        return int(rows[0][0])

    def totals(self, session: SessionInfo) -> dict[str, int]:
        totals = dict.fromkeys(session.players, 0)
        for player, total in self.query(
            "SELECT player, total FROM totals WHERE session_id = %s", (session.id,)
        ):
            totals[player] = int(total)
        return totals

    def leaderboard(self, session: SessionInfo) -> dict[str, int]:
        board = dict.fromkeys(session.players, 0)
        for player, total in self.query(
            "SELECT player, leaderboard FROM totals WHERE session_id = %s", (session.id,)
        ):
            board[player] = int(total)
        return board

    @staticmethod
    def _refresh_totals(cur: Any, session_id: int) -> None:
        cur.execute("DELETE FROM totals WHERE session_id = %s", (session_id,))
        cur.execute(
            "INSERT INTO totals (session_id, player, total, leaderboard) " + TOTALS_SELECT, (session_id,)
        )

    @staticmethod
    def _recent(session: SessionInfo, last: int | None) -> tuple[str, list[Any]]:
        if last is None:
            return "", [session.id]
        return (
            "AND r.number > (SELECT COALESCE(MAX(number), 0) - %s FROM rounds "
            "WHERE session_id = %s AND status = 'active')",
            [session.id, last, session.id],
        )

    def rounds(self, session: SessionInfo, last: int | None = None) -> list[RoundRecord]:
        limit, params = self._recent(session, last)
        rows = self.query(
            "SELECT r.number, r.winner, r.hand_romme, r.stalemate, r.recorded_at, h.player, "
            "h.cards, h.typed_points, h.never_out, h.points, h.bonus, h.leaderboard "
            "FROM rounds r JOIN hands h ON h.round_id = r.id "
            # hands in the order of their key, as SQLite reads them (bytewise: COLLATE "C")
            f"WHERE r.session_id = %s AND r.status = 'active' {limit} "
            'ORDER BY r.number, h.player COLLATE "C"',
            params,
        )
        records: dict[int, RoundRecord] = {}
        for number, winner, hr, sm, at, player, cards, typed, never_out, points, bonus, board in rows:
            rec = records.get(number)
            if rec is None:
                rec = records[number] = RoundRecord(number, winner, bool(hr), bool(sm), {}, at)
            rec.hands[player] = HandRecord(cards, typed, bool(never_out), points, bonus, board)
        return list(records.values())

    def _stream(self, sql: str, params: Sequence[Any] | dict[str, Any]) -> Iterator[tuple[Any, ...]]:
        """Rows of a long read from a server-side cursor, so that memory stays flat."""
        try:
            with self.db.transaction():
                # A cursor is planned for its first rows unless told otherwise, and for a
                # whole session's rounds that plan joins the row numbers in a nested loop.
                self.db.execute("SET LOCAL cursor_tuple_fraction = 1.0")
                with self.db.cursor(name=f"romme_{id(self)}_{time.monotonic_ns()}") as cur:
                    cur.itersize = 2000
                    cur.execute(sql, params)
                    yield from cur
        except self._pg.Error as exc:
            raise self.translate(exc) from None

    def round_points(self, session: SessionInfo, last: int | None = None) -> Iterator[RoundPoints]:
        limit, params = self._recent(session, last)
        rows = self.query(
            "SELECT r.number, r.winner, r.hand_romme, r.stalemate, h.player, h.points, h.bonus, "
            "h.leaderboard FROM rounds r JOIN hands h ON h.round_id = r.id JOIN players p "
            "ON p.session_id = r.session_id AND p.name = h.player "
            f"WHERE r.session_id = %s AND r.status = 'active' {limit} ORDER BY r.number, p.seat",
            params,
        )
        entry: RoundPoints | None = None
        for number, winner, hr, sm, player, got, struck, lead in rows:
            if entry is None or number != entry.number:
                if entry is not None:
                    yield entry
                entry = RoundPoints(number, winner, bool(hr), bool(sm), {}, {}, {})
            entry.points[player] = got  # type: ignore[index]
            entry.bonus[player] = struck  # type: ignore[index]
            entry.leaderboard[player] = lead  # type: ignore[index]
        if entry is not None:
            yield entry

    def _insert_round(
        self, cur: Any, session: SessionInfo, number: int, rnd: RoundInput, score: RoundScore
    ) -> int:
        cur.execute(
            "INSERT INTO rounds (session_id, number, winner, hand_romme, stalemate, recorded_at) "
            "VALUES (%s, %s, %s, %s, %s, %s) RETURNING id",
            (session.id, number, rnd.winner, rnd.hand_romme, rnd.stalemate, now()),
        )
        round_id = int(cur.fetchone()[0])
        rows = []
        for player in session.players:
            hand = rnd.hands.get(player)
            rows.append(
                (
                    round_id,
                    player,
                    canonical(hand.cards) if hand else None,
                    hand.points if hand else None,
                    bool(hand.never_out) if hand else False,
                    score.points[player],
                    score.bonus.get(player, 0),
                    score.leaderboard.get(player),
                )
            )
        cur.executemany(
            "INSERT INTO hands (round_id, player, cards, typed_points, never_out, points, bonus, "
            "leaderboard) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
            rows,
        )
        cur.executemany(
            "UPDATE totals SET total = total + %s, leaderboard = leaderboard + %s "
            "WHERE session_id = %s AND player = %s",
            [
                (points - bonus, board or 0, session.id, player)
                for _, player, _, _, _, points, bonus, board in rows
            ],
        )
        return round_id

    @staticmethod
    def _lock(cur: Any, session: SessionInfo) -> None:
        """Writers of one session one after the other: they wait on its row."""
        cur.execute("SELECT id FROM sessions WHERE id = %s FOR UPDATE", (session.id,))
        if cur.fetchone() is None:
            raise NoSuchSession(session.name, [])

    def record_round(
        self,
        session: SessionInfo,
        rnd: RoundInput,
        compute: Callable[[dict[str, int], int], T],
        score_of: Callable[[T], RoundScore],
        *,
        pending: int | None = None,
    ) -> tuple[int, T]:
        def work(cur: Any) -> tuple[int, T]:
            self._lock(cur, session)
            if pending is not None:
                now_at = self._pending_revision(cur, session.id)
                if now_at != pending:
                    raise PendingChanged(session.name, now_at)
                self._clear_pending(cur, session.id)
            cur.execute(
                "SELECT COALESCE(MAX(number), 0) FROM rounds WHERE session_id = %s AND status = 'active'",
                (session.id,),
            )
            count = int(cur.fetchone()[0])
            cur.execute("SELECT player, total FROM totals WHERE session_id = %s", (session.id,))
            before = dict.fromkeys(session.players, 0)
            before.update({p: int(t) for p, t in cur.fetchall()})
            result = compute(before, count)
            self._insert_round(cur, session, count + 1, rnd, score_of(result))
            self._changed(cur, session.id)
            return count + 1, result

        return self.write(work)

    def undo_last(self, session: SessionInfo) -> RoundRecord:
        def work(cur: Any) -> RoundRecord:
            self._lock(cur, session)
            cur.execute(
                "SELECT id FROM rounds WHERE session_id = %s AND status = 'active' "
                "ORDER BY number DESC LIMIT 1",
                (session.id,),
            )
            row = cur.fetchone()
            if row is None:
                raise NoRounds(session.name)
            record = self._round_by_id(cur, row[0], session)
            cur.execute(
                "UPDATE rounds SET status = 'undone', changed_at = %s WHERE id = %s", (change_time(), row[0])
            )
            self._refresh_totals(cur, session.id)
            self._changed(cur, session.id)
            return record

        return self.write(work)

    def _round_by_id(self, cur: Any, round_id: int, session: SessionInfo) -> RoundRecord:
        cur.execute(
            "SELECT r.number, r.winner, r.hand_romme, r.stalemate, r.recorded_at, h.player, h.cards, "
            "h.typed_points, h.never_out, h.points, h.bonus, h.leaderboard FROM rounds r "
            'JOIN hands h ON h.round_id = r.id WHERE r.id = %s ORDER BY h.player COLLATE "C"',
            (round_id,),
        )
        rec: RoundRecord | None = None
        for (
            number,
            winner,
            hr,
            sm,
            at,
            player,
            cards,
            typed,
            never_out,
            points,
            bonus,
            board,
        ) in cur.fetchall():
            if rec is None:
                rec = RoundRecord(number, winner, bool(hr), bool(sm), {}, at)
            rec.hands[player] = HandRecord(cards, typed, bool(never_out), points, bonus, board)
        assert rec is not None
        return rec

    def replace_rounds(
        self,
        session: SessionInfo,
        first_number: int,
        inputs: Sequence[RoundInput],
        scores: Sequence[RoundScore],
        changed: set[int],
    ) -> None:
        def work(cur: Any) -> None:
            self._lock(cur, session)
            for offset, (rnd, score) in enumerate(zip(inputs, scores, strict=True)):
                number = first_number + offset
                cur.execute(
                    "SELECT id FROM rounds WHERE session_id = %s AND number = %s AND status = 'active'",
                    (session.id, number),
                )
                old = cur.fetchone()
                if old is None:
                    raise RoundNotThere(number, session.name)
                if number in changed:
                    cur.execute(
                        "UPDATE rounds SET status = 'replaced', changed_at = %s WHERE id = %s",
                        (change_time(), old[0]),
                    )
                    new_id = self._insert_round(cur, session, number, rnd, score)
                    cur.execute("UPDATE rounds SET replaced_by = %s WHERE id = %s", (new_id, old[0]))
                else:
                    cur.executemany(
                        "UPDATE hands SET points = %s, bonus = %s, leaderboard = %s "
                        "WHERE round_id = %s AND player = %s",
                        [
                            (score.points[p], score.bonus.get(p, 0), score.leaderboard.get(p), old[0], p)
                            for p in session.players
                        ],
                    )
            self._refresh_totals(cur, session.id)
            self._changed(cur, session.id)

        self.write(work)

    def history(self, session: SessionInfo) -> list[Change]:
        return [
            Change(r[0], r[1], to_seconds(r[2]))
            for r in self.query(
                "SELECT number, status, changed_at FROM rounds WHERE session_id = %s AND status != 'active' "
                "ORDER BY changed_at, id",
                (session.id,),
            )
        ]

    def all_rounds(self, session: SessionInfo, *, active: bool) -> Iterator[StoredRound]:
        order = "r.number" if active else "r.id"
        rows = self._stream(
            "WITH numbered AS (SELECT id, ROW_NUMBER() OVER (ORDER BY id) AS row "
            "FROM rounds WHERE session_id = %(sid)s) "
            "SELECT n.row, r.number, r.status, r.winner, r.hand_romme, r.stalemate, r.recorded_at, "
            "r.changed_at, nb.row, "
            "h.player, h.cards, h.typed_points, h.never_out, h.points, h.bonus, h.leaderboard "
            "FROM rounds r JOIN numbered n ON n.id = r.id LEFT JOIN numbered nb ON nb.id = r.replaced_by "
            "JOIN hands h ON h.round_id = r.id "
            "JOIN players p ON p.session_id = r.session_id AND p.name = h.player "
            "WHERE r.session_id = %(sid)s AND (r.status = 'active') = %(active)s "
            f"ORDER BY {order}, p.seat",
            {"sid": session.id, "active": active},
        )
        return stored_rounds(rows)

    def round_lines(self, session: SessionInfo, *, active: bool, batch: int = 512) -> Iterator[Lines] | None:
        return None  # the export writes from all_rounds: the same text, byte for byte

    def points_lines(self, session: SessionInfo, batch: int = 512) -> Iterator[Lines] | None:
        return None  # standings --json writes from round_points

    def scoresheet_lines(self, session: SessionInfo, batch: int = 512) -> Iterator[Lines]:
        fields = scoresheet_line_fields(len(session.players))
        rows: list[tuple[Any, ...]] = []
        for rnd in self.all_rounds(session, active=True):
            hands = [rnd.hands.get(p) for p in session.players]
            rows.append(
                (
                    rnd.number,
                    rnd.winner or "",
                    int(rnd.hand_romme),
                    int(rnd.stalemate),
                    *((h.points - h.bonus) if h else 0 for h in hands),
                    *((h.cards or "") if h else "" for h in hands),
                    rnd.recorded_at,
                )
            )
            if len(rows) >= batch:
                yield Lines(fields, rows)
                rows = []
        if rows:
            yield Lines(fields, rows)

    # -- the round in progress (hands arriving from the phones) ---------------------------

    @staticmethod
    def _pending_revision(cur: Any, session_id: int) -> int:
        cur.execute("SELECT revision FROM pending WHERE session_id = %s", (session_id,))
        row = cur.fetchone()
        return int(row[0]) if row else 0

    def pending(self, session: SessionInfo) -> PendingRound:
        row = self.query(
            "SELECT revision, winner, hand_romme, stalemate FROM pending WHERE session_id = %s", (session.id,)
        )
        if not row:
            return PendingRound()
        revision, winner, hand_romme, stalemate = row[0]
        seats = {p: i for i, p in enumerate(session.players)}
        hands = sorted(
            self.query(
                "SELECT player, cards, typed_points, never_out FROM pending_hands WHERE session_id = %s",
                (session.id,),
            ),
            key=lambda r: seats.get(r[0], len(seats)),
        )
        return PendingRound(
            int(revision),
            winner,
            bool(hand_romme),
            bool(stalemate),
            {player: PendingHand(cards, typed, bool(never)) for player, cards, typed, never in hands},
        )

    def change_pending(self, session: SessionInfo, change: PendingChange) -> PendingRound:
        def work(cur: Any) -> None:
            self._lock(cur, session)
            cur.execute(
                "INSERT INTO pending (session_id) VALUES (%s) ON CONFLICT (session_id) DO NOTHING",
                (session.id,),
            )
            sets = ["revision = revision + 1"]
            values: list[Any] = []
            if change.winner is not KEEP:
                sets.append("winner = %s")
                values.append(change.winner)
            if change.hand_romme is not None:
                sets.append("hand_romme = %s")
                values.append(bool(change.hand_romme))
            if change.stalemate is not None:
                sets.append("stalemate = %s")
                values.append(bool(change.stalemate))
            cur.execute(f"UPDATE pending SET {', '.join(sets)} WHERE session_id = %s", (*values, session.id))
            at = now()
            for player, hand in change.hands.items():
                if hand is None:
                    cur.execute(
                        "DELETE FROM pending_hands WHERE session_id = %s AND player = %s",
                        (session.id, player),
                    )
                else:
                    cur.execute(
                        "INSERT INTO pending_hands (session_id, player, cards, typed_points, never_out, at) "
                        "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (session_id, player) DO UPDATE SET "
                        "cards = EXCLUDED.cards, typed_points = EXCLUDED.typed_points, "
                        "never_out = EXCLUDED.never_out, at = EXCLUDED.at",
                        (session.id, player, hand.cards, hand.typed_points, bool(hand.never_out), at),
                    )
            self._changed(cur, session.id)

        self.write(work)
        return self.pending(session)

    @staticmethod
    def _clear_pending(cur: Any, session_id: int) -> bool:
        """Empty the round in progress, keeping its revision counting (whether there was one)."""
        cur.execute(
            "SELECT winner IS NOT NULL OR hand_romme OR stalemate FROM pending WHERE session_id = %s",
            (session_id,),
        )
        found = cur.fetchone()
        cur.execute("DELETE FROM pending_hands WHERE session_id = %s", (session_id,))
        hands = cur.rowcount
        cur.execute(
            "UPDATE pending SET revision = revision + 1, winner = NULL, hand_romme = FALSE, "
            "stalemate = FALSE WHERE session_id = %s",
            (session_id,),
        )
        return bool(hands) or bool(found and found[0])

    def clear_pending(self, session: SessionInfo) -> None:
        def work(cur: Any) -> None:
            self._lock(cur, session)
            if self._clear_pending(cur, session.id):
                self._changed(cur, session.id)

        self.write(work)

    # -- links -----------------------------------------------------------------------------

    def links(self, session: SessionInfo) -> list[Link]:
        seats = {p: i for i, p in enumerate(session.players)}
        rows = self.query("SELECT kind, player, token FROM links WHERE session_id = %s", (session.id,))
        found = [Link(kind, player or None, token) for kind, player, token in rows]
        return sorted(found, key=lambda k: (LINK_KINDS.index(k.kind), seats.get(k.player or "", -1)))

    def add_links(self, session: SessionInfo, links: Sequence[Link], *, replace: bool) -> list[Link]:
        def work(cur: Any) -> None:
            self._lock(cur, session)
            if replace:
                cur.execute("DELETE FROM links WHERE session_id = %s", (session.id,))
            at = now()
            cur.executemany(
                "INSERT INTO links (session_id, kind, player, token, created_at) VALUES (%s, %s, %s, %s, %s) "
                "ON CONFLICT DO NOTHING",
                [(session.id, k.kind, k.player or "", k.token, at) for k in links],
            )

        self.write(work)
        return self.links(session)

    # -- notes and renames ---------------------------------------------------------------

    def notes(self, session: SessionInfo) -> list[Note]:
        return [
            Note(r[0], r[1], r[2])
            for r in self.query(
                "SELECT round, text, at FROM notes WHERE session_id = %s ORDER BY id", (session.id,)
            )
        ]

    def renames(self, session: SessionInfo) -> list[Rename]:
        return [
            Rename(r[0], r[1], r[2])
            for r in self.query(
                "SELECT old_name, new_name, at FROM renames WHERE session_id = %s ORDER BY id", (session.id,)
            )
        ]

    def add_note(self, session: SessionInfo, round_number: int | None, text: str) -> Note:
        at = now()

        def work(cur: Any) -> None:
            self._lock(cur, session)
            cur.execute(
                "INSERT INTO notes (session_id, round, text, at) VALUES (%s, %s, %s, %s)",
                (session.id, round_number, text, at),
            )
            self._changed(cur, session.id)

        self.write(work)
        return Note(round_number, text, at)

    # -- statistics across sessions --------------------------------------------------------

    @staticmethod
    def _since(created_at: str, since: str | None) -> bool:
        """A session started on or after ``since`` (a local date), as SQLite's
        ``date(created_at, 'localtime')`` reads it."""
        if since is None:
            return True
        try:
            started = datetime.fromisoformat(created_at).astimezone().date()
        except ValueError:
            return False
        return started >= date.fromisoformat(since)

    def player_session_stats(self, since: str | None = None) -> list[PlayerSessionStats]:
        rows = self.query(
            "WITH per_player AS (SELECT r.session_id, h.player, COUNT(*) AS rounds, "
            "    SUM((r.winner = h.player)::int) AS rounds_won, "
            "    SUM((r.winner = h.player AND r.hand_romme)::int) AS hand_rommes, "
            "    SUM(h.points) AS points, MAX(h.points) AS worst_round "
            "  FROM hands h JOIN rounds r ON r.id = h.round_id WHERE r.status = 'active' "
            "  GROUP BY r.session_id, h.player) "
            "SELECT s.id, s.name, s.rules, s.rate, s.currency, s.created_at, p.seat, p.name, "
            "COALESCE(t.total, 0), COALESCE(a.rounds, 0), COALESCE(a.rounds_won, 0), "
            "COALESCE(a.hand_rommes, 0), COALESCE(a.points, 0), COALESCE(a.worst_round, 0) "
            "FROM sessions s JOIN players p ON p.session_id = s.id "
            "LEFT JOIN totals t ON t.session_id = s.id AND t.player = p.name "
            "LEFT JOIN per_player a ON a.session_id = s.id AND a.player = p.name "
            "ORDER BY s.id, p.seat"
        )
        return [PlayerSessionStats(*row) for row in rows if self._since(row[5], since)]

    def head_to_head_rounds(self, opponents: Sequence[str], since: str | None = None) -> list[HeadToHead]:
        if not opponents:
            return []
        chosen = [
            info.id
            for info, _count, _totals in self.session_overview()
            if self._since(info.created_at, since)
        ]
        if not chosen:
            return []
        rows = self.query(
            "SELECT a.player, COUNT(*), COALESCE(SUM((a.points < b.points)::int), 0), "
            "COALESCE(SUM((a.points > b.points)::int), 0) "
            "FROM hands b JOIN rounds r ON r.id = b.round_id AND r.status = 'active' "
            "JOIN hands a ON a.round_id = r.id AND a.player != b.player "
            "WHERE b.player = ANY(%s) AND r.session_id = ANY(%s) GROUP BY a.player",
            (list(opponents), chosen),
        )
        return [HeadToHead(str(r[0]), int(r[1]), int(r[2]), int(r[3])) for r in rows]

    # -- tournaments (romme tournament) -----------------------------------------------

    def create_tournament(
        self,
        name: str,
        rules: RuleSet,
        options: TournamentOptions,
        seed: int,
        players: Sequence[TournamentPlayer],
    ) -> None:
        def work(cur: Any) -> None:
            cur.execute("LOCK TABLE tournaments IN SHARE ROW EXCLUSIVE MODE")  # one new name at a time
            cur.execute("SELECT 1 FROM tournaments WHERE name = %s", (name,))
            if cur.fetchone():
                raise TournamentExists(name)
            cur.execute(
                "INSERT INTO tournaments (name, created_at, rules, options, seed) "
                "VALUES (%s, %s, %s, %s, %s) RETURNING id",
                (name, now(), json.dumps(rules.to_dict()), json.dumps(options.to_dict()), seed),
            )
            tid = cur.fetchone()[0]
            cur.executemany(
                "INSERT INTO tournament_players (tournament_id, start, name, team) VALUES (%s, %s, %s, %s)",
                [(tid, p.start, p.name, p.team) for p in players],
            )
            cur.execute(
                "INSERT INTO state (key, value) VALUES ('tournament', %s) "
                "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                (name,),
            )

        self.write(work)

    def current_tournament(self) -> str | None:
        rows = self.query("SELECT value FROM state WHERE key = 'tournament'")
        return rows[0][0] if rows else None

    def tournament_names(self) -> list[str]:
        return [r[0] for r in self.query("SELECT name FROM tournaments ORDER BY id")]

    def tournament(self, name: str | None = None) -> TournamentInfo:
        if name is None:
            name = self.current_tournament()
            if name is None:
                raise NoCurrentTournament()
        rows = self.query(
            "SELECT id, name, created_at, rules, options, seed FROM tournaments WHERE name = %s", (name,)
        )
        if not rows:
            raise NoSuchTournament(name, self.tournament_names())
        tid, tname, created, rules, options, seed = rows[0]
        players = tuple(
            TournamentPlayer(start, pname, team, after)
            for start, pname, team, after in self.query(
                "SELECT start, name, team, withdrawn_after FROM tournament_players "
                "WHERE tournament_id = %s ORDER BY start",
                (tid,),
            )
        )
        drawn = self.query(
            "SELECT COALESCE(MAX(number), 0) FROM tournament_series WHERE tournament_id = %s", (tid,)
        )
        return TournamentInfo(
            int(tid),
            tname,
            created,
            RuleSet.from_dict(json.loads(rules)),
            TournamentOptions.from_dict(json.loads(options)),
            int(seed),
            players,
            int(drawn[0][0]),
        )

    def draw_series(
        self,
        tournament: TournamentInfo,
        series: int,
        tables: Sequence[tuple[str, Sequence[str]]],
        rules: RuleSet,
        currency: str | None,
    ) -> None:
        def work(cur: Any) -> None:
            # Two organisers drawing at once: the second waits here, then finds the series drawn.
            cur.execute("SELECT id FROM tournaments WHERE id = %s FOR UPDATE", (tournament.id,))
            cur.execute(
                "SELECT 1 FROM tournament_series WHERE tournament_id = %s AND number = %s",
                (tournament.id, series),
            )
            if cur.fetchone():
                raise SeriesDrawn(tournament.name, series)
            cur.execute("LOCK TABLE sessions IN SHARE ROW EXCLUSIVE MODE")
            cur.execute(
                "INSERT INTO tournament_series (tournament_id, number, drawn_at) VALUES (%s, %s, %s)",
                (tournament.id, series, now()),
            )
            for number, (session, players) in enumerate(tables, 1):
                sid = self._insert_session(cur, session, players, rules, None, currency, 0)
                cur.execute(
                    "INSERT INTO tournament_tables (tournament_id, series, number, session_id) "
                    "VALUES (%s, %s, %s, %s)",
                    (tournament.id, series, number, sid),
                )
            if tables:
                self._set_current(cur, tables[0][0])

        self.write(work)

    def withdraw_player(self, tournament: TournamentInfo, start: int, after_series: int) -> None:
        def work(cur: Any) -> None:
            cur.execute(
                "UPDATE tournament_players SET withdrawn_after = %s, withdrawn_at = %s "
                "WHERE tournament_id = %s AND start = %s AND withdrawn_after IS NULL",
                (after_series, now(), tournament.id, start),
            )

        self.write(work)

    def tournament_tables(self, tournament: TournamentInfo) -> list[TournamentTable]:
        seats: dict[int, list[str]] = {}
        for sid, player in self.query(
            "SELECT p.session_id, p.name FROM players p "
            "JOIN tournament_tables tt ON tt.session_id = p.session_id "
            "WHERE tt.tournament_id = %s ORDER BY p.session_id, p.seat",
            (tournament.id,),
        ):
            seats.setdefault(sid, []).append(player)
        return [
            TournamentTable(series, number, int(sid), session, tuple(seats.get(sid, ())), int(games))
            for series, number, sid, session, games in self.query(
                "SELECT tt.series, tt.number, s.id, s.name, "
                "(SELECT COALESCE(MAX(r.number), 0) FROM rounds r "
                "WHERE r.session_id = s.id AND r.status = 'active') "
                "FROM tournament_tables tt JOIN sessions s ON s.id = tt.session_id "
                "WHERE tt.tournament_id = %s ORDER BY tt.series, tt.number",
                (tournament.id,),
            )
        ]

    def tournament_games(self, tournament: TournamentInfo) -> Iterator[tuple[int, RoundPoints]]:
        rows = self.query(
            "SELECT tt.session_id, r.number, r.winner, r.hand_romme, r.stalemate, h.player, h.points, "
            "h.bonus FROM tournament_tables tt "
            "JOIN rounds r ON r.session_id = tt.session_id AND r.status = 'active' "
            "JOIN hands h ON h.round_id = r.id WHERE tt.tournament_id = %s ORDER BY tt.session_id, r.number",
            (tournament.id,),
        )
        current: tuple[int, RoundPoints] | None = None
        for sid, number, winner, hand_romme, stalemate, player, points, bonus in rows:
            if current is None or current[0] != sid or current[1].number != number:
                if current is not None:
                    yield current
                game = RoundPoints(number, winner, bool(hand_romme), bool(stalemate), {}, {}, {})
                current = (int(sid), game)
            current[1].points[player] = points  # type: ignore[index]
            current[1].bonus[player] = bonus  # type: ignore[index]
        if current is not None:
            yield current
