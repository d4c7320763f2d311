"""The store's long reads: a session's rounds one by one, the export's lines with every
seat's hand side by side, the scoresheet's lines, and the statistics' aggregates. Each
streams from one cursor (:meth:`Connection.batches`), so that a long session needs no
more memory.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from datetime import date, datetime
from itertools import chain
from typing import TYPE_CHECKING, Any

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
from romme_score.store.sql.dialect import Dialect

STREAM = 2000  # rows fetched at a time by the reads that hand out one round at a time

if TYPE_CHECKING:
    from romme_score.store.sql.connection import Connection


def recent(session: SessionInfo, last: int | None) -> tuple[str, list[Any]]:
    """SQL condition and parameters for a session's active rounds (the last N)."""
    if last is None:
        return "", [session.id]
    return (
        "AND r.number > (SELECT COALESCE(MAX(number), 0) - ? FROM rounds "
        "WHERE session_id = ? AND status = 'active')",
        [session.id, last, session.id],
    )


def all_rounds(
    conn: Connection, dialect: Dialect, session: SessionInfo, *, active: bool
) -> Iterator[StoredRound]:
    """A session's active rounds by number (``active``), or its history in the order
    written; each with its row among all round rows. Read with one cursor, so that a
    long session streams in constant memory."""
    order = "r.number" if active else "r.id"
    replaced, join = dialect.replaced_row()
    rows = conn.batches(
        "WITH numbered AS (SELECT id, ROW_NUMBER() OVER (ORDER BY id) AS row "
        "FROM rounds WHERE session_id = :sid) "
        "SELECT n.row, r.number, r.status, r.winner, r.hand_romme, r.stalemate, "
        f"r.recorded_at, r.changed_at, {replaced}, "
        "h.player, h.cards, h.typed_points, h.never_out, h.points, h.bonus, h.leaderboard "
        f"FROM rounds r JOIN numbered n ON n.id = r.id {join} "
        "JOIN hands h ON h.round_id = r.id "
        "JOIN players p ON p.session_id = r.session_id AND p.name = h.player "
        "WHERE r.session_id = :sid AND (r.status = 'active') = :active "
        f"ORDER BY {order}, p.seat",
        {"sid": session.id, "active": active},
        STREAM,
    )
    return stored_rounds(chain.from_iterable(rows))


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
    for rows in conn.batches(
        f"SELECT {select} FROM rounds r {joins} "
        f"WHERE r.session_id = :sid AND {where} AND ({some_hand}) ORDER BY {order}",
        params,
        batch,
    ):
        yield rows if fields is None else Lines(fields, rows)


def numbered(after: int, upto: int | None) -> tuple[str, dict[str, Any]]:
    """SQL condition and parameters for the active rounds numbered after ``after`` up to
    ``upto`` (to the last when None): a page of the scoresheet."""
    where, params = "", {}
    if after:
        where, params = " AND r.number > :after", {"after": after}
    if upto is not None:
        where, params = where + " AND r.number <= :upto", {**params, "upto": upto}
    return where, params


def round_points(
    conn: Connection,
    dialect: Dialect,
    session: SessionInfo,
    last: int | None = None,
    *,
    after: int = 0,
    upto: int | None = None,
) -> Iterator[RoundPoints]:
    """The scoresheet only (no cards): per active round its number, winner, marks, points,
    bonus and leaderboard points per player, from one row per round with the seats side
    by side (twice as fast as a row per hand for a long session's standings); the last
    ``last`` rounds, or those numbered after ``after`` up to ``upto``."""
    if last is not None and last <= 0:  # none of them: nothing to ask the database
        return
    players = session.players
    seats = len(players)
    select = "r.number, r.winner, r.hand_romme, r.stalemate" + "".join(
        f", h{i}.points, h{i}.bonus, h{i}.leaderboard" for i in range(seats)
    )
    page, params = numbered(after, upto)
    where = "r.status = 'active'" + page
    if last is not None:
        where += (
            " AND r.number > (SELECT COALESCE(MAX(number), 0) - :last FROM rounds "
            "WHERE session_id = :sid AND status = 'active')"
        )
        params = {**params, "last": last}
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


MAX_GAPS = 32  # holes amid a session's round ids that round_lines numbers
MAX_SEATS = 9  # round_lines' kind key: 3 bits for the round, 6 per seat, in a 64-bit integer
# What makes a hand's part of a line differ: no hand, cards, typed points, never out, a bonus
# struck, leaderboard points (in the order of the kind key's bits per seat).
# Each true or false, never NULL (no hand: all false but the first), in every dialect.
_PRESENT = (
    "{h}.points IS NULL",
    "{h}.cards IS NOT NULL",
    "{h}.typed_points IS NOT NULL",
    "{h}.never_out IS TRUE",
    "({h}.bonus <> 0) IS TRUE",
    "{h}.leaderboard IS NOT NULL",
)


