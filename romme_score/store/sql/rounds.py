"""The rounds of the SQL store (:class:`Rounds`): saved, undone and corrected with their
history, the totals kept with them, and the reads of them (the long ones in
:mod:`romme_score.store.sql.lines`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import romme_score.store.sql.lines as lines
from romme_score.scoring import RoundInput, RoundScore
from romme_score.store.errors import (
    NoRounds,
    PendingChanged,
    RoundNotThere,
)
from romme_score.store.records import (
    Change,
    Lines,
    RoundPoints,
    RoundRecord,
    SessionInfo,
    StoredRound,
    canonical,
    change_time,
    now,
    round_records,
    to_seconds,
)
from romme_score.store.sql.base import (
    HISTORY,
    INSERT_HANDS,
    ROUND_COLUMNS,
    ROUND_COUNT,
    TOTALS,
    TOTALS_PLAYED,
    StoreBase,
)
from romme_score.store.sql.dialect import Cursor, Params
from romme_score.store.sql.schema import ROUND_TOTALS_SELECT, TOTALS_SELECT

# a round's hands added to the totals (every player has a hand in every round)
ADD_TO_TOTALS = (
    "UPDATE totals SET "
    "total = total + COALESCE((SELECT h.points - h.bonus FROM hands h "
    "WHERE h.round_id = ? AND h.player = totals.player), 0), "
    "leaderboard = leaderboard + COALESCE((SELECT h.leaderboard FROM hands h "
    "WHERE h.round_id = ? AND h.player = totals.player), 0) "
    "WHERE session_id = ?"
)


class Rounds(StoreBase):
    """Rounds with their history and the totals kept with them."""

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
        return _totals_played(session, self.query(TOTALS_PLAYED, (session.id, session.id)))

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
        # one statement each, whatever the number of players (a statement costs more than
        # a row on PostgreSQL's client side: issue 36 item 7)
        more = ", (?, ?, ?, ?, ?, ?, ?, ?)" * (len(rows) - 1)
        cur.execute(INSERT_HANDS + more, [value for row in rows for value in row])
        cur.execute(ADD_TO_TOTALS, (round_id, round_id, session.id))
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
        from romme_score.store.sql import keys, phones  # light modules: their SQL only

        def work(cur: Cursor) -> tuple[int, RoundScore]:
            self._lock(cur, session)
            # every read before the first write: inside held() all of them were asked with
            # the session's lookup (one round trip), and a write makes those answers stale
            if pending is not None:
                now_at = phones.revision(cur, session.id)
                if now_at != pending:
                    raise PendingChanged(session.name, now_at)
            before, count = _totals_played(
                session, cur.execute(TOTALS_PLAYED, (session.id, session.id)).fetchall()
            )
            result = compute(before, count)
            self._insert_round(cur, session, count + 1, rnd, result)
            if pending is not None:
                phones.clear(cur, session.id, asked=False)
            keys.drop_before(cur, session.id, int(count) + 1)
            self._changed(cur, session.id)
            if self.conn.holding:  # what the command shows after it, asked with the write
                self._ask_ahead(self._shown_after_round(session, waiting=pending is None))
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


def _totals_played(session: SessionInfo, rows: list[Any]) -> tuple[dict[str, int], int]:
    """The answer of :data:`TOTALS_PLAYED`: each player's total, and the rounds played."""
    totals = dict.fromkeys(session.players, 0)
    for _played, player, total in rows:
        if player is not None:
            totals[player] = int(total)
    return totals, int(rows[0][0])
