"""Leagues in the store (docs/rules.md §11): a league with its options, its events (sessions
and tournaments by id, in the order added) and its aliases. Each write is one transaction
of the caller's, counting up the league's ``version``; the places of the events are read
from the sessions and tournaments themselves, never kept here."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING

from romme_score.store.errors import (
    EventInLeague,
    EventNotInLeague,
    LeagueExists,
    NoSuchLeague,
    NoSuchSession,
    SessionInLeague,
)
from romme_score.store.league_records import LeagueAlias, LeagueEvent, LeagueInfo
from romme_score.store.records import StoredOptions, now
from romme_score.store.sql import tournaments
from romme_score.store.sql.dialect import Cursor, Dialect

if TYPE_CHECKING:
    from romme_score.store.sql.connection import Connection

COLUMN = {"session": "session_id", "tournament": "tournament_id"}


def spelling_key(name: str) -> str:
    """An alias's key: NFC and case folding, as the league compares people."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())


def create(
    cur: Cursor, dialect: Dialect, name: str, season: str | None, options: StoredOptions, token: str
) -> None:
    dialect.lock_names(cur, "leagues")
    if cur.execute("SELECT 1 FROM leagues WHERE name = ?", (name,)).fetchone():
        raise LeagueExists(name)
    cur.execute(
        "INSERT INTO leagues (name, created_at, season, options, token) VALUES (?, ?, ?, ?, ?)",
        (name, now(), season, json.dumps(dict(options)), token),
    )


def names(conn: Connection) -> list[str]:
    return [r[0] for r in conn.query("SELECT name FROM leagues ORDER BY id")]


def info(conn: Connection, name: str) -> LeagueInfo:
    rows = conn.query(
        "SELECT id, name, created_at, season, options, token, version FROM leagues WHERE name = ?", (name,)
    )
    if not rows:
        raise NoSuchLeague(name, names(conn))
    lid, lname, created, season, options, token, version = rows[0]
    events = tuple(
        LeagueEvent(int(position), kind, int(eid), ename, ecreated)
        for position, kind, eid, ename, ecreated in conn.query(
            "SELECT e.position, 'session', s.id, s.name, s.created_at FROM league_events e "
            "JOIN sessions s ON s.id = e.session_id WHERE e.league_id = ? "
            "UNION ALL SELECT e.position, 'tournament', t.id, t.name, t.created_at FROM league_events e "
            "JOIN tournaments t ON t.id = e.tournament_id WHERE e.league_id = ? ORDER BY 1",
            (lid, lid),
        )
    )
    aliases = tuple(
        LeagueAlias(typed, person)
        for typed, person in conn.query(
            "SELECT typed, person FROM league_aliases WHERE league_id = ? ORDER BY position", (lid,)
        )
    )
    return LeagueInfo(
        int(lid),
        lname,
        created,
        season,
        json.loads(options),
        token,
        events,
        aliases,
        int(version),
    )


def _lock(cur: Cursor, dialect: Dialect, league: LeagueInfo) -> None:
    """Writers of one league one after the other (they wait on its row); its change counted."""
    row = cur.execute(f"SELECT id FROM leagues WHERE id = ?{dialect.for_update}", (league.id,)).fetchone()
    if row is None:
        raise NoSuchLeague(league.name, [])
    cur.execute("UPDATE leagues SET version = version + 1 WHERE id = ?", (league.id,))


def add_events(
    cur: Cursor, dialect: Dialect, league: LeagueInfo, events: Sequence[tuple[str, int, str]]
) -> None:
    """Events (kind, id, name) at the end of the league, in the order given; :class:`EventInLeague`
    for one that is there already (or given twice), and then nothing is written."""
    _lock(cur, dialect, league)
    position = int(
        cur.execute(
            "SELECT COALESCE(MAX(position), 0) FROM league_events WHERE league_id = ?", (league.id,)
        ).fetchone()[0]
    )
    for kind, event_id, event_name in events:
        column = COLUMN[kind]
        if (
            kind == "session"
            and not cur.execute(  # waits for a delete of it to end (issue 29)
                f"SELECT id FROM sessions WHERE id = ?{dialect.for_update}", (event_id,)
            ).fetchone()
        ):
            raise NoSuchSession(event_name, [])
        if cur.execute(
            f"SELECT 1 FROM league_events WHERE league_id = ? AND {column} = ?", (league.id, event_id)
        ).fetchone():
            raise EventInLeague(league.name, kind, event_name)
        position += 1
        cur.execute(
            f"INSERT INTO league_events (league_id, position, {column}, added_at) VALUES (?, ?, ?, ?)",
            (league.id, position, event_id, now()),
        )