def round_lines(
    conn: Connection, dialect: Dialect, session: SessionInfo, *, active: bool, batch: int = 512
) -> Iterator[Lines] | None:
    """What :func:`all_rounds` reads, one :func:`~romme_score.store.records.round_line_fields`
    line per round row with the hands side by side, in batches: a long session's export
    streams at a few microseconds per round. None when it seats more than
    :data:`MAX_SEATS` players or its round ids have more than :data:`MAX_GAPS` holes
    (other sessions' rounds amid its own, a deleted game's): then read
    :func:`all_rounds`. Each line's kind in the dialect's integer bits
    (:meth:`Dialect.bits`)."""
    seats = range(len(session.players))
    # The session's round ids in runs without a hole (a hole: other sessions' rounds, or
    # ids a server's sequence handed out to a transaction that wrote no round), each run
    # with its shift: a round's row, its place among the session's rounds by id, is its id
    # less its run's shift.
    runs = conn.query(
        "SELECT MIN(id), shift FROM (SELECT id, id - ROW_NUMBER() OVER (ORDER BY id) AS shift "
        "FROM rounds WHERE session_id = ?) AS runs GROUP BY shift ORDER BY 1 LIMIT ?",
        (session.id, MAX_GAPS + 2),
    )
    if len(seats) > MAX_SEATS or len(runs) > MAX_GAPS + 1:
        return None
    params: dict[str, Any] = {"base": runs[0][1] if runs else 0}
    cases: list[str] = []
    for n, (start, shift) in enumerate(runs[1:]):
        params[f"g{n}"], params[f"s{n}"] = start, shift
        cases.insert(0, f"WHEN {{id}} >= :g{n} THEN :s{n}")

    def row_of(column: str) -> str:
        if not cases:
            return f"{column} - :base"
        return f"{column} - CASE {' '.join(cases).format(id=column)} ELSE :base END"

    # The kind: one bit per thing present.
    flags = ["r.hand_romme IS TRUE", "r.stalemate IS TRUE", "r.winner IS NULL"]
    flags += [flag.format(h=f"h{i}") for i in seats for flag in _PRESENT]
    history = "" if active else f", r.status, r.changed_at, {row_of('r.replaced_by')}"
    hands = "".join(f", h{i}.{name}" for i in seats for name in HAND_FIELDS)
    return _side_by_side(
        conn,
        session,
        dialect.bits(flags) + f", {row_of('r.id')}, r.number, r.winner, r.hand_romme, r.stalemate, "
        f"r.recorded_at{history}{hands}",
        "r.status = 'active'" if active else "r.status != 'active'",
        "r.number" if active else "r.id",
        params,
        batch,
        round_line_fields(len(seats), not active),
    )


def points_lines(
    conn: Connection,
    dialect: Dialect,
    session: SessionInfo,
    batch: int = 512,
    *,
    after: int = 0,
    upto: int | None = None,
) -> Iterator[Lines]:
    """Every active round's scoresheet line (or those numbered after ``after`` up to
    ``upto``), in batches of :func:`~romme_score.store.records.points_line_fields` lines
    (a long session's ``standings --json``; the kind in bits, as :func:`round_lines`)."""
    page, params = numbered(after, upto)
    seats = range(len(session.players))
    flags = ["r.hand_romme IS TRUE", "r.stalemate IS TRUE", "r.winner IS NULL"]
    flags += [flag.format(h=f"h{i}") for i in seats for flag in (_PRESENT[0], _PRESENT[4])]
    return _side_by_side(
        conn,
        session,
        dialect.bits(flags)
        + ", r.number, r.winner, r.hand_romme, r.stalemate"
        + "".join(f", h{i}.points, h{i}.bonus" for i in seats),
        "r.status = 'active'" + page,
        "r.number",
        params,
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
        "r.number, COALESCE(r.winner, ''), CASE WHEN r.hand_romme THEN 1 ELSE 0 END, "
        "CASE WHEN r.stalemate THEN 1 ELSE 0 END, "
        + "".join(f"COALESCE(h{i}.points, 0) - COALESCE(h{i}.bonus, 0), " for i in seats)
        + "".join(f"COALESCE(h{i}.cards, ''), " for i in seats)
        + "r.recorded_at",
        "r.status = 'active'",
        "r.number",
        {},
        batch,
        scoresheet_line_fields(len(seats)),
    )


# --- statistics across sessions (romme stats) ---------------------------------------
# Aggregates only, so the rows read grow with the number of sessions and players, never
# with the number of rounds.


def started_since(created_at: str, since: str | None) -> bool:
    """A session started on or after ``since`` (a local date ``YYYY-MM-DD``), as SQLite's
    ``date(created_at, 'localtime')`` reads it.

    >>> started_since("2024-03-01T12:00:00+00:00", "2024-02-29"), started_since("x", "2024-01-01")
    (True, False)
    """
    if since is None:
        return True
    try:
        started = datetime.fromisoformat(created_at).astimezone().date()
    except ValueError:
        return False
    return started >= date.fromisoformat(since)


