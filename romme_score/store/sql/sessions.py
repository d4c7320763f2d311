"""The sessions of the SQL store (:class:`Sessions`): made, looked up, made current,
renamed, deleted, written whole as exported, with their notes and renames."""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from romme_score.rules import RuleSet
from romme_score.store.errors import (
    NoCurrentSession,
    NoSuchSession,
    SessionExists,
    StoreError,
)
from romme_score.store.records import (
    DrawnTable,
    Ending,
    HandRecord,
    Link,
    Note,
    Rename,
    SessionCount,
    SessionInfo,
    StoredRound,
    TableOf,
    now,
)
from romme_score.store.sql.base import (
    CURRENT,
    ENDINGS,
    INSERT_HANDS,
    NOTES,
    PLAYERS,
    RENAMES,
    SESSION_COLUMNS,
    SESSION_PLAYERS,
    SET_STATE,
    stored_rules,
)
from romme_score.store.sql.dialect import Cursor
from romme_score.store.sql.rounds import Rounds

if TYPE_CHECKING:
    from romme_score.store.names import Names


class Sessions(Rounds):
    """Sessions: their rows, players, notes and renames (each write one transaction)."""

    # -- sessions -----------------------------------------------------------------

    def create_session(
        self,
        name: str,
        players: Sequence[str],
        rules: RuleSet,
        rate: str | None,
        currency: str | None,
        first_dealer: int,
        current: bool = True,
    ) -> None:
        def work(cur: Cursor) -> None:
            self.dialect.lock_names(cur, "sessions")
            self._insert_session(cur, name, players, rules, rate, currency, first_dealer)
            if current:
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
                from romme_score.store.sql.tournaments import TABLE_OF  # the open check's read

                sid = int(rows[0][0])
                self.conn.locked.add(sid)
                self._ask_ahead([*self._reads(sid, writing=True), (TABLE_OF, (sid,))])
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
        sid, sname, rules_json, rate, currency, dealer, created, ended, _player = rows[0]
        players = tuple(r[8] for r in rows if r[8] is not None)
        return SessionInfo(
            int(sid),
            sname,
            players,
            stored_rules(rules_json),
            rate,
            currency,
            dealer,
            created,
            ended is not None,
        )

    def session_table(self, session: SessionInfo) -> TableOf | None:
        from romme_score.store.sql import tournaments  # with its first use, not at every start

        return tournaments.table_of(self.conn, session.id)

    def later_tables(self) -> set[int]:
        from romme_score.store.sql import tournaments

        return tournaments.later_tables(self.conn)

    def _info(self, row: Sequence[Any]) -> SessionInfo:
        sid, sname, rules_json, rate, currency, dealer, created, ended = row
        players = tuple(r[0] for r in self.query(PLAYERS, (sid,)))
        rules = stored_rules(rules_json)
        return SessionInfo(
            int(sid), sname, players, rules, rate, currency, dealer, created, ended is not None
        )

    def session_overview(self) -> list[SessionCount]:
        out = []
        for name in self.session_names():
            info = self.session(name)
            out.append(SessionCount(info, self.round_count(info), self.totals(info)))
        return out

    # -- every session at once (romme serve --all; issue 36 item 3) ----------------------
    # What the organiser's page and a server that follows the night read of every session
    # they serve, each in one set-based read: the same few queries for a club evening of
    # three games and a championship of hundreds of tables.

    def every_session(self) -> list[SessionInfo]:
        """Every session with its players, by id, in one read."""
        rows: dict[int, Sequence[Any]] = {}
        players: dict[int, list[str]] = {}
        for row in self.query(
            "SELECT s.id, s.name, s.rules, s.rate, s.currency, s.first_dealer, s.created_at, "
            "s.ended_at, p.name FROM sessions s LEFT JOIN players p ON p.session_id = s.id "
            "ORDER BY s.id, p.seat"
        ):
            rows.setdefault(int(row[0]), row)
            if row[8] is not None:
                players.setdefault(int(row[0]), []).append(row[8])
        return [
            SessionInfo(
                sid,
                row[1],
                tuple(players.get(sid, ())),
                stored_rules(row[2]),
                row[3],
                row[4],
                row[5],
                row[6],
                row[7] is not None,
            )
            for sid, row in rows.items()
        ]

    def every_link(self, sessions: Sequence[SessionInfo]) -> dict[int, list[Link]]:
        """The links of each of ``sessions`` that has any, ordered as :meth:`links` orders
        them, in one read."""
        from romme_score.store.sql import phones  # a read: the SQL alone

        return phones.every_link(self.conn, sessions)

    def every_totals_played(self, sessions: Sequence[SessionInfo]) -> dict[int, tuple[dict[str, int], int]]:
        """Each of ``sessions``' totals and rounds played (as :meth:`totals_played` reads
        one's), in one read."""
        played: dict[int, int] = {}
        totals: dict[int, dict[str, int]] = {}
        for sid, count, player, total in self.query(
            "SELECT s.id, (SELECT COALESCE(MAX(r.number), 0) FROM rounds r WHERE r.session_id = s.id "
            "AND r.status = 'active'), t.player, t.total FROM sessions s "
            "LEFT JOIN totals t ON t.session_id = s.id"
        ):
            played[int(sid)] = int(count)
            if player is not None:
                totals.setdefault(int(sid), {})[player] = int(total)
        out: dict[int, tuple[dict[str, int], int]] = {}
        for info in sessions:
            kept = dict.fromkeys(info.players, 0)
            kept.update(totals.get(info.id, {}))
            out[info.id] = (kept, played.get(info.id, 0))
        return out

    def every_last_played(self) -> dict[int, list[str]]:
        """Each session's time of its last round saved, then of each time it was ended or
        taken back (as :meth:`rounds` and :meth:`endings` give them), in one read."""
        found: dict[int, list[str]] = {}
        for sid, _kind, _order, at in self.query(
            "SELECT r.session_id, 0, 0, r.recorded_at FROM rounds r WHERE r.status = 'active' AND "
            "r.number = (SELECT MAX(m.number) FROM rounds m WHERE m.session_id = r.session_id "
            "AND m.status = 'active') "
            "UNION ALL SELECT e.session_id, 1, e.id, e.at FROM endings e ORDER BY 1, 2, 3"
        ):
            found.setdefault(int(sid), []).append(at)
        return found

    def every_table(self) -> list[DrawnTable]:
        """Every tournament's tables, with the tournament's series drawn, by tournament
        (as created), series and table, in one read."""
        return [
            DrawnTable(name, int(drawn), int(series), int(number), int(sid))
            for name, drawn, series, number, sid in self.query(
                "SELECT t.name, (SELECT COALESCE(MAX(ts.number), 0) FROM tournament_series ts "
                "WHERE ts.tournament_id = t.id), tt.series, tt.number, tt.session_id "
                "FROM tournament_tables tt JOIN tournaments t ON t.id = tt.tournament_id "
                "ORDER BY t.id, tt.series, tt.number"
            )
        ]

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
        from romme_score.store.sql import leagues, tournaments  # with their first use, not at every start

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
            "endings",
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
        endings: Sequence[Ending] = (),
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
            ended_at = endings[-1].at if endings and endings[-1].ended else None
            values = (created or now(), json.dumps(rules.to_dict()), rate, currency, first_dealer, ended_at)
            if existing:
                if not overwrite:
                    raise SessionExists(name, "import")
                from romme_score.store.sql import tournaments  # with its first use, not at every start

                tournaments.refuse_if_a_table(cur, existing[0], name)
                sid = int(existing[0])
                self._clear_session(cur, sid)
                cur.execute(
                    "UPDATE sessions SET created_at = ?, rules = ?, rate = ?, currency = ?, "
                    "first_dealer = ?, ended_at = ? WHERE id = ?",
                    (*values, sid),
                )
            else:
                sid = self.dialect.insert(
                    cur,
                    "INSERT INTO sessions (name, created_at, rules, rate, currency, first_dealer, ended_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
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
            cur.executemany(
                "INSERT INTO endings (session_id, ended, round, at) VALUES (?, ?, ?, ?)",
                [(sid, bool(e.ended), e.round, e.at) for e in endings],
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

    # -- notes and renames ---------------------------------------------------------------

    def notes(self, session: SessionInfo) -> list[Note]:
        return [Note(r[0], r[1], r[2]) for r in self.query(NOTES, (session.id,))]

    def renames(self, session: SessionInfo) -> list[Rename]:
        return [Rename(r[0], r[1], r[2]) for r in self.query(RENAMES, (session.id,))]

    def endings(self, session: SessionInfo) -> list[Ending]:
        return [Ending(bool(r[0]), int(r[1]), r[2]) for r in self.query(ENDINGS, (session.id,))]

    def end_session(self, session: SessionInfo, ended: bool, played: int) -> Ending:
        """Mark the session's game ended by agreement (``ended``) or take that back, with
        its line in the history (``played``: the rounds played then), in one transaction."""
        at = now()

        def work(cur: Cursor) -> Ending:
            self._lock(cur, session)
            cur.execute("UPDATE sessions SET ended_at = ? WHERE id = ?", (at if ended else None, session.id))
            cur.execute(
                "INSERT INTO endings (session_id, ended, round, at) VALUES (?, ?, ?, ?)",
                (session.id, ended, played, at),
            )
            self._changed(cur, session.id)
            return Ending(ended, played, at)

        return self.write(work)

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


def _run(statement: str, cur: Cursor) -> None:
    cur.execute(statement)