def refuse_if_counted(cur: Cursor, session_id: int, session: str) -> None:
    """A session that counts in a league is not deleted (:class:`SessionInLeague`, naming
    every league it counts in, oldest first): the season would change unasked. Asked inside
    the delete's transaction, with the session's row locked, so that a league adding it
    meanwhile either is seen here or waits and then finds the session gone."""
    leagues = [
        row[0]
        for row in cur.execute(
            "SELECT l.name FROM league_events e JOIN leagues l ON l.id = e.league_id "
            "WHERE e.session_id = ? ORDER BY l.id",
            (session_id,),
        ).fetchall()
    ]
    if leagues:
        raise SessionInLeague(session, leagues)


def remove_event(
    cur: Cursor, dialect: Dialect, league: LeagueInfo, kind: str, event_id: int, event_name: str
) -> None:
    """The event out of the league. What it added to the league's version (:func:`version`)
    goes into the league's own counter, plus one: the version counts up, never back to a
    number it had (issue 37 item 4: taking out a session at version 5 and adding one at 3
    left it where it was)."""
    _lock(cur, dialect, league)
    column = COLUMN[kind]
    if kind == "session":  # locked: a round written meanwhile counts here or after the commit
        row = cur.execute(f"SELECT version FROM sessions WHERE id = ?{dialect.for_update}", (event_id,))
        found = row.fetchone()
        counted = int(found[0]) if found else 0
    else:
        counted = tournaments.lock_for_version(cur, dialect, event_id)
    done = cur.execute(
        f"DELETE FROM league_events WHERE league_id = ? AND {column} = ?", (league.id, event_id)
    ).rowcount
    if done != 1:
        raise EventNotInLeague(league.name, kind, event_name)
    cur.execute("UPDATE leagues SET version = version + ? WHERE id = ?", (counted, league.id))


def set_alias(cur: Cursor, dialect: Dialect, league: LeagueInfo, spelling: str, person: str) -> None:
    """``spelling`` stands for ``person`` (given again: the newer person)."""
    _lock(cur, dialect, league)
    key = spelling_key(spelling)
    position = int(
        cur.execute(
            "SELECT COALESCE(MAX(position), 0) FROM league_aliases WHERE league_id = ?", (league.id,)
        ).fetchone()[0]
    )
    cur.execute("DELETE FROM league_aliases WHERE league_id = ? AND spelling = ?", (league.id, key))
    cur.execute(
        "INSERT INTO league_aliases (league_id, spelling, typed, person, position) VALUES (?, ?, ?, ?, ?)",
        (league.id, key, spelling, person, position + 1),
    )


def renew_token(cur: Cursor, league: LeagueInfo, token: str) -> None:
    """The board's new token; the content is the same, so its version stays."""
    if cur.execute("UPDATE leagues SET token = ? WHERE id = ?", (token, league.id)).rowcount != 1:
        raise NoSuchLeague(league.name, [])


def version(conn: Connection, league_id: int) -> int:
    """The league's board's version: its own counter plus what its events add, each term
    only counting up (a session's version; a tournament's :data:`~tournaments.TERMS`);
    what an event took out adds to the counter (:func:`remove_event`). So it changes with
    every change of the season and never comes back to a number it had; -1 when gone."""
    tables = (
        "SELECT tt.session_id FROM tournament_tables tt "
        "JOIN league_events e ON e.tournament_id = tt.tournament_id WHERE e.league_id = l.id"
    )
    rows = conn.query(
        "SELECT l.version + COALESCE((SELECT SUM(s.version) FROM sessions s WHERE s.id IN ("
        "SELECT e.session_id FROM league_events e WHERE e.league_id = l.id AND e.session_id IS NOT NULL "
        f"UNION {tables})), 0) "
        f"+ (SELECT COUNT(*) FROM ({tables}) n) "
        "+ (SELECT COUNT(*) FROM tournament_players tp JOIN league_events e "
        "ON e.tournament_id = tp.tournament_id WHERE e.league_id = l.id AND tp.withdrawn_after IS NOT NULL) "
        "FROM leagues l WHERE l.id = ?",
        (league_id,),
    )
    return int(rows[0][0]) if rows else -1
