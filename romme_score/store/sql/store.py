"""The store over an SQL database, written once for every backend
(:class:`~romme_score.store.protocol.Store`), made of a part per subject: sessions with
their notes and renames (:mod:`.sessions`), rounds with their history (:mod:`.rounds`),
on what they share (:mod:`.base`); the round in progress and the phones' links
(:mod:`.pending`), the tournaments, the leagues and the idempotency keys (:mod:`.keys`)
through thin methods here that load their modules with their first use; the statistics
here.

Every write is one transaction (:meth:`Connection.transact`); each one that changes a
session counts up its ``version`` and announces it (:meth:`Dialect.notify`), so that
another front end notices the change cheaply. Writers of one session wait on its row
(:attr:`Dialect.for_update`), writers of names on the table (:meth:`Dialect.lock_names`).
The long reads (export lines, statistics) are in :mod:`romme_score.store.sql.lines`,
the tournaments in :mod:`romme_score.store.sql.tournaments`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

import romme_score.store.sql.lines as lines
from romme_score.rules import RuleSet
from romme_score.store.records import (
    HeadToHead,
    Key,
    KeyedWrite,
    Link,
    PendingChange,
    PendingRound,
    PlayerSessionStats,
    RoundPoints,
    SessionInfo,
    TournamentInfo,
    TournamentPlayer,
    TournamentTable,
    now,
)
from romme_score.store.sql.base import SESSION_PLAYERS, SET_STATE
from romme_score.store.sql.dialect import Cursor
from romme_score.store.sql.sessions import Sessions

if TYPE_CHECKING:
    from romme_score.store.league_records import LeagueInfo
    from romme_score.store.records import StoredOptions


class SQLStore(Sessions):
    """A romme-score database over a :class:`Connection` that speaks a :class:`Dialect`:
    its parts by subject (:mod:`.sessions`, :mod:`.rounds` on :mod:`.base`; the round in
    progress, the tournaments, the leagues and the keys in their modules, loaded with their
    first use), the statistics here."""

    # -- the round in progress and the phones' links (romme_score/store/sql/pending.py) ----

    def pending(self, session: SessionInfo) -> PendingRound:
        from romme_score.store.sql import phones  # a read: the SQL alone, not pending.py's writes

        return phones.pending(self.conn, session)

    def change_pending(
        self, session: SessionInfo, change: PendingChange, *, expected: int | None = None
    ) -> PendingRound:
        from romme_score.store.sql import pending  # with its first use, not at every start

        return pending.change(self, session, change, expected)

    def clear_pending(self, session: SessionInfo, *, expected: int | None = None) -> None:
        from romme_score.store.sql import pending  # with its first use, not at every start

        pending.clear(self, session, expected)

    def links(self, session: SessionInfo) -> list[Link]:
        from romme_score.store.sql import phones  # a read: the SQL alone, not pending.py's writes

        return phones.links(self.conn, session)

    def add_links(self, session: SessionInfo, links: Sequence[Link], *, replace: bool) -> list[Link]:
        from romme_score.store.sql import pending  # with its first use, not at every start

        return pending.add_links(self, session, links, replace)

    # -- idempotency keys (romme serve's writes; romme_score/store/sql/keys.py) ----------

    def keyed_write(self, session: SessionInfo, key: str) -> KeyedWrite | None:
        """The write kept under ``key``, read with the session's row (locked inside
        :meth:`held`, for the write to come)."""
        from romme_score.store.sql import keys  # with its first use: romme serve only

        if self.conn.holding and session.id not in self.conn.locked:
            # the write's reads asked with the key: one round trip for all
            found = keys.find(session.id, key, keys.locking(self.dialect))
            self._ask_ahead([found, *self._before_writing(session.id)])
        return keys.keyed_write(self.conn, self.dialect, session, key)

    def writing_session(self, session_id: int, key: str | None) -> tuple[SessionInfo, KeyedWrite | None]:
        """Inside :meth:`held`: the session a phone's write goes to, locked for it, with
        the write kept under ``key``; the session, the key and everything the write reads
        before writing asked at once (one round trip on PostgreSQL, where the session read
        before the transaction was one more)."""
        from romme_score.store.sql import keys  # with its first use: romme serve only

        if self.conn.holding:
            found = keys.find(session_id, key or "", keys.locking(self.dialect))
            self._ask_ahead([found, (SESSION_PLAYERS, (session_id,)), *self._before_writing(session_id)])
            if self.dialect.for_update:
                self.conn.query(*found)  # the session's row locked (answered from the asked)
                self.conn.locked.add(session_id)
        info = self.session_by_id(session_id)
        return info, None if key is None else self.keyed_write(info, key)

    def keep_key(self, session: SessionInfo, key: Key, status: int, answer: str) -> None:
        from romme_score.store.sql import keys  # with its first use: romme serve only

        self.write(lambda cur: keys.keep(cur, self.dialect, session, key, status, answer))

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
        options: StoredOptions,
        seed: int,
        players: Sequence[TournamentPlayer],
    ) -> None:
        from romme_score.store.sql import tournaments  # with its first use, not at every start

        def work(cur: Cursor) -> None:
            tournaments.create(cur, self.dialect, name, rules, options, seed, players)
            cur.execute(SET_STATE, ("tournament", name))

        self.write(work)

    def set_served_address(self, address: str) -> None:
        self.write(lambda cur: cur.execute(SET_STATE, ("served_address", address)))

    def served_address(self) -> str | None:
        row = self.query("SELECT value FROM state WHERE key = 'served_address'")
        return row[0][0] if row else None

    def organizer_token(self, token: str, *, renew: bool) -> str:
        row = self.query("SELECT value FROM state WHERE key = 'organizer'")
        if row and not renew:
            return str(row[0][0])

        def work(cur: Cursor) -> None:
            if renew:
                cur.execute(SET_STATE, ("organizer", token))
            else:  # two servers starting at once keep the first one's
                cur.execute(
                    "INSERT INTO state (key, value) VALUES ('organizer', ?) ON CONFLICT (key) DO NOTHING",
                    (token,),
                )

        self.write(work)
        row = self.query("SELECT value FROM state WHERE key = 'organizer'")
        return str(row[0][0])

    def catalog_versions(self) -> tuple[object, ...]:
        row = self.query(
            "SELECT (SELECT SUM(version) FROM sessions), (SELECT SUM(version) FROM leagues), "
            "(SELECT COUNT(*) FROM endings)"
        )
        return tuple(row[0])

    def catalog_mark(self) -> tuple[object, ...]:
        # MIN and MAX of the tokens: renewed links are new random tokens (an index's ends)
        row = self.query(
            "SELECT (SELECT COUNT(*) FROM sessions), (SELECT MAX(id) FROM sessions), "
            "(SELECT COUNT(*) FROM links), (SELECT MIN(token) FROM links), "
            "(SELECT MAX(token) FROM links), (SELECT COUNT(*) FROM tournaments), "
            "(SELECT COUNT(*) FROM tournament_tables), (SELECT COUNT(*) FROM leagues), "
            "(SELECT MIN(token) FROM leagues), (SELECT MAX(token) FROM leagues), "
            "(SELECT value FROM state WHERE key = 'organizer')"
        )
        return tuple(row[0])

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

    def tournament_options(self) -> dict[str, StoredOptions]:
        rows = self.query("SELECT name, options FROM tournaments ORDER BY id")
        return {name: json.loads(options) for name, options in rows}

    def tournament(self, name: str | None = None) -> TournamentInfo:
        from romme_score.store.sql import tournaments  # with its first use, not at every start

        return tournaments.info(self.conn, name, self.current_tournament, self.tournament_names)

    def draw_series(
        self,
        tournament: TournamentInfo,
        series: int,
        tables: Sequence[tuple[str, Sequence[str]]],
        rules: RuleSet,
        currency: str | None,
    ) -> None:
        from romme_score.store.sql import tournaments  # with its first use, not at every start

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
            # the current game stays as it was (issue 36 item 4): a plain `romme round` or
            # `romme settle` goes on with the game it went on with before the draw

        self.write(work)

    def withdraw_player(self, tournament: TournamentInfo, start: int, after_series: int) -> None:
        from romme_score.store.sql import tournaments  # with its first use, not at every start

        def work(cur: Cursor) -> None:
            tournaments.lock(cur, self.dialect, tournament)  # after a league's count of it
            cur.execute(
                "UPDATE tournament_players SET withdrawn_after = ?, withdrawn_at = ? "
                "WHERE tournament_id = ? AND start = ? AND withdrawn_after IS NULL",
                (after_series, now(), tournament.id, start),
            )

        self.write(work)

    def lock_tournament(self, tournament: TournamentInfo) -> None:
        from romme_score.store.sql import tournaments  # with its first use, not at every start

        self.write(lambda cur: tournaments.lock_tables(cur, self.dialect, tournament.id))

    def tournament_tables(self, tournament: TournamentInfo) -> list[TournamentTable]:
        from romme_score.store.sql import tournaments  # with its first use, not at every start

        return tournaments.tables(self.conn, tournament)

    def tournament_version(self, tournament: TournamentInfo) -> int:
        from romme_score.store.sql import tournaments  # with its first use, not at every start

        return tournaments.version(self.conn, tournament.id)

    def tournament_games(self, tournament: TournamentInfo) -> Iterator[tuple[int, RoundPoints]]:
        from romme_score.store.sql import tournaments  # with its first use, not at every start

        return tournaments.games(self.conn, tournament)

    # -- leagues (romme league) -------------------------------------------------------

    def create_league(self, name: str, season: str | None, options: StoredOptions, token: str) -> None:
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

    def renew_league_token(self, league: LeagueInfo, token: str) -> None:
        from romme_score.store.sql import leagues  # with its first use, not at every start

        self.write(lambda cur: leagues.renew_token(cur, league, token))

    def league_version(self, league: LeagueInfo) -> int:
        from romme_score.store.sql import leagues  # with its first use, not at every start

        return leagues.version(self.conn, league.id)
