"""SQLite persistence of sessions and rounds: the only module that knows SQL.

Every write is one ``BEGIN IMMEDIATE`` transaction, so a crash at any moment
leaves either the whole change or none of it. The schema is versioned with
``PRAGMA user_version``; each migration runs in its own transaction. The file
is marked with ``PRAGMA application_id``: a file that is not ours is never
written to.
"""

from __future__ import annotations

import difflib
import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import platformdirs

from romme_score.cards import Card, parse_cards
from romme_score.errors import InputProblem, Refusal
from romme_score.i18n import _
from romme_score.rules import RuleSet
from romme_score.scoring import Hand, RoundInput, RoundScore

APPLICATION_ID = 0x526F6D6D  # "Romm"
# Files up to this size get PRAGMA quick_check before the first write of a process:
# measured ~5 ms per 1,000 rounds (about 250 KB), so at most ~80 ms here. Larger files
# are checked on suspicion only (an error that says the file is damaged).
QUICK_CHECK_MAX_BYTES = 4 * 1024 * 1024
SQLITE_HEADER = b"SQLite format 3\x00"
T = TypeVar("T")


class StoreError(Refusal):
    """The database cannot be used: not ours, damaged, newer, or busy."""


class StoreBusy(StoreError):
    """Another process holds the write lock longer than the busy timeout."""


class DatabasePathError(InputProblem):
    """A --db path where no database file can be (below a plain file, an uncreatable folder)."""


class NotFound(StoreError):
    """No such session or round."""


# Totals recomputed from the rounds themselves (migration 2 and after corrections).
TOTALS_SELECT = """
    SELECT p.session_id, p.name,
        COALESCE((SELECT SUM(h.points - h.bonus) FROM hands h JOIN rounds r ON r.id = h.round_id
                  WHERE r.session_id = p.session_id AND r.status = 'active'
                  AND h.player = p.name), 0),
        COALESCE((SELECT SUM(COALESCE(h.leaderboard, 0)) FROM hands h
                  JOIN rounds r ON r.id = h.round_id
                  WHERE r.session_id = p.session_id AND r.status = 'active'
                  AND h.player = p.name), 0)
    FROM players p WHERE {where}"""

MIGRATIONS: list[list[str]] = [
    [  # 1: sessions, players, rounds with history, hands
        """CREATE TABLE sessions (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            created_at TEXT NOT NULL,
            rules TEXT NOT NULL,
            rate TEXT,
            currency TEXT,
            first_dealer INTEGER NOT NULL DEFAULT 0
        )""",
        """CREATE TABLE players (
            session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            name TEXT NOT NULL,
            PRIMARY KEY (session_id, seat),
            UNIQUE (session_id, name)
        )""",
        """CREATE TABLE rounds (
            id INTEGER PRIMARY KEY,
            session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            number INTEGER NOT NULL,
            winner TEXT,
            hand_romme INTEGER NOT NULL DEFAULT 0,
            stalemate INTEGER NOT NULL DEFAULT 0,
            recorded_at TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'active'
                CHECK (status IN ('active', 'undone', 'replaced')),
            replaced_by INTEGER REFERENCES rounds(id),
            changed_at TEXT
        )""",
        "CREATE UNIQUE INDEX rounds_active ON rounds(session_id, number) WHERE status = 'active'",
        """CREATE TABLE hands (
            round_id INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
            player TEXT NOT NULL,
            cards TEXT,
            typed_points INTEGER,
            never_out INTEGER NOT NULL DEFAULT 0,
            points INTEGER NOT NULL,
            bonus INTEGER NOT NULL DEFAULT 0,
            leaderboard INTEGER,
            PRIMARY KEY (round_id, player)
        )""",
        "CREATE TABLE state (key TEXT PRIMARY KEY, value TEXT)",
    ],
    [  # 2: running totals kept with every write, so a long session stays fast
        """CREATE TABLE totals (
            session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            player TEXT NOT NULL,
            total INTEGER NOT NULL DEFAULT 0,
            leaderboard INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (session_id, player)
        )""",
        "CREATE INDEX rounds_by_session ON rounds(session_id, status, number)",
        "INSERT INTO totals (session_id, player, total, leaderboard) " + TOTALS_SELECT.format(where="1"),
    ],
    [  # 3: notes and renames, kept with the session's history
        """CREATE TABLE notes (
            id INTEGER PRIMARY KEY,
            session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            round INTEGER,
            text TEXT NOT NULL,
            at TEXT NOT NULL
        )""",
        """CREATE TABLE renames (
            id INTEGER PRIMARY KEY,
            session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            old_name TEXT NOT NULL,
            new_name TEXT NOT NULL,
            at TEXT NOT NULL
        )""",
    ],
]
SCHEMA_VERSION = len(MIGRATIONS)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def change_time() -> str:
    """When a round was undone or replaced, to the microsecond: the history lists changes
    in the order they were made, even two in the same second."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def to_seconds(stamp: str | None) -> str | None:
    """A stored time as shown: to the second."""
    if not stamp:
        return stamp
    try:
        return datetime.fromisoformat(stamp).isoformat(timespec="seconds")
    except ValueError:
        return stamp


@dataclass(frozen=True)
class SessionInfo:
    id: int
    name: str
    players: tuple[str, ...]
    rules: RuleSet
    rate: str | None
    currency: str | None
    first_dealer: int
    created_at: str


@dataclass(frozen=True)
class HandRecord:
    cards: str | None  # canonical notation (de, ASCII)
    typed_points: int | None
    never_out: bool
    points: int
    bonus: int
    leaderboard: int | None

    def to_hand(self) -> Hand:
        cards = tuple(parse_cards(self.cards)) if self.cards is not None else None
        return Hand(cards, self.typed_points, self.never_out)


@dataclass(frozen=True)
class RoundRecord:
    number: int
    winner: str | None
    hand_romme: bool
    stalemate: bool
    hands: dict[str, HandRecord]
    recorded_at: str = ""

    def to_input(self, players: Sequence[str]) -> RoundInput:
        hands = {
            name: rec.to_hand()
            for name, rec in self.hands.items()
            if rec.cards is not None or rec.typed_points is not None
        }
        return RoundInput(self.winner, hands, self.hand_romme, self.stalemate)


@dataclass(frozen=True)
class StoredRound:
    """A round row as the database keeps it, active or in the history."""

    row: int  # its place among the session's round rows, first written first
    number: int
    status: str  # active, undone, replaced
    winner: str | None
    hand_romme: bool
    stalemate: bool
    recorded_at: str
    changed_at: str | None
    replaced_by: int | None  # the row that replaced this one
    hands: dict[str, HandRecord]

    def to_input(self) -> RoundInput:
        return RoundRecord(
            self.number, self.winner, self.hand_romme, self.stalemate, self.hands, self.recorded_at
        ).to_input(list(self.hands))


@dataclass(frozen=True)
class Note:
    """A note written to a session's history, about one round or the whole game."""

    round: int | None
    text: str
    at: str


