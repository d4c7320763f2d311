"""romme-score's tables, written once for every SQL backend.

Each statement names its column types by what they hold, and a backend's dialect says
them in its words (:attr:`~romme_score.store.sql.dialect.Dialect.types`): ``{key}`` a
row id given by the database, ``{ref}`` another row's id, ``{big}`` a counter or a sum,
``{flag}`` a mark (no/yes), ``{greatest}`` the larger of two numbers. A backend's
migrations are these statements in the order its databases grew
(:mod:`romme_score.store.sqlite.schema`, :mod:`romme_score.store.postgres`): the same
tables, and every existing database stays as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from romme_score.store.sql.dialect import Cursor

# A migration's step: a statement (its column types still to be said in a dialect's
# words), or a function run with the migration's cursor (a dialect's Cursor), for what
# SQL alone would say only by copying a rule of the game.
Step = str | Callable[[Any], None]

# Each player's total and leaderboard points over a session's active rounds, read again
# after a correction (and once, when the totals were first kept).
TOTALS_SELECT = """
    SELECT p.session_id, p.name,
        COALESCE((SELECT SUM(h.points - h.bonus) FROM hands h JOIN rounds r ON r.id = h.round_id
                  WHERE r.session_id = p.session_id AND r.status = 'active'
                  AND h.player = p.name), 0),
        COALESCE((SELECT SUM(COALESCE(h.leaderboard, 0)) FROM hands h
                  JOIN rounds r ON r.id = h.round_id
                  WHERE r.session_id = p.session_id AND r.status = 'active'
                  AND h.player = p.name), 0)
    FROM players p WHERE {where}"""

SESSIONS = """CREATE TABLE sessions (
            id {key},
            name TEXT NOT NULL UNIQUE,
            created_at TEXT NOT NULL,
            rules TEXT NOT NULL,
            rate TEXT,
            currency TEXT,
            first_dealer INTEGER NOT NULL DEFAULT 0
        )"""
PLAYERS = """CREATE TABLE players (
            session_id {ref} NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            name TEXT NOT NULL,
            PRIMARY KEY (session_id, seat),
            UNIQUE (session_id, name)
        )"""
ROUNDS = """CREATE TABLE rounds (
            id {key},
            session_id {ref} NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            number INTEGER NOT NULL,
            winner TEXT,
            hand_romme {flag},
            stalemate {flag},
            recorded_at TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'active'
                CHECK (status IN ('active', 'undone', 'replaced')),
            replaced_by {ref} REFERENCES rounds(id),
            changed_at TEXT
        )"""
ROUNDS_ACTIVE = "CREATE UNIQUE INDEX rounds_active ON rounds(session_id, number) WHERE status = 'active'"
HANDS = """CREATE TABLE hands (
            round_id {ref} NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
            player TEXT NOT NULL,
            cards TEXT,
            typed_points INTEGER,
            never_out {flag},
            points INTEGER NOT NULL,
            bonus INTEGER NOT NULL DEFAULT 0,
            leaderboard INTEGER,
            PRIMARY KEY (round_id, player)
        )"""
STATE = "CREATE TABLE state (key TEXT PRIMARY KEY, value TEXT)"
# Running totals kept with every write, so that a long session stays fast.
TOTALS = """CREATE TABLE totals (
            session_id {ref} NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            player TEXT NOT NULL,
            total {big} NOT NULL DEFAULT 0,
            leaderboard {big} NOT NULL DEFAULT 0,
            PRIMARY KEY (session_id, player)
        )"""
ROUNDS_BY_SESSION = "CREATE INDEX rounds_by_session ON rounds(session_id, status, number)"
# Notes and renames, kept with the session's history.
NOTES = """CREATE TABLE notes (
            id {key},
            session_id {ref} NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            round INTEGER,
            text TEXT NOT NULL,
            at TEXT NOT NULL
        )"""
RENAMES = """CREATE TABLE renames (
            id {key},
            session_id {ref} NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            old_name TEXT NOT NULL,
            new_name TEXT NOT NULL,
            at TEXT NOT NULL
        )"""
# A change counter per session, so that any front end notices a change made elsewhere.
VERSION = "ALTER TABLE sessions ADD COLUMN version {big} NOT NULL DEFAULT 0"
# The round in progress (hands arriving from the phones) and the phones' links.
PENDING = [
    """CREATE TABLE pending (
            session_id {ref} PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
            revision {big} NOT NULL DEFAULT 0,
            winner TEXT,
            hand_romme {flag},
            stalemate {flag}
        )""",
    """CREATE TABLE pending_hands (
            session_id {ref} NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            player TEXT NOT NULL,
            cards TEXT,
            typed_points INTEGER,
            never_out {flag},
            at TEXT NOT NULL,
            PRIMARY KEY (session_id, player)
        )""",
    """CREATE TABLE links (
            session_id {ref} NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            kind TEXT NOT NULL CHECK (kind IN ('board', 'scorekeeper', 'seat')),
            player TEXT NOT NULL DEFAULT '',
            token TEXT NOT NULL UNIQUE,
            created_at TEXT NOT NULL,
            PRIMARY KEY (session_id, kind, player)
        )""",
]

# Tournaments (docs/rules.md §10), self-contained: its own tables only, so that it can take
# another number when migrations of other branches come first. The tournament's players
# with their start numbers and teams, its series, and its tables, each an ordinary
# session; the current tournament is the ``state`` key 'tournament'.
TOURNAMENTS = [
    """CREATE TABLE tournaments (
        id {key},
        name TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        rules TEXT NOT NULL,
        options TEXT NOT NULL,
        seed {big} NOT NULL
    )""",
    """CREATE TABLE tournament_players (
        tournament_id {ref} NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
        start INTEGER NOT NULL,
        name TEXT NOT NULL,
        team TEXT,
        withdrawn_after INTEGER,
        withdrawn_at TEXT,
        PRIMARY KEY (tournament_id, start),
        UNIQUE (tournament_id, name)
    )""",
    """CREATE TABLE tournament_series (
        tournament_id {ref} NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        drawn_at TEXT NOT NULL,
        PRIMARY KEY (tournament_id, number)
    )""",
    """CREATE TABLE tournament_tables (
        tournament_id {ref} NOT NULL,
        series INTEGER NOT NULL,
        number INTEGER NOT NULL,
        session_id {ref} NOT NULL UNIQUE REFERENCES sessions(id),
        PRIMARY KEY (tournament_id, series, number),
        FOREIGN KEY (tournament_id, series)
            REFERENCES tournament_series(tournament_id, number) ON DELETE CASCADE
    )""",
]


def leaderboard_in_tenths(cur: Cursor) -> None:
    """003's leaderboard points, kept whole-numbered (rounded down) at first, are kept in
    tenths from then on, exactly (docs/rules.md §7: 23 penalty points give 7.7, stored 77):
    every hand's again from its points and its round's winner, by the game's own rule
    (:func:`romme_score.scoring.leaderboard_tenths`, not a copy of it in SQL); the running
    totals then by the statement after this step."""
    from romme_score.scoring import leaderboard_tenths  # the one place of the rule

    hands = cur.execute(
        "SELECT h.round_id, h.player, h.points, r.winner, r.hand_romme FROM hands h "
        "JOIN rounds r ON r.id = h.round_id WHERE h.leaderboard IS NOT NULL"
    ).fetchall()
    cur.executemany(
        "UPDATE hands SET leaderboard = ? WHERE round_id = ? AND player = ?",
        [
            (leaderboard_tenths(points, winner == player, bool(hand_romme)), round_id, player)
            for round_id, player, points, winner, hand_romme in hands
        ],
    )


LEADERBOARD_TENTHS: list[Step] = [
    leaderboard_in_tenths,
    """UPDATE totals SET leaderboard = COALESCE((SELECT SUM(COALESCE(h.leaderboard, 0)) FROM hands h
        JOIN rounds r ON r.id = h.round_id
        WHERE r.session_id = totals.session_id AND r.status = 'active' AND h.player = totals.player), 0)""",
]

# The idempotency keys of the phones' writes (the ``Idempotency-Key`` header): a write
# sent again with its key is answered as the first time and applied once. ``era``: the
# rounds played when it was applied; the keys of rounds before the last one are dropped.
# Self-contained, as the tournaments' above.
WRITE_KEYS = [
    """CREATE TABLE write_keys (
        session_id {ref} NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        what TEXT NOT NULL,
        era INTEGER NOT NULL,
        status INTEGER,
        answer TEXT,
        at TEXT NOT NULL,
        PRIMARY KEY (session_id, key)
    )""",
]


# A club's season (docs/rules.md §11), self-contained as the tournaments' above: a league with
# its options and the token of its board, its events (each a session or a tournament, in
# the order added; the store refuses to delete a session that counts in a league, and
# replaces one in place on import, so the cascade below is a last resort), and the
# aliases that map another spelling onto a person. ``version`` counts every change of the
# league itself, so that its board notices an event added elsewhere.
LEAGUES = [
    """CREATE TABLE leagues (
        id {key},
        name TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        season TEXT,
        options TEXT NOT NULL,
        token TEXT NOT NULL UNIQUE,
        version {big} NOT NULL DEFAULT 0
    )""",
    """CREATE TABLE league_events (
        league_id {ref} NOT NULL REFERENCES leagues(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        session_id {ref} REFERENCES sessions(id) ON DELETE CASCADE,
        tournament_id {ref} REFERENCES tournaments(id) ON DELETE CASCADE,
        added_at TEXT NOT NULL,
        PRIMARY KEY (league_id, position),
        UNIQUE (league_id, session_id),
        UNIQUE (league_id, tournament_id),
        CHECK ((session_id IS NULL) <> (tournament_id IS NULL))
    )""",
    """CREATE TABLE league_aliases (
        league_id {ref} NOT NULL REFERENCES leagues(id) ON DELETE CASCADE,
        spelling TEXT NOT NULL,
        typed TEXT NOT NULL,
        person TEXT NOT NULL,
        position INTEGER NOT NULL,
        PRIMARY KEY (league_id, spelling)
    )""",
]


# Each seat's running total after every active round, kept with every write (issue 28):
# the chart of a long session reads the rounds it draws, not every round. Refreshed
# from a round on after a correction (ROUND_TOTALS_SELECT); a partial index finds the
# Hand-Rommés the chart marks without walking the rounds. Self-contained, as the
# tournaments' above.
ROUND_TOTALS_SELECT = """
    SELECT session_id, number, seat, running FROM (
        SELECT r.session_id, r.number, p.seat,
            SUM(h.points - h.bonus) OVER (PARTITION BY r.session_id, p.seat ORDER BY r.number) AS running
        FROM rounds r JOIN hands h ON h.round_id = r.id
        JOIN players p ON p.session_id = r.session_id AND p.name = h.player
        WHERE r.status = 'active' AND {where}) w
    WHERE {after}"""
ROUND_TOTALS = [
    """CREATE TABLE round_totals (
        session_id {ref} NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        total {big} NOT NULL,
        PRIMARY KEY (session_id, number, seat)
    )""",
    "CREATE INDEX rounds_hand_romme ON rounds(session_id, number) WHERE status = 'active' AND hand_romme",
    "INSERT INTO round_totals (session_id, number, seat, total) "
    + ROUND_TOTALS_SELECT.format(where="1 = 1", after="1 = 1"),
]


# A game ended by agreement before its rules end it (issue 36 item 5): ``ended_at`` the
# time it was ended (NULL: open, or ended by its rules alone), and each end and taking
# back in the game's history: ``ended`` the mark (yes: ended, no: taken back), ``round``
# the rounds played then. Self-contained, as the tournaments' above.
ENDINGS = [
    "ALTER TABLE sessions ADD COLUMN ended_at TEXT",
    """CREATE TABLE endings (
        id {key},
        session_id {ref} NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        ended {flag},
        round INTEGER NOT NULL,
        at TEXT NOT NULL
    )""",
    "CREATE INDEX endings_by_session ON endings(session_id, id)",
]


def spoken(types: Mapping[str, str], statements: Sequence[Step]) -> list[Step]:
    """The statements with their column types in a dialect's words (a function as it is).

    >>> spoken({"key": "INTEGER PRIMARY KEY"}, ["CREATE TABLE t (id {key})"])
    ['CREATE TABLE t (id INTEGER PRIMARY KEY)']
    """
    return [s.format_map(types) if isinstance(s, str) else s for s in statements]


def run(cur: Cursor, step: Step) -> None:
    """One step of a migration, with the migration's cursor."""
    if isinstance(step, str):
        cur.execute(step)
    else:
        step(cur)
