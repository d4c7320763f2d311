"""Tournaments in the store (docs/rules.md §10): a tournament with its players, series and
tables, each table an ordinary session (``tournament_tables.session_id``). The results
are the tables' rounds, read for the whole tournament in one query."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

from romme_score.rules import RuleSet
from romme_score.store.errors import (
    NoCurrentTournament,
    NoSuchTournament,
    SeriesDrawn,
    SessionInTournament,
    TournamentExists,
)
from romme_score.store.records import (
    RoundPoints,
    StoredOptions,
    TableOf,
    TournamentInfo,
    TournamentPlayer,
    TournamentTable,
    now,
)
from romme_score.store.sql.dialect import Cursor, Dialect

if TYPE_CHECKING:
    from romme_score.store.sql.connection import Connection


def create(
    cur: Cursor,
    dialect: Dialect,
    name: str,
    rules: RuleSet,
    options: StoredOptions,
    seed: int,
    players: Sequence[TournamentPlayer],
) -> None:
    """A tournament's rows, inside the caller's transaction."""
    dialect.lock_names(cur, "tournaments")
    if cur.execute("SELECT 1 FROM tournaments WHERE name = ?", (name,)).fetchone():
        raise TournamentExists(name)
    tid = dialect.insert(
        cur,
        "INSERT INTO tournaments (name, created_at, rules, options, seed) VALUES (?, ?, ?, ?, ?)",
        (name, now(), json.dumps(rules.to_dict()), json.dumps(dict(options)), seed),
    )
    cur.executemany(
        "INSERT INTO tournament_players (tournament_id, start, name, team) VALUES (?, ?, ?, ?)",
        [(tid, p.start, p.name, p.team) for p in players],
    )


def add_series(cur: Cursor, dialect: Dialect, tournament: TournamentInfo, series: int) -> None:
    """Series ``series`` drawn, inside the caller's transaction (:class:`SeriesDrawn` when it
    is there already: two organisers drawing at once, the second waits, then finds it)."""
    lock(cur, dialect, tournament)
    if cur.execute(
        "SELECT 1 FROM tournament_series WHERE tournament_id = ? AND number = ?", (tournament.id, series)
    ).fetchone():
        raise SeriesDrawn(tournament.name, series)
    cur.execute(
        "INSERT INTO tournament_series (tournament_id, number, drawn_at) VALUES (?, ?, ?)",
        (tournament.id, series, now()),
    )


def info(
    conn: Connection,
    name: str | None,
    current: Callable[[], str | None],
    names: Callable[[], list[str]],
) -> TournamentInfo:
    """A tournament by name, or the current one."""
    if name is None:
        name = current()
        if name is None:
            raise NoCurrentTournament()
    rows = conn.query(
        "SELECT id, name, created_at, rules, options, seed FROM tournaments WHERE name = ?", (name,)
    )
    if not rows:
        raise NoSuchTournament(name, names())
    tid, tname, created, rules, options, seed = rows[0]
    players = tuple(
        TournamentPlayer(start, pname, team, after)
        for start, pname, team, after in conn.query(
            "SELECT start, name, team, withdrawn_after FROM tournament_players "
            "WHERE tournament_id = ? ORDER BY start",
            (tid,),
        )
    )
    drawn = conn.query(
        "SELECT COALESCE(MAX(number), 0) FROM tournament_series WHERE tournament_id = ?", (tid,)
    )
    return TournamentInfo(
        int(tid),
        tname,
        created,
        RuleSet.from_dict(json.loads(rules)),
        json.loads(options),
        int(seed),
        players,
        int(drawn[0][0]),
    )


def tables(conn: Connection, tournament: TournamentInfo) -> list[TournamentTable]:
    seats: dict[int, list[str]] = {}
    for sid, player in conn.query(
        "SELECT p.session_id, p.name FROM players p "
        "JOIN tournament_tables tt ON tt.session_id = p.session_id "
        "WHERE tt.tournament_id = ? ORDER BY p.session_id, p.seat",
        (tournament.id,),
    ):
        seats.setdefault(sid, []).append(player)
    return [
        TournamentTable(series, number, int(sid), session, tuple(seats.get(sid, ())), int(games))
        for series, number, sid, session, games in conn.query(
            "SELECT tt.series, tt.number, s.id, s.name, "
            "(SELECT COALESCE(MAX(r.number), 0) FROM rounds r "
            "WHERE r.session_id = s.id AND r.status = 'active') "
            "FROM tournament_tables tt JOIN sessions s ON s.id = tt.session_id "
            "WHERE tt.tournament_id = ? ORDER BY tt.series, tt.number",
            (tournament.id,),
        )
    ]


def games(conn: Connection, tournament: TournamentInfo) -> Iterator[tuple[int, RoundPoints]]:
    rows = conn.query(
        "SELECT tt.session_id, r.number, r.winner, r.hand_romme, r.stalemate, h.player, h.points, h.bonus "
        "FROM tournament_tables tt JOIN rounds r ON r.session_id = tt.session_id AND r.status = 'active' "
        "JOIN hands h ON h.round_id = r.id WHERE tt.tournament_id = ? ORDER BY tt.session_id, r.number",
        (tournament.id,),
    )
    current: tuple[int, RoundPoints] | None = None
    for sid, number, winner, hand_romme, stalemate, player, points, bonus in rows:
        if current is None or current[0] != sid or current[1].number != number:
            if current is not None:
                yield current
            current = (int(sid), RoundPoints(number, winner, bool(hand_romme), bool(stalemate), {}, {}, {}))
        current[1].points[player] = points  # type: ignore[index]
        current[1].bonus[player] = bonus  # type: ignore[index]
    if current is not None:
        yield current


# What a tournament adds to the version of a board that shows it (its own, a league's),
# given its id: every term only ever counts up (a table's session its version with every
# change, the tables as a series is drawn, the players withdrawn: a withdrawal is never
# taken back), so the sum changes with every change of the tournament and never comes
# back to a number it had. A new kind of change to a tournament counts up one of them.
TERMS = (
    "COALESCE((SELECT SUM(s.version) FROM sessions s JOIN tournament_tables tt ON tt.session_id = s.id "
    "WHERE tt.tournament_id = {id}), 0) "
    "+ (SELECT COUNT(*) FROM tournament_tables tt WHERE tt.tournament_id = {id}) "
    "+ (SELECT COUNT(*) FROM tournament_players tp WHERE tp.tournament_id = {id} "
    "AND tp.withdrawn_after IS NOT NULL)"
)


def version(conn: Connection, tournament_id: int) -> int:
    """The tournament's board's version (:data:`TERMS`); -1 when it is gone."""
    rows = conn.query(f"SELECT {TERMS.format(id='t.id')} FROM tournaments t WHERE t.id = ?", (tournament_id,))
    return int(rows[0][0]) if rows else -1


def lock_for_version(cur: Cursor, dialect: Dialect, tournament_id: int) -> int:
    """The tournament's :data:`TERMS` inside the caller's transaction, with the rows they
    are read from locked (the tournament's row, its tables' sessions): no table's write, no
    draw and no withdrawal of it commits until the caller has (a league taking it out
    counts it so, exactly)."""
    lock_tables(cur, dialect, tournament_id)
    row = cur.execute(f"SELECT {TERMS.format(id='?')}", (tournament_id,) * 3).fetchone()
    return int(row[0])


def lock_tables(cur: Cursor, dialect: Dialect, tournament_id: int) -> None:
    """The tournament's row and its tables' sessions locked for the caller's transaction
    (on PostgreSQL; SQLite's transaction is the only writer already): a table's write
    waits on its session's row, a draw or a withdrawal on the tournament's."""
    cur.execute(f"SELECT id FROM tournaments WHERE id = ?{dialect.for_update}", (tournament_id,))
    cur.execute(
        "SELECT id FROM sessions WHERE id IN (SELECT session_id FROM tournament_tables "
        f"WHERE tournament_id = ?){dialect.for_update}",
        (tournament_id,),
    ).fetchall()


def lock(cur: Cursor, dialect: Dialect, tournament: TournamentInfo) -> None:
    """Writers of one tournament (a draw, a withdrawal, a league taking it out) one after
    the other: they wait on its row."""
    cur.execute(f"SELECT id FROM tournaments WHERE id = ?{dialect.for_update}", (tournament.id,))


def refuse_if_a_table(cur: Cursor, session_id: int, session: str) -> None:
    """A session that is a tournament's table is neither deleted nor replaced."""
    row = cur.execute(
        "SELECT t.name FROM tournament_tables tt JOIN tournaments t ON t.id = tt.tournament_id "
        "WHERE tt.session_id = ?",
        (session_id,),
    ).fetchone()
    if row is not None:
        raise SessionInTournament(session, row[0])


# The series drawn of a table's tournament, beside the table (an index seek on
# tournament_series' primary key).
DRAWN_OF = "(SELECT MAX(ts.number) FROM tournament_series ts WHERE ts.tournament_id = tt.tournament_id)"


# Whose table a session is, with the series drawn now (one indexed read: every write's open
# check asks it, issue 36 item 2), asked ahead with a held command's other reads.
TABLE_OF = (
    f"SELECT t.name, tt.series, {DRAWN_OF} FROM tournament_tables tt "
    "JOIN tournaments t ON t.id = tt.tournament_id WHERE tt.session_id = ?"
)


def table_of(conn: Connection, session_id: int) -> TableOf | None:
    """Whose table the session is (:data:`TABLE_OF`); None for a game of its own."""
    rows = conn.query(TABLE_OF, (session_id,))
    if not rows:
        return None
    name, series, drawn = rows[0]
    return TableOf(name, int(series), int(drawn))


def later_tables(conn: Connection) -> set[int]:
    """The sessions that are tables of a series followed by a later one drawn (one read)."""
    rows = conn.query(f"SELECT tt.session_id FROM tournament_tables tt WHERE tt.series < {DRAWN_OF}")
    return {int(r[0]) for r in rows}