@dataclass(frozen=True)
class Rename:
    old: str
    new: str
    at: str


def canonical(cards: Sequence[Card] | None) -> str | None:
    """Cards as stored: de letters, ASCII, so any profile reads them back."""
    if cards is None:
        return None
    return " ".join(c.format("de", ascii=True) for c in cards)


def default_path() -> Path:
    env = os.environ.get("ROMME_DB")
    if env:
        return Path(env)
    return Path(platformdirs.user_data_dir("romme-score", appauthor=False)) / "romme.sqlite3"


# The database files this process holds an SQLite connection to, by (device, inode), with
# how many. Closing any descriptor of a file drops every POSIX lock the process holds on
# it, SQLite's included; so the file is never opened outside SQLite while one of ours is
# open: the header is read before the first connection only.
_OPEN_FILES: dict[tuple[int, int], int] = {}
_OPEN_LOCK = threading.Lock()


def _file_key(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_dev, st.st_ino


class Store:
    """A romme-score database file."""

    def __init__(self, path: Path, *, create: bool = True) -> None:
        self.path = path
        self._key: tuple[int, int] | None = None
        self._verified = False
        try:
            # Under the lock: no other thread reads the header between this check and
            # the connection being counted.
            with _OPEN_LOCK:
                self._check_file()
                if not path.exists() and not create:
                    raise NotFound(_("no database at %(path)s: start with 'romme new'") % {"path": path})
                try:
                    path.parent.mkdir(parents=True, exist_ok=True)
                except OSError as exc:
                    raise DatabasePathError(
                        _(
                            "cannot create the folder for the database %(path)s: "
                            "%(reason)s; give another file with --db"
                        )
                        % {"path": path, "reason": exc.strerror or exc}
                    ) from None
                self.db = sqlite3.connect(str(path), timeout=5.0, isolation_level=None)
                self._register()
            self.db.execute("PRAGMA busy_timeout = 5000")
            self.db.execute("PRAGMA foreign_keys = ON")
            self._migrate()
        except sqlite3.Error as exc:
            self.close()
            raise self._translate(exc) from None
        except BaseException:
            self.close()
            raise

    def _register(self) -> None:
        """Count this connection among the process's open ones on the file (under
        ``_OPEN_LOCK``)."""
        key = _file_key(self.path)
        if key is not None:
            _OPEN_FILES[key] = _OPEN_FILES.get(key, 0) + 1
        self._key = key

    # -- opening ------------------------------------------------------------------

    def _check_file(self) -> None:
        if not self.path.exists():
            return
        if self.path.is_dir():
            raise DatabasePathError(_("%(path)s is a folder, not a database file") % {"path": self.path})
        try:
            st = self.path.stat()
            if st.st_size == 0 or (st.st_dev, st.st_ino) in _OPEN_FILES:
                return  # empty, or open here already (read then, and reading it now would
                # drop that connection's locks)
            with open(self.path, "rb") as f:
                header = f.read(16)
        except OSError as exc:
            raise StoreError(
                _("cannot read the database %(path)s: %(reason)s")
                % {"path": self.path, "reason": exc.strerror or exc}
            ) from None
        if header != SQLITE_HEADER:
            raise StoreError(
                _(
                    "%(path)s is not a romme-score database (not an SQLite file); "
                    "it was left untouched: give another file with --db"
                )
                % {"path": self.path}
            )

    def _translate(self, exc: sqlite3.Error) -> StoreError:
        text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        if "locked" in text or "busy" in text:
            return StoreBusy(_("the database is busy (another romme is writing to it); try again"))
        if (
            "malformed" in text
            or "not a database" in text
            or "corrupt" in text
            or "btreeInitPage" in text
            or "never used" in text
        ):
            return StoreError(
                _(
                    "the database %(path)s is damaged (%(reason)s); it was left "
                    "untouched: restore a copy or give another file with --db"
                )
                % {"path": self.path, "reason": text}
            )
        if "disk is full" in text or "disk I/O" in text:
            return StoreError(
                _("cannot write to %(path)s: %(reason)s; nothing was written (free some space and try again)")
                % {"path": self.path, "reason": text}
            )
        if "readonly" in text or "read-only" in text:
            return StoreError(
                _("cannot write to %(path)s: the file is read-only; nothing was written")
                % {"path": self.path}
            )
        return StoreError(
            _("database error on %(path)s: %(reason)s; nothing was written")
            % {"path": self.path, "reason": text}
        )

    def _verify(self) -> None:
        """Refuse to write to a damaged file: PRAGMA quick_check, once per process,
        for files up to :data:`QUICK_CHECK_MAX_BYTES` (larger ones on suspicion)."""
        if self._verified:
            return
        self._verified = True
        try:
            size = self.path.stat().st_size
        except OSError:
            return
        if size > QUICK_CHECK_MAX_BYTES:
            return
        result = self.db.execute("PRAGMA quick_check").fetchall()
        if result != [("ok",)]:
            first = str(result[0][0]).replace("*** in database main ***", "").strip()
            raise StoreError(
                _(
                    "the database %(path)s is damaged (%(reason)s); it was left "
                    "untouched: restore a copy or give another file with --db"
                )
                % {"path": self.path, "reason": first.splitlines()[0]}
            )

    def _rollback(self) -> None:
        """Roll back if a transaction is still open (SQLite may have ended it already)."""
        if self.db.in_transaction:
            try:
                self.db.execute("ROLLBACK")
            except sqlite3.Error:
                pass

    def _migrate(self) -> None:
        app_id = self.db.execute("PRAGMA application_id").fetchone()[0]
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if app_id != APPLICATION_ID:
            tables = self.db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            if app_id != 0 or tables or version:
                raise StoreError(
                    _(
                        "%(path)s is an SQLite database of another program, not of "
                        "romme-score; it was left untouched: give another file with "
                        "--db"
                    )
                    % {"path": self.path}
                )
        if version > SCHEMA_VERSION:
            raise StoreError(
                _(
                    "%(path)s was written by a newer romme-score (schema %(version)d, "
                    "this one knows %(known)d): upgrade romme-score"
                )
                % {"path": self.path, "version": version, "known": SCHEMA_VERSION}
            )
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
                for statement in MIGRATIONS[number - 1]:
                    self.db.execute(statement)
                self.db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                self.db.execute(f"PRAGMA user_version = {number}")
                self.db.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise

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

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """One transaction: all of the block's writes, or none of them."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
            self._verify()
        except sqlite3.Error as exc:
            self._rollback()
            raise self._translate(exc) from None
        except BaseException:
            self._rollback()
            raise
        try:
            yield self.db
        except sqlite3.Error as exc:
            self._rollback()
            raise self._translate(exc) from None
        except BaseException:
            self._rollback()
            raise
        try:
            self.db.execute("COMMIT")
        except sqlite3.Error as exc:
            self._rollback()
            raise self._translate(exc) from None

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        try:
            return self.db.execute(sql, params).fetchall()
        except sqlite3.DatabaseError as exc:
            raise self._translate(exc) from None

    # -- sessions -----------------------------------------------------------------

    def create_session(
        self,
        name: str,
        players: Sequence[str],
        rules: RuleSet,
        rate: str | None,
        currency: str | None,
        first_dealer: int,
    ) -> None:
        with self.write() as db:
            if db.execute("SELECT 1 FROM sessions WHERE name = ?", (name,)).fetchone():
                raise StoreError(
                    _(
                        "a session named '%(session)s' exists already: choose another "
                        "name or 'romme use %(session)s'"
                    )
                    % {"session": name}
                )
            cur = db.execute(
                "INSERT INTO sessions (name, created_at, rules, rate, currency, first_dealer) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (name, now(), json.dumps(rules.to_dict()), rate, currency, first_dealer),
            )
            sid = cur.lastrowid
            db.executemany(
                "INSERT INTO players (session_id, seat, name) VALUES (?, ?, ?)",
                [(sid, seat, player) for seat, player in enumerate(players)],
            )
            db.executemany(
                "INSERT INTO totals (session_id, player) VALUES (?, ?)", [(sid, player) for player in players]
            )
            db.execute("INSERT OR REPLACE INTO state (key, value) VALUES ('current', ?)", (name,))

    def set_current(self, name: str) -> None:
        self.session(name)
        with self.write() as db:
            db.execute("INSERT OR REPLACE INTO state (key, value) VALUES ('current', ?)", (name,))

    def current_name(self) -> str | None:
        row = self.query("SELECT value FROM state WHERE key = 'current'")
        return row[0][0] if row else None

    def session_names(self) -> list[str]:
        return [r[0] for r in self.query("SELECT name FROM sessions ORDER BY id")]

    def session(self, name: str | None = None) -> SessionInfo:
        """A session by name, or the current one."""
        if name is None:
            name = self.current_name()
            if name is None:
                raise NotFound(
                    _(
                        "no current session: start one with 'romme new NAME PLAYER ...' "
                        "or choose one with 'romme use NAME'"
                    )
                )
        rows = self.query(
            "SELECT id, name, rules, rate, currency, first_dealer, created_at FROM sessions WHERE name = ?",
            (name,),
        )
        if not rows:
            names = self.session_names()
            close = difflib.get_close_matches(name, names, n=1)
            known = ", ".join(names) or _("none yet")
            if close:
                message = _("no session named '%(session)s'; did you mean %(close)s? (sessions: %(known)s)")
            else:
                message = _("no session named '%(session)s' (sessions: %(known)s)")
            raise NotFound(message % {"session": name, "close": close[0] if close else "", "known": known})
        sid, sname, rules_json, rate, currency, dealer, created = rows[0]
        players = tuple(
            r[0] for r in self.query("SELECT name FROM players WHERE session_id = ? ORDER BY seat", (sid,))
        )
        rules = RuleSet.from_dict(json.loads(rules_json))
        return SessionInfo(sid, sname, players, rules, rate, currency, dealer, created)

    def session_overview(self) -> list[tuple[SessionInfo, int, dict[str, int]]]:
        out = []
        for name in self.session_names():
            info = self.session(name)
            out.append((info, self.round_count(info), self.totals(info)))
        return out

    # -- rounds -------------------------------------------------------------------

    def round_count(self, session: SessionInfo) -> int:
        # Active rounds are numbered 1..n without gaps, so the highest number is the count.
        row = self.query(
            "SELECT COALESCE(MAX(number), 0) FROM rounds WHERE session_id = ? AND status = 'active'",
            (session.id,),
        )
        return int(row[0][0])

    def totals(self, session: SessionInfo) -> dict[str, int]:
        """Each player's total: penalty points minus bonus over the active rounds."""
        totals = {p: 0 for p in session.players}
        for player, total in self.query(
            "SELECT player, total FROM totals WHERE session_id = ?", (session.id,)
        ):
            totals[player] = int(total)
        return totals

    def leaderboard(self, session: SessionInfo) -> dict[str, int]:
        board = {p: 0 for p in session.players}
        for player, total in self.query(
            "SELECT player, leaderboard FROM totals WHERE session_id = ?", (session.id,)
        ):
            board[player] = int(total)
        return board

    def _refresh_totals(self, db: sqlite3.Connection, session_id: int) -> None:
        """Recompute a session's totals from its rounds (after a correction)."""
        db.execute("DELETE FROM totals WHERE session_id = ?", (session_id,))
        db.execute(
            "INSERT INTO totals (session_id, player, total, leaderboard) "
            + TOTALS_SELECT.format(where="p.session_id = ?"),
            (session_id,),
        )

    @staticmethod
    def _recent(session: SessionInfo, last: int | None) -> tuple[str, list[Any]]:
        """SQL condition and parameters for a session's active rounds (the last N)."""
        if last is None:
            return "", [session.id]
        return (
            "AND r.number > (SELECT COALESCE(MAX(number), 0) - ? FROM rounds "
            "WHERE session_id = ? AND status = 'active')",
            [session.id, last, session.id],
        )

    def rounds(self, session: SessionInfo, last: int | None = None) -> list[RoundRecord]:
        """The active rounds in order; ``last`` limits to the most recent ones."""
        limit, params = self._recent(session, last)
        rows = self.query(
            "SELECT r.number, r.winner, r.hand_romme, r.stalemate, r.recorded_at, h.player, "
            "h.cards, h.typed_points, h.never_out, h.points, h.bonus, h.leaderboard "
            "FROM rounds r JOIN hands h ON h.round_id = r.id "
            f"WHERE r.session_id = ? AND r.status = 'active' {limit} ORDER BY r.number",
            params,
        )
        records: dict[int, RoundRecord] = {}
        for number, winner, hr, sm, at, player, cards, typed, never_out, points, bonus, board in rows:
            rec = records.get(number)
            if rec is None:
                rec = records[number] = RoundRecord(number, winner, bool(hr), bool(sm), {}, at)
            rec.hands[player] = HandRecord(cards, typed, bool(never_out), points, bonus, board)
        return list(records.values())

    def round_points_json(self, session: SessionInfo) -> Iterator[str]:
        """Every active round's scoresheet line as a JSON object made by SQLite itself
        (number, winner, marks, points and the bonus struck): a long session's
        ``standings --json`` streams at a few microseconds per round."""
        try:
            cursor = self.db.execute(
                "SELECT json_object('number', r.number, 'winner', r.winner, "
                "'hand_romme', json(CASE WHEN r.hand_romme THEN 'true' ELSE 'false' END), "
                "'stalemate', json(CASE WHEN r.stalemate THEN 'true' ELSE 'false' END), "
                "'points', (SELECT json_group_object(h.player, h.points) FROM hands h "
                "WHERE h.round_id = r.id), "
                "'bonus', (SELECT json_group_object(h.player, h.bonus) FROM hands h "
                "WHERE h.round_id = r.id AND h.bonus != 0)) "
                "FROM rounds r WHERE r.session_id = ? AND r.status = 'active' ORDER BY r.number",
                (session.id,),
            )
            for (text,) in cursor:
                yield text
        except sqlite3.DatabaseError as exc:
            raise self._translate(exc) from None

    def round_points(
        self, session: SessionInfo, last: int | None = None
    ) -> Iterator[tuple[int, str | None, bool, bool, dict[str, int], dict[str, int], dict[str, int | None]]]:
        """The scoresheet only (no cards): per active round its number, winner, marks,
        points, bonus and leaderboard points per player. Lean, for the standings; read with
        one cursor, so that all rounds of a long session stream."""
        limit, params = self._recent(session, last)
        try:
            cursor = self.db.execute(
                "SELECT r.number, r.winner, r.hand_romme, r.stalemate, h.player, h.points, "
                "h.bonus, h.leaderboard FROM rounds r JOIN hands h ON h.round_id = r.id "
                f"WHERE r.session_id = ? AND r.status = 'active' {limit} ORDER BY r.number",
                params,
            )
            entry: (
                tuple[int, str | None, bool, bool, dict[str, int], dict[str, int], dict[str, int | None]]
                | None
            ) = None
            for number, winner, hr, sm, player, points, bonus, board in cursor:
                if entry is None or number != entry[0]:
                    if entry is not None:
                        yield entry
                    entry = (number, winner, bool(hr), bool(sm), {}, {}, {})
                entry[4][player] = points
                entry[5][player] = bonus
                entry[6][player] = board
            if entry is not None:
                yield entry
        except sqlite3.DatabaseError as exc:
            raise self._translate(exc) from None

    def _insert_round(
        self, db: sqlite3.Connection, session: SessionInfo, number: int, rnd: RoundInput, score: RoundScore
    ) -> int:
        cur = db.execute(
            "INSERT INTO rounds (session_id, number, winner, hand_romme, stalemate, recorded_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (session.id, number, rnd.winner, int(rnd.hand_romme), int(rnd.stalemate), now()),
        )
        round_id = cur.lastrowid
        assert round_id is not None
        rows = []
        for player in session.players:
            hand = rnd.hands.get(player)
            rows.append(
                (
                    round_id,
                    player,
                    canonical(hand.cards) if hand else None,
                    hand.points if hand else None,
                    int(hand.never_out) if hand else 0,
                    score.points[player],
                    score.bonus.get(player, 0),
                    score.leaderboard.get(player),
                )
            )
        db.executemany(
            "INSERT INTO hands (round_id, player, cards, typed_points, never_out, points, bonus, "
            "leaderboard) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        db.executemany(
            "UPDATE totals SET total = total + ?, leaderboard = leaderboard + ? "
            "WHERE session_id = ? AND player = ?",
            [
                (points - bonus, board or 0, session.id, player)
                for _, player, _, _, _, points, bonus, board in rows
            ],
        )
        return round_id

    def record_round(
        self,
        session: SessionInfo,
        rnd: RoundInput,
        compute: Callable[[dict[str, int], int], T],
        score_of: Callable[[T], RoundScore],
    ) -> tuple[int, T]:
        """Record a round; ``compute`` gets the totals before and the rounds played
        (read inside the same transaction) and returns the result to store."""
        with self.write() as db:
            count = db.execute(
                "SELECT COALESCE(MAX(number), 0) FROM rounds WHERE session_id = ? AND status = 'active'",
                (session.id,),
            ).fetchone()[0]
            result = compute(self.totals(session), count)
            number = count + 1
            self._insert_round(db, session, number, rnd, score_of(result))
        return number, result

    def undo_last(self, session: SessionInfo) -> RoundRecord:
        """Mark the last round undone (it stays in the history)."""
        with self.write() as db:
            row = db.execute(
                "SELECT id, number FROM rounds WHERE session_id = ? AND "
                "status = 'active' ORDER BY number DESC LIMIT 1",
                (session.id,),
            ).fetchone()
            if row is None:
                raise NotFound(_("session '%(session)s' has no rounds to undo") % {"session": session.name})
            record = self.rounds(session, last=1)[0]
            db.execute(
                "UPDATE rounds SET status = 'undone', changed_at = ? WHERE id = ?", (change_time(), row[0])
            )
            self._refresh_totals(db, session.id)
        return record

    def replace_rounds(
        self,
        session: SessionInfo,
        first_number: int,
        inputs: Sequence[RoundInput],
        scores: Sequence[RoundScore],
        changed: set[int],
    ) -> None:
        """Rewrite rounds from ``first_number`` on: rounds in ``changed`` get a new
        row (the old one kept as 'replaced' history), the others new points/bonus."""
        with self.write() as db:
            for offset, (rnd, score) in enumerate(zip(inputs, scores, strict=True)):
                number = first_number + offset
                old = db.execute(
                    "SELECT id FROM rounds WHERE session_id = ? AND number = ? AND status = 'active'",
                    (session.id, number),
                ).fetchone()
                if old is None:
                    raise NotFound(
                        _("round %(number)d is not in session '%(session)s'")
                        % {"number": number, "session": session.name}
                    )
                if number in changed:
                    db.execute(
                        "UPDATE rounds SET status = 'replaced', changed_at = ? WHERE id = ?",
                        (change_time(), old[0]),
                    )
                    new_id = self._insert_round(db, session, number, rnd, score)
                    db.execute("UPDATE rounds SET replaced_by = ? WHERE id = ?", (new_id, old[0]))
                else:
                    for player in session.players:
                        db.execute(
                            "UPDATE hands SET points = ?, bonus = ?, leaderboard = ? "
                            "WHERE round_id = ? AND player = ?",
                            (
                                score.points[player],
                                score.bonus.get(player, 0),
                                score.leaderboard.get(player),
                                old[0],
                                player,
                            ),
                        )
            self._refresh_totals(db, session.id)

    def history(self, session: SessionInfo) -> list[tuple[int, str, str | None]]:
        """Corrections: (round number, status, when) of undone and replaced rounds."""
        return [
            (r[0], r[1], to_seconds(r[2]))
            for r in self.query(
                "SELECT number, status, changed_at FROM rounds WHERE session_id = ? AND "
                "status != 'active' ORDER BY changed_at, id",
                (session.id,),
            )
        ]

    def all_rounds(self, session: SessionInfo, *, active: bool) -> Iterator[StoredRound]:
        """A session's active rounds by number (``active``), or its history in the order
        written; each with its row among all round rows. Read with one cursor, so that a
        long session streams in constant memory."""
        order = "r.number" if active else "r.id"
        try:
            cursor = self.db.execute(
                "WITH numbered AS (SELECT id, ROW_NUMBER() OVER (ORDER BY id) AS row "
                "FROM rounds WHERE session_id = :sid) "
                "SELECT r.id, n.row, r.number, r.status, r.winner, r.hand_romme, r.stalemate, "
                "r.recorded_at, r.changed_at, "
                # looked up for the few replaced rows only: numbered has no index
                "CASE WHEN r.replaced_by IS NULL THEN NULL "
                "ELSE (SELECT nb.row FROM numbered nb WHERE nb.id = r.replaced_by) END, "
                "h.player, h.cards, h.typed_points, h.never_out, h.points, h.bonus, h.leaderboard "
                "FROM rounds r JOIN numbered n ON n.id = r.id "
                "JOIN hands h ON h.round_id = r.id "
                "JOIN players p ON p.session_id = r.session_id AND p.name = h.player "
                f"WHERE r.session_id = :sid AND (r.status = 'active') = :active "
                f"ORDER BY {order}, p.seat",
                {"sid": session.id, "active": active},
            )
            current: StoredRound | None = None
            for (
                _rid,
                row,
                number,
                status,
                winner,
                hr,
                sm,
                at,
                changed,
                by,
                player,
                cards,
                typed,
                never_out,
                points,
                bonus,
                board,
            ) in cursor:
                if current is None or current.row != row:
                    if current is not None:
                        yield current
                    current = StoredRound(
                        row, number, status, winner, bool(hr), bool(sm), at, changed, by, {}
                    )
                current.hands[player] = HandRecord(cards, typed, bool(never_out), points, bonus, board)
            if current is not None:
                yield current
        except sqlite3.DatabaseError as exc:
            raise self._translate(exc) from None

    def _side_by_side(
        self, session: SessionInfo, select: str, where: str, order: str, params: dict[str, Any], batch: int
    ) -> Iterator[list[tuple[Any, ...]]]:
        """Round rows with the seated players' hands side by side (``h0``, ``h1``, ... in
        seating order: one LEFT JOIN per seat, found by the hands' primary key), read with one
        cursor in batches of ``batch`` rows. Only rounds with a hand of a seated player, as
        :meth:`all_rounds` reads them."""
        seats = range(len(session.players))
        joins = " ".join(
            f"LEFT JOIN hands h{i} ON h{i}.round_id = r.id AND h{i}.player = :p{i}" for i in seats
        )
        some_hand = " OR ".join(f"h{i}.points IS NOT NULL" for i in seats)
        params = {**params, "sid": session.id, **{f"p{i}": p for i, p in enumerate(session.players)}}
        try:
            cursor = self.db.execute(
                f"SELECT {select} FROM rounds r {joins} "
                f"WHERE r.session_id = :sid AND {where} AND ({some_hand}) ORDER BY {order}",
                params,
            )
            while rows := cursor.fetchmany(batch):
                yield rows
        except sqlite3.DatabaseError as exc:
            raise self._translate(exc) from None

    MAX_GAPS = 32  # runs of other sessions' rounds amid a session's that round_table numbers

    def round_table(
        self, session: SessionInfo, *, active: bool, batch: int = 512
    ) -> Iterator[list[tuple[Any, ...]]] | None:
        """What :meth:`all_rounds` reads, one row per round row with the hands side by side,
        in batches: a long session's export streams at a few microseconds per round. None
        when it seats more than 9 players or other sessions' rounds were recorded amid its
        own in more than :data:`MAX_GAPS` runs: then read :meth:`all_rounds`.

        Each row: ``shape``, row, number, winner, recorded_at, (for the history: status,
        changed_at and the row that replaced it), then per seat cards, typed points, points,
        bonus, leaderboard. ``shape`` says which values are there: bit 0 Hand-Rommé, bit 1
        stalemate, bit 2 no winner, then six bits per seat (from bit 3 + 6 * seat): no hand,
        cards, typed points, never out, a bonus (not 0), leaderboard points."""
        seats = range(len(session.players))
        try:
            low, high, count = self.db.execute(
                "SELECT MIN(id), MAX(id), COUNT(*) FROM rounds WHERE session_id = ?", (session.id,)
            ).fetchone()
            gaps: list[tuple[int, int]] = []
            if count and high - low + 1 != count:  # other sessions' rounds amid its own
                gaps = self.db.execute(
                    "SELECT MIN(id), COUNT(*) FROM (SELECT id, id - ROW_NUMBER() OVER "
                    "(ORDER BY id) AS run FROM rounds WHERE id BETWEEN ? AND ? "
                    "AND session_id != ?) GROUP BY run ORDER BY 1 LIMIT ?",
                    (low, high, session.id, self.MAX_GAPS + 1),
                ).fetchall()
        except sqlite3.DatabaseError as exc:
            raise self._translate(exc) from None
        if len(seats) > 9 or len(gaps) > self.MAX_GAPS:
            return None
        # A round's row is its place among the session's rounds by id: its id less the
        # first id and the other sessions' rounds before it (the gaps, latest first).
        params: dict[str, Any] = {"base": (low or 1) - 1}
        skipped = 0
        cases: list[str] = []
        for n, (start, length) in enumerate(gaps):
            skipped += length
            params[f"g{n}"], params[f"s{n}"] = start, skipped
            cases.insert(0, f"WHEN {{id}} > :g{n} THEN :s{n}")

        def row_of(column: str) -> str:
            if not cases:
                return f"{column} - :base"
            return f"{column} - :base - CASE {' '.join(cases).format(id=column)} ELSE 0 END"

        # << and | share one precedence in SQLite: every shifted flag in parentheses.
        flags = ["(r.hand_romme IS TRUE)", "((r.stalemate IS TRUE) << 1)", "((r.winner IS NULL) << 2)"]
        for i in seats:
            for bit, flag in enumerate(
                (
                    "points IS NULL",
                    "cards IS NOT NULL",
                    "typed_points IS NOT NULL",
                    "never_out IS TRUE",
                    "bonus IS TRUE",
                    "leaderboard IS NOT NULL",
                )
            ):
                flags.append(f"((h{i}.{flag}) << {3 + 6 * i + bit})")
        history = "" if active else f"r.status, r.changed_at, {row_of('r.replaced_by')}, "
        hands = ", ".join(
            f"h{i}.cards, h{i}.typed_points, h{i}.points, h{i}.bonus, h{i}.leaderboard" for i in seats
        )
        return self._side_by_side(
            session,
            " | ".join(flags) + f", {row_of('r.id')}, r.number, r.winner, r.recorded_at, {history}{hands}",
            "r.status = 'active'" if active else "r.status != 'active'",
            "r.number" if active else "r.id",
            params,
            batch,
        )

    def scoresheet_rows(self, session: SessionInfo, batch: int = 512) -> Iterator[list[tuple[Any, ...]]]:
        """The active rounds as the CSV scoresheet lists them, in batches: number, winner
        ('' for none), Hand-Rommé and stalemate (0 or 1), per seat the points less the bonus,
        per seat the cards ('' for none), and when the round was recorded."""
        seats = range(len(session.players))
        return self._side_by_side(
            session,
            "r.number, IFNULL(r.winner, ''), r.hand_romme IS TRUE, "
            "r.stalemate IS TRUE, "
            + "".join(f"IFNULL(h{i}.points, 0) - IFNULL(h{i}.bonus, 0), " for i in seats)
            + "".join(f"IFNULL(h{i}.cards, ''), " for i in seats)
            + "r.recorded_at",
            "r.status = 'active'",
            "r.number",
            {},
            batch,
        )

    def notes(self, session: SessionInfo) -> list[Note]:
        return [
            Note(r[0], r[1], r[2])
            for r in self.query(
                "SELECT round, text, at FROM notes WHERE session_id = ? ORDER BY id", (session.id,)
            )
        ]

    def renames(self, session: SessionInfo) -> list[Rename]:
        return [
            Rename(r[0], r[1], r[2])
            for r in self.query(
                "SELECT old_name, new_name, at FROM renames WHERE session_id = ? ORDER BY id", (session.id,)
            )
        ]

    def add_note(self, session: SessionInfo, round_number: int | None, text: str) -> Note:
        at = now()
        with self.write() as db:
            db.execute(
                "INSERT INTO notes (session_id, round, text, at) VALUES (?, ?, ?, ?)",
                (session.id, round_number, text, at),
            )
        return Note(round_number, text, at)

    def rename_session(self, old: str, new: str) -> None:
        info = self.session(old)
        with self.write() as db:
            if db.execute("SELECT 1 FROM sessions WHERE name = ?", (new,)).fetchone():
                raise StoreError(
                    _("a session named '%(session)s' exists already: choose another name") % {"session": new}
                )
            db.execute("UPDATE sessions SET name = ? WHERE id = ?", (new, info.id))
            db.execute(
                "INSERT INTO renames (session_id, old_name, new_name, at) VALUES (?, ?, ?, ?)",
                (info.id, info.name, new, now()),
            )
            db.execute("UPDATE state SET value = ? WHERE key = 'current' AND value = ?", (new, info.name))

    def delete_session(self, name: str) -> None:
        info = self.session(name)
        with self.write() as db:
            self._delete_session(db, info.id)
            db.execute("DELETE FROM state WHERE key = 'current' AND value = ?", (info.name,))

    @staticmethod
    def _delete_session(db: sqlite3.Connection, sid: int) -> None:
        db.execute("DELETE FROM hands WHERE round_id IN (SELECT id FROM rounds WHERE session_id = ?)", (sid,))
        db.execute("UPDATE rounds SET replaced_by = NULL WHERE session_id = ?", (sid,))
        for table in ("rounds", "players", "totals", "notes", "renames"):
            db.execute(f"DELETE FROM {table} WHERE session_id = ?", (sid,))
        db.execute("DELETE FROM sessions WHERE id = ?", (sid,))

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
    ) -> None:
        """Write a whole session as exported (rounds with their history, notes, renames,
        times) in one transaction, and make it current."""
        with self.write() as db:
            existing = db.execute("SELECT id FROM sessions WHERE name = ?", (name,)).fetchone()
            if existing:
                if not overwrite:
                    raise StoreError(
                        _(
                            "a session named '%(session)s' exists already: use "
                            "--replace to overwrite it, or --name to import under "
                            "another name"
                        )
                        % {"session": name}
                    )
                self._delete_session(db, existing[0])
            cur = db.execute(
                "INSERT INTO sessions (name, created_at, rules, rate, currency, first_dealer) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (name, created or now(), json.dumps(rules.to_dict()), rate, currency, first_dealer),
            )
            sid = cur.lastrowid
            assert sid is not None
            db.executemany(
                "INSERT INTO players (session_id, seat, name) VALUES (?, ?, ?)",
                [(sid, seat, p) for seat, p in enumerate(players)],
            )
            ids: dict[int, int] = {}
            for rec in rounds:
                cur = db.execute(
                    "INSERT INTO rounds (session_id, number, winner, hand_romme, stalemate, "
                    "recorded_at, status, changed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        sid,
                        rec.number,
                        rec.winner,
                        int(rec.hand_romme),
                        int(rec.stalemate),
                        rec.recorded_at or now(),
                        rec.status,
                        rec.changed_at,
                    ),
                )
                assert cur.lastrowid is not None
                ids[rec.row] = cur.lastrowid
                db.executemany(
                    "INSERT INTO hands (round_id, player, cards, typed_points, never_out, points, "
                    "bonus, leaderboard) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [
                        (
                            cur.lastrowid,
                            p,
                            rec.hands[p].cards if p in rec.hands else None,
                            rec.hands[p].typed_points if p in rec.hands else None,
                            int(rec.hands[p].never_out) if p in rec.hands else 0,
                            rec.hands[p].points if p in rec.hands else 0,
                            rec.hands[p].bonus if p in rec.hands else 0,
                            rec.hands[p].leaderboard if p in rec.hands else None,
                        )
                        for p in players
                    ],
                )
            for rec in rounds:
                if rec.replaced_by is not None:
                    db.execute(
                        "UPDATE rounds SET replaced_by = ? WHERE id = ?", (ids[rec.replaced_by], ids[rec.row])
                    )
            db.executemany(
                "INSERT INTO notes (session_id, round, text, at) VALUES (?, ?, ?, ?)",
                [(sid, n.round, n.text, n.at) for n in notes],
            )
            db.executemany(
                "INSERT INTO renames (session_id, old_name, new_name, at) VALUES (?, ?, ?, ?)",
                [(sid, r.old, r.new, r.at) for r in renames],
            )
            self._refresh_totals(db, sid)
            db.execute("INSERT OR REPLACE INTO state (key, value) VALUES ('current', ?)", (name,))

    # -- statistics across sessions (romme stats) -----------------------------------
    # Added for ``romme stats``: aggregates only, so the rows read grow with the
    # number of sessions and players, never with the number of rounds.

    def player_session_stats(self, since: str | None = None) -> list[sqlite3.Row]:
        """One row per player seated in a session (started on or after ``since``, a
        ``YYYY-MM-DD`` local date): the session's id, name, rules (JSON), rate,
        currency and rounds played, the player's seat, name and total, and over
        the session's active rounds: rounds won, Hand-Rommés made, the sum and
        the maximum of the penalty points scored in a round."""
        try:
            cursor = self.db.cursor()
            cursor.row_factory = sqlite3.Row
            # One pass over the hands (CROSS JOIN keeps that order: each round found by
            # its id, twice as fast as walking the rounds and looking up their hands),
            # grouped by session and player, then joined to the seats.
            return cursor.execute(
                "WITH chosen AS (SELECT id FROM sessions "
                "                WHERE ? IS NULL OR date(created_at, 'localtime') >= ?), "
                "per_player AS (SELECT r.session_id, h.player, COUNT(*) AS rounds, "
                "    SUM(r.winner = h.player) AS rounds_won, "
                "    SUM(r.winner = h.player AND r.hand_romme) AS hand_rommes, "
                "    SUM(h.points) AS points, MAX(h.points) AS worst_round "
                "  FROM hands h CROSS JOIN rounds r ON r.id = h.round_id "
                "  WHERE r.status = 'active' AND r.session_id IN (SELECT id FROM chosen) "
                "  GROUP BY r.session_id, h.player) "
                "SELECT s.id AS session_id, s.name AS session, s.rules AS rules, s.rate AS rate, "
                "s.currency AS currency, s.created_at AS created_at, p.seat AS seat, "
                "p.name AS player, COALESCE(t.total, 0) AS total, "
                "COALESCE(a.rounds, 0) AS rounds, COALESCE(a.rounds_won, 0) AS rounds_won, "
                "COALESCE(a.hand_rommes, 0) AS hand_rommes, COALESCE(a.points, 0) AS points, "
                "COALESCE(a.worst_round, 0) AS worst_round "
                "FROM sessions s JOIN players p ON p.session_id = s.id "
                "LEFT JOIN totals t ON t.session_id = s.id AND t.player = p.name "
                "LEFT JOIN per_player a ON a.session_id = s.id AND a.player = p.name "
                "WHERE s.id IN (SELECT id FROM chosen) "
                "ORDER BY s.id, p.seat",
                (since, since),
            ).fetchall()
        except sqlite3.DatabaseError as exc:
            raise self._translate(exc) from None

    def head_to_head_rounds(
        self, opponents: Sequence[str], since: str | None = None
    ) -> list[tuple[str, int, int, int]]:
        """Every player against one opponent (any of the spellings in ``opponents``): per
        player's spelling, (spelling, rounds both played, rounds the player scored
        fewer penalty points, rounds the opponent did)."""
        if not opponents:
            return []
        theirs = ", ".join("?" * len(opponents))
        rows = self.query(
            "SELECT a.player, COUNT(*), COALESCE(SUM(a.points < b.points), 0), "
            "COALESCE(SUM(a.points > b.points), 0) "
            "FROM hands b CROSS JOIN rounds r ON r.id = b.round_id AND r.status = 'active' "
            "JOIN sessions s ON s.id = r.session_id "
            "JOIN hands a ON a.round_id = r.id AND a.player != b.player "
            f"WHERE b.player IN ({theirs}) "
            "AND (? IS NULL OR date(s.created_at, 'localtime') >= ?) "
            "GROUP BY a.player",
            [*opponents, since, since],
        )
        return [(str(r[0]), int(r[1]), int(r[2]), int(r[3])) for r in rows]
