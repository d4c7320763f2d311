"""The SQLite store's long reads: a session's rounds one by one, the export's lines with
every seat's hand side by side, the scoresheet's lines, and the statistics' aggregates.
Each streams from one cursor, so that a long session needs no more memory.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from typing import Any

from romme_score.store.records import (
    HAND_FIELDS,
    HeadToHead,
    Lines,
    PlayerSessionStats,
    RoundPoints,
    SessionInfo,
    StoredRound,
    points_line_fields,
    round_line_fields,
    scoresheet_line_fields,
    stored_rounds,
)
from romme_score.store.sqlite.connection import Connection


def all_rounds(conn: Connection, session: SessionInfo, *, active: bool) -> Iterator[StoredRound]:
    """A session's active rounds by number (``active``), or its history in the order
    written; each with its row among all round rows. Read with one cursor, so that a
    long session streams in constant memory."""
    order = "r.number" if active else "r.id"
    try:
        cursor = conn.db.execute(
            "WITH numbered AS (SELECT id, ROW_NUMBER() OVER (ORDER BY id) AS row "
            "FROM rounds WHERE session_id = :sid) "
            "SELECT n.row, r.number, r.status, r.winner, r.hand_romme, r.stalemate, "
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
        yield from stored_rounds(cursor)
    except sqlite3.DatabaseError as exc:
        raise conn.translate(exc) from None


def _side_by_side(
    conn: Connection,
    session: SessionInfo,
    select: str,
    where: str,
    order: str,
    params: dict[str, Any],
    batch: int,
    fields: tuple[str, ...] | None,
) -> Iterator[Any]:
    """Round rows with the seated players' hands side by side (``h0``, ``h1``, ... in
    seating order: one LEFT JOIN per seat, found by the hands' primary key), read with one
    cursor in batches of ``batch`` rows, as :class:`Lines` with their ``fields`` named (or
    as the rows alone). Only rounds with a hand of a seated player, as :func:`all_rounds`
    reads them."""
    seats = range(len(session.players))
    joins = " ".join(f"LEFT JOIN hands h{i} ON h{i}.round_id = r.id AND h{i}.player = :p{i}" for i in seats)
    some_hand = " OR ".join(f"h{i}.points IS NOT NULL" for i in seats)
    params = {**params, "sid": session.id, **{f"p{i}": p for i, p in enumerate(session.players)}}
    try:
        cursor = conn.db.execute(
            f"SELECT {select} FROM rounds r {joins} "
            f"WHERE r.session_id = :sid AND {where} AND ({some_hand}) ORDER BY {order}",
            params,
        )
        while rows := cursor.fetchmany(batch):
            yield rows if fields is None else Lines(fields, rows)
    except sqlite3.DatabaseError as exc:
        raise conn.translate(exc) from None


def round_points(conn: Connection, session: SessionInfo, last: int | None = None) -> Iterator[RoundPoints]:
    """The scoresheet only (no cards): per active round its number, winner, marks, points,
    bonus and leaderboard points per player, from one row per round with the seats side
    by side (twice as fast as a row per hand for a long session's standings)."""
    players = session.players
    seats = len(players)
    select = "r.number, r.winner, r.hand_romme, r.stalemate" + "".join(
        f", h{i}.points, h{i}.bonus, h{i}.leaderboard" for i in range(seats)
    )
    where, params = "r.status = 'active'", {}
    if last is not None:
        where += (
            " AND r.number > (SELECT COALESCE(MAX(number), 0) - :last FROM rounds "
            "WHERE session_id = :sid AND status = 'active')"
        )
        params = {"last": last}
    for rows in _side_by_side(conn, session, select, where, "r.number", params, 512, None):
        for row in rows:
            points = dict(zip(players, row[4::3], strict=True))
            bonus = dict(zip(players, row[5::3], strict=True))
            board = dict(zip(players, row[6::3], strict=True))
            if None in points.values():  # a seat without a hand in this round: not listed
                missing = [p for p, v in points.items() if v is None]
                for p in missing:
                    del points[p], bonus[p], board[p]
            yield RoundPoints(row[0], row[1], bool(row[2]), bool(row[3]), points, bonus, board)


MAX_GAPS = 32  # runs of other sessions' rounds amid a session's that round_lines numbers
MAX_SEATS = 9  # round_lines' kind key: 3 bits for the round, 6 per seat, in SQLite's 64-bit integer
# What makes a hand's part of a line differ: no hand, cards, typed points, never out, a bonus
# struck, leaderboard points (in the order of the kind key's bits per seat).
_PRESENT = (
    "points IS NULL",
    "cards IS NOT NULL",
    "typed_points IS NOT NULL",
    "never_out IS TRUE",
    "bonus IS TRUE",
    "leaderboard IS NOT NULL",
)


def round_lines(
    conn: Connection, session: SessionInfo, *, active: bool, batch: int = 512
) -> Iterator[Lines] | None:
    """What :func:`all_rounds` reads, one :func:`~romme_score.store.records.round_line_fields`
    line per round row with the hands side by side, in batches: a long session's export
    streams at a few microseconds per round. None when it seats more than
    :data:`MAX_SEATS` players or other sessions' rounds were recorded amid its own in more
    than :data:`MAX_GAPS` runs: then read :func:`all_rounds`."""
    seats = range(len(session.players))
    try:
        low, high, count = conn.db.execute(
            "SELECT MIN(id), MAX(id), COUNT(*) FROM rounds WHERE session_id = ?", (session.id,)
        ).fetchone()
        gaps: list[tuple[int, int]] = []
        if count and high - low + 1 != count:  # other sessions' rounds amid its own
            gaps = conn.db.execute(
                "SELECT MIN(id), COUNT(*) FROM (SELECT id, id - ROW_NUMBER() OVER "
                "(ORDER BY id) AS run FROM rounds WHERE id BETWEEN ? AND ? "
                "AND session_id != ?) GROUP BY run ORDER BY 1 LIMIT ?",
                (low, high, session.id, MAX_GAPS + 1),
            ).fetchall()
    except sqlite3.DatabaseError as exc:
        raise conn.translate(exc) from None
    if len(seats) > MAX_SEATS or len(gaps) > MAX_GAPS:
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

    # The kind: one bit per thing present. << and | share one precedence in SQLite:
    # every shifted flag in parentheses.
    flags = ["(r.hand_romme IS TRUE)", "((r.stalemate IS TRUE) << 1)", "((r.winner IS NULL) << 2)"]
    for i in seats:
        flags += [f"((h{i}.{flag}) << {3 + 6 * i + bit})" for bit, flag in enumerate(_PRESENT)]
    history = "" if active else f", r.status, r.changed_at, {row_of('r.replaced_by')}"
    hands = "".join(f", h{i}.{name}" for i in seats for name in HAND_FIELDS)
    return _side_by_side(
        conn,
        session,
        " | ".join(flags) + f", {row_of('r.id')}, r.number, r.winner, r.hand_romme, r.stalemate, "
        f"r.recorded_at{history}{hands}",
        "r.status = 'active'" if active else "r.status != 'active'",
        "r.number" if active else "r.id",
        params,
        batch,
        round_line_fields(len(seats), not active),
    )


def points_lines(conn: Connection, session: SessionInfo, batch: int = 512) -> Iterator[Lines]:
    """Every active round's scoresheet line, in batches of
    :func:`~romme_score.store.records.points_line_fields` lines (a long session's
    ``standings --json``)."""
    seats = range(len(session.players))
    flags = ["(r.hand_romme IS TRUE)", "((r.stalemate IS TRUE) << 1)", "((r.winner IS NULL) << 2)"]
    for i in seats:
        flags += [f"((h{i}.points IS NULL) << {3 + 2 * i})", f"((h{i}.bonus IS TRUE) << {4 + 2 * i})"]
    return _side_by_side(
        conn,
        session,
        " | ".join(flags)
        + ", r.number, r.winner, r.hand_romme, r.stalemate"
        + "".join(f", h{i}.points, h{i}.bonus" for i in seats),
        "r.status = 'active'",
        "r.number",
        {},
        batch,
        points_line_fields(len(seats)),
    )


def scoresheet_lines(conn: Connection, session: SessionInfo, batch: int = 512) -> Iterator[Lines]:
    """The active rounds as the CSV scoresheet lists them, in batches of
    :func:`~romme_score.store.records.scoresheet_line_fields` lines."""
    seats = range(len(session.players))
    return _side_by_side(
        conn,
        session,
        "r.number, IFNULL(r.winner, ''), r.hand_romme IS TRUE, r.stalemate IS TRUE, "
        + "".join(f"IFNULL(h{i}.points, 0) - IFNULL(h{i}.bonus, 0), " for i in seats)
        + "".join(f"IFNULL(h{i}.cards, ''), " for i in seats)
        + "r.recorded_at",
        "r.status = 'active'",
        "r.number",
        {},
        batch,
        scoresheet_line_fields(len(seats)),
    )


# --- statistics across sessions (romme stats) ---------------------------------------
# Added for ``romme stats``: aggregates only, so the rows read grow with the
# number of sessions and players, never with the number of rounds.


def player_session_stats(conn: Connection, since: str | None = None) -> list[PlayerSessionStats]:
    """One row per player seated in a session (started on or after ``since``, a
    ``YYYY-MM-DD`` local date): the session's id, name, rules (JSON), rate,
    currency and rounds played, the player's seat, name and total, and over
    the session's active rounds: rounds won, Hand-Rommés made, the sum and
    the maximum of the penalty points scored in a round."""
    try:
        cursor = conn.db.cursor()
        # One pass over the hands (CROSS JOIN keeps that order: each round found by
        # its id, twice as fast as walking the rounds and looking up their hands),
        # grouped by session and player, then joined to the seats.
        cursor.execute(
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
        )
        return [PlayerSessionStats(*row) for row in cursor]
    except sqlite3.DatabaseError as exc:
        raise conn.translate(exc) from None


def head_to_head_rounds(
    conn: Connection, opponents: Sequence[str], since: str | None = None
) -> list[HeadToHead]:
    """Every player against one opponent (any of the spellings in ``opponents``): per
    player's spelling, (spelling, rounds both played, rounds the player scored
    fewer penalty points, rounds the opponent did)."""
    if not opponents:
        return []
    theirs = ", ".join("?" * len(opponents))
    rows = conn.query(
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
    return [HeadToHead(str(r[0]), int(r[1]), int(r[2]), int(r[3])) for r in rows]
