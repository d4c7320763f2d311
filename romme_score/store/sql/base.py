"""What every part of the SQL store stands on (:class:`StoreBase`): the connection and its
dialect, one transaction per write (or one for a whole :meth:`~StoreBase.held` block), the
session's change counter and its lock, the reads a command of a session makes, asked at
once where the backend gains by it; and the SQL that more than one part reads."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Self, TypeVar

from romme_score.rules import RuleSet
from romme_score.store.errors import (
    NoSuchSession,
)
from romme_score.store.records import (
    SessionInfo,
)
from romme_score.store.sql.dialect import Cursor, Dialect, Params

if TYPE_CHECKING:
    from romme_score.store.sql.connection import Connection

T = TypeVar("T")
TOTALS = "SELECT player, %s FROM totals WHERE session_id = ?"
SESSION_COLUMNS = "SELECT id, name, rules, rate, currency, first_dealer, created_at, ended_at FROM sessions"
ROUND_COLUMNS = (
    "SELECT r.number, r.winner, r.hand_romme, r.stalemate, r.recorded_at, h.player, "
    "h.cards, h.typed_points, h.never_out, h.points, h.bonus, h.leaderboard "
    "FROM rounds r JOIN hands h ON h.round_id = r.id "
)
INSERT_HANDS = (
    "INSERT INTO hands (round_id, player, cards, typed_points, never_out, points, bonus, "
    "leaderboard) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)
SESSION_PLAYERS = (
    "SELECT s.id, s.name, s.rules, s.rate, s.currency, s.first_dealer, s.created_at, s.ended_at, p.name "
    "FROM sessions s LEFT JOIN players p ON p.session_id = s.id WHERE s.id = ? ORDER BY p.seat"
)
PLAYERS = "SELECT name FROM players WHERE session_id = ? ORDER BY seat"
ROUND_COUNT = "SELECT COALESCE(MAX(number), 0) FROM rounds WHERE session_id = ? AND status = 'active'"
TOTALS_PLAYED = (  # one row at least, the rounds played in each
    f"SELECT ({ROUND_COUNT}), t.player, t.total FROM (SELECT 1 AS one) o "
    "LEFT JOIN totals t ON t.session_id = ?"
)
HISTORY = (
    "SELECT number, status, changed_at FROM rounds WHERE session_id = ? AND "
    "status IN ('undone', 'replaced') ORDER BY changed_at, id"
)
NOTES = "SELECT round, text, at FROM notes WHERE session_id = ? ORDER BY id"
RENAMES = "SELECT old_name, new_name, at FROM renames WHERE session_id = ? ORDER BY id"
ENDINGS = "SELECT ended, round, at FROM endings WHERE session_id = ? ORDER BY id"
CURRENT = "(SELECT value FROM state WHERE key = 'current')"
SET_STATE = (
    "INSERT INTO state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
)


class StoreBase:
    """A romme-score database over a :class:`Connection` that speaks a :class:`Dialect`:
    what the parts of :class:`~romme_score.store.sql.store.SQLStore` share."""

    def __init__(self, conn: Connection, dialect: Dialect) -> None:
        self.conn = conn
        self.dialect = dialect
        self.location = conn.location
        self._versions: dict[int, int] = {}  # a cache of version(), not a mode

    @contextmanager
    def held(self) -> Iterator[None]:
        """The block as one transaction, its reads and writes alike (:meth:`Connection.held`):
        a session looked up in it is locked for writing at once (on PostgreSQL its reads
        asked in one round trip, in a pipeline, issue 28), so that ``romme round`` is one
        transaction of few round trips and a phone's write one transaction with its key.
        What the block is in is the connection's transaction, not a field of the store."""
        with self.conn.held():
            yield

    @contextmanager
    def reading(self) -> Iterator[None]:
        """Every read of the block from one snapshot of the database, as it was when the
        block began (:meth:`Connection.reading`: PostgreSQL's ``REPEATABLE READ READ ONLY``
        transaction, SQLite's deferred ``BEGIN`` and the WAL snapshot its first read
        takes), the long reads' cursors included: ``romme export`` reads a session, its
        rounds, history, notes and renames as one. Writers of the others are not kept
        waiting. Inside :meth:`held` or another :meth:`reading`, part of that."""
        try:
            with self.conn.reading():
                yield
        finally:
            self._versions.clear()  # read from the snapshot: asked again after it

    def _ask_ahead(self, reads: list[tuple[str, Params]]) -> None:
        """Inside :meth:`held`, the backend's connection asks ``reads`` at once (one round
        trip) and answers them from that until the next write."""
        prefetch = getattr(self.conn, "prefetch", None)
        if prefetch is not None:
            prefetch(reads)

    def _before_writing(self, sid: int) -> list[tuple[str, Params]]:
        """What a phone's write reads of its session before its first write (the game open,
        the round in progress, the round a save adds), asked at once inside :meth:`held`
        with the write's key; what it shows after the write is asked after it."""
        from romme_score.store.sql import phones  # with its first use: a command that writes
        from romme_score.store.sql.tournaments import TABLE_OF  # the open check's read

        reads: list[tuple[str, Params]] = [
            (TABLE_OF, (sid,)),
            (TOTALS_PLAYED, (sid, sid)),
            (phones.PENDING, (sid,)),
        ]
        reserving = self.dialect.reserving("rounds")
        if reserving is not None:
            reads.append((reserving, (1,)))
        return reads

    def _shown_after_round(self, session: SessionInfo, *, waiting: bool) -> list[tuple[str, Params]]:
        """What a command shows of its session after saving a round (the standings: the
        rounds played, the totals, the leaderboard where the rules keep one, corrections,
        notes, renames and endings; ``waiting``: the round in progress too, where the
        round saved was not that one), asked with the write inside :meth:`held`."""
        from romme_score.store.sql import phones  # with its first use: a command that writes

        sid = session.id
        reads: list[tuple[str, Params]] = [
            (ROUND_COUNT, (sid,)),
            (TOTALS % "total", (sid,)),
            (HISTORY, (sid,)),
            (NOTES, (sid,)),
            (RENAMES, (sid,)),
            (ENDINGS, (sid,)),
        ]
        if session.rules.leaderboard:
            reads.append((TOTALS % "leaderboard", (sid,)))
        if waiting:
            reads.append((phones.PENDING, (sid,)))
        return reads

    def _reads(self, sid: int, *, writing: bool) -> list[tuple[str, Params]]:
        """What a command of a session reads of it, asked at once inside :meth:`held`
        (``writing``: with the id of the round it may add)."""
        from romme_score.store.sql import phones  # with its first use: a command that writes

        reads: list[tuple[str, Params]] = [
            (PLAYERS, (sid,)),
            (ROUND_COUNT, (sid,)),
            (TOTALS % "total", (sid,)),
            (TOTALS_PLAYED, (sid, sid)),
            (TOTALS % "leaderboard", (sid,)),
            (phones.PENDING, (sid,)),
            (HISTORY, (sid,)),
            (NOTES, (sid,)),
            (RENAMES, (sid,)),
            (ENDINGS, (sid,)),
        ]
        reserving = self.dialect.reserving("rounds") if writing else None
        if reserving is not None:
            reads.append((reserving, (1,)))
        return reads

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def query(self, sql: str, params: Params = ()) -> list[Any]:
        return self.conn.query(sql, params)

    def write(self, work: Callable[[Cursor], T]) -> T:
        """``work(cursor)`` as one transaction (inside :meth:`held`, part of that one);
        this connection's answers of :meth:`version` are read again after it."""
        result = self.conn.transact(work)
        self._versions.clear()
        return result

    # -- changes ----------------------------------------------------------------------

    def version(self, session: SessionInfo) -> int:
        """The session's change counter, read from the database only when it may have
        changed (:meth:`Connection.changes`); -1 for a session that is gone."""
        changed = self.conn.changes()
        if changed is None:
            self._versions.clear()
        else:
            for sid in changed:
                self._versions.pop(sid, None)
        found = self._versions.get(session.id)
        if found is None:
            rows = self.query("SELECT version FROM sessions WHERE id = ?", (session.id,))
            found = self._versions[session.id] = int(rows[0][0]) if rows else -1
        return found

    def _changed(self, cur: Cursor, session_id: int) -> None:
        """Count the session's change and tell the others (when the transaction commits)."""
        cur.execute("UPDATE sessions SET version = version + 1 WHERE id = ?", (session_id,))
        self.dialect.notify(cur, session_id)

    def _lock(self, cur: Cursor, session: SessionInfo) -> None:
        """Writers of one session one after the other: they wait on its row (locked
        already where the held transaction looked the session up)."""
        if session.id in self.conn.locked:
            return
        row = cur.execute(f"SELECT id FROM sessions WHERE id = ?{self.dialect.for_update}", (session.id,))
        if row.fetchone() is None:
            raise NoSuchSession(session.name, [])


@functools.lru_cache(maxsize=64)
def stored_rules(text: str) -> RuleSet:
    """A session's rules as stored (JSON), read once per text: a frozen value, and reading
    it costs more than the rest of a phone's request (issue 28)."""
    return RuleSet.from_dict(json.loads(text))
