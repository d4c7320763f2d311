"""The SQLite store: a romme-score database in one file (the default backend).

Sessions, rounds with their history, notes and renames; every write is one transaction
(:class:`~romme_score.store.sqlite.connection.Connection`), and each one that changes a
session counts up its ``version``, so that another front end notices the change cheaply
(``PRAGMA data_version`` says whether any other connection wrote at all). The long reads
(export lines, statistics) are in :mod:`romme_score.store.sqlite.lines`.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import romme_score.store.sqlite.lines as lines
import romme_score.store.sqlite.tournaments as tournaments
from romme_score.rules import RuleSet
from romme_score.scoring import RoundInput, RoundScore
from romme_score.store.errors import (
    NoCurrentSession,
    NoRounds,
    NoSuchSession,
    PendingChanged,
    RoundNotThere,
    SeriesDrawn,
    SessionExists,
)
from romme_score.store.records import (
    KEEP,
    LINK_KINDS,
    Change,
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
    round_records,
    to_seconds,
)
from romme_score.store.sqlite.connection import Connection
from romme_score.store.sqlite.schema import TOTALS_SELECT
from romme_score.tournament_options import TournamentOptions

T = TypeVar("T")
BUMP = "UPDATE sessions SET version = version + 1 WHERE id = ?"


class SQLiteStore:
    """A romme-score database file (:class:`~romme_score.store.protocol.Store`)."""

    def __init__(self, path: Path, *, create: bool = True) -> None:
        self.path = path
        self.location = str(path)
        self.conn = Connection(path, create=create)
        self._seen_data_version = -1
        self._seen_writes = -1
        self._versions: dict[int, int] = {}

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> SQLiteStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- changes ----------------------------------------------------------------------

    def version(self, session: SessionInfo) -> int:
        """The session's change counter; read from the file only when some connection wrote
        since the last answer (``PRAGMA data_version`` for the others, a count for this one).
        -1 for a session that is gone."""
        data_version = self.conn.query("PRAGMA data_version")[0][0]
        if data_version != self._seen_data_version or self.conn.writes != self._seen_writes:
            self._versions.clear()
            self._seen_data_version, self._seen_writes = data_version, self.conn.writes
        found = self._versions.get(session.id)
        if found is None:
            rows = self.conn.query("SELECT version FROM sessions WHERE id = ?", (session.id,))
            found = self._versions[session.id] = int(rows[0][0]) if rows else -1
        return found

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
        with self.conn.write() as db:
            self._insert_session(db, name, players, rules, rate, currency, first_dealer)
            db.execute("INSERT OR REPLACE INTO state (key, value) VALUES ('current', ?)", (name,))

    @staticmethod
    def _insert_session(
        db: sqlite3.Connection,
        name: str,
        players: Sequence[str],
        rules: RuleSet,
        rate: str | None,
        currency: str | None,
        first_dealer: int,
    ) -> int:
        """A new session's rows (inside the caller's transaction); its id."""
        if db.execute("SELECT 1 FROM sessions WHERE name = ?", (name,)).fetchone():
            raise SessionExists(name, "create")
        cur = db.execute(
            "INSERT INTO sessions (name, created_at, rules, rate, currency, first_dealer) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (name, now(), json.dumps(rules.to_dict()), rate, currency, first_dealer),
        )
        sid = cur.lastrowid
        assert sid is not None
        db.executemany(
            "INSERT INTO players (session_id, seat, name) VALUES (?, ?, ?)",
            [(sid, seat, player) for seat, player in enumerate(players)],
        )
        db.executemany(
            "INSERT INTO totals (session_id, player) VALUES (?, ?)", [(sid, player) for player in players]
        )
        return sid

    def set_current(self, name: str) -> None:
        self.session(name)
        with self.conn.write() as db:
            db.execute("INSERT OR REPLACE INTO state (key, value) VALUES ('current', ?)", (name,))

    def current_name(self) -> str | None:
        row = self.conn.query("SELECT value FROM state WHERE key = 'current'")
        return row[0][0] if row else None

    def session_names(self) -> list[str]:
        return [r[0] for r in self.conn.query("SELECT name FROM sessions ORDER BY id")]

    SESSION_COLUMNS = "SELECT id, name, rules, rate, currency, first_dealer, created_at FROM sessions"

    def session(self, name: str | None = None) -> SessionInfo:
        """A session by name, or the current one."""
        if name is None:
            name = self.current_name()
            if name is None:
                raise NoCurrentSession()
        rows = self.conn.query(f"{self.SESSION_COLUMNS} WHERE name = ?", (name,))
        if not rows:
            raise NoSuchSession(name, self.session_names())
        return self._info(rows[0])

    def session_by_id(self, session_id: int) -> SessionInfo:
        """A session by its id, whatever it is called now."""
        rows = self.conn.query(f"{self.SESSION_COLUMNS} WHERE id = ?", (session_id,))
        if not rows:
            raise NoSuchSession(f"#{session_id}", self.session_names())
        return self._info(rows[0])

    def _info(self, row: Sequence[Any]) -> SessionInfo:
        sid, sname, rules_json, rate, currency, dealer, created = row
        players = tuple(
            r[0]
            for r in self.conn.query("SELECT name FROM players WHERE session_id = ? ORDER BY seat", (sid,))
        )
        rules = RuleSet.from_dict(json.loads(rules_json))
        return SessionInfo(sid, sname, players, rules, rate, currency, dealer, created)

    def session_overview(self) -> list[SessionCount]:
        out = []
        for name in self.session_names():
            info = self.session(name)
            out.append(SessionCount(info, self.round_count(info), self.totals(info)))
        return out

    # -- rounds -------------------------------------------------------------------

    def round_count(self, session: SessionInfo) -> int:
        # Active rounds are numbered 1..n without gaps, so the highest number is the count.
        row = self.conn.query(
            "SELECT COALESCE(MAX(number), 0) FROM rounds WHERE session_id = ? AND status = 'active'",
            (session.id,),
        )
        return int(row[0][0])

    def totals(self, session: SessionInfo) -> dict[str, int]:
        """Each player's total: penalty points minus bonus over the active rounds."""
        totals = {p: 0 for p in session.players}
        for player, total in self.conn.query(
            "SELECT player, total FROM totals WHERE session_id = ?", (session.id,)
        ):
            totals[player] = int(total)
        return totals

    def leaderboard(self, session: SessionInfo) -> dict[str, int]:
        board = {p: 0 for p in session.players}
        for player, total in self.conn.query(
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
        rows = self.conn.query(
            "SELECT r.number, r.winner, r.hand_romme, r.stalemate, r.recorded_at, h.player, "
            "h.cards, h.typed_points, h.never_out, h.points, h.bonus, h.leaderboard "
            "FROM rounds r JOIN hands h ON h.round_id = r.id "
            f"WHERE r.session_id = ? AND r.status = 'active' {limit} ORDER BY r.number",
            params,
        )
        return round_records(rows)

    def round_points(self, session: SessionInfo, last: int | None = None) -> Iterator[RoundPoints]:
        return lines.round_points(self.conn, session, last)

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
        *,
        pending: int | None = None,
    ) -> tuple[int, T]:
        """Record a round; ``compute`` gets the totals before and the rounds played
        (read inside the same transaction) and returns the result to store. With
        ``pending``, the round in progress at that revision is cleared with it."""
        with self.conn.write() as db:
            if pending is not None:
                now_at = self._pending_revision(db, session.id)
                if now_at != pending:
                    raise PendingChanged(session.name, now_at)
                self._clear_pending(db, session.id)
            count = db.execute(
                "SELECT COALESCE(MAX(number), 0) FROM rounds WHERE session_id = ? AND status = 'active'",
                (session.id,),
            ).fetchone()[0]
            result = compute(self.totals(session), count)
            number = count + 1
            self._insert_round(db, session, number, rnd, score_of(result))
            db.execute(BUMP, (session.id,))
        return number, result

    def undo_last(self, session: SessionInfo) -> RoundRecord:
        """Mark the last round undone (it stays in the history)."""
        with self.conn.write() as db:
            row = db.execute(
                "SELECT id, number FROM rounds WHERE session_id = ? AND "
                "status = 'active' ORDER BY number DESC LIMIT 1",
                (session.id,),
            ).fetchone()
            if row is None:
                raise NoRounds(session.name)
            record = self.rounds(session, last=1)[0]
            db.execute(
                "UPDATE rounds SET status = 'undone', changed_at = ? WHERE id = ?", (change_time(), row[0])
            )
            self._refresh_totals(db, session.id)
            db.execute(BUMP, (session.id,))
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
        with self.conn.write() as db:
            for offset, (rnd, score) in enumerate(zip(inputs, scores, strict=True)):
                number = first_number + offset
                old = db.execute(
                    "SELECT id FROM rounds WHERE session_id = ? AND number = ? AND status = 'active'",
                    (session.id, number),
                ).fetchone()
                if old is None:
                    raise RoundNotThere(number, session.name)
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
            db.execute(BUMP, (session.id,))

    # -- the round in progress ------------------------------------------------------------

    @staticmethod
    def _pending_revision(db: sqlite3.Connection, session_id: int) -> int:
        row = db.execute("SELECT revision FROM pending WHERE session_id = ?", (session_id,)).fetchone()
        return int(row[0]) if row else 0

    def pending(self, session: SessionInfo) -> PendingRound:
        row = self.conn.query(
            "SELECT revision, winner, hand_romme, stalemate FROM pending WHERE session_id = ?", (session.id,)
        )
        if not row:
            return PendingRound()
        revision, winner, hand_romme, stalemate = row[0]
        seats = {p: i for i, p in enumerate(session.players)}
        hands = sorted(
            self.conn.query(
                "SELECT player, cards, typed_points, never_out FROM pending_hands WHERE session_id = ?",
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
        with self.conn.write() as db:
            db.execute("INSERT OR IGNORE INTO pending (session_id) VALUES (?)", (session.id,))
            sets = ["revision = revision + 1"]
            values: list[Any] = []
            if change.winner is not KEEP:
                sets.append("winner = ?")
                values.append(change.winner)
            if change.hand_romme is not None:
                sets.append("hand_romme = ?")
                values.append(int(change.hand_romme))
            if change.stalemate is not None:
                sets.append("stalemate = ?")
                values.append(int(change.stalemate))
            db.execute(f"UPDATE pending SET {', '.join(sets)} WHERE session_id = ?", (*values, session.id))
            at = now()
            for player, hand in change.hands.items():
                if hand is None:
                    db.execute(
                        "DELETE FROM pending_hands WHERE session_id = ? AND player = ?", (session.id, player)
                    )
                else:
                    db.execute(
                        "INSERT OR REPLACE INTO pending_hands (session_id, player, cards, typed_points, "
                        "never_out, at) VALUES (?, ?, ?, ?, ?, ?)",
                        (session.id, player, hand.cards, hand.typed_points, int(hand.never_out), at),
                    )
            db.execute(BUMP, (session.id,))
        return self.pending(session)

    @staticmethod
    def _clear_pending(db: sqlite3.Connection, session_id: int) -> bool:
        """Empty the round in progress, keeping its revision counting (whether there was one)."""
        found = db.execute(
            "SELECT winner IS NOT NULL OR hand_romme OR stalemate FROM pending WHERE session_id = ?",
            (session_id,),
        ).fetchone()
        hands = db.execute("DELETE FROM pending_hands WHERE session_id = ?", (session_id,)).rowcount
        db.execute(
            "UPDATE pending SET revision = revision + 1, winner = NULL, hand_romme = 0, stalemate = 0 "
            "WHERE session_id = ?",
            (session_id,),
        )
        return bool(hands) or bool(found and found[0])

    def clear_pending(self, session: SessionInfo) -> None:
        with self.conn.write() as db:
            if self._clear_pending(db, session.id):
                db.execute(BUMP, (session.id,))

    # -- links -----------------------------------------------------------------------------

    def links(self, session: SessionInfo) -> list[Link]:
        seats = {p: i for i, p in enumerate(session.players)}
        rows = self.conn.query("SELECT kind, player, token FROM links WHERE session_id = ?", (session.id,))
        found = [Link(kind, player or None, token) for kind, player, token in rows]
        return sorted(found, key=lambda k: (LINK_KINDS.index(k.kind), seats.get(k.player or "", -1)))

    def add_links(self, session: SessionInfo, links: Sequence[Link], *, replace: bool) -> list[Link]:
        with self.conn.write() as db:
            if replace:
                db.execute("DELETE FROM links WHERE session_id = ?", (session.id,))
            at = now()
            db.executemany(
                "INSERT OR IGNORE INTO links (session_id, kind, player, token, created_at) "
                "VALUES (?, ?, ?, ?, ?)",
                [(session.id, k.kind, k.player or "", k.token, at) for k in links],
            )
        return self.links(session)

    def history(self, session: SessionInfo) -> list[Change]:
        """Corrections: (round number, status, when) of undone and replaced rounds."""
        return [
            Change(r[0], r[1], to_seconds(r[2]))
            for r in self.conn.query(
                "SELECT number, status, changed_at FROM rounds WHERE session_id = ? AND "
                "status IN ('undone', 'replaced') ORDER BY changed_at, id",
                (session.id,),
            )
        ]

    def all_rounds(self, session: SessionInfo, *, active: bool) -> Iterator[StoredRound]:
        return lines.all_rounds(self.conn, session, active=active)

    def round_lines(self, session: SessionInfo, *, active: bool, batch: int = 512) -> Iterator[Lines] | None:
        return lines.round_lines(self.conn, session, active=active, batch=batch)

    def points_lines(self, session: SessionInfo, batch: int = 512) -> Iterator[Lines] | None:
        return lines.points_lines(self.conn, session, batch)

    def scoresheet_lines(self, session: SessionInfo, batch: int = 512) -> Iterator[Lines]:
        return lines.scoresheet_lines(self.conn, session, batch=batch)

    def notes(self, session: SessionInfo) -> list[Note]:
        return [
            Note(r[0], r[1], r[2])
            for r in self.conn.query(
                "SELECT round, text, at FROM notes WHERE session_id = ? ORDER BY id", (session.id,)
            )
        ]

    def renames(self, session: SessionInfo) -> list[Rename]:
        return [
            Rename(r[0], r[1], r[2])
            for r in self.conn.query(
                "SELECT old_name, new_name, at FROM renames WHERE session_id = ? ORDER BY id", (session.id,)
            )
        ]

    def add_note(self, session: SessionInfo, round_number: int | None, text: str) -> Note:
        at = now()
        with self.conn.write() as db:
            db.execute(
                "INSERT INTO notes (session_id, round, text, at) VALUES (?, ?, ?, ?)",
                (session.id, round_number, text, at),
            )
            db.execute(BUMP, (session.id,))
        return Note(round_number, text, at)

    def rename_session(self, old: str, new: str) -> None:
        info = self.session(old)
        with self.conn.write() as db:
            if db.execute("SELECT 1 FROM sessions WHERE name = ?", (new,)).fetchone():
                raise SessionExists(new, "rename")
            db.execute("UPDATE sessions SET name = ?, version = version + 1 WHERE id = ?", (new, info.id))
            db.execute(
                "INSERT INTO renames (session_id, old_name, new_name, at) VALUES (?, ?, ?, ?)",
                (info.id, info.name, new, now()),
            )
            db.execute("UPDATE state SET value = ? WHERE key = 'current' AND value = ?", (new, info.name))

    def delete_session(self, name: str) -> None:
        info = self.session(name)
        with self.conn.write() as db:
            tournaments.refuse_if_a_table(db, info.id, info.name)
            self._delete_session(db, info.id)
            db.execute("DELETE FROM state WHERE key = 'current' AND value = ?", (info.name,))

    @staticmethod
    def _delete_session(db: sqlite3.Connection, sid: int) -> None:
        db.execute("DELETE FROM hands WHERE round_id IN (SELECT id FROM rounds WHERE session_id = ?)", (sid,))
        db.execute("UPDATE rounds SET replaced_by = NULL WHERE session_id = ?", (sid,))
        for table in ("rounds", "players", "totals", "notes", "renames", "pending_hands", "pending", "links"):
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
        make_current: bool = True,
    ) -> None:
        """Write a whole session as exported (rounds with their history, notes, renames,
        times) in one transaction; make it current with ``make_current`` or where no
        session is current."""
        with self.conn.write() as db:
            existing = db.execute("SELECT id FROM sessions WHERE name = ?", (name,)).fetchone()
            if existing:
                if not overwrite:
                    raise SessionExists(name, "import")
                tournaments.refuse_if_a_table(db, existing[0], name)
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
            current = db.execute(
                "SELECT 1 FROM state JOIN sessions ON sessions.name = state.value WHERE state.key = 'current'"
            ).fetchone()
            if make_current or current is None:
                db.execute("INSERT OR REPLACE INTO state (key, value) VALUES ('current', ?)", (name,))

    # -- statistics across sessions (romme stats) -----------------------------------

    def player_session_stats(self, since: str | None = None) -> list[PlayerSessionStats]:
        return lines.player_session_stats(self.conn, since)

    def head_to_head_rounds(self, opponents: Sequence[str], since: str | None = None) -> list[HeadToHead]:
        return lines.head_to_head_rounds(self.conn, opponents, since)

    # -- tournaments (romme tournament) -----------------------------------------------

    def create_tournament(
        self,
        name: str,
        rules: RuleSet,
        options: TournamentOptions,
        seed: int,
        players: Sequence[TournamentPlayer],
    ) -> None:
        with self.conn.write() as db:
            tournaments.create(db, name, rules, options, seed, players)

    def current_tournament(self) -> str | None:
        row = self.conn.query("SELECT value FROM state WHERE key = 'tournament'")
        return row[0][0] if row else None

    def tournament_names(self) -> list[str]:
        return [r[0] for r in self.conn.query("SELECT name FROM tournaments ORDER BY id")]

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
        with self.conn.write() as db:
            if db.execute(
                "SELECT 1 FROM tournament_series WHERE tournament_id = ? AND number = ?",
                (tournament.id, series),
            ).fetchone():
                raise SeriesDrawn(tournament.name, series)
            db.execute(
                "INSERT INTO tournament_series (tournament_id, number, drawn_at) VALUES (?, ?, ?)",
                (tournament.id, series, now()),
            )
            for number, (session, players) in enumerate(tables, 1):
                sid = self._insert_session(db, session, players, rules, None, currency, 0)
                db.execute(
                    "INSERT INTO tournament_tables (tournament_id, series, number, session_id) "
                    "VALUES (?, ?, ?, ?)",
                    (tournament.id, series, number, sid),
                )
            if tables:
                db.execute("INSERT OR REPLACE INTO state (key, value) VALUES ('current', ?)", (tables[0][0],))

    def withdraw_player(self, tournament: TournamentInfo, start: int, after_series: int) -> None:
        with self.conn.write() as db:
            db.execute(
                "UPDATE tournament_players SET withdrawn_after = ?, withdrawn_at = ? "
                "WHERE tournament_id = ? AND start = ? AND withdrawn_after IS NULL",
                (after_series, now(), tournament.id, start),
            )

    def tournament_tables(self, tournament: TournamentInfo) -> list[TournamentTable]:
        return tournaments.tables(self.conn, tournament)

    def tournament_games(self, tournament: TournamentInfo) -> Iterator[tuple[int, RoundPoints]]:
        return tournaments.games(self.conn, tournament)
