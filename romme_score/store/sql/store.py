"""The store over an SQL database, written once for every backend
(:class:`~romme_score.store.protocol.Store`): sessions, rounds with their history, the
round in progress, the phones' links, notes and renames.

Every write is one transaction (:meth:`Connection.transact`); each one that changes a
session counts up its ``version`` and announces it (:meth:`Dialect.notify`), so that
another front end notices the change cheaply. Writers of one session wait on its row
(:attr:`Dialect.for_update`), writers of names on the table (:meth:`Dialect.lock_names`).
The long reads (export lines, statistics) are in :mod:`romme_score.store.sql.lines`,
the tournaments in :mod:`romme_score.store.sql.tournaments`.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Self, TypeVar

import romme_score.store.sql.lines as lines
import romme_score.store.sql.phones as phones
import romme_score.store.sql.tournaments as tournaments
from romme_score.rules import RuleSet
from romme_score.scoring import RoundInput, RoundScore
from romme_score.store.errors import (
    NoCurrentSession,
    NoRounds,
    NoSuchSession,
    PendingChanged,
    RoundNotThere,
    SessionExists,
    StoreError,
)
from romme_score.store.records import (
    Change,
    HandRecord,
    HeadToHead,
    Key,
    KeyedWrite,
    LeagueInfo,
    Lines,
    Link,
    Note,
    PendingChange,
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
    round_records,
    to_seconds,
)
from romme_score.store.sql.dialect import Cursor, Dialect, Params
from romme_score.store.sql.schema import ROUND_TOTALS_SELECT, TOTALS_SELECT

if TYPE_CHECKING:
    from romme_score.league.options import LeagueOptions
    from romme_score.store.names import Names
    from romme_score.store.sql.connection import Connection
    from romme_score.tournament.options import TournamentOptions

T = TypeVar("T")
TOTALS = "SELECT player, %s FROM totals WHERE session_id = ?"
SESSION_COLUMNS = "SELECT id, name, rules, rate, currency, first_dealer, created_at FROM sessions"
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
    "SELECT s.id, s.name, s.rules, s.rate, s.currency, s.first_dealer, s.created_at, p.name "
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
CURRENT = "(SELECT value FROM state WHERE key = 'current')"
SET_STATE = (
    "INSERT INTO state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
)


class SQLStore:
    """A romme-score database over a :class:`Connection` that speaks a :class:`Dialect`."""

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

    def _reads(self, sid: int, *, writing: bool) -> list[tuple[str, Params]]:
        """What a command of a session reads of it, asked at once inside :meth:`held`
        (``writing``: with the id of the round it may add)."""
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

    # -- idempotency keys (romme_score/store/sql/keys.py) ----------------------------------

    def keyed_write(self, session: SessionInfo, key: str) -> KeyedWrite | None:
        """The write kept under ``key``, read with the session's row: inside :meth:`held`,
        that row locked for the write to come (a key sent twice at once waits here for the
        other's transaction, and sees its key)."""
        from romme_score.store.sql import keys  # with its first use, not at every start

        holding = self.conn.holding
        lock = f"{self.dialect.for_update} OF s" if holding and self.dialect.for_update else ""
        found = keys.found(session, self.query(*keys.find(session, key, lock)))
        if holding:
            self.conn.locked.add(session.id)
        return found

    def keep_key(self, session: SessionInfo, key: Key, status: int, answer: str) -> None:
        from romme_score.store.sql import keys  # with its first use, not at every start

        self.write(lambda cur: keys.keep(cur, self.dialect, session, key, status, answer))

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
        def work(cur: Cursor) -> None:
            self.dialect.lock_names(cur, "sessions")
            self._insert_session(cur, name, players, rules, rate, currency, first_dealer)
            cur.execute(SET_STATE, ("current", name))

        self.write(work)

    def _insert_session(
        self,
        cur: Cursor,
        name: str,
        players: Sequence[str],
        rules: RuleSet,
        rate: str | None,
        currency: str | None,
        first_dealer: int,
    ) -> int:
        """A new session's rows (inside the caller's transaction, which holds the lock on
        the session names); its id."""
        if cur.execute("SELECT 1 FROM sessions WHERE name = ?", (name,)).fetchone():
            raise SessionExists(name, "create")
        sid = self.dialect.insert(
            cur,
            "INSERT INTO sessions (name, created_at, rules, rate, currency, first_dealer) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (name, now(), json.dumps(rules.to_dict()), rate, currency, first_dealer),
        )
        cur.executemany(
            "INSERT INTO players (session_id, seat, name) VALUES (?, ?, ?)",
            [(sid, seat, player) for seat, player in enumerate(players)],
        )
        cur.executemany(
            "INSERT INTO totals (session_id, player) VALUES (?, ?)", [(sid, player) for player in players]
        )
        self._changed(cur, sid)
        return sid

    def set_current(self, name: str) -> None:
        self.session(name)
        self.write(lambda cur: cur.execute(SET_STATE, ("current", name)))

    def current_name(self) -> str | None:
        row = self.query("SELECT value FROM state WHERE key = 'current'")
        return row[0][0] if row else None

    def session_names(self) -> list[str]:
        return [r[0] for r in self.query("SELECT name FROM sessions ORDER BY id")]

    def session(self, name: str | None = None) -> SessionInfo:
        """A session by name, or the current one."""
        if self.conn.holding:  # locked for the write to come, its reads asked at once
            if name is None:
                rows = self.query(f"{SESSION_COLUMNS} WHERE name = {CURRENT}{self.dialect.for_update}")
            else:
                rows = self.query(f"{SESSION_COLUMNS} WHERE name = ?{self.dialect.for_update}", (name,))
            if rows:
                self.conn.locked.add(int(rows[0][0]))
                self._ask_ahead(self._reads(int(rows[0][0]), writing=True))
                return self._info(rows[0])
        if name is None:
            name = self.current_name()
            if name is None:
                raise NoCurrentSession()
        rows = self.query(f"{SESSION_COLUMNS} WHERE name = ?", (name,))
        if not rows:
            raise NoSuchSession(name, self.session_names())
        return self._info(rows[0])

    def session_by_id(self, session_id: int) -> SessionInfo:
        """A session by its id, whatever it is called now (with its players: one read)."""
        rows = self.query(SESSION_PLAYERS, (session_id,))
        if not rows:
            raise NoSuchSession(f"#{session_id}", self.session_names())
        sid, sname, rules_json, rate, currency, dealer, created, _player = rows[0]
        players = tuple(r[7] for r in rows if r[7] is not None)
        return SessionInfo(int(sid), sname, players, _rules(rules_json), rate, currency, dealer, created)

    def _info(self, row: Sequence[Any]) -> SessionInfo:
        sid, sname, rules_json, rate, currency, dealer, created = row
        players = tuple(r[0] for r in self.query(PLAYERS, (sid,)))
        rules = _rules(rules_json)
        return SessionInfo(int(sid), sname, players, rules, rate, currency, dealer, created)

    def session_overview(self) -> list[SessionCount]:
        out = []
        for name in self.session_names():
            info = self.session(name)
            out.append(SessionCount(info, self.round_count(info), self.totals(info)))
        return out

    def names(self) -> Names:
        """Every session with its players and every tournament with its players, by name
        (what a shell completes), in four reads."""
        from romme_score.store.names import Names

        players: dict[str, list[str]] = {}
        for session, player in self.query(
            "SELECT s.name, p.name FROM sessions s JOIN players p ON p.session_id = s.id "
            "ORDER BY s.id, p.seat"
        ):
            players.setdefault(session, []).append(player)
        sessions = tuple(r[0] for r in self.query("SELECT name FROM sessions ORDER BY id"))
        state = dict(self.query("SELECT key, value FROM state WHERE key IN ('current', 'tournament')"))
        entrants: dict[str, list[str]] = {}
        try:
            for tournament, player in self.query(
                "SELECT t.name, p.name FROM tournaments t LEFT JOIN tournament_players p"
                " ON p.tournament_id = t.id ORDER BY t.id, p.start"
            ):
                found = entrants.setdefault(tournament, [])
                if player is not None:
                    found.append(player)
        except StoreError:  # a file from before tournaments, opened read-only (not migrated)
            entrants = {}
        return Names(
            sessions=sessions,
            current=state.get("current"),
            players={k: tuple(v) for k, v in players.items()},
            tournaments=tuple(entrants),
            current_tournament=state.get("tournament"),
            entrants={k: tuple(v) for k, v in entrants.items() if v},
        )

    def rename_session(self, old: str, new: str) -> None:
        info = self.session(old)

        def work(cur: Cursor) -> None:
            self.dialect.lock_names(cur, "sessions")
            if cur.execute("SELECT 1 FROM sessions WHERE name = ?", (new,)).fetchone():
                raise SessionExists(new, "rename")
            if cur.execute("UPDATE sessions SET name = ? WHERE id = ?", (new, info.id)).rowcount != 1:
                raise NoSuchSession(old, self.session_names())
            cur.execute(
                "INSERT INTO renames (session_id, old_name, new_name, at) VALUES (?, ?, ?, ?)",
                (info.id, info.name, new, now()),
            )
            cur.execute("UPDATE state SET value = ? WHERE key = 'current' AND value = ?", (new, info.name))
            self._changed(cur, info.id)

        self.write(work)

    def delete_session(self, name: str) -> None:
        """Delete a session with everything of it; refused while it is a tournament's table
        (:class:`SessionInTournament`) or counts in a league (:class:`SessionInLeague`),
        checked in the delete's transaction with the session's row locked."""
        info = self.session(name)

        def work(cur: Cursor) -> None:
            self._lock(cur, info)
            self._refuse_delete(cur, info)
            self._delete_session(cur, info.id)
            cur.execute("DELETE FROM state WHERE key = 'current' AND value = ?", (info.name,))
            self.dialect.notify(cur, info.id)

        self.write(work)

    def check_delete(self, name: str) -> None:
        """What :meth:`delete_session` would refuse, asked before a person is asked to
        confirm it (nothing is written); the delete asks again in its own transaction."""
        info = self.session(name)
        self.write(lambda cur: self._refuse_delete(cur, info))

    @staticmethod
    def _refuse_delete(cur: Cursor, info: SessionInfo) -> None:
        """A tournament's table, or a session that counts in a league, is not deleted."""
        from romme_score.store.sql import leagues  # with its first use, not at every start

        tournaments.refuse_if_a_table(cur, info.id, info.name)
        leagues.refuse_if_counted(cur, info.id, info.name)

    @classmethod
    def _delete_session(cls, cur: Cursor, sid: int) -> None:
        cls._clear_session(cur, sid)
        cur.execute("DELETE FROM sessions WHERE id = ?", (sid,))

    @staticmethod
    def _clear_session(cur: Cursor, sid: int) -> None:
        """Everything of a session but its own row, which keeps its id (and with it its
        place in every league it counts in) and its change counter."""
        cur.execute(
            "DELETE FROM hands WHERE round_id IN (SELECT id FROM rounds WHERE session_id = ?)", (sid,)
        )
        cur.execute("UPDATE rounds SET replaced_by = NULL WHERE session_id = ?", (sid,))
        tables = (
            "rounds",
            "players",
            "totals",
            "round_totals",
            "notes",
            "renames",
            "pending_hands",
            "pending",
        )
        for table in (*tables, "links", "write_keys"):
            cur.execute(f"DELETE FROM {table} WHERE session_id = ?", (sid,))

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
        """Write a whole session as exported (rounds with their history, notes, renames,
        times) in one transaction; make it current with ``make_current`` or where no
        session is current. With ``overwrite``, a session of that name is replaced in
        place: it keeps its id, so it stays the same event of every league it counts in, at
        its place there, and its change counter goes on (the league's board notices)."""

        def work(cur: Cursor) -> None:
            self.dialect.lock_names(cur, "sessions")
            existing = cur.execute(
                f"SELECT id FROM sessions WHERE name = ?{self.dialect.for_update}", (name,)
            ).fetchone()
            values = (created or now(), json.dumps(rules.to_dict()), rate, currency, first_dealer)
            if existing:
                if not overwrite:
                    raise SessionExists(name, "import")
                tournaments.refuse_if_a_table(cur, existing[0], name)
                sid = int(existing[0])
                self._clear_session(cur, sid)
                cur.execute(
                    "UPDATE sessions SET created_at = ?, rules = ?, rate = ?, currency = ?, first_dealer = ? "
                    "WHERE id = ?",
                    (*values, sid),
                )
            else:
                sid = self.dialect.insert(
                    cur,
                    "INSERT INTO sessions (name, created_at, rules, rate, currency, first_dealer) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (name, *values),
                )
            cur.executemany(
                "INSERT INTO players (session_id, seat, name) VALUES (?, ?, ?)",
                [(sid, seat, p) for seat, p in enumerate(players)],
            )
            # Round ids taken in one go, so that the hands and the replaced_by links are
            # written with executemany however long the session.
            ids = dict(
                zip(
                    (r.row for r in rounds), self.dialect.reserve_ids(cur, "rounds", len(rounds)), strict=True
                )
            )
            cur.executemany(
                "INSERT INTO rounds (id, session_id, number, winner, hand_romme, stalemate, recorded_at, "
                "status, changed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        ids[r.row],
                        sid,
                        r.number,
                        r.winner,
                        bool(r.hand_romme),
                        bool(r.stalemate),
                        r.recorded_at or now(),
                        r.status,
                        r.changed_at,
                    )
                    for r in rounds
                ],
            )
            empty = HandRecord(None, None, False, 0, 0, None)
            cur.executemany(
                INSERT_HANDS,
                [
                    (
                        ids[r.row],
                        p,
                        h.cards,
                        h.typed_points,
                        bool(h.never_out),
                        h.points,
                        h.bonus,
                        h.leaderboard,
                    )
                    for r in rounds
                    for p in players
                    for h in (r.hands.get(p, empty),)
                ],
            )
            cur.executemany(
                "UPDATE rounds SET replaced_by = ? WHERE id = ?",
                [(ids[r.replaced_by], ids[r.row]) for r in rounds if r.replaced_by is not None],
            )
            cur.executemany(
                "INSERT INTO notes (session_id, round, text, at) VALUES (?, ?, ?, ?)",
                [(sid, n.round, n.text, n.at) for n in notes],
            )
            cur.executemany(
                "INSERT INTO renames (session_id, old_name, new_name, at) VALUES (?, ?, ?, ?)",
                [(sid, r.old, r.new, r.at) for r in renames],
            )
            self._refresh_totals(cur, sid)
            self._refresh_round_totals(cur, sid, 1)
            current = cur.execute(
                "SELECT 1 FROM state JOIN sessions ON sessions.name = state.value WHERE state.key = 'current'"
            ).fetchone()
            if make_current or current is None:
                cur.execute(SET_STATE, ("current", name))
            self._changed(cur, sid)

        self.write(work)
        for statement in self.dialect.after_import:
            self.write(functools.partial(_run, statement))

    # -- rounds -------------------------------------------------------------------

    def round_count(self, session: SessionInfo) -> int:
        # Active rounds are numbered 1..n without gaps, so the highest number is the count.
        row = self.query(ROUND_COUNT, (session.id,))
        return int(row[0][0])

    def totals(self, session: SessionInfo) -> dict[str, int]:
        """Each player's total: penalty points minus bonus over the active rounds."""
        return self._totals(self.query, session, "total")

    def totals_played(self, session: SessionInfo) -> tuple[dict[str, int], int]:
        """Each player's total and the rounds played, in one read (is the game over?)."""
        rows = self.query(TOTALS_PLAYED, (session.id, session.id))
        totals = dict.fromkeys(session.players, 0)
        for _played, player, total in rows:
            if player is not None:
                totals[player] = int(total)
        return totals, int(rows[0][0])

    def leaderboard(self, session: SessionInfo) -> dict[str, int]:
        return self._totals(self.query, session, "leaderboard")

    @staticmethod
    def _totals(
        query: Callable[[str, Params], list[Any]], session: SessionInfo, column: str
    ) -> dict[str, int]:
        totals = dict.fromkeys(session.players, 0)
        for player, total in query(TOTALS % column, (session.id,)):
            totals[player] = int(total)
        return totals

    @staticmethod
    def _refresh_totals(cur: Cursor, session_id: int) -> None:
        """Recompute a session's totals from its rounds (after a correction)."""
        cur.execute("DELETE FROM totals WHERE session_id = ?", (session_id,))
        cur.execute(
            "INSERT INTO totals (session_id, player, total, leaderboard) "
            + TOTALS_SELECT.format(where="p.session_id = ?"),
            (session_id,),
        )

    @staticmethod
    def _refresh_round_totals(cur: Cursor, session_id: int, first: int) -> None:
        """Recompute a session's running totals per round from round ``first`` on."""
        cur.execute("DELETE FROM round_totals WHERE session_id = ? AND number >= ?", (session_id, first))
        cur.execute(
            "INSERT INTO round_totals (session_id, number, seat, total) "
            + ROUND_TOTALS_SELECT.format(where="r.session_id = ?", after="number >= ?"),
            (session_id, first),
        )

    def round_totals(
        self, session: SessionInfo, numbers: Sequence[int] | None = None
    ) -> Iterator[tuple[int, dict[str, int]]]:
        """Each player's running total after each active round (those of ``numbers``, all
        when None), from the totals kept per round: (number, totals) by number."""
        players = session.players
        chosen = "" if numbers is None else f" AND number IN ({', '.join('?' * len(numbers))})"
        rows = self.query(
            f"SELECT number, seat, total FROM round_totals WHERE session_id = ?{chosen} "
            "ORDER BY number, seat",
            (session.id, *(numbers or ())),
        )
        running = dict.fromkeys(players, 0)
        number = None
        for at, seat, total in rows:
            if at != number:
                if number is not None:
                    yield number, dict(running)
                number = at
            if 0 <= seat < len(players):
                running[players[seat]] = int(total)
        if number is not None:
            yield number, dict(running)

    def hand_rommes(self, session: SessionInfo, last: int | None = None) -> list[tuple[int, str]]:
        """(round, who went out) of the active rounds won by a Hand-Rommé (the last ``last``)."""
        rows = self.query(
            "SELECT number, winner FROM rounds WHERE session_id = ? AND status = 'active' AND hand_romme "
            "ORDER BY number DESC" + ("" if last is None else f" LIMIT {int(last)}"),
            (session.id,),
        )
        return [(int(number), str(winner)) for number, winner in reversed(rows) if winner is not None]

    def bonuses(self, session: SessionInfo) -> list[tuple[int, str, int]]:
        """(round, player, points struck) of every bonus struck in an active round, by round and seat."""
        return [
            (int(number), str(player), int(bonus))
            for number, player, bonus in self.query(
                "SELECT r.number, h.player, h.bonus FROM rounds r JOIN hands h ON h.round_id = r.id "
                "JOIN players p ON p.session_id = r.session_id AND p.name = h.player "
                "WHERE r.session_id = ? AND r.status = 'active' AND h.bonus > 0 ORDER BY r.number, p.seat",
                (session.id,),
            )
        ]

    def rounds(self, session: SessionInfo, last: int | None = None) -> list[RoundRecord]:
        """The active rounds in order; ``last`` limits to the most recent ones."""
        limit, params = lines.recent(session, last)
        return round_records(
            self.query(
                f"{ROUND_COLUMNS} WHERE r.session_id = ? AND r.status = 'active' {limit} "
                f"ORDER BY r.number, h.player{self.dialect.bytewise}",
                params,
            )
        )

    def round_points(
        self, session: SessionInfo, last: int | None = None, *, after: int = 0, upto: int | None = None
    ) -> Iterator[RoundPoints]:
        return lines.round_points(self.conn, self.dialect, session, last, after=after, upto=upto)

    def _insert_round(
        self,
        cur: Cursor,
        session: SessionInfo,
        number: int,
        rnd: RoundInput,
        score: RoundScore,
        *,
        running: bool = True,
    ) -> int:
        """Insert a round and its hands, and add its points to the totals; with
        ``running``, keep the totals after it as the round's (the last round only)."""
        values = (session.id, number, rnd.winner, bool(rnd.hand_romme), bool(rnd.stalemate), now())
        if self.conn.holding and self.dialect.reserving("rounds") is not None:
            # the id asked with the session's reads: no round trip for the insert's answer
            (round_id,) = self.dialect.reserve_ids(cur, "rounds", 1)
            cur.execute(
                "INSERT INTO rounds (id, session_id, number, winner, hand_romme, stalemate, recorded_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (round_id, *values),
            )
        else:
            round_id = self.dialect.insert(
                cur,
                "INSERT INTO rounds (session_id, number, winner, hand_romme, stalemate, recorded_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                values,
            )
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
        cur.executemany(INSERT_HANDS, rows)
        cur.executemany(
            "UPDATE totals SET total = total + ?, leaderboard = leaderboard + ? "
            "WHERE session_id = ? AND player = ?",
            [
                (points - bonus, board or 0, session.id, player)
                for _, player, _, _, _, points, bonus, board in rows
            ],
        )
        if running:
            cur.execute(
                "INSERT INTO round_totals (session_id, number, seat, total) "
                "SELECT p.session_id, ?, p.seat, t.total FROM players p "
                "JOIN totals t ON t.session_id = p.session_id AND t.player = p.name WHERE p.session_id = ?",
                (number, session.id),
            )
        return round_id

    def record_round(
        self,
        session: SessionInfo,
        rnd: RoundInput,
        compute: Callable[[dict[str, int], int], RoundScore],
        *,
        pending: int | None = None,
    ) -> tuple[int, RoundScore]:
        """Record a round; ``compute`` gets the totals before and the rounds played
        (read inside the same transaction) and returns the score to store. With
        ``pending``, the round in progress at that revision is cleared with it. The
        phones' keys of the rounds before this one are dropped."""
        from romme_score.store.sql import keys  # a light module: its SQL only

        def work(cur: Cursor) -> tuple[int, RoundScore]:
            self._lock(cur, session)
            if pending is not None:
                now_at = phones.revision(cur, session.id)
                if now_at != pending:
                    raise PendingChanged(session.name, now_at)
                phones.clear(cur, session.id, asked=False)
            count = cur.execute(ROUND_COUNT, (session.id,)).fetchone()[0]
            before = self._totals(lambda sql, params: cur.execute(sql, params).fetchall(), session, "total")
            result = compute(before, int(count))
            self._insert_round(cur, session, count + 1, rnd, result)
            keys.drop_before(cur, session.id, int(count) + 1)
            self._changed(cur, session.id)
            if self.conn.holding:  # what the command shows after it, asked with the write
                self._ask_ahead(self._reads(session.id, writing=False))
            return int(count) + 1, result

        return self.write(work)

    def undo_last(self, session: SessionInfo) -> RoundRecord:
        """Mark the last round undone (it stays in the history)."""

        def work(cur: Cursor) -> RoundRecord:
            self._lock(cur, session)
            row = cur.execute(
                "SELECT id FROM rounds WHERE session_id = ? AND status = 'active' "
                "ORDER BY number DESC LIMIT 1",
                (session.id,),
            ).fetchone()
            if row is None:
                raise NoRounds(session.name)
            (record,) = round_records(
                cur.execute(
                    f"{ROUND_COLUMNS} WHERE r.id = ? ORDER BY h.player{self.dialect.bytewise}", (row[0],)
                ).fetchall()
            )
            cur.execute(
                "UPDATE rounds SET status = 'undone', changed_at = ? WHERE id = ?", (change_time(), row[0])
            )
            self._refresh_totals(cur, session.id)
            cur.execute(
                "DELETE FROM round_totals WHERE session_id = ? AND number = ?", (session.id, record.number)
            )
            self._changed(cur, session.id)
            return record

        return self.write(work)

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

        def work(cur: Cursor) -> None:
            self._lock(cur, session)
            for offset, (rnd, score) in enumerate(zip(inputs, scores, strict=True)):
                number = first_number + offset
                old = cur.execute(
                    "SELECT id FROM rounds WHERE session_id = ? AND number = ? AND status = 'active'",
                    (session.id, number),
                ).fetchone()
                if old is None:
                    raise RoundNotThere(number, session.name)
                if number in changed:
                    cur.execute(
                        "UPDATE rounds SET status = 'replaced', changed_at = ? WHERE id = ?",
                        (change_time(), old[0]),
                    )
                    new_id = self._insert_round(cur, session, number, rnd, score, running=False)
                    cur.execute("UPDATE rounds SET replaced_by = ? WHERE id = ?", (new_id, old[0]))
                else:
                    cur.executemany(
                        "UPDATE hands SET points = ?, bonus = ?, leaderboard = ? "
                        "WHERE round_id = ? AND player = ?",
                        [
                            (score.points[p], score.bonus.get(p, 0), score.leaderboard.get(p), old[0], p)
                            for p in session.players
                        ],
                    )
            self._refresh_totals(cur, session.id)
            self._refresh_round_totals(cur, session.id, first_number)
            self._changed(cur, session.id)

        self.write(work)

    def history(self, session: SessionInfo) -> list[Change]:
        """Corrections: (round number, status, when) of undone and replaced rounds."""
        return [Change(r[0], r[1], to_seconds(r[2])) for r in self.query(HISTORY, (session.id,))]

    def all_rounds(self, session: SessionInfo, *, active: bool) -> Iterator[StoredRound]:
        return lines.all_rounds(self.conn, self.dialect, session, active=active)

    def round_lines(self, session: SessionInfo, *, active: bool, batch: int = 512) -> Iterator[Lines] | None:
        if not self.dialect.side_by_side:
            return None  # the export writes from all_rounds: the same text, byte for byte
        return lines.round_lines(self.conn, self.dialect, session, active=active, batch=batch)

    def points_lines(
        self, session: SessionInfo, batch: int = 512, *, after: int = 0, upto: int | None = None
    ) -> Iterator[Lines] | None:
        if not self.dialect.side_by_side:
            return None  # standings --json writes from round_points
        return lines.points_lines(self.conn, self.dialect, session, batch, after=after, upto=upto)

    def scoresheet_lines(self, session: SessionInfo, batch: int = 512) -> Iterator[Lines]:
        return lines.scoresheet_lines(self.conn, session, batch=batch)

    # -- the round in progress and the phones' links (romme_score/store/sql/phones.py) -------

    def pending(self, session: SessionInfo) -> PendingRound:
        return phones.pending(self.conn, session)

    def change_pending(
        self, session: SessionInfo, change: PendingChange, *, expected: int | None = None
    ) -> PendingRound:
        def work(cur: Cursor) -> None:
            self._lock(cur, session)
            self._expect(cur, session, expected)
            phones.change(cur, session, change)
            self._changed(cur, session.id)

        self.write(work)
        return self.pending(session)  # inside held(): read in its transaction

    def clear_pending(self, session: SessionInfo, *, expected: int | None = None) -> None:
        def work(cur: Cursor) -> None:
            self._lock(cur, session)
            self._expect(cur, session, expected)
            if phones.clear(cur, session.id):
                self._changed(cur, session.id)

        self.write(work)

    @staticmethod
    def _expect(cur: Cursor, session: SessionInfo, expected: int | None) -> None:
        """Refuse a change of the round in progress made from another revision of it than
        the one it has now (someone else changed it meanwhile): nothing is written."""
        if expected is not None:
            now_at = phones.revision(cur, session.id)
            if now_at != expected:
                raise PendingChanged(session.name, now_at)

    def links(self, session: SessionInfo) -> list[Link]:
        return phones.links(self.conn, session)

    def add_links(self, session: SessionInfo, links: Sequence[Link], *, replace: bool) -> list[Link]:
        def work(cur: Cursor) -> None:
            self._lock(cur, session)
            phones.add_links(cur, session, links, replace)

        self.write(work)
        return self.links(session)

    # -- notes and renames ---------------------------------------------------------------

    def notes(self, session: SessionInfo) -> list[Note]:
        return [Note(r[0], r[1], r[2]) for r in self.query(NOTES, (session.id,))]

    def renames(self, session: SessionInfo) -> list[Rename]:
        return [Rename(r[0], r[1], r[2]) for r in self.query(RENAMES, (session.id,))]

    def add_note(self, session: SessionInfo, round_number: int | None, text: str) -> Note:
        at = now()

        def work(cur: Cursor) -> None:
            self._lock(cur, session)
            cur.execute(
                "INSERT INTO notes (session_id, round, text, at) VALUES (?, ?, ?, ?)",
                (session.id, round_number, text, at),
            )
            self._changed(cur, session.id)

        self.write(work)
        return Note(round_number, text, at)

    # -- statistics across sessions (romme stats) -----------------------------------

    def player_session_stats(self, since: str | None = None) -> list[PlayerSessionStats]:
        return lines.player_session_stats(self.conn, self.dialect, since)

    def head_to_head_rounds(self, opponents: Sequence[str], since: str | None = None) -> list[HeadToHead]:
        return lines.head_to_head_rounds(self.conn, self.dialect, opponents, since)

    # -- tournaments (romme tournament) -----------------------------------------------

    def create_tournament(
        self,
        name: str,
        rules: RuleSet,
        options: TournamentOptions,
        seed: int,
        players: Sequence[TournamentPlayer],
    ) -> None:
        def work(cur: Cursor) -> None:
            tournaments.create(cur, self.dialect, name, rules, options, seed, players)
            cur.execute(SET_STATE, ("tournament", name))

        self.write(work)

    def set_served_address(self, address: str) -> None:
        self.write(lambda cur: cur.execute(SET_STATE, ("served_address", address)))

    def served_address(self) -> str | None:
        row = self.query("SELECT value FROM state WHERE key = 'served_address'")
        return row[0][0] if row else None

    def session_tournament(self, session: SessionInfo) -> str | None:
        row = self.query(
            "SELECT t.name FROM tournament_tables tt JOIN tournaments t ON t.id = tt.tournament_id "
            "WHERE tt.session_id = ?",
            (session.id,),
        )
        return row[0][0] if row else None

    def current_tournament(self) -> str | None:
        row = self.query("SELECT value FROM state WHERE key = 'tournament'")
        return row[0][0] if row else None

    def tournament_names(self) -> list[str]:
        return [r[0] for r in self.query("SELECT name FROM tournaments ORDER BY id")]

    def tournament(self, name: str | None = None) -> TournamentInfo:
        return tournaments.info(self.conn, name, self.current_tournament, self.tournament_names)

    def draw_series(
        self,
        tournament: TournamentInfo,
        series: int,
        tables: Sequence[tuple[str, Sequence[str]]],
        rules: RuleSet,
        currency: str | None,
    ) -> None:
        def work(cur: Cursor) -> None:
            tournaments.add_series(cur, self.dialect, tournament, series)
            self.dialect.lock_names(cur, "sessions")
            for number, (session, players) in enumerate(tables, 1):
                sid = self._insert_session(cur, session, players, rules, None, currency, 0)
                cur.execute(
                    "INSERT INTO tournament_tables (tournament_id, series, number, session_id) "
                    "VALUES (?, ?, ?, ?)",
                    (tournament.id, series, number, sid),
                )
            if tables:
                cur.execute(SET_STATE, ("current", tables[0][0]))

        self.write(work)

    def withdraw_player(self, tournament: TournamentInfo, start: int, after_series: int) -> None:
        self.write(
            lambda cur: cur.execute(
                "UPDATE tournament_players SET withdrawn_after = ?, withdrawn_at = ? "
                "WHERE tournament_id = ? AND start = ? AND withdrawn_after IS NULL",
                (after_series, now(), tournament.id, start),
            )
        )

    def tournament_tables(self, tournament: TournamentInfo) -> list[TournamentTable]:
        return tournaments.tables(self.conn, tournament)

    def tournament_games(self, tournament: TournamentInfo) -> Iterator[tuple[int, RoundPoints]]:
        return tournaments.games(self.conn, tournament)

    # -- leagues (romme league) -------------------------------------------------------

    def create_league(self, name: str, season: str | None, options: LeagueOptions, token: str) -> None:
        from romme_score.store.sql import leagues  # with its first use, not at every start

        self.write(lambda cur: leagues.create(cur, self.dialect, name, season, options, token))

    def league_names(self) -> list[str]:
        from romme_score.store.sql import leagues  # with its first use, not at every start

        return leagues.names(self.conn)

    def league(self, name: str) -> LeagueInfo:
        from romme_score.store.sql import leagues  # with its first use, not at every start

        return leagues.info(self.conn, name)

    def add_league_events(self, league: LeagueInfo, events: Sequence[tuple[str, int, str]]) -> None:
        from romme_score.store.sql import leagues  # with its first use, not at every start

        self.write(lambda cur: leagues.add_events(cur, self.dialect, league, events))

    def remove_league_event(self, league: LeagueInfo, kind: str, event_id: int, event_name: str) -> None:
        from romme_score.store.sql import leagues  # with its first use, not at every start

        self.write(lambda cur: leagues.remove_event(cur, self.dialect, league, kind, event_id, event_name))

    def set_league_alias(self, league: LeagueInfo, spelling: str, person: str) -> None:
        from romme_score.store.sql import leagues  # with its first use, not at every start

        self.write(lambda cur: leagues.set_alias(cur, self.dialect, league, spelling, person))

    def league_version(self, league: LeagueInfo) -> int:
        from romme_score.store.sql import leagues  # with its first use, not at every start

        return leagues.version(self.conn, league.id)


@functools.lru_cache(maxsize=64)
def _rules(text: str) -> RuleSet:
    """A session's rules as stored (JSON), read once per text: a frozen value, and reading
    it costs more than the rest of a phone's request (issue 28)."""
    return RuleSet.from_dict(json.loads(text))


def _run(statement: str, cur: Cursor) -> None:
    cur.execute(statement)