def player_session_stats(
    conn: Connection, dialect: Dialect, since: str | None = None
) -> list[PlayerSessionStats]:
    """One row per player seated in a session (started on or after ``since``, a
    ``YYYY-MM-DD`` local date): the session's id, name, rules (JSON), rate,
    currency and rounds played, the player's seat, name and total, and over
    the session's active rounds: rounds won, Hand-Rommés made, the sum and
    the maximum of the penalty points scored in a round."""
    # The sessions chosen by their local date in SQL where the dialect can say it, else
    # all of them, then by started_since.
    local = dialect.local_date("created_at")
    if local is None:
        chosen, in_rounds, in_sessions, params = "", "", "", []
    else:
        chosen = f"chosen AS (SELECT id FROM sessions WHERE ? IS NULL OR {local} >= ?), "
        in_rounds, in_sessions = (
            "AND r.session_id IN (SELECT id FROM chosen) ",
            "WHERE s.id IN (SELECT id FROM chosen) ",
        )
        params = [since, since]
    # One pass over the hands (joined in order: each round found by its id, twice as fast
    # in SQLite as walking the rounds and looking up their hands), grouped by session and
    # player, then joined to the seats.
    rows = conn.query(
        f"WITH {chosen}"
        "per_player AS (SELECT r.session_id, h.player, COUNT(*) AS rounds, "
        f"    {dialect.count_true('r.winner = h.player')} AS rounds_won, "
        f"    {dialect.count_true('r.winner = h.player AND r.hand_romme')} AS hand_rommes, "
        "    SUM(h.points) AS points, MAX(h.points) AS worst_round "
        f"  FROM hands h {dialect.join_in_order} rounds r ON r.id = h.round_id "
        f"  WHERE r.status = 'active' {in_rounds}"
        "  GROUP BY r.session_id, h.player) "
        "SELECT s.id AS session_id, s.name AS session, s.rules AS rules, s.rate AS rate, "
        "s.currency AS currency, s.created_at AS created_at, p.seat AS seat, "
        "p.name AS player, COALESCE(t.total, 0) AS total, "
        "COALESCE(a.rounds, 0) AS rounds, COALESCE(a.rounds_won, 0) AS rounds_won, "
        "COALESCE(a.hand_rommes, 0) AS hand_rommes, COALESCE(a.points, 0) AS points, "
        "COALESCE(a.worst_round, 0) AS worst_round, s.ended_at IS NOT NULL AS ended "
        "FROM sessions s JOIN players p ON p.session_id = s.id "
        "LEFT JOIN totals t ON t.session_id = s.id AND t.player = p.name "
        "LEFT JOIN per_player a ON a.session_id = s.id AND a.player = p.name "
        f"{in_sessions}ORDER BY s.id, p.seat",
        params,
    )
    if local is None and since is not None:
        rows = [row for row in rows if started_since(row[5], since)]
    return [PlayerSessionStats(*row) for row in rows]


def head_to_head_rounds(
    conn: Connection, dialect: Dialect, opponents: Sequence[str], since: str | None = None
) -> list[HeadToHead]:
    """Every player against one opponent (any of the spellings in ``opponents``): per
    player's spelling, (spelling, rounds both played, rounds the player scored
    fewer penalty points, rounds the opponent did)."""
    if not opponents:
        return []
    theirs = ", ".join("?" * len(opponents))
    local = dialect.local_date("s.created_at")
    # Without local dates in SQL, counted per session too, and the sessions chosen in Python.
    per_session = local is None and since is not None
    chosen, params = ("", []) if local is None else (f"AND (? IS NULL OR {local} >= ?) ", [since, since])
    rows = conn.query(
        f"SELECT a.player, {'s.created_at' if per_session else 'NULL'}, COUNT(*), "
        f"COALESCE({dialect.count_true('a.points < b.points')}, 0), "
        f"COALESCE({dialect.count_true('a.points > b.points')}, 0) "
        f"FROM hands b {dialect.join_in_order} rounds r ON r.id = b.round_id AND r.status = 'active' "
        + ("JOIN sessions s ON s.id = r.session_id " if local or per_session else "")
        + "JOIN hands a ON a.round_id = r.id AND a.player != b.player "
        f"WHERE b.player IN ({theirs}) {chosen}"
        f"GROUP BY a.player{', s.id, s.created_at' if per_session else ''} "
        f"ORDER BY a.player{dialect.bytewise}",
        [*opponents, *params],
    )
    return _summed(rows, since, per_session)


def _summed(rows: Iterable[Sequence[Any]], since: str | None, in_python: bool) -> list[HeadToHead]:
    """The head-to-head rows of the chosen sessions, added up per player where they came
    per session too (a dialect without local dates)."""
    found: dict[str, list[int]] = {}
    for player, created_at, rounds, fewer, more in rows:
        if in_python and not started_since(created_at, since):
            continue
        counts = found.setdefault(str(player), [0, 0, 0])
        counts[0] += int(rounds)
        counts[1] += int(fewer)
        counts[2] += int(more)
    return [HeadToHead(player, *counts) for player, counts in found.items()]
